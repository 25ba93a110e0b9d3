// Per-thread 64-byte sums in an array that starts 24 bytes into a line: each
// thread's 64 bytes straddle two lines, one shared with the other thread.
// Fix: the array aligned to 64 bytes.
#include "calib.h"

#define ITERATIONS 30000000L
struct sums { volatile uint64_t v[8]; };
_Alignas(64) static char storage[64 * (THREADS + 2)];
static struct sums *sums;

static void *calib_thread(void *arg) {
  long me = (long)arg;
  uint64_t x = (uint64_t)me + 13;
  for (long i = 0; i < ITERATIONS; i++) {
    x = calib_step(x);
    sums[me].v[x >> 61] += 1;
  }
  return 0;
}

int main(void) {
#ifdef FIX
  sums = (struct sums *)(storage + 64);
#else
  sums = (struct sums *)(storage + 64 + 24);
#endif
  calib_run();
  uint64_t sum = 0;
  for (int t = 0; t < THREADS; t++)
    for (int k = 0; k < 8; k++)
      sum = sum * 31 + sums[t].v[k];
  calib_print("fs_sums_offset", sum);
  return 0;
}
