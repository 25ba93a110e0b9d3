/* Dense double-precision matrix multiply C = A * B, i-k-j loop order so the
 * inner loop streams rows of B and C (vectorised at -O2). Integer-valued
 * inputs keep every product exact, so the checksum is bit-stable. */
#include <stdlib.h>
#include "bench_common.h"

enum { N = 384, REPEATS = 108 };

int main(void) {
  double *a = malloc(sizeof(double) * N * N);
  double *b = malloc(sizeof(double) * N * N);
  double *c = malloc(sizeof(double) * N * N);
  if (!a || !b || !c) return 1;
  uint64_t seed = 1;
  for (int i = 0; i < N * N; i++) {
    a[i] = (double)(bench_next(&seed) % 16);
    b[i] = (double)(bench_next(&seed) % 16);
  }
  uint64_t sum = 0;
  for (int r = 0; r < REPEATS; r++) {
    for (int i = 0; i < N * N; i++) c[i] = 0.0;
    for (int i = 0; i < N; i++)
      for (int k = 0; k < N; k++) {
        double aik = a[i * N + k] + r;
        for (int j = 0; j < N; j++) c[i * N + j] += aik * b[k * N + j];
      }
    for (int i = 0; i < N * N; i += 7) sum = bench_mix(sum, (uint64_t)c[i]);
  }
  bench_print_checksum("matmul", sum);
  free(a); free(b); free(c);
  return 0;
}
