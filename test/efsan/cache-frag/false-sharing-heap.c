// Per-thread structs in one heap array whose 48-byte elements straddle cache
// lines: elements 0 and 1 share line 0, so their owners falsely share it. The
// report names the heap object, its size and the line that allocated it.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t 2>&1 | FileCheck %s
#include "Inputs/lockstep.h"

struct stats {
  long hits;
  long misses;
  long bytes[4];
};

static struct stats *per_thread;

static void hit(int me) { per_thread[me].hits++; }

// Zeroes without memset (which would count as the main thread's accesses).
UNINSTRUMENTED static void clear(struct stats *s, int n) {
  for (volatile long *p = (volatile long *)s; p < (volatile long *)(s + n); p++)
    *p = 0;
}

int main(void) {
  per_thread = aligned_alloc(64, 4 * sizeof(struct stats)); // the allocation line the report names
  clear(per_thread, 4);
  lockstep_run(hit);
  free(per_thread);
  return 0;
}

// Freed before exit: the object was noted while it was live.
// CHECK: #1 false sharing on cache line [[LINE:0x[0-9a-f]+]]: the fix saves {{.*}} of CPU time ({{.*}} of the run; about {{.*}} of wall time); threads T1 T2
// CHECK-NEXT: invalidations: 3999 observed, {{[0-9]+}} estimated if the threads run in parallel; 0 of the larger count were true sharing
// CHECK-NEXT: threads: T1 lockstep_worker, T2 lockstep_worker
// CHECK-NEXT: T1, T2 created by T0 at:
// CHECK-NEXT: #0 0x{{[0-9a-f]+}} in lockstep_run {{.*}}lockstep.h:55
// CHECK-NEXT: #1 0x{{[0-9a-f]+}} in main {{.*}}false-sharing-heap.c:27
// CHECK-NEXT: object: heap object at [[LINE]], size 192; written bytes that invalidate: +0..7 +48..55 (3999 invalidations); allocated at:
// CHECK-NEXT: #0 0x{{[0-9a-f]+}} in main {{.*}}false-sharing-heap.c:25
// CHECK: accesses: bytes object-bytes thread reads writes
// CHECK-NEXT: +0..7 +0..7 T1 1999 1999
// CHECK-NEXT: +48..55 +48..55 T2 1999 2000
// CHECK-NEXT: access sites: thread reads writes bytes where
// CHECK-NEXT: T1 1999 1999 +0..7 hit {{.*}}false-sharing-heap.c:16
// CHECK-NEXT: T2 1999 2000 +48..55 hit {{.*}}false-sharing-heap.c:16
// CHECK-NEXT: line map: bytes object member threads
// CHECK-NEXT: +0..7 heap+0..7 per_thread[0].hits T1 rw
// CHECK-NEXT: +8..47 - - (not used)
// CHECK-NEXT: +48..55 heap+48..55 per_thread[1].hits T2 rw
// CHECK-NEXT: +56..63 - - (not used)
// CHECK-NEXT: suggestion: threads write different bytes of the heap object allocated at {{.*}}false-sharing-heap.c:25 on one cache line: align it to 64 bytes and pad each thread's part to 64 bytes (struct stats is 48 bytes, elements straddle lines: make each element 64 bytes, e.g. _Alignas(64) on its first member hits, or pad struct stats to 64 bytes), or accumulate in thread-local variables; the fix saves {{.*}}
// CHECK: SUMMARY: EfficiencySanitizer: cache-frag: 1 false sharing, 0 true sharing, 0 predicted false sharing;
