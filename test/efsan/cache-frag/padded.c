// Per-thread counters padded and aligned to 128 bytes: no line and no
// 128-byte pair holds two threads' data, so nothing is reported, observed or
// predicted.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t 2>&1 | FileCheck %s
#include "Inputs/lockstep.h"

struct padded_counter {
  _Alignas(128) volatile long value;
};

struct padded_counter counters[NTHREADS];

static void count(int me) { counters[me].value++; }

int main(void) {
  lockstep_run(count);
  return 0;
}

// CHECK: EfficiencySanitizer: cache-frag report
// CHECK: Counts are exact
// CHECK-NEXT: The run's CPU time: {{.*}}, the program's own, which every share below is of (the process measured
// CHECK-NEXT: Cache lines tracked in detail:
// CHECK-NEXT: A line moving between cores costs {{[0-9]+}} ns
// CHECK-NEXT: Machine profile: none for
// CHECK-NEXT: No false sharing, true sharing or predicted false sharing above the report threshold.
// CHECK-NOT: #1
// CHECK: SUMMARY: EfficiencySanitizer: cache-frag: 0 false sharing, 0 true sharing, 0 predicted false sharing;
