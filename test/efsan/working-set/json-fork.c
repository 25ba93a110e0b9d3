// After fork, parent and child each write their own JSON report (log_path=P:
// P.PID), and each report carries the pid of the process that wrote it, the
// same executable, and schema_version 1.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.dir/r %run %t > %t.dir/stdout
// RUN: %python %S/../Inputs/check_identity.py %t.dir/stdout %t.dir/r working-set %t | FileCheck %s
// CHECK: identity ok 2
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

// Each process prints its own pid once, after fork (a line buffered before
// fork would be printed by both).
static void print_pid(void) {
  printf("pid %d\n", (int)getpid());
  fflush(stdout);
}

int main(void) {
  volatile char *p = aligned_alloc(64, 4 * 64);
  pid_t child = fork();
  if (child < 0)
    return 2;
  for (int i = 0; i < 4; i++)
    p[i * 64] = 1;
  print_pid();
  if (child == 0)
    exit(0); // through exit(), so the child writes its report
  int status;
  if (waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
      WEXITSTATUS(status) != 0)
    return 1;
  return 0;
}
