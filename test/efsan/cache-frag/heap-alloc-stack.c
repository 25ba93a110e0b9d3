// A heap block allocated two calls below main: its allocation stack starts
// at the allocating frame and goes up to main, each frame with its line; the
// block is named through the variable that held it where it was allocated.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t 2>&1 | FileCheck %s
#include <stdlib.h>

#include "Inputs/lockstep.h"

struct slot {
  long count;
};

static struct slot *slots;

__attribute__((noinline)) static struct slot *make_slots(int n) {
  struct slot *fresh = calloc(n, sizeof(struct slot)); // line 17
  return fresh;
}

__attribute__((noinline)) static void setup(void) {
  slots = make_slots(2); // line 22
}

static void bump(int me) { ((volatile struct slot *)slots)[me].count++; }

int main(void) {
  setup(); // line 28
  lockstep_run(bump);
  free(slots);
  return 0;
}

// CHECK: #1 false sharing on cache line
// CHECK: object: heap object at 0x{{[0-9a-f]+}}, size 16; {{.*}} allocated at:
// CHECK-NEXT: #0 0x{{[0-9a-f]+}} in make_slots {{.*}}heap-alloc-stack.c:17
// CHECK-NEXT: #1 0x{{[0-9a-f]+}} in setup {{.*}}heap-alloc-stack.c:22
// CHECK-NEXT: #2 0x{{[0-9a-f]+}} in main {{.*}}heap-alloc-stack.c:28
// CHECK: line map: bytes object member threads
// CHECK: heap+0..7 fresh[0].count T1 rw
// CHECK-NEXT: heap+8..15 fresh[1].count T2 rw
