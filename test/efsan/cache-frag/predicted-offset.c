// Per-thread 64-byte structs on lines 1 and 2 of a 128-byte aligned heap
// block: no line is shared and the two lines are not a 128-byte pair, but the
// last word of one and the first word of the other are 8 bytes apart, so the
// same data at another start offset would share a line: predicted false
// sharing at another start offset, on the virtual line starting 8 bytes into
// line 1 (the first of the seven offsets that covers both words).
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1:cache_frag_prediction_threshold=1 %run %t 2>&1 | FileCheck %s
#include "Inputs/lockstep.h"

struct slot {
  long head;
  long middle[6];
  long tail;
};

static struct slot *slots;

// Worker 0 updates the tail of slot 1, worker 1 the head of slot 2.
static void bump(int me) {
  if (me == 0)
    slots[1].tail++;
  else
    slots[2].head++;
}

UNINSTRUMENTED static void clear(struct slot *s, int n) {
  for (volatile long *p = (volatile long *)s; p < (volatile long *)(s + n); p++)
    *p = 0;
}

int main(void) {
  slots = aligned_alloc(128, 4 * sizeof(struct slot));
  clear(slots, 4);
  lockstep_run(bump);
  free(slots);
  return 0;
}

// CHECK-NOT: #{{[0-9]+}} false sharing
// CHECK-NOT: predicted false sharing with 128-byte lines
// CHECK: #1 predicted false sharing at another start offset on virtual line {{\[}}0x{{[0-9a-f]+}}, 0x{{[0-9a-f]+}}): the fix saves {{.*}} of CPU time ({{.*}} of the run with that layout; about {{.*}} of wall time); threads T1 T2
// CHECK-NEXT: invalidations: {{34[5-7][0-9]}} estimated if the threads run in parallel, beyond the lines' own
// CHECK-NEXT: threads: T1 lockstep_worker, T2 lockstep_worker
// CHECK-NEXT: T1, T2 created by T0 at:
// CHECK-NEXT: #0 0x{{[0-9a-f]+}} in lockstep_run {{.*}}lockstep.h:55
// CHECK-NEXT: #1 0x{{[0-9a-f]+}} in main {{.*}}predicted-offset.c:35
// CHECK-NEXT: object: heap object at 0x{{[0-9a-f]+}}, size 256; written bytes that invalidate: +120..135 ({{[0-9]+}} invalidations); allocated at:
// CHECK-NEXT: #0 0x{{[0-9a-f]+}} in main {{.*}}predicted-offset.c:33
// 2000 increments a thread: its first load finds the line without a state
// (reads make none) and its first store makes it.
// CHECK: accesses: bytes object-bytes thread reads writes
// CHECK-NEXT: +48..55 +120..127 T1 1998 1999
// CHECK-NEXT: +56..63 +128..135 T2 1998 1999
// The two branches' increments are merged into one access at -O2: its
// source line is 0, and the site names the function and file only.
// CHECK-NEXT: access sites: thread reads writes bytes where
// CHECK-NEXT: T1 1998 1999 +48..55 bump {{.*}}predicted-offset.c{{$}}
// CHECK-NEXT: T2 1998 1999 +56..63 bump {{.*}}predicted-offset.c{{$}}
// The heap block's type comes from the pointer it is stored in (slots).
// CHECK-NEXT: line map: bytes object member threads
// CHECK-NEXT: +0..47 - - (not used)
// CHECK-NEXT: +48..55 heap+120..127 slots[1].tail T1 rw
// CHECK-NEXT: +56..63 heap+128..135 slots[2].head T2 rw
// CHECK-NEXT: suggestion: different threads' parts of the heap object allocated at {{.*}} are less than 64 bytes apart across a line boundary{{.*}}; the fix saves
// CHECK-NOT: #2
// CHECK: SUMMARY: EfficiencySanitizer: cache-frag: 0 false sharing, 0 true sharing, 1 predicted false sharing;
