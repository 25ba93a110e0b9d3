// log_path=P writes the report to P.PID instead of stderr.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: env ESAN_OPTIONS=log_path=%t.dir/report %run %t 2>&1 | FileCheck %s --check-prefix=STDERR
// STDERR: main ran
// STDERR-NOT: EfficiencySanitizer
// RUN: cat %t.dir/report.* | FileCheck %s --check-prefix=FILE
// FILE: ==[[PID:[0-9]+]]==EfficiencySanitizer: the total working set size: {{[0-9]+}} cache lines
// FILE: SUMMARY: EfficiencySanitizer: working set of {{[0-9]+}} cache lines ({{.*}}) in process [[PID]]
// RUN: %python -c "import glob, sys; files = glob.glob(sys.argv[1] + '/report.*'); sys.exit(0 if len(files) == 1 and files[0].rsplit('.', 1)[1].isdigit() else 1)" %t.dir
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  volatile char *p = malloc(640);
  for (int i = 0; i < 10; i++)
    p[i * 64] = 1;
  fprintf(stderr, "main ran\n");
  return 0;
}
