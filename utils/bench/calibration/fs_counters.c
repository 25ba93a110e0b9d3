// Per-thread 8-byte counters in one global line, a little private work per
// update. Fix: each counter on a line of its own.
#include "calib.h"

#define ITERATIONS 400000000L
_Alignas(64) static struct calib_word counters[THREADS];

static void *calib_thread(void *arg) {
  long me = (long)arg;
  for (long i = 0; i < ITERATIONS; i++)
    counters[me].value += (uint64_t)i ^ (uint64_t)me;
  return 0;
}

int main(void) {
  calib_run();
  calib_print("fs_counters", counters[0].value * 31 + counters[1].value);
  return 0;
}
