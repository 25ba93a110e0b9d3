// help=1 lists every option with its description and current value, then
// the program runs as usual.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: env ESAN_OPTIONS=help=1:sample_freq=7 %run %t 2>&1 | FileCheck %s
// CHECK: Available flags for EfficiencySanitizer:
// CHECK-DAG: {{^}}	sample_freq{{$}}
// CHECK-DAG: (Current Value: 7)
// CHECK-DAG: {{^}}	snapshot_step{{$}}
// CHECK-DAG: {{^}}	record_snapshots{{$}}
// CHECK-DAG: {{^}}	snapshot_history{{$}}
// CHECK-DAG: {{^}}	sample_clock{{$}}
// CHECK-DAG: {{^}}	report_objects{{$}}
// CHECK-DAG: {{^}}	report_format{{$}}
// CHECK-DAG: {{^}}	verbosity{{$}}
// CHECK-DAG: {{^}}	log_path{{$}}
// CHECK-DAG: {{^}}	exitcode{{$}}
// CHECK: main ran
// CHECK: SUMMARY: EfficiencySanitizer: working set
#include <stdio.h>
int main(void) {
  fprintf(stderr, "main ran\n");
  return 0;
}
