// Loops whose ranges are larger than -efsan-loop-range-limit (256 KiB) mark
// them a chunk of iterations at a time (docs/Pass.md, "Loop-level marking")
// and count exactly the lines they touch: a stride of 12 bytes, a negative
// stride, two arrays of different sizes plus a loop-invariant (stride 0)
// access in one loop, a vectorised loop; trip counts that are no multiple of
// the chunk. Every array is larger than what its loop touches, and in the
// first three loops the first iteration is alone in the first line (the last
// bytes of it) and the last iteration alone in the last line (its first
// bytes), so a chunk that started or ended an iteration early or late would
// change the count. Each array is touched only by its loop:
//   c: c[15 + 3i], i < 333324: bytes [60, 64 * 62499 + 4), 62500 lines
//   b: b[15 + i], i = 959985 down to 0: bytes [60, 64 * 60000 + 4), 60001
//   d: d[7 + i], i < 299994: bytes [56, 64 * 37500 + 8), 37501 lines
//   e: e[i], i < 299994: 4688 lines
//   scale: one line
//   x, y: x[i] = 3 * y[i], i < 1000003 floats: 62501 lines each
// 62500 + 60001 + 37501 + 4688 + 1 + 2 * 62501 = 289693 heap lines.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -f %t.log.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.log %run %t 1
// RUN: %python %S/Inputs/check_report.py %t.log --count 1 "heap == 289693"
// The same loops with 1000 iterations each keep every range within the limit
// and run the copies marked before the loop: c 189 lines, b 64, d 126, e 16,
// scale 1, x and y 63 each.
// RUN: rm -f %t.small.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.small %run %t 0
// RUN: %python %S/Inputs/check_report.py %t.small --count 1 "heap == 189 + 64 + 126 + 16 + 1 + 2 * 63"
// Each of the loops has a chunked copy.
// RUN: %clang -O2 -fsanitize=efficiency-working-set -fno-discard-value-names -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// IR-LABEL: define {{.*}} @stride12(
// IR: efsan.chunk.mark:
// IR-LABEL: define {{.*}} @backward(
// IR: efsan.chunk.mark:
// IR-LABEL: define {{.*}} @two_arrays(
// IR: efsan.chunk.mark:
// IR-LABEL: define {{.*}} @stream(
// IR: vector.body.efsan.body:
#include <stdio.h>
#include <stdlib.h>

static void *lines(size_t n) { return aligned_alloc(64, n * 64); }

// Not unrolled nor vectorised: the first and last iterations of the loop are
// those of the source.
__attribute__((noinline)) long stride12(const int *c, long n) {
  long s = 0;
#pragma clang loop unroll(disable) vectorize(disable)
  for (long i = 0; i < n; i++)
    s += c[3 * i];
  return s;
}

__attribute__((noinline)) void backward(int *b, long n) {
#pragma clang loop unroll(disable) vectorize(disable)
  for (long i = n - 1; i >= 0; i--)
    b[i] += 7;
}

// volatile: the load of *scale stays in the loop, an access of stride 0.
__attribute__((noinline)) void two_arrays(double *d, const char *e,
                                          volatile double *scale, long n) {
  for (long i = 0; i < n; i++)
    d[i] = e[i] * *scale;
}

__attribute__((noinline)) void stream(float *x, const float *y, long n) {
  for (long i = 0; i < n; i++)
    x[i] = 3 * y[i];
}

int main(int argc, char **argv) {
  int big = argc > 1 && atoi(argv[1]) != 0;
  int *c = lines(65536 + 4096);
  int *b = lines(65536 + 4096);
  double *d = lines(40960);
  char *e = lines(8192);
  double *scale = lines(1);
  float *x = lines(65536 + 4096), *y = lines(65536 + 4096);
  long s = stride12(c + 15, big ? 333324 : 1000);
  backward(b + 15, big ? 959986 : 1000);
  two_arrays(d + 7, e, scale, big ? 299994 : 1000);
  stream(x, y, big ? 1000003 : 1000);
  printf("%ld %g %g\n", s, d[7], x[0]);
  return 0;
}
