// Per-thread 16-byte stats structs in one heap array, a little private work
// per update. Fix: each struct 64-byte aligned (a line of its own).
#include "calib.h"
#include <stdlib.h>

#define ITERATIONS 30000000L
struct stats {
#ifdef FIX
  _Alignas(64)
#endif
  uint64_t count;
  uint64_t total;
};
static struct stats *stats;

static void *calib_thread(void *arg) {
  long me = (long)arg;
  uint64_t x = (uint64_t)me + 7;
  for (long i = 0; i < ITERATIONS; i++) {
    x = calib_step(calib_step(x));
    ((volatile struct stats *)stats)[me].count++;
    ((volatile struct stats *)stats)[me].total += x >> 50;
  }
  return 0;
}

int main(void) {
  stats = aligned_alloc(64, THREADS * sizeof(struct stats));
  for (int i = 0; i < THREADS; i++)
    stats[i].count = stats[i].total = 0;
  calib_run();
  uint64_t sum = 0;
  for (int i = 0; i < THREADS; i++)
    sum = sum * 31 + stats[i].count * 7 + stats[i].total;
  calib_print("fs_stats16", sum);
  free(stats);
  return 0;
}
