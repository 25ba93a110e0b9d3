/* STREAM triad a[i] = b[i] + s * c[i] over arrays far larger than the cache:
 * pure memory bandwidth, the worst case for a per-access shadow check. */
#include <stdlib.h>
#include "bench_common.h"

enum { N = 2 * 1024 * 1024, REPEATS = 540 };

int main(void) {
  double *a = malloc(sizeof(double) * N);
  double *b = malloc(sizeof(double) * N);
  double *c = malloc(sizeof(double) * N);
  if (!a || !b || !c) return 1;
  for (long i = 0; i < N; i++) {
    a[i] = 0.0;
    b[i] = (double)(i & 1023);
    c[i] = (double)((i * 7) & 511);
  }
  for (int r = 0; r < REPEATS; r++) {
    double s = (double)(r % 3 + 1);
    for (long i = 0; i < N; i++) a[i] = b[i] + s * c[i];
    /* Feed the result back so no repetition is dead code. */
    double *t = b; b = a; a = t;
  }
  uint64_t sum = 0;
  for (long i = 0; i < N; i += 61) sum = bench_mix(sum, (uint64_t)b[i]);
  bench_print_checksum("stream_triad", sum);
  free(a); free(b); free(c);
  return 0;
}
