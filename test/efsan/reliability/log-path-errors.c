// A log_path that cannot be written, or a symbolizer path that cannot work,
// is found at start-up: a one-line error on stderr and exit status 1 before
// main, never an exit status changed at exit with the program's buffered
// stdout lost.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -rf %t.ro && mkdir %t.ro && chmod 555 %t.ro && chmod 755 %t
// RUN: env ESAN_OPTIONS=log_path=%t.ro/report not %python %S/Inputs/run_unprivileged.py %t > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=EACCES < %t.err
// RUN: count 1 < %t.err
// RUN: count 0 < %t.out
// EACCES: EfficiencySanitizer: ERROR: ESAN_OPTIONS: log_path: cannot open the log file '{{.*}}.ro/report.{{[0-9]+}}' (errno 13)
// A path component longer than NAME_MAX.
// RUN: env ESAN_OPTIONS=log_path=%t.dir/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa not %run %t > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=LONG < %t.err
// RUN: count 0 < %t.out
// LONG: EfficiencySanitizer: ERROR: ESAN_OPTIONS: log_path: cannot open the log file '{{.*}}' (errno 36)
// A symbolizer that is not one: checked at start-up (in both tools).
// RUN: env ESAN_OPTIONS=external_symbolizer_path=/bin/false not %run %t 2>&1 | FileCheck %s --check-prefix=SYMBOLIZER
// SYMBOLIZER: EfficiencySanitizer: ERROR: ESAN_OPTIONS: invalid value for option 'external_symbolizer_path': '/bin/false' is not llvm-symbolizer or addr2line
// RUN: env ESAN_OPTIONS=external_symbolizer_path=%t.nonexistent/llvm-symbolizer not %run %t 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: '{{.*}}/llvm-symbolizer' is not an executable file
// A good log_path still works, and main's output and status are kept.
// RUN: rm -rf %t.logs
// RUN: env ESAN_OPTIONS=log_path=%t.logs/sub/report %run %t > %t.out
// RUN: FileCheck %s --check-prefix=OUT < %t.out
// OUT: main ran
// RUN: cat %t.logs/sub/report.* | FileCheck %s --check-prefix=REPORT
// REPORT: SUMMARY: EfficiencySanitizer: working set
#include <stdio.h>
int main(void) {
  printf("main ran\n");
  return 0;
}
