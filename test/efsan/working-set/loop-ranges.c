// Loops whose accesses are marked once per loop (docs/Pass.md, "Loop-level
// marking") count exactly the lines they touch: forward and backward, 4 to
// 64-byte strides, a range larger than the limit (marked in chunks as the
// loop runs, see loop-chunks.c), a loop that may leave early (not marked per
// loop), and loops that run zero times. Each array is touched only by its
// loop; every count is known: 125 + 188 + 300 + 500 + 16384 + 51 heap lines.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -f %t.log.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.log %run %t 1000 800
// RUN: %python %S/Inputs/check_report.py %t.log --count 1 "heap == 17548"
// Nothing is touched when the loops run zero times (n = 0): only the
// sentinel's line of the last array is written.
// RUN: rm -f %t.zero.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.zero %run %t 0 0
// RUN: %python %S/Inputs/check_report.py %t.zero --count 1 "heap == 1"
// The marked copies are in the binary: a range mark before the loop.
// RUN: %clang -O2 -fsanitize=efficiency-working-set -fno-discard-value-names -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// IR-LABEL: define {{.*}} @forward(
// IR: efsan.range.word:
// IR: .efsan.marked:
#include <stdio.h>
#include <stdlib.h>

static void *lines(size_t n) { return aligned_alloc(64, n * 64); }

__attribute__((noinline)) double forward(const double *a, long n) {
  double s = 0;
  for (long i = 0; i < n; i++)
    s += a[i];
  return s;
}

__attribute__((noinline)) void backward(int *b, long n) {
  for (long i = n - 1; i >= 0; i--)
    b[i] = (int)i;
}

__attribute__((noinline)) long stride3(const int *c, long n) {
  long s = 0;
  for (long i = 0; i < n; i += 3)
    s += c[i];
  return s;
}

__attribute__((noinline)) long per_line(const char *d, long n) {
  long s = 0;
  for (long i = 0; i < n; i++)
    s += d[i * 64 + 5];
  return s;
}

__attribute__((noinline)) long until(const int *f, long n, long stop) {
  long s = 0;
  for (long i = 0; i < n; i++) {
    if (f[i] == 12345 && i == stop)
      break;
    s += f[i];
  }
  return s;
}

int main(int argc, char **argv) {
  long n = atol(argv[1]), stop = atol(argv[2]);
  double *a = lines(125);       // 1000 doubles
  int *b = lines(188);          // 3008 ints
  int *c = lines(300);          // 4800 ints
  char *d = lines(500);
  char *e = lines(16384);       // 1 MiB: larger than the range limit
  int *f = lines(100);          // 1600 ints
  f[stop] = 12345;              // the line of f[800] (or of f[0])
  double s = forward(a, n);
  backward(b, n ? 3008 : 0);
  s += stride3(c, n ? 4798 : 0); // c[0], c[3], ..., c[4797]: all 300 lines
  s += per_line(d, n ? 500 : 0);
  s += per_line(e, n ? 16384 : 0);
  s += until(f, n ? 1600 : 0, stop); // f[0..800]: lines 0..50
  printf("%g\n", s);
  return 0;
}
