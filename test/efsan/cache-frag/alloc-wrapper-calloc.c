// A heap object allocated through a helper in a header (Phoenix's CALLOC,
// static inline: inlined, but its frame is in the debug info) is named by
// the helper's caller: "allocated at:" marks the helper's frame, and the
// finding names the line that called it. Phoenix named every object CALLOC.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t 2>&1 | FileCheck %s
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1:report_format=json %run %t 2>&1 | FileCheck %s --check-prefix=JSON
// With NDEBUG the assert is gone and the error path returns null after
// perror: still a wrapper (the path runs only when calloc failed).
// RUN: %clang -O2 -g -DNDEBUG -fsanitize=efficiency-cache-frag -pthread %s -o %t.ndebug
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t.ndebug 2>&1 | FileCheck %s
#include "Inputs/lockstep.h"
#include "Inputs/stddefines.h"

struct counter {
  long hits;
};

static struct counter *counters;

static void hit(int me) { ((volatile struct counter *)counters)[me].hits++; }

__attribute__((noinline)) static void setup(void) {
  counters = (struct counter *)CALLOC(NTHREADS, sizeof(struct counter)); // line 24
}

int main(void) {
  setup(); // line 28
  lockstep_run(hit);
  free(counters);
  return 0;
}

// CHECK: #1 false sharing on cache line
// CHECK: object: heap object at 0x{{[0-9a-f]+}}, size 16; {{.*}} allocated at:
// CHECK-NEXT: #0 0x{{[0-9a-f]+}} in CALLOC {{.*}}stddefines.h:17 (allocation wrapper)
// CHECK-NEXT: #1 0x{{[0-9a-f]+}} in setup {{.*}}alloc-wrapper-calloc.c:24{{$}}
// CHECK-NEXT: #2 0x{{[0-9a-f]+}} in main {{.*}}alloc-wrapper-calloc.c:28{{$}}
// CHECK: suggestion: threads write different bytes of the heap object allocated at {{.*}}alloc-wrapper-calloc.c:24 on one cache line
// JSON: "alloc_stack": [{"function": "CALLOC", "file": "{{[^"]*}}stddefines.h", "line": 17, "allocation_wrapper": true}, {"function": "setup", "file": "{{[^"]*}}alloc-wrapper-calloc.c", "line": 24}, {"function": "main",
