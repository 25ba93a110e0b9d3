// Per-thread counters in one global line with about 25 times more private
// work per update than fs_counters. Fix: each counter on a line of its own.
// calibrate.py --sweep builds it with other amounts of work (-DWORK=N),
// the updates scaled to keep the run about as long.
#include "calib.h"

#ifndef WORK
#define WORK 25
#endif
#define ITERATIONS (208000000L / (WORK + 1))
_Alignas(64) static struct calib_word counters[THREADS];

static void *calib_thread(void *arg) {
  long me = (long)arg;
  uint64_t x = (uint64_t)me + 1;
  for (long i = 0; i < ITERATIONS; i++) {
    for (int k = 0; k < WORK; k++)
      x = calib_step(x);
    counters[me].value += x >> 40;
  }
  return 0;
}

int main(void) {
  calib_run();
  calib_print("fs_counters_work", counters[0].value * 31 + counters[1].value);
  return 0;
}
