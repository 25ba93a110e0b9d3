// Loops that may leave early (docs/Pass.md, "Loops that leave early") mark
// the lines of their affine accesses behind, every chunk of iterations and
// on each exit edge, and count exactly the lines they touch: a scan with two
// exits (the end, a byte that stops it) that stops inside a line, one longer
// than a chunk (262144 iterations of one byte), a ZSTD_count-like compare of
// two arrays 8 bytes at a time, and a copy whose store comes after the exit
// it may take (in the iteration that leaves there the store does not run).
// The buffers come from calloc (zeros, untouched), aligned to a line here;
// main writes only the byte or element that stops each loop. Touched, with
// the positions of the first run (6403, 700003, 5000, 3008):
//   a: bytes [60, 6403]: lines 0..100, 101 lines
//   b: bytes [0, 700003]: lines 0..10937, 10938 lines
//   x, y: elements 0..5000 of 8 bytes, bytes [0, 40008): 626 lines each
//   src: ints 0..3008, bytes [0, 12036): 189 lines
//   dst: ints 0..3007, bytes [0, 12032): 188 lines
// The mechanism is off by default (it did not pay: docs/performance.md);
// -efsan-loop-early-exit-marks turns it on, and the default build, with a
// check per access, counts the same.
// RUN: %clang -O2 -fsanitize=efficiency-working-set -mllvm -efsan-loop-early-exit-marks %s -o %t
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t.checked
// RUN: rm -f %t.checked.log.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.checked.log %run %t.checked 6403 700003 5000 3008
// RUN: %python %S/Inputs/check_report.py %t.checked.log --count 1 "heap == 101 + 10938 + 2 * 626 + 189 + 188"
// RUN: rm -f %t.log.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.log %run %t 6403 700003 5000 3008
// RUN: %python %S/Inputs/check_report.py %t.log --count 1 "heap == 101 + 10938 + 2 * 626 + 189 + 188"
// Each loop stops in its first iteration: one line of a (byte 60), b, x, y
// and src each, nothing of dst.
// RUN: rm -f %t.first.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.first %run %t 60 0 0 0
// RUN: %python %S/Inputs/check_report.py %t.first --count 1 "heap == 5"
// The loops are marked behind, without checks: the countdown and its chunk
// marks, and the marks on the exit edges.
// RUN: %clang -O2 -fsanitize=efficiency-working-set -mllvm -efsan-loop-early-exit-marks -fno-discard-value-names -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// IR-LABEL: define {{.*}} @skip_zeros(
// IR: efsan.exit.chunk:
// IR: .efsan.exit:
// IR-LABEL: define {{.*}} @common(
// IR: efsan.exit.chunk:
// IR-LABEL: define {{.*}} @copy_until(
// IR: efsan.exit.chunk:
#include <stdint.h>
#include <stdlib.h>

volatile uintptr_t sink;

static void *zeroed_lines(size_t bytes) {
  uintptr_t p = (uintptr_t)calloc(1, bytes + 64);
  return (void *)((p + 63) & ~(uintptr_t)63);
}

__attribute__((noinline)) const char *skip_zeros(const char *p,
                                                 const char *end) {
  while (p < end && *p == 0)
    p++;
  return p;
}

__attribute__((noinline)) size_t common(const uint64_t *x, const uint64_t *y,
                                        size_t n) {
  size_t i = 0;
  while (i < n && x[i] == y[i])
    i++;
  return i;
}

__attribute__((noinline)) long copy_until(const int *src, int *dst, long n) {
  long i;
  for (i = 0; i < n; i++) {
    if (src[i] < 0)
      break;
    dst[i] = src[i] + 1;
  }
  return i;
}

int main(int argc, char **argv) {
  if (argc != 5)
    return 2;
  long stop_a = atol(argv[1]), stop_b = atol(argv[2]);
  long stop_x = atol(argv[3]), stop_src = atol(argv[4]);
  char *a = zeroed_lines(200 * 64);
  char *b = zeroed_lines(1 << 20);
  uint64_t *x = zeroed_lines(8192 * 8), *y = zeroed_lines(8192 * 8);
  int *src = zeroed_lines(8192 * 4), *dst = zeroed_lines(8192 * 4);
  a[stop_a] = 1;
  b[stop_b] = 1;
  x[stop_x] = 1;
  src[stop_src] = -1;
  sink = (uintptr_t)skip_zeros(a + 60, a + 200 * 64);
  sink = (uintptr_t)skip_zeros(b, b + (1 << 20));
  sink = common(x, y, 8192);
  sink = copy_until(src, dst, 8192);
  return 0;
}
