// A child forked in the middle of a function counts the lines it touches
// after fork() returns, also those the same function touched before the
// fork (the pass once skipped their checks as repeated, and the child's
// working set, which starts at the fork with no line marked, left them out).
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: env ESAN_OPTIONS=tree_reports=0 %run %t 2>&1 | FileCheck %s
// The child reports first (the parent waits for it): its 3 lines of the
// block, all touched before the fork too.
// CHECK: heap 3 lines (192 B)
// CHECK: SUMMARY: {{.*}} in process [[CHILD:[0-9]+]]
// CHECK: child [[CHILD]] exited with status 0
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) static int touch_fork_touch(volatile long *p) {
  p[0] = 1;
  p[8] = 2;
  p[16] = 3;
  pid_t pid = fork();
  if (pid == 0)
    exit((int)(p[0] + p[8] + p[16]) - 6);
  int status;
  waitpid(pid, &status, 0);
  printf("child %d exited with status %d\n", (int)pid,
         WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  fflush(stdout);
  return 0;
}

int main(void) {
  volatile long *block = aligned_alloc(64, 3 * 64);
  return touch_fork_touch(block);
}
