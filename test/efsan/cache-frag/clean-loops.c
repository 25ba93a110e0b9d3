// Loops the pass gives a clean copy (no instrumentation for the iterations
// the countdown cannot run out in: EfficiencySanitizerCountdown.cpp) compute
// what the plain build computes, whatever the sample period (at 3 the loops
// switch between the copies every iteration or two; at 1 the clean copy
// never runs), with values used after the loop, counting down, an 8-bit
// counter that wraps, unrolled and nested loops. The accesses the clean copy
// runs are still counted: count_hits keeps `struct acc`'s field `hits` in a
// register and stores it in each of its 4,000,000 iterations (and loads it
// once; main stores and loads it once each): 4,000,003 accesses, estimated
// at 4.0 million (+-5%) from one sample in 1000 (a lone thread's samples
// weighing 1: by default it samples 16 times less often), and counted
// exactly at period 1.
// RUN: %clang -O2 -g %s -o %t.plain
// RUN: %run %t.plain > %t.plain.out
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_alone_weight=1 %run %t > %t.out 2> %t.err
// RUN: diff %t.plain.out %t.out
// RUN: FileCheck %s --check-prefix=DEFAULT < %t.err
// RUN: env ESAN_OPTIONS=cache_frag_sample_period=3 %run %t > %t.3.out 2> %t.3.err
// RUN: diff %t.plain.out %t.3.out
// RUN: env ESAN_OPTIONS=cache_frag_sample_period=1 %run %t > %t.1.out 2> %t.1.err
// RUN: diff %t.plain.out %t.1.out
// RUN: FileCheck %s --check-prefix=EXACT < %t.1.err
#include <stdio.h>
#include <stdlib.h>

struct acc {
  long hits;
  long misses;
};

__attribute__((noinline)) long sum_up(const long *a, long n) {
  long s = 0;
  for (long i = 0; i < n; i++)
    s += a[i] * (i & 7);
  return s;
}

__attribute__((noinline)) void fill_down(unsigned char *p, long start) {
  for (long i = start; i > 0; i -= 2)
    p[i] = (unsigned char)(i * 3);
}

__attribute__((noinline)) unsigned wrap8(const unsigned *t) {
  unsigned s = 0;
  for (unsigned char c = 200; c != 100; c++)
    s += t[c] ^ c;
  return s;
}

__attribute__((noinline)) long nested(const long *a, int rows, int cols) {
  long s = 0;
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++)
      s += a[r * cols + c] + r;
  return s;
}

__attribute__((noinline)) void count_hits(struct acc *x, const long *a, long n) {
  for (long i = 0; i < n; i++)
    x->hits += a[i & 1023];
}

int main(void) {
  enum { N = 100003 };
  long *a = malloc(N * sizeof(long));
  unsigned char *p = calloc(N, 1);
  unsigned *t = malloc(256 * sizeof(unsigned));
  for (long i = 0; i < N; i++)
    a[i] = (i * 2654435761u) % 1000;
  for (int i = 0; i < 256; i++)
    t[i] = (unsigned)i * 40503u;
  long s1 = 0;
  for (int k = 0; k < 20; k++)
    s1 += sum_up(a, N - k);
  fill_down(p, N - 1);
  long s2 = 0;
  for (long i = 0; i < N; i++)
    s2 += p[i];
  unsigned s3 = wrap8(t);
  long s4 = nested(a, 301, 331);
  struct acc *x = calloc(1, sizeof(*x));
  x->hits = 3;
  count_hits(x, a, 4000000);
  long s5 = x->hits;
  printf("%ld %ld %u %ld %ld\n", s1, s2, s3, s4, s5);
  free(x);
  free(a);
  free(p);
  free(t);
  return 0;
}

// DEFAULT: field 0 hits offset 0 size 8 type long count {{(38|39|40|41)[0-9][0-9][0-9][0-9][0-9]}}
// EXACT: field 0 hits offset 0 size 8 type long count 4000003
