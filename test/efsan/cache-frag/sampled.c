// With the default windows the report says it is sampled and shows the
// measured duty cycle, and estimated counts are observed counts scaled by it.
// The program runs about 0.3 s so that several windows open and close.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_period_ms=40:cache_frag_window_ms=4 %run %t 2>&1 | FileCheck %s
// RUN: env ESAN_OPTIONS=cache_frag_period_ms=40:cache_frag_window_ms=4:report_format=json %run %t 2>&1 | FileCheck %s --check-prefix=JSON
#include <time.h>

__attribute__((disable_sanitizer_instrumentation, noinline)) static void pause_ms(long ms) {
  struct timespec ts = {0, ms * 1000000};
  nanosleep(&ts, 0);
}

volatile long sink;

int main(void) {
  for (int i = 0; i < 30; i++) {
    sink++;
    pause_ms(10);
  }
  return 0;
}

// CHECK: Counts are sampled: tracking windows of 4 ms every 40 ms (more often for 160 ms after a thread is created), measured duty cycle {{[0-9]+\.[0-9][0-9][0-9][0-9]}}%; estimated counts are the counts seen in windows divided by the duty cycle.
// CHECK: SUMMARY: EfficiencySanitizer: cache-frag:
// JSON: "sampled": true,
// JSON-NEXT: "duty_cycle": 0.{{[0-9][0-9][0-9][0-9][0-9][0-9]}},
// JSON-NEXT: "window_ms": 4,
// JSON-NEXT: "period_ms": 40,
