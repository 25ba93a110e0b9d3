/* Random pointer chase through one cycle over a 128 MiB array: every load
 * depends on the previous one and misses the cache (latency bound). The
 * array is four times the 32 MiB L3 of the machine the benchmark runs on:
 * over 16 MiB, the chase ran from L3 or from memory depending on what else
 * used the shared L3 at the time (0.25-1.14 s uninstrumented from one run
 * to the next), and an instrumented build often looked 2x faster. */
#include <stdlib.h>
#include "bench_common.h"

enum { N = 16 * 1024 * 1024, STEPS = 9 * 1000 * 1000 };

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
