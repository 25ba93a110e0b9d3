// suppressions=FILE is read at start-up, whichever tool the program was built
// for: a file that cannot be read, a malformed line, an unknown type or an
// empty pattern is a one-line error on stderr naming the file (and the line),
// and exit status 1 before main runs, whatever exitcode says. A good file is
// accepted by both tools (the working set has no findings to hide); an empty
// value means no suppressions.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: %clang -O2 -fsanitize=efficiency-cache-frag %s -o %t.cf
//
// RUN: rm -f %t.missing.supp
// RUN: env ESAN_OPTIONS=suppressions=%t.missing.supp not %run %t 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: env ESAN_OPTIONS=suppressions=%t.missing.supp not %run %t 2>&1 | count 1
// RUN: env ESAN_OPTIONS=suppressions=%t.missing.supp not %run %t.cf 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: EfficiencySanitizer: ERROR: ESAN_OPTIONS: suppressions: cannot read the file '{{.*}}missing.supp' (errno 2)
// A directory is no file.
// RUN: env ESAN_OPTIONS=suppressions=%S not %run %t 2>&1 | FileCheck %s --check-prefix=DIRECTORY
// DIRECTORY: EfficiencySanitizer: ERROR: ESAN_OPTIONS: suppressions: cannot read the file '{{.*}}options' (errno 21)
//
// RUN: echo "# no type" > %t.malformed.supp
// RUN: echo "counters_a" >> %t.malformed.supp
// RUN: env ESAN_OPTIONS=suppressions=%t.malformed.supp not %run %t 2>&1 | FileCheck %s --check-prefix=MALFORMED
// RUN: env ESAN_OPTIONS=suppressions=%t.malformed.supp not %run %t 2>&1 | count 1
// MALFORMED: EfficiencySanitizer: ERROR: ESAN_OPTIONS: suppressions: {{.*}}malformed.supp:2: expected 'type:pattern', got 'counters_a'
//
// TSan's and ASan's types are not efsan's.
// RUN: echo "false_sharing:counters_a" > %t.unknown.supp
// RUN: echo "race:counters_b" >> %t.unknown.supp
// RUN: env ESAN_OPTIONS=suppressions=%t.unknown.supp not %run %t 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: env ESAN_OPTIONS=suppressions=%t.unknown.supp not %run %t.cf 2>&1 | count 1
// UNKNOWN: EfficiencySanitizer: ERROR: ESAN_OPTIONS: suppressions: {{.*}}unknown.supp:2: unknown suppression type 'race' (false_sharing, true_sharing, predicted_false_sharing or struct)
//
// RUN: echo "struct:" > %t.empty.supp
// RUN: env ESAN_OPTIONS=suppressions=%t.empty.supp not %run %t 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: suppressions: {{.*}}empty.supp:1: an empty pattern (* matches every name) in 'struct:'
// RUN: echo "struct: tally" > %t.blank.supp
// RUN: env ESAN_OPTIONS=suppressions=%t.blank.supp not %run %t 2>&1 | FileCheck %s --check-prefix=BLANK
// BLANK: suppressions: {{.*}}blank.supp:1: a blank after the type's ':' in 'struct: tally'
//
// The status is 1 even with exitcode=0, and main never ran.
// RUN: env ESAN_OPTIONS=exitcode=0:suppressions=%t.unknown.supp %python -c "import subprocess, sys; r = subprocess.run([sys.argv[1]], capture_output=True); sys.exit(0 if r.returncode == 1 and b'main ran' not in r.stdout + r.stderr else 1)" %t.cf
//
// Good files, and an empty value.
// RUN: echo "# every type" > %t.good.supp
// RUN: echo "false_sharing:counters_*" >> %t.good.supp
// RUN: echo "true_sharing:^hits$" >> %t.good.supp
// RUN: echo "predicted_false_sharing:ring.c" >> %t.good.supp
// RUN: echo "struct:struct tally" >> %t.good.supp
// RUN: env ESAN_OPTIONS=suppressions=%t.good.supp %run %t 2>&1 | FileCheck %s --check-prefix=GOOD
// RUN: env ESAN_OPTIONS=suppressions=%t.good.supp %run %t.cf 2>&1 | FileCheck %s --check-prefix=GOOD
// RUN: env ESAN_OPTIONS=suppressions= %run %t 2>&1 | FileCheck %s --check-prefix=GOOD
// GOOD: main ran
// RUN: env ESAN_OPTIONS=suppressions=%t.good.supp:verbosity=1 %run %t 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: EfficiencySanitizer: 4 suppressions read from {{.*}}good.supp
#include <stdio.h>
int main(void) {
  fprintf(stderr, "main ran\n");
  return 0;
}
