// Per-thread counters in a local array of main that the workers update: false
// sharing attributed to a thread stack.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_period_ms=0:cache_frag_tracking_threshold=1 %run %t 2>&1 | FileCheck %s
#include "Inputs/lockstep.h"

static volatile long *counters;

static void count(int me) { counters[me]++; }

UNINSTRUMENTED static void clear(volatile long *p, int n) {
  for (int i = 0; i < n; i++)
    p[i] = 0;
}

int main(void) {
  _Alignas(64) volatile long local[8];
  clear(local, 8);
  counters = local;
  lockstep_run(count);
  return 0;
}

// CHECK: #1 false sharing: 3999 estimated invalidations of cache line [[LINE:0x[0-9a-f]+]] (3999 observed; 0 more observed were true sharing), threads T1 T2
// CHECK-NEXT: object: on a thread stack (first shared word at [[LINE]])
// CHECK-NEXT: words: offset object-offset thread reads writes
// CHECK-NEXT: +0 - T1 1999 2000
// CHECK-NEXT: +8 - T2 2000 2000
// CHECK-NEXT: suggestion: threads write different words of the stack object on one cache line
// CHECK: SUMMARY: EfficiencySanitizer: cache-frag: 1 false sharing, 0 true sharing, 0 predicted false sharing;
