// Invalid cache-frag flags stop the program with a one-line error and a
// non-zero exit status before it runs.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_window_ms=0 not %run %t 2>&1 | FileCheck %s --check-prefix=WINDOW
// RUN: env ESAN_OPTIONS=cache_frag_period_ms=-5 not %run %t 2>&1 | FileCheck %s --check-prefix=PERIOD
// RUN: env ESAN_OPTIONS=cache_frag_tracking_threshold=0 not %run %t 2>&1 | FileCheck %s --check-prefix=TRACKING
// RUN: env ESAN_OPTIONS=cache_frag_report_threshold=0 not %run %t 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: env ESAN_OPTIONS=cache_frag_max_tracked_lines=0 not %run %t 2>&1 | FileCheck %s --check-prefix=LINES
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
