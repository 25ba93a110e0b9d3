// -fsanitize=undefined with an efficiency tool: compiled, linked against the
// efsan runtime alone (which carries UBSan's handlers), and run: UBSan
// reports, UBSAN_OPTIONS applies, the tool reports too, the program's
// result is unchanged.

// RUN: %clang -O1 -fsanitize=undefined,efficiency-working-set %s -o %t
// RUN: %run %t > %t.out 2>&1
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=REPORT < %t.out
// CHECK: efsan-ubsan-runtime.c:[[@LINE+10]]:{{[0-9]+}}: runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'
// CHECK: result=-2147483648
// REPORT: EfficiencySanitizer
// RUN: env UBSAN_OPTIONS=halt_on_error=1 not %run %t 2>&1 | FileCheck %s --check-prefix=HALT
// HALT: runtime error: signed integer overflow
// HALT-NOT: result=
#include <limits.h>
#include <stdio.h>
int main(int argc, char **argv) {
  int x = INT_MAX;
  x += argc;
  printf("result=%d\n", x);
  return 0;
}
