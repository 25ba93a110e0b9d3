// A malformed ESAN_OPTIONS or a value of the wrong type or range is a
// one-line error and exit status 1 before main runs.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: env ESAN_OPTIONS=sample_freq=abc not %run %t 2>&1 | FileCheck %s --check-prefix=TYPE
// TYPE: EfficiencySanitizer: ERROR: ESAN_OPTIONS: invalid value 'abc' for option 'sample_freq' (want an integer)
// RUN: env ESAN_OPTIONS=sample_freq=abc not %run %t 2>&1 | count 1
// RUN: env ESAN_OPTIONS=sample_freq=0 not %run %t 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: EfficiencySanitizer: ERROR: ESAN_OPTIONS: invalid value for option 'sample_freq': must be at least 1 (milliseconds)
// RUN: env ESAN_OPTIONS=snapshot_step=9 not %run %t 2>&1 | FileCheck %s --check-prefix=STEP
// STEP: invalid value for option 'snapshot_step': must be 1, 2, 3 or 4
// RUN: env ESAN_OPTIONS=snapshot_history=0 not %run %t 2>&1 | FileCheck %s --check-prefix=HISTORY
// HISTORY: invalid value for option 'snapshot_history': must be 1..65536
// RUN: env ESAN_OPTIONS=report_format=xml not %run %t 2>&1 | FileCheck %s --check-prefix=FORMAT
// FORMAT: invalid value for option 'report_format': must be 'text' or 'json'
// RUN: env ESAN_OPTIONS=record_snapshots=maybe not %run %t 2>&1 | FileCheck %s --check-prefix=BOOL
// BOOL: invalid value 'maybe' for option 'record_snapshots' (want 0/1, true/false or yes/no)
// RUN: env ESAN_OPTIONS=verbosity=1x not %run %t 2>&1 | FileCheck %s --check-prefix=COMMON
// COMMON: invalid value '1x' for option 'verbosity' (want an integer)
// RUN: env ESAN_OPTIONS=sample_freq not %run %t 2>&1 | FileCheck %s --check-prefix=NOEQ
// NOEQ: EfficiencySanitizer: ERROR: ESAN_OPTIONS: expected '=' after 'sample_freq'
// RUN: env "ESAN_OPTIONS=log_path='unterminated" not %run %t 2>&1 | FileCheck %s --check-prefix=QUOTE
// QUOTE: unterminated quoted value for 'log_path'
// alloc_wrappers: a list of several names must be quoted (the parser cuts
// at commas), and names are not empty.
// RUN: env ESAN_OPTIONS=alloc_wrappers=xmalloc,xcalloc not %run %t 2>&1 | FileCheck %s --check-prefix=WRAPPERS-QUOTE
// WRAPPERS-QUOTE: EfficiencySanitizer: ERROR: ESAN_OPTIONS: invalid value for option 'alloc_wrappers': quote a list of several names (alloc_wrappers='a,b')
// RUN: env ESAN_OPTIONS=alloc_wrappers=xmalloc,xcalloc not %run %t 2>&1 | count 1
// RUN: env "ESAN_OPTIONS=alloc_wrappers='xmalloc,,xcalloc'" not %run %t 2>&1 | FileCheck %s --check-prefix=WRAPPERS-EMPTY
// RUN: env "ESAN_OPTIONS=alloc_wrappers='xmalloc,'" not %run %t 2>&1 | FileCheck %s --check-prefix=WRAPPERS-EMPTY
// RUN: env "ESAN_OPTIONS=alloc_wrappers=','" not %run %t 2>&1 | FileCheck %s --check-prefix=WRAPPERS-EMPTY
// WRAPPERS-EMPTY: EfficiencySanitizer: ERROR: ESAN_OPTIONS: invalid value for option 'alloc_wrappers': an empty name (names are separated by single commas)
// RUN: env "ESAN_OPTIONS=alloc_wrappers='xmalloc, xcalloc'" not %run %t 2>&1 | FileCheck %s --check-prefix=WRAPPERS-SPACE
// WRAPPERS-SPACE: invalid value for option 'alloc_wrappers': a name begins or ends with a space
// The exit status is 1, and main never ran.
// RUN: env ESAN_OPTIONS=sample_freq=-5 %python -c "import subprocess, sys; r = subprocess.run([sys.argv[1]], capture_output=True); sys.exit(0 if r.returncode == 1 and b'main ran' not in r.stdout + r.stderr else 1)" %t
// Well-formed options in every separator style are accepted.
// RUN: env "ESAN_OPTIONS=sample_freq=5:snapshot_step=1,record_snapshots=true report_format='text'" %run %t 2>&1 | FileCheck %s --check-prefix=GOOD
// RUN: env "ESAN_OPTIONS=alloc_wrappers=xmalloc:sample_freq=5" %run %t 2>&1 | FileCheck %s --check-prefix=GOOD
// RUN: env "ESAN_OPTIONS=alloc_wrappers='xmalloc,ns::pool::get,operator new(unsigned long)',sample_freq=5" %run %t 2>&1 | FileCheck %s --check-prefix=GOOD
// GOOD: main ran
#include <stdio.h>
int main(void) {
  fprintf(stderr, "main ran\n");
  return 0;
}
