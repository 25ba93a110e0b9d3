// A sampler that wakes late (here: the process is stopped with SIGSTOP at
// random moments) takes one sample for the periods it missed, and the next
// sample is at least half a period later: it never takes two samples back
// to back, the second covering next to nothing (a level-0 snapshot of 0
// lines while the program is busy). verbosity=3 logs what each sample
// covers; with sample_freq=40 none covers less than 20 ms.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: env ESAN_OPTIONS=verbosity=3:sample_freq=40 %python %S/Inputs/stop_and_continue.py %t > %t.err
// RUN: FileCheck %s < %t.err
// RUN: %python -c "import re, sys; ms = [int(m) for m in re.findall(r'sampler: sample [0-9]+ covers ([0-9]+) ms', open(sys.argv[1]).read())]; sys.exit(0 if len(ms) >= 5 and min(ms) >= 20 else 'windows: %%r' %% ms)" %t.err
// CHECK: sampler: sample 1 covers
// CHECK: SUMMARY: EfficiencySanitizer: working set
#include <signal.h>
#include <stdlib.h>

static volatile sig_atomic_t may_end;
static void on_usr1(int sig) { may_end = 1; }

char *lines; // not static: see working-set/exit-paths.c

int main(void) {
  signal(SIGUSR1, on_usr1);
  lines = aligned_alloc(64, 100 * 64);
  while (!may_end)
    for (int i = 0; i < 100; i++)
      ((volatile char *)lines)[i * 64]++;
  return 0;
}
