// Per-thread totals in one global line, each written once per 2000 steps of
// private work: false sharing that costs nothing measurable. Fix: each total
// on a line of its own.
#include "calib.h"

#define ROUNDS 150000L
#define STEPS 2000
_Alignas(64) static struct calib_word totals[THREADS];

static void *calib_thread(void *arg) {
  long me = (long)arg;
  uint64_t x = (uint64_t)me + 9;
  for (long r = 0; r < ROUNDS; r++) {
    for (int k = 0; k < STEPS; k++)
      x = calib_step(x);
    totals[me].value += x >> 40;
  }
  return 0;
}

int main(void) {
  calib_run();
  calib_print("rare_writer", totals[0].value * 31 + totals[1].value);
  return 0;
}
