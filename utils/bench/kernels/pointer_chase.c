/* Random pointer chase through one cycle over a 32 MiB array: every load
 * depends on the previous one and misses the cache (latency bound). */
#include <stdlib.h>
#include "bench_common.h"

enum { N = 2 * 1024 * 1024, STEPS = 9 * 1000 * 1000 };

int main(void) {
  size_t *next = malloc(sizeof(size_t) * N);
  size_t *order = malloc(sizeof(size_t) * N);
  if (!next || !order) return 1;
  /* Sattolo's shuffle gives a single cycle through all N slots. */
  uint64_t seed = 3;
  for (size_t i = 0; i < N; i++) order[i] = i;
  for (size_t i = N - 1; i > 0; i--) {
    size_t j = bench_next(&seed) % i;
    size_t t = order[i]; order[i] = order[j]; order[j] = t;
  }
  for (size_t i = 0; i < N; i++) next[order[i]] = order[(i + 1) % N];
  free(order);
  size_t p = 0;
  uint64_t sum = 0;
  for (long s = 0; s < STEPS; s++) {
    p = next[p];
    sum += p;
  }
  bench_print_checksum("pointer_chase", bench_mix(sum, p));
  free(next);
  return 0;
}
