/* Our own sorts (instrumented, unlike libc's qsort internals): a bottom-up
 * merge sort of 32-bit keys and an insertion-sort-finished quicksort. */
#include <stdlib.h>
#include <string.h>
#include "bench_common.h"

enum { N = 8 * 1000 * 1000 };

static void merge_sort(uint32_t *v, uint32_t *tmp, size_t n) {
  uint32_t *from = v, *to = tmp;
  for (size_t width = 1; width < n; width *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * width) {
      size_t mid = lo + width < n ? lo + width : n;
      size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
      size_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi) to[k++] = from[j] < from[i] ? from[j++] : from[i++];
      while (i < mid) to[k++] = from[i++];
      while (j < hi) to[k++] = from[j++];
    }
    uint32_t *t = from; from = to; to = t;
  }
  if (from != v) memcpy(v, from, n * sizeof(*v));
}

static void quick_sort(uint32_t *v, long lo, long hi) {
  while (hi - lo > 16) {
    uint32_t pivot = v[lo + (hi - lo) / 2];
    long i = lo, j = hi;
    while (i <= j) {
      while (v[i] < pivot) i++;
      while (v[j] > pivot) j--;
      if (i <= j) { uint32_t t = v[i]; v[i] = v[j]; v[j] = t; i++; j--; }
    }
    if (j - lo < hi - i) { quick_sort(v, lo, j); lo = i; }
    else { quick_sort(v, i, hi); hi = j; }
  }
  for (long i = lo + 1; i <= hi; i++) {
    uint32_t x = v[i];
    long k = i - 1;
    while (k >= lo && v[k] > x) { v[k + 1] = v[k]; k--; }
    v[k + 1] = x;
  }
}

int main(void) {
  uint32_t *a = malloc(sizeof(uint32_t) * N);
  uint32_t *b = malloc(sizeof(uint32_t) * N);
  uint32_t *tmp = malloc(sizeof(uint32_t) * N);
  if (!a || !b || !tmp) return 1;
  uint64_t seed = 5;
  for (size_t i = 0; i < N; i++) a[i] = b[i] = (uint32_t)bench_next(&seed);
  merge_sort(a, tmp, N);
  quick_sort(b, 0, N - 1);
  uint64_t sum = 0;
  for (size_t i = 0; i < N; i++) {
    if (a[i] != b[i] || (i && a[i - 1] > a[i])) { puts("sort: mismatch"); return 1; }
    if (i % 97 == 0) sum = bench_mix(sum, a[i]);
  }
  bench_print_checksum("sort", sum);
  free(a); free(b); free(tmp);
  return 0;
}
