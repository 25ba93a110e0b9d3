// An unknown option name is an error (not sanitizer_common's warning), with
// exit status 1 before main.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: env ESAN_OPTIONS=sample_frequency=5 not %run %t 2>&1 | FileCheck %s
// RUN: env ESAN_OPTIONS=verbosity=0:no_such_flag=1 not %run %t 2>&1 | FileCheck %s --check-prefix=SECOND
// RUN: env ESAN_OPTIONS=no_such_flag=1 not %run %t 2>&1 | count 1
// CHECK: EfficiencySanitizer: ERROR: ESAN_OPTIONS: unknown option 'sample_frequency' (help=1 lists the options)
// CHECK-NOT: main ran
// SECOND: EfficiencySanitizer: ERROR: ESAN_OPTIONS: unknown option 'no_such_flag'
#include <stdio.h>
int main(void) {
  fprintf(stderr, "main ran\n");
  return 0;
}
