// Invalid cache-frag flags stop the program with a one-line error and a
// non-zero exit status before it runs.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_window_ms=0 not %run %t 2>&1 | FileCheck %s --check-prefix=WINDOW
// RUN: env ESAN_OPTIONS=cache_frag_period_ms=-5 not %run %t 2>&1 | FileCheck %s --check-prefix=PERIOD
// RUN: env ESAN_OPTIONS=cache_frag_tracking_threshold=0 not %run %t 2>&1 | FileCheck %s --check-prefix=TRACKING
// RUN: env ESAN_OPTIONS=cache_frag_report_threshold=0 not %run %t 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: env ESAN_OPTIONS=cache_frag_max_tracked_lines=0 not %run %t 2>&1 | FileCheck %s --check-prefix=LINES
// RUN: env ESAN_OPTIONS=cache_frag_sample_period=0 not %run %t 2>&1 | FileCheck %s --check-prefix=PERIOD0
// RUN: env ESAN_OPTIONS=cache_frag_transfer_ns=-1 not %run %t 2>&1 | FileCheck %s --check-prefix=TRANSFER
// RUN: env ESAN_OPTIONS=cache_frag_line_pairs=maybe not %run %t 2>&1 | FileCheck %s --check-prefix=PAIRS
// RUN: env ESAN_OPTIONS=cache_frag_min_share=1.2.3 not %run %t 2>&1 | FileCheck %s --check-prefix=SHARE -DVALUE=1.2.3
// RUN: env ESAN_OPTIONS=cache_frag_min_share=101 not %run %t 2>&1 | FileCheck %s --check-prefix=SHARE -DVALUE=101
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0.00001 not %run %t 2>&1 | FileCheck %s --check-prefix=SHARE -DVALUE=0.00001
// RUN: env ESAN_OPTIONS=cache_frag_min_share=-1 not %run %t 2>&1 | FileCheck %s --check-prefix=SHARE -DVALUE=-1
// RUN: env ESAN_OPTIONS=cache_frag_min_share= not %run %t 2>&1 | FileCheck %s --check-prefix=SHARE -DVALUE=
// The values are checked whichever tool the program was built for.
// RUN: %clang -O2 -g -fsanitize=efficiency-working-set %s -o %t.ws
// RUN: env ESAN_OPTIONS=cache_frag_sample_period=0 not %run %t.ws 2>&1 | FileCheck %s --check-prefix=PERIOD0
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0.5:cache_frag_sample_period=7 %run %t.ws 2>&1 | FileCheck %s --check-prefix=RAN
#include <stdio.h>

int main(void) {
  puts("the program ran");
  return 0;
}

// WINDOW: ==[[PID:[0-9]+]]==EfficiencySanitizer: ERROR: cache_frag_window_ms must be > 0 (got 0)
// WINDOW-NOT: the program ran
// PERIOD: EfficiencySanitizer: ERROR: cache_frag_period_ms must be >= 0 (got -5)
// TRACKING: EfficiencySanitizer: ERROR: cache_frag_tracking_threshold must be 1..1073741824 (got 0)
// REPORT: EfficiencySanitizer: ERROR: cache_frag_report_threshold must be >= 1 (got 0)
// LINES: EfficiencySanitizer: ERROR: cache_frag_max_tracked_lines must be 1..16777216 (got 0)
// PERIOD0: EfficiencySanitizer: ERROR: cache_frag_sample_period must be >= 1 (got 0)
// PERIOD0-NOT: the program ran
// TRANSFER: EfficiencySanitizer: ERROR: cache_frag_transfer_ns must be 1..100000, or 0 to measure (got -1)
// PAIRS: EfficiencySanitizer: ERROR: cache_frag_line_pairs must be auto, yes or no (got 'maybe')
// SHARE: EfficiencySanitizer: ERROR: cache_frag_min_share must be a percentage from 0 to 100 with at most 4 decimals, e.g. 1 or 0.5 (got '[[VALUE]]')
// SHARE-NOT: the program ran
// RAN: the program ran
