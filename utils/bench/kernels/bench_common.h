/* Shared by the benchmark kernels: a deterministic PRNG and the checksum line
 * that utils/bench.sh compares across configurations. Header-only so that each
 * kernel stays one self-contained translation unit. */
#ifndef EFSAN_BENCH_COMMON_H
#define EFSAN_BENCH_COMMON_H

#include <stdint.h>
#include <stdio.h>

/* splitmix64: fixed seed, so every configuration computes the same input. */
static inline uint64_t bench_next(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* Mixes a value into a running checksum (order-dependent, like FNV). */
static inline uint64_t bench_mix(uint64_t sum, uint64_t value) {
  return (sum ^ value) * 0x100000001b3ull + (sum >> 29);
}

static inline void bench_print_checksum(const char *kernel, uint64_t sum) {
  printf("%s checksum %016llx\n", kernel, (unsigned long long)sum);
}

#endif
