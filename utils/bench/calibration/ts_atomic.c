// One atomic total bumped by both threads (true sharing). Fix: each thread
// sums locally and adds its sum to the total once.
#include "calib.h"

#define ITERATIONS 20000000L
static _Atomic uint64_t total;

static void *calib_thread(void *arg) {
  long me = (long)arg;
  uint64_t x = (uint64_t)me + 3;
#ifdef FIX
  uint64_t local = 0;
#endif
  for (long i = 0; i < ITERATIONS; i++) {
    x = calib_step(x);
#ifdef FIX
    local += x >> 60;
#else
    total += x >> 60;
#endif
  }
#ifdef FIX
  total += local;
#endif
  return 0;
}

int main(void) {
  calib_run();
  calib_print("ts_atomic", total);
  return 0;
}
