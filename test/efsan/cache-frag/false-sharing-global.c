// Per-thread counters in one global array: false sharing on one cache line,
// attributed to the global by name, with each thread's word.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t 2>&1 | FileCheck %s
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_period_ms=0 %run %t 2>&1 | FileCheck %s
//
// Exact mode (cache_frag_sample_period=1, or its old spelling). Two threads
// take 2000 turns each; a turn is counters[me]++ (a read and a write). The
// line is tracked from T2's first write (a second writer; a read would need
// cache_frag_tracking_threshold writes of T1), with T1 as the holder, so T1's
// first turn and T2's first read are not in the counts; every write follows the
// other thread's accesses: 2 * 2000 - 1 = 3999 invalidations observed, none
// on bytes the other thread used. The parallel estimate: each thread's 2000
// writes (half its accesses) each invalidate if the other accessed the line
// since its previous write: 2000 * (1 - e^-2) = 1729 times: about 3459.
#include "Inputs/lockstep.h"

_Alignas(64) volatile long counters[8];

static void count(int me) { counters[me]++; }

int main(void) {
  lockstep_run(count);
  return 0;
}

// CHECK: EfficiencySanitizer: cache-frag report
// CHECK: Counts are exact: every access was seen (cache_frag_sample_period=1).
// CHECK: #1 false sharing on cache line [[LINE:0x[0-9a-f]+]]: the fix saves {{.*}} of CPU time ({{.*}} of the run; about {{.*}} of wall time); threads T1 T2
// CHECK-NEXT: invalidations: 3999 observed, {{34[5-7][0-9]}} estimated if the threads run in parallel; 0 of the larger count were true sharing
// CHECK-NEXT: threads: T1 lockstep_worker, T2 lockstep_worker
// Threads are named as TSan names them: by who created them, where.
// CHECK-NEXT: T1, T2 created by T0 at:
// CHECK-NEXT: #0 0x{{[0-9a-f]+}} in lockstep_run {{.*}}lockstep.h:55
// CHECK-NEXT: #1 0x{{[0-9a-f]+}} in main {{.*}}false-sharing-global.c:23
// CHECK-NEXT: object: global 'counters' at [[LINE]], size 64; written bytes that invalidate: +0..15 (3999 invalidations)
// CHECK-NEXT: accesses: bytes object-bytes thread reads writes
// CHECK-NEXT: +0..7 +0..7 T1 1999 1999
// CHECK-NEXT: +8..15 +8..15 T2 1999 2000
// CHECK-NEXT: access sites: thread reads writes bytes where
// CHECK-NEXT: T1 1999 1999 +0..7 count {{.*}}false-sharing-global.c:20
// CHECK-NEXT: T2 1999 2000 +8..15 count {{.*}}false-sharing-global.c:20
// With -g, the line map names the members (source expressions).
// CHECK-NEXT: line map: bytes object member threads
// CHECK-NEXT: +0..7 'counters'+0..7 counters[0] T1 rw
// CHECK-NEXT: +8..15 'counters'+8..15 counters[1] T2 rw
// CHECK-NEXT: +16..63 - - (not used)
// CHECK-NEXT: suggestion: threads write different bytes of global 'counters' on one cache line: align it to 64 bytes and pad each thread's part to 64 bytes (each thread's part is 8 bytes, less than a line: make each element 64 bytes, e.g. _Alignas(64) on its type), or accumulate in thread-local variables; the fix saves {{.*}}
// CHECK-NOT: #2
// CHECK: SUMMARY: EfficiencySanitizer: cache-frag: 1 false sharing, 0 true sharing, 0 predicted false sharing;
