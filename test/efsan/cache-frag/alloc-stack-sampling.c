// Past alloc_stacks_exact allocations, allocation stacks are sampled (one
// per alloc_stack_sample_bytes allocated, on average): a block allocated
// after them without one is still the heap object of its finding, with its
// size, lifetimes and bytes, and the report says why it names no site (nor
// the members of its type, which its site tells).
// Here 100 small blocks come first, and a sample per 2^30 bytes leaves the
// 192-byte array of false-sharing-heap.c's shape without its stack; with
// the defaults (the first 131072 allocations exact) it has it.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1:alloc_stacks_exact=16:alloc_stack_sample_bytes=1073741824 %run %t 2>&1 | FileCheck %s
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t 2>&1 | FileCheck %s --check-prefix=EXACT
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1:alloc_stacks_exact=16:alloc_stack_sample_bytes=1073741824:report_format=json %run %t 2> %t.json
// RUN: %python -c "import json, sys; r = json.load(open(sys.argv[1])); a = r['allocation_stacks']; assert a['sampled'] and a['exact_allocations'] == 16 and a['unsampled_at_least'] >= 1, a; o = r['findings'][0]['objects'][0]; assert o['kind'] == 'heap' and o['size'] == 192 and o['alloc_stack'] == [], o" %t.json
#include "Inputs/lockstep.h"

struct stats {
  long hits;
  long misses;
  long bytes[4];
};

static struct stats *per_thread;
static void *volatile earlier[100];

static void hit(int me) { per_thread[me].hits++; }

UNINSTRUMENTED static void clear(struct stats *s, int n) {
  for (volatile long *p = (volatile long *)s; p < (volatile long *)(s + n); p++)
    *p = 0;
}

int main(void) {
  for (int i = 0; i < 100; i++)
    earlier[i] = malloc(16);
  per_thread = aligned_alloc(64, 4 * sizeof(struct stats)); // the allocation line
  clear(per_thread, 4);
  lockstep_run(hit);
  free(per_thread);
  for (int i = 0; i < 100; i++)
    free(earlier[i]);
  return 0;
}

// CHECK: Allocation stacks are sampled: the first 16 allocations have theirs, then one per 1073741824 bytes allocated on average (at least {{[0-9]+}} blocks have none; alloc_stacks_exact=0 keeps every one).
// CHECK: #1 false sharing on cache line [[LINE:0x[0-9a-f]+]]:
// CHECK: object: heap object at [[LINE]], size 192; written bytes that invalidate: +0..7 +48..55 (3999 invalidations); allocated at:
// CHECK-NEXT: <allocation stack not sampled: see "Allocation stacks are sampled" above>
// The block's type is known by its site: without one, no member names.
// CHECK: line map: bytes object threads
// CHECK-NEXT: +0..7 heap+0..7 T1 rw
// EXACT-NOT: Allocation stacks are sampled
// EXACT: object: heap object at {{.*}}, size 192; written bytes that invalidate: +0..7 +48..55 (3999 invalidations); allocated at:
// EXACT-NEXT: #0 0x{{[0-9a-f]+}} in main {{.*}}alloc-stack-sampling.c:35
