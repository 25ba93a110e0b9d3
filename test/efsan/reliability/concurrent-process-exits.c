// Sixteen forked children that exit at the same moment each symbolize their
// own report completely, although their parent had started its symbolizer
// before it forked (no symbol cache: every child asks its symbolizer; a
// child once inherited the parent's symbolizer pipe: the
// children read each other's answers, lost frames to "Can't read from
// symbolizer" and could wait forever for an answer a sibling took).
// RUN: %clang -O1 -g -fsanitize=efficiency-working-set %s -o %t
// RUN: env ESAN_OPTIONS=tree_reports=0:symbol_cache= %run %t > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=STATUS < %t.out
// RUN: grep -c "SUMMARY: EfficiencySanitizer: working set" %t.err | FileCheck %s --check-prefix=REPORTS
// RUN: grep -c "child_work .*concurrent-process-exits.c:[0-9]" %t.err | FileCheck %s --check-prefix=SITES
// RUN: not grep -E "WARNING|symbolizer|\+0x" %t.err
// STATUS: 16 children exited with status 0
// The parent's report before it forks, one per child, the parent's at exit.
// REPORTS: {{^}}18{{$}}
// SITES: {{^}}16{{$}}
#include <sanitizer/efsan_interface.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { kChildren = 16 };

__attribute__((noinline)) static char *make_buffer(size_t size) {
  char *p = malloc(size);
  memset(p, 1, size);
  return p;
}

__attribute__((noinline)) static int child_work(int i, int go) {
  char *mine = make_buffer((64 + i) << 10);
  char byte;
  // Every child waits here until the parent has forked them all.
  while (read(go, &byte, 1) < 0)
    ;
  return mine[i] - 1;
}

int main(void) {
  char *parents = make_buffer(1 << 20);
  __efsan_report(); // starts the parent's symbolizer
  int go[2];
  if (pipe(go))
    return 1;
  pid_t children[kChildren];
  for (int i = 0; i < kChildren; i++) {
    children[i] = fork();
    if (children[i] == 0) {
      close(go[1]);
      exit(child_work(i, go[0]));
    }
  }
  close(go[1]); // all children see end of file together and exit
  int good = 0;
  for (int i = 0; i < kChildren; i++) {
    int status;
    if (waitpid(children[i], &status, 0) == children[i] && WIFEXITED(status) &&
        WEXITSTATUS(status) == 0)
      good++;
  }
  printf("%d children exited with status 0\n", good);
  return parents[5] - 1;
}
