// Per-thread counters in one global array: false sharing on one cache line,
// attributed to the global by name, with each thread's word.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_period_ms=0:cache_frag_tracking_threshold=1 %run %t 2>&1 | FileCheck %s
//
// Two threads take 2000 turns each; a turn is counters[me]++ (a read and a
// write). Tracking starts at the first write (threshold 1), so the very first
// read is not seen; after that every write follows the other thread's
// accesses: 2 * 2000 - 1 = 3999 invalidations, none on a shared word.
#include "Inputs/lockstep.h"

_Alignas(64) volatile long counters[8];

static void count(int me) { counters[me]++; }

int main(void) {
  lockstep_run(count);
  return 0;
}

// CHECK: EfficiencySanitizer: cache-frag report
// CHECK: Counts are exact: the tracking window was open all the time (duty cycle 100%).
// CHECK: #1 false sharing: 3999 estimated invalidations of cache line [[LINE:0x[0-9a-f]+]] (3999 observed; 0 more observed were true sharing), threads T1 T2
// CHECK-NEXT: object: global 'counters' at [[LINE]], size 64
// CHECK-NEXT: words: offset object-offset thread reads writes
// CHECK-NEXT: +0 +0 T1 1999 2000
// CHECK-NEXT: +8 +8 T2 2000 2000
// CHECK-NEXT: suggestion: threads write different words of global 'counters' on one cache line: align it to 64 bytes and pad each thread's part to 64 bytes
// CHECK-NOT: #2
// CHECK: SUMMARY: EfficiencySanitizer: cache-frag: 1 false sharing, 0 true sharing, 0 predicted false sharing;
