// Two globals on one cache line, only the second falsely shared: the finding
// names the global whose words are contended, not the one written most.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t 2>&1 | FileCheck %s
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1:report_format=json %run %t 2>&1 | FileCheck %s --check-prefix=JSON
//
// A turn of T1 is slots[0]++ then three writes of solo, which only T1
// touches; a turn of T2 is slots[1]++. Each thread's slots write follows the
// other thread's accesses (2 * 2000 - 1 = 3999 invalidations, as in
// false-sharing-global.c); T1's writes of solo follow its own and invalidate
// nothing, although solo is the line's most written word.
#include "Inputs/lockstep.h"

_Alignas(64) volatile long solo;
volatile long slots[2];

static void turn(int me) {
  slots[me]++;
  if (me == 0) {
    solo++;
    solo++;
    solo++;
  }
}

int main(void) {
  // The test needs both globals on one line.
  if (((unsigned long)&solo ^ (unsigned long)&slots[1]) >= 64) {
    fprintf(stderr, "solo and slots are not on one cache line\n");
    return 1;
  }
  lockstep_run(turn);
  return 0;
}

// The history table knows which write took the line: the slots writes (the
// model alone would share T1's invalidations among its writes, solo's
// included, so observed counts decide here, being the larger estimate).
// CHECK: #1 false sharing on cache line [[LINE:0x[0-9a-f]+]]: the fix saves {{.*}} of CPU time ({{.*}} of the run; about {{.*}} of wall time); threads T1 T2
// CHECK-NEXT: invalidations: 3999 observed, {{[0-9]+}} estimated if the threads run in parallel; 0 of the larger count were true sharing
// CHECK-NEXT: threads: T1 lockstep_worker, T2 lockstep_worker
// CHECK-NEXT: T1, T2 created by T0 at:
// CHECK-NEXT: #0 0x{{[0-9a-f]+}} in lockstep_run {{.*}}lockstep.h:55
// CHECK-NEXT: #1 0x{{[0-9a-f]+}} in main {{.*}}two-globals.c:32
// CHECK-NEXT: object: global 'slots' at 0x{{[0-9a-f]+}}, size 16; written bytes that invalidate: +0..15 (3999 invalidations)
// CHECK-NEXT: accesses: bytes object-bytes thread reads writes
// CHECK-NEXT: +0..7 - T1 5997 5997
// CHECK-NEXT: +{{8..15|16..23}} +0..7 T1 1999 1999
// CHECK-NEXT: +{{16..23|24..31}} +8..15 T2 1999 2000
// Each place that touched the line, per thread (equal counts in code order):
// CHECK-NEXT: access sites: thread reads writes bytes where
// CHECK-NEXT: T1 1999 1999 +{{8..15|16..23}} turn {{.*}}two-globals.c:18
// CHECK-NEXT: T1 1999 1999 +0..7 turn {{.*}}two-globals.c:20
// CHECK-NEXT: T1 1999 1999 +0..7 turn {{.*}}two-globals.c:21
// CHECK-NEXT: T1 1999 1999 +0..7 turn {{.*}}two-globals.c:22
// CHECK-NEXT: T2 1999 2000 +{{16..23|24..31}} turn {{.*}}two-globals.c:18
// The line map names every object on the line, solo included; the part
// size comes from the bytes whose writes invalidate (slots), not from solo.
// CHECK-NEXT: line map: bytes object member threads
// CHECK-NEXT: +0..7 'solo'+0..7 - T1 rw
// CHECK-NEXT: +8..15 - - (not used)
// CHECK-NEXT: +16..23 'slots'+0..7 slots[0] T1 rw
// CHECK-NEXT: +24..31 'slots'+8..15 slots[1] T2 rw
// CHECK-NEXT: +32..63 - - (not used)
// CHECK-NEXT: suggestion: threads write different bytes of global 'slots' on one cache line: align it to 64 bytes and pad each thread's part to 64 bytes (each thread's part is 8 bytes, less than a line: make each element 64 bytes, e.g. _Alignas(64) on its type), or accumulate in thread-local variables; the fix saves {{.*}}
// CHECK-NOT: #2
// CHECK: SUMMARY: EfficiencySanitizer: cache-frag: 1 false sharing, 0 true sharing, 0 predicted false sharing;

// JSON: "object": {"kind": "global", "name": "slots", "address": {{[0-9]+}}, "size": 16, "invalidations": 3999, "contended_bytes": {{\[}}[0, 15]]},
// JSON-NEXT: "objects": [{"kind": "global", "name": "slots", "address": {{[0-9]+}}, "size": 16, "invalidations": 3999, "contended_bytes": {{\[}}[0, 15]]}],
