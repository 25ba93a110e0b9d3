// A loop-level range mark tests the range's shadow inline (32 lines per test
// while all are marked, then word by word, the last word masked) and marks
// the lines from the first word with a line lacking bit 0 in the runtime. Ranges of 1 to 70 lines, each
// fully touched beforehand but for one line (every position in turn) or none:
// the one unmarked line must be found wherever it is, so every range counts
// all its lines. Each range is fresh, line-aligned heap memory:
// sum over L = 1..70 of (L + 1) * L = 119280 lines.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -f %t.log.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.log %run %t
// RUN: %python %S/Inputs/check_report.py %t.log --count 1 "heap == 119280"
// The sweep is marked per loop (an inline range mark), the touches per access.
// RUN: %clang -O2 -fsanitize=efficiency-working-set -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// IR-LABEL: define {{.*}} @sweep(
// IR: and i64 %{{[0-9]+}}, 72340172838076673
// IR: call preserve_allcc void @__efsan_ws_mark_lines(
// IR-LABEL: define {{.*}} @main(
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) void touch(char *p) { *p = 1; }

__attribute__((noinline)) long sweep(const char *p, long bytes) {
  long s = 0;
  for (long i = 0; i < bytes; i += 8)
    s += p[i];
  return s;
}

int main(void) {
  long s = 0;
  for (long lines = 1; lines <= 70; lines++)
    for (long hole = -1; hole < lines; hole++) {
      char *p = aligned_alloc(64, lines * 64);
      for (long line = 0; line < lines; line++)
        if (line != hole)
          touch(p + line * 64 + 7);
      s += sweep(p, lines * 64);
    }
  printf("%ld\n", s);
  return 0;
}
