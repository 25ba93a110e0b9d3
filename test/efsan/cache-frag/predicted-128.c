// Per-thread 64-byte structs, 64-byte aligned, in one heap array: each
// thread's struct has its own cache line, so no sharing is observed, but both
// lines form one 128-byte pair: predicted false sharing with 128-byte lines.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_line_pairs=yes:cache_frag_min_share=0:cache_frag_sample_period=1:cache_frag_prediction_threshold=1 %run %t 2>&1 | FileCheck %s
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_line_pairs=no:cache_frag_min_share=0:cache_frag_sample_period=1:cache_frag_prediction_threshold=1 %run %t 2>&1 | FileCheck %s --check-prefix=NOPAIR
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_line_pairs=no:cache_frag_min_share=0:cache_frag_sample_period=1:cache_frag_prediction_threshold=1:report_format=json %run %t 2>&1 | FileCheck %s --check-prefix=NOPAIR-JSON
//
// Each line is tracked from its owner's second write (prediction threshold 1,
// exact mode); the model runs on the virtual 128-byte line made of both: each
// thread's 4000 accesses, half writes, side by side: 2 * 0.5 * 4000 *
// (1 - e^-2) = about 3459 invalidations, on bytes the other never uses.
// The prediction counts only on a CPU whose prefetch pairs lines
// (cache_frag_line_pairs=yes); elsewhere it is a portability note that gains
// nothing on this machine.
#include "Inputs/lockstep.h"

struct slot {
  long count;
  long unused[7];
};

static struct slot *slots;

static void bump(int me) { slots[me].count++; }

UNINSTRUMENTED static void clear(struct slot *s, int n) {
  for (volatile long *p = (volatile long *)s; p < (volatile long *)(s + n); p++)
    *p = 0;
}

int main(void) {
  slots = aligned_alloc(128, 2 * sizeof(struct slot));
  clear(slots, 2);
  lockstep_run(bump);
  free(slots);
  return 0;
}

// CHECK-NOT: #{{[0-9]+}} false sharing
// CHECK-NOT: #{{[0-9]+}} true sharing
// CHECK: #1 predicted false sharing with 128-byte lines on {{\[}}[[LINE:0x[0-9a-f]+]], 0x{{[0-9a-f]+}}): the fix saves {{.*}} of CPU time ({{.*}} of the run; about {{.*}} of wall time); threads T1 T2
// CHECK-NEXT: invalidations: {{34[5-7][0-9]}} estimated if the threads run in parallel, beyond the lines' own
// CHECK-NEXT: threads: T1 lockstep_worker, T2 lockstep_worker
// CHECK-NEXT: T1, T2 created by T0 at:
// CHECK-NEXT: #0 0x{{[0-9a-f]+}} in lockstep_run {{.*}}lockstep.h:55
// CHECK-NEXT: #1 0x{{[0-9a-f]+}} in main {{.*}}predicted-128.c:35
// CHECK-NEXT: object: heap object at [[LINE]], size 128; written bytes that invalidate: +0..7 +64..71 ({{[0-9]+}} invalidations); allocated at:
// CHECK-NEXT: #0 0x{{[0-9a-f]+}} in main {{.*}}predicted-128.c:33
// 2000 increments a thread: its first load finds the line without a state
// (reads make none) and its first store makes it.
// CHECK: accesses: bytes object-bytes thread reads writes
// CHECK-NEXT: +0..7 +0..7 T1 1998 1999
// CHECK-NEXT: +64..71 +64..71 T2 1998 1999
// CHECK-NEXT: access sites: thread reads writes bytes where
// CHECK-NEXT: T1 1998 1999 +0..7 bump {{.*}}predicted-128.c:25
// CHECK-NEXT: T2 1998 1999 +64..71 bump {{.*}}predicted-128.c:25
// CHECK-NEXT: line map: bytes object member threads
// CHECK-NEXT: +0..7 heap+0..7 slots[0].count T1 rw
// CHECK-NEXT: +8..63 - - (not used)
// CHECK-NEXT: +64..71 heap+64..71 slots[1].count T2 rw
// CHECK-NEXT: +72..127 - - (not used)
// CHECK-NEXT: suggestion: {{.*}}align and pad each thread's part to 128 bytes; {{.*}}
// CHECK-NOT: #2
// CHECK: SUMMARY: EfficiencySanitizer: cache-frag: 0 false sharing, 0 true sharing, 1 predicted false sharing;

// NOPAIR: 128-byte line pairs: no (cache_frag_line_pairs=no).
// A portability note is no finding: no "saves 0 ns" headline, no rank
// among the findings, not counted in the SUMMARY's findings.
// NOPAIR-NOT: Fixing the findings below saves
// NOPAIR: No false sharing, true sharing or predicted false sharing above the report threshold.
// NOPAIR-NEXT: Portability notes (not findings: no gain on this CPU, a gain where lines pair):
// NOPAIR-NEXT: note 1: predicted false sharing with 128-byte lines on {{\[}}0x{{[0-9a-f]+}}, 0x{{[0-9a-f]+}}): portability note, no gain on this CPU (cache_frag_line_pairs=no); where lines pair, the fix would save {{[0-9.]+ (ns|us|ms|s)}} of CPU time ({{[0-9.]+%|<0.1%}} of the run there); threads T1 T2
// NOPAIR-NOT: =={{[0-9]+}}==#{{[0-9]}}
// NOPAIR: SUMMARY: EfficiencySanitizer: cache-frag: 0 false sharing, 0 true sharing, 0 predicted false sharing; 1 portability note; {{[0-9]+}} struct types
// NOPAIR-JSON: "line_pairs": false,
// NOPAIR-JSON: "expected_gain": {"cpu_seconds": 0.000000000, "share": 0.000000, "wall_seconds": 0.000000000, "low_share": 0.000000, "high_share": 0.000000},
// NOPAIR-JSON: "conditional": true,
// NOPAIR-JSON: "estimated_gain_seconds": 0.000000000,
