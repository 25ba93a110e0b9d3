// Working-set example: a program with three phases of different working-set
// size. Phase 1 sweeps 256 KiB, phase 2 sweeps 8 MiB, phase 3 goes back to
// 256 KiB. The snapshot series in the report shows the three plateaus, and
// the total shows 8 MiB + 256 KiB of distinct lines (plus a little of libc,
// stack and globals).
//
//   efsan-clang -O2 -fsanitize=efficiency-working-set phases.c -o phases
//   ESAN_OPTIONS=sample_freq=10 ./phases
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

// Touches every cache line of buf[0..bytes) repeatedly for `seconds`.
static unsigned long sweep(volatile unsigned char *buf, size_t bytes, double seconds) {
  unsigned long sum = 0;
  double end = now() + seconds;
  while (now() < end)
    for (size_t i = 0; i < bytes; i += 64)
      sum += buf[i]++;
  return sum;
}

int main(void) {
  size_t small = 256 << 10, large = 8 << 20;
  unsigned char *a = calloc(small, 1);
  unsigned char *b = calloc(large, 1);
  if (!a || !b)
    return 1;
  unsigned long sum = 0;
  sum += sweep(a, small, 0.3);
  sum += sweep(b, large, 0.3);
  sum += sweep(a, small, 0.3);
  printf("phases: checksum %lu; expected working set >= %zu lines\n", sum % 1000,
         (small + large) / 64);
  free(a);
  free(b);
  return 0;
}
