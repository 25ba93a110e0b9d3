// One atomic counter hammered by all threads: true sharing (every thread
// writes the same word), never reported as false sharing.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_period_ms=0:cache_frag_tracking_threshold=1 %run %t 2>&1 | FileCheck %s
//
// Three threads take turns: after the first write every write follows
// another thread's access: 3 * 2000 - 1 = 5999 invalidations.
#define NTHREADS 3
#include "Inputs/lockstep.h"

_Alignas(128) long hits;

static void hit(int me) { __atomic_fetch_add(&hits, 1, __ATOMIC_RELAXED); }

int main(void) {
  lockstep_run(hit);
  return 0;
}

// CHECK-NOT: #{{[0-9]+}} false sharing
// CHECK-NOT: predicted false sharing with
// CHECK: #1 true sharing: 5999 estimated invalidations of cache line [[LINE:0x[0-9a-f]+]] (5999 observed; 0 more observed were false sharing), threads T1 T2 T3
// CHECK-NEXT: object: global 'hits' at [[LINE]], size 8
// CHECK-NEXT: words: offset object-offset thread reads writes
// CHECK-NEXT: +0 +0 T1 {{[0-9]+}} 2000
// CHECK-NEXT: +0 +0 T2 {{[0-9]+}} 2000
// CHECK-NEXT: +0 +0 T3 {{[0-9]+}} 2000
// CHECK-NEXT: suggestion: threads write the same words of global 'hits' (true sharing; padding cannot help)
// CHECK-NOT: #2
// CHECK: SUMMARY: EfficiencySanitizer: cache-frag: 0 false sharing, 1 true sharing, 0 predicted false sharing;
