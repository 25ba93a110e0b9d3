// Working-set example: a program with three phases of different working-set
// size. Phase "small" sweeps 256 KiB, phase "large" sweeps 8 MiB, phase
// "small again" goes back to the 256 KiB, each also reading a 64 KiB global
// table. The snapshot series in the report shows the three plateaus; the
// phases it marks with __efsan_mark_phase are listed with their own working
// sets and data structures; the total shows 8 MiB + 256 KiB + 64 KiB of
// distinct lines (plus a little of libc, stack and globals).
//
//   efsan-clang -O2 -g -fsanitize=efficiency-working-set phases.c -o phases
//   ESAN_OPTIONS=sample_freq=10 ./phases
//
// Built without the sanitizer (cc -O2 phases.c) it links and runs as well:
// the phase marks are weak references, null without the efsan runtime.
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

__attribute__((weak)) void __efsan_mark_phase(const char *name);

static void mark_phase(const char *name) {
  if (__efsan_mark_phase)
    __efsan_mark_phase(name);
}

static unsigned char table[64 << 10];

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

// Touches every cache line of buf[0..bytes) and of the table repeatedly for
// `seconds`.
static unsigned long sweep(volatile unsigned char *buf, size_t bytes, double seconds) {
  unsigned long sum = 0;
  double end = now() + seconds;
  while (now() < end) {
    for (size_t i = 0; i < bytes; i += 64)
      sum += buf[i]++;
    for (size_t i = 0; i < sizeof(table); i += 64)
      sum += ((volatile unsigned char *)table)[i];
  }
  return sum;
}

static unsigned char *make_small(size_t bytes) { return calloc(bytes, 1); }
static unsigned char *make_large(size_t bytes) { return calloc(bytes, 1); }

int main(void) {
  size_t small = 256 << 10, large = 8 << 20;
  unsigned char *a = make_small(small);
  unsigned char *b = make_large(large);
  if (!a || !b)
    return 1;
  unsigned long sum = 0;
  mark_phase("small");
  sum += sweep(a, small, 0.3);
  mark_phase("large");
  sum += sweep(b, large, 0.3);
  mark_phase("small again");
  sum += sweep(a, small, 0.3);
  mark_phase(NULL);
  printf("phases: checksum %lu; expected working set >= %zu lines\n", sum % 1000,
         (small + large + sizeof(table)) / 64);
  free(a);
  free(b);
  return 0;
}
