// Phases and fork: a forked child's working set starts at the fork, and so
// do its phases (the open phase goes on in the child, from the fork); the
// parent's phases are its own. Each process reports its own phases.
// RUN: %clang -O2 -g -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -f %t.log.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.log %run %t
// RUN: %python %S/Inputs/check_report.py %t.log --count 2 \
// RUN:   "len(reports) == 2" \
// RUN:   "[p['name'] for p in phases] in (['setup', 'shared', 'parent'], ['shared', 'child'])" \
// RUN:   "phases[0]['name'] != 'setup' or 300 <= phases[0]['lines'] <= 302" \
// RUN:   "phases[-1]['name'] != 'parent' or 500 <= phases[-1]['lines'] <= 502" \
// RUN:   "phases[-1]['name'] != 'child' or (200 <= phases[-1]['lines'] <= 203 and 0 <= phases[0]['lines'] <= 3)"
#include <sanitizer/efsan_interface.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) static void touch(volatile char *p, int lines) {
  for (int i = 0; i < lines; i++)
    p[i * 64]++;
}

int main(void) {
  char *setup = aligned_alloc(64, 300 * 64), *mine = aligned_alloc(64, 500 * 64);
  __efsan_mark_phase("setup");
  touch(setup, 300);
  __efsan_mark_phase("shared");
  pid_t pid = fork();
  if (pid == 0) {
    // The child: "shared" goes on from the fork (nothing touched in it
    // here), then a phase of its own.
    __efsan_mark_phase("child");
    touch(setup, 200);
    return 0;
  }
  waitpid(pid, 0, 0);
  __efsan_mark_phase("parent");
  touch(mine, 500);
  return 0;
}
