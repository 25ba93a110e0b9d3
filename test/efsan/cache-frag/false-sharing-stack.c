// Per-thread counters in a local array of main that the workers update: false
// sharing attributed to the main thread's stack (T0).
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t 2>&1 | FileCheck %s
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

// CHECK: #1 false sharing on cache line [[LINE:0x[0-9a-f]+]]: the fix saves {{.*}} of CPU time ({{.*}} of the run; about {{.*}} of wall time); threads T1 T2
// CHECK-NEXT: invalidations: 3999 observed, {{[0-9]+}} estimated if the threads run in parallel; 0 of the larger count were true sharing
// CHECK-NEXT: threads: T1 lockstep_worker, T2 lockstep_worker
// CHECK-NEXT: T1, T2 created by T0 at:
// CHECK-NEXT: #0 0x{{[0-9a-f]+}} in lockstep_run {{.*}}lockstep.h:55
// CHECK-NEXT: #1 0x{{[0-9a-f]+}} in main {{.*}}false-sharing-stack.c:20
// CHECK-NEXT: object: on the stack of thread T0 (first byte at [[LINE]]); written bytes that invalidate (line offsets): +0..15 (3999 invalidations)
// CHECK-NEXT: accesses: bytes object-bytes thread reads writes
// CHECK-NEXT: +0..7 - T1 1999 1999
// CHECK-NEXT: +8..15 - T2 1999 2000
// CHECK-NEXT: access sites: thread reads writes bytes where
// CHECK-NEXT: T1 1999 1999 +0..7 count {{.*}}false-sharing-stack.c:9
// CHECK-NEXT: T2 1999 2000 +8..15 count {{.*}}false-sharing-stack.c:9
// CHECK-NEXT: line map: bytes object threads
// CHECK-NEXT: +0..7 stack of T0 T1 rw
// CHECK-NEXT: +8..15 stack of T0 T2 rw
// CHECK-NEXT: +16..63 - (not used)
// CHECK-NEXT: suggestion: threads write different bytes of the stack object of thread T0 on one cache line: align it to 64 bytes and pad each thread's part to 64 bytes (each thread's part is 8 bytes, less than a line: make each element 64 bytes, e.g. _Alignas(64) on its type), or accumulate in thread-local variables; the fix saves {{.*}}
// CHECK: SUMMARY: EfficiencySanitizer: cache-frag: 1 false sharing, 0 true sharing, 0 predicted false sharing;
