// A program that ends with _exit (lbzip2 ends main with _exit(EX_OK)) gets
// its report, under both tools, with its exit status kept. A forked child
// that ends with _exit (a helper process) writes no report of its own
// unless report_forked_child__exit=1; a vfork child's _exit never reports
// (it shares the parent's memory: the report would be the parent's).
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t.ws
// RUN: %clang -O2 -fsanitize=efficiency-cache-frag %s -o %t.cf
// RUN: sh -c '%run %t.ws > %t.out 2>&1; echo "status $?" >> %t.out'
// RUN: FileCheck %s --check-prefix=ONE < %t.out
// RUN: sh -c '%run %t.cf > %t.out 2>&1; echo "status $?" >> %t.out'
// RUN: FileCheck %s --check-prefix=ONE-CF < %t.out
// ONE: ==EfficiencySanitizer: the total working set size
// ONE: status 7
// ONE-CF: ==EfficiencySanitizer: cache-frag report
// ONE-CF: status 7
// RUN: sh -c '%run %t.ws fork vfork > %t.out 2>&1; echo "status $?" >> %t.out'
// RUN: FileCheck %s --check-prefix=PARENT-ONLY < %t.out
// PARENT-ONLY: fork child 3, vfork child 4
// PARENT-ONLY-COUNT-1: the total working set size
// PARENT-ONLY-NOT: the total working set size
// PARENT-ONLY: status 7
// RUN: env ESAN_OPTIONS=report_forked_child__exit=1:tree_reports=0 not %run %t.ws fork > %t.out 2>&1
// RUN: FileCheck %s --check-prefix=CHILD-TOO < %t.out
// CHILD-TOO-COUNT-2: the total working set size
// In a process tree (the default) the child's report is a file in the
// tree's directory, and there is none without report_forked_child__exit.
// RUN: rm -rf %t.tmp && mkdir %t.tmp
// RUN: env TMPDIR=%t.tmp ESAN_OPTIONS=report_forked_child__exit=1 not %run %t.ws fork > %t.out 2>&1
// RUN: FileCheck %s --check-prefix=CHILD-FILE < %t.out
// CHILD-FILE-COUNT-1: the total working set size
// CHILD-FILE: EfficiencySanitizer: 1 process started by this one reported so far
// RUN: ls %t.tmp/efsan.underscore-exit.c.tmp.ws.*/ | count 2
// RUN: rm -rf %t.tmp && mkdir %t.tmp
// RUN: env TMPDIR=%t.tmp not %run %t.ws fork > %t.out 2>&1
// RUN: not grep 'reported so far' %t.out
// RUN: ls %t.tmp | count 0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
  int fork_status = -1, vfork_status = -1;
  for (int i = 1; i < argc; i++) {
    pid_t pid;
    if (!strcmp(argv[i], "fork")) {
      pid = fork();
      if (pid == 0)
        _exit(3);
    } else {
      pid = vfork();
      if (pid == 0)
        _exit(4);
    }
    int status;
    waitpid(pid, &status, 0);
    *(!strcmp(argv[i], "fork") ? &fork_status : &vfork_status) =
        WEXITSTATUS(status);
  }
  if (argc > 1)
    printf("fork child %d, vfork child %d\n", fork_status, vfork_status);
  fflush(stdout);
  _exit(7);
}
