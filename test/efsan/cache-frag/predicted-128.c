// Per-thread 64-byte structs, 64-byte aligned, in one heap array: each
// thread's struct has its own cache line, so no sharing is observed, but both
// lines form one 128-byte pair: predicted false sharing with 128-byte lines.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_period_ms=0:cache_frag_tracking_threshold=1 %run %t 2>&1 | FileCheck %s
//
// Each line is tracked from its owner's first write (its first read is not
// seen); the virtual 128-byte line sees the two threads alternate: 3999
// invalidations, all on different words.
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
// CHECK: #1 predicted false sharing with 128-byte lines: 3999 estimated invalidations of virtual line {{\[}}[[LINE:0x[0-9a-f]+]], 0x{{[0-9a-f]+}}) (3999 observed), threads T1 T2
// CHECK-NEXT: object: heap object at [[LINE]], size 128, allocated at:
// CHECK-NEXT: #0 0x{{[0-9a-f]+}} in main {{.*}}predicted-128.c:[[@LINE-11]]
// CHECK: words: offset object-offset thread reads writes
// CHECK-NEXT: +0 +0 T1 1999 2000
// CHECK-NEXT: +64 +64 T2 1999 2000
// CHECK-NEXT: suggestion: {{.*}}align and pad each thread's part to 128 bytes
// CHECK-NOT: #2
// CHECK: SUMMARY: EfficiencySanitizer: cache-frag: 0 false sharing, 0 true sharing, 1 predicted false sharing;
