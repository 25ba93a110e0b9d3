// __efsan_report() prints the report so far; the report at exit still comes,
// exactly once, with everything.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: %run %t 2>&1 | FileCheck %s
// CHECK: ==[[PID:[0-9]+]]==  heap     40 lines (2.5 KiB)
// CHECK: SUMMARY: EfficiencySanitizer: working set of {{[0-9]+}} cache lines ({{.*}}) in process [[PID]]
// CHECK: after the first report
// CHECK: ==[[PID]]==  heap     100 lines (6.3 KiB)
// CHECK: SUMMARY: EfficiencySanitizer: working set of {{[0-9]+}} cache lines ({{.*}}) in process [[PID]]
// CHECK-NOT: EfficiencySanitizer
#include <sanitizer/efsan_interface.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  volatile char *p = aligned_alloc(64, 100 * 64);
  for (int i = 0; i < 40; i++)
    p[i * 64] = 1;
  __efsan_report();
  fprintf(stderr, "after the first report\n");
  for (int i = 40; i < 100; i++)
    p[i * 64] = 1;
  return 0;
}
