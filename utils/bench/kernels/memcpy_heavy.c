/* Block copies of mixed sizes (64 B to 64 KiB) between buffers through libc
 * memcpy and memmove: the cost here is the sanitizer's range marking. */
#include <stdlib.h>
#include <string.h>
#include "bench_common.h"

enum { BUF = 8 * 1024 * 1024, COPIES = 2520000 };

int main(void) {
  unsigned char *src = malloc(BUF);
  unsigned char *dst = malloc(BUF);
  if (!src || !dst) return 1;
  uint64_t seed = 6;
  for (size_t i = 0; i < BUF; i += 8) {
    uint64_t v = bench_next(&seed);
    memcpy(src + i, &v, 8);
  }
  memset(dst, 0, BUF);
  uint64_t sum = 0;
  for (long n = 0; n < COPIES; n++) {
    uint64_t r = bench_next(&seed);
    size_t len = (size_t)64 << (r % 11);          /* 64 B .. 64 KiB */
    size_t from = (size_t)(r >> 8) % (BUF - len);
    size_t to = (size_t)(r >> 32) % (BUF - len);
    if (n % 8 == 7)
      memmove(dst + to, dst + from, len);
    else
      memcpy(dst + to, src + from, len);
    sum = bench_mix(sum, dst[to + len / 2]);
  }
  for (size_t i = 0; i < BUF; i += 4093) sum = bench_mix(sum, dst[i]);
  bench_print_checksum("memcpy_heavy", sum);
  free(src); free(dst);
  return 0;
}
