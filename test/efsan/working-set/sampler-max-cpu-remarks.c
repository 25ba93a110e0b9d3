// sampler_max_cpu bounds what the snapshots cost the program, not only the
// sampler thread's own CPU time: a sample whose period touched more than
// snapshot_budget lines clears bit 0 of a selection of them (at least 3/4 of
// the budget), and the program's threads pay about as much again as the
// scan to touch them again (a cold path each, and the shadow's cache lines
// moved back from the sampler's core; docs/WorkingSet.md, "Cost of a
// sample"). So such an estimated sample is charged twice its CPU time in the
// rest it owes, and an exact one (a small working set: mostly the wake-up)
// once. verbosity=3 says what each sample was charged; here 64 MiB touched
// at random with the smallest budget, so that most samples are estimated,
// and the same program with exact_snapshots=1, where none is. (The sampler's
// share of the program's CPU time with sampler_max_cpu=50 went from 33-35%
// to 15-17% at load 12.)
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: env ESAN_OPTIONS=sample_freq=1:snapshot_budget=1024:verbosity=3 %run %t > %t.est 2>&1
// RUN: %python %s.py %t.est estimated
// RUN: env ESAN_OPTIONS=sample_freq=1:exact_snapshots=1:verbosity=3 %run %t > %t.exact 2>&1
// RUN: %python %s.py %t.exact exact
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long cpu_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1000000L + ts.tv_nsec / 1000;
}

int main(void) {
  size_t lines = (64 << 20) / 64;
  volatile char *data = malloc(lines * 64);
  if (!data)
    return 1;
  for (size_t i = 0; i < lines; i++)
    data[i * 64] = 1;
  // At least 300 ms of the program's CPU time touching lines at random:
  // every period touches far more than the budget.
  uint64_t x = 88172645463325252ULL;
  while (cpu_us() < 300000)
    for (int n = 0; n < 100000; n++) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      data[(x % lines) * 64]++;
    }
  printf("done\n");
  return 0;
}
