// With -g, a finding names its bytes as the source does: the members of a
// global array of 32-byte structs (`wstats[1].ops`), the source lines that
// write them, and a fix for the struct type (64-byte elements). A heap block
// is named through the pointer it is stored in (`table->hits`,
// `cells[1]`). Without -g, offsets as before and the generic fix.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -S -emit-llvm -o - | FileCheck %s --check-prefix=IR
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t 2>&1 | FileCheck %s
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1:report_format=json %run %t 2>&1 | FileCheck %s --check-prefix=JSON
// RUN: %clang -O2 -fsanitize=efficiency-cache-frag -pthread %s -o %t.nodebug
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t.nodebug 2>&1 | FileCheck %s --check-prefix=NODEBUG
#include <stdlib.h>

#include "Inputs/lockstep.h"

struct worker_stats {
  long ops;
  long bytes;
  char name[16];
};

_Alignas(64) struct worker_stats wstats[2];

struct table {
  long hits;
  long misses;
};

// Worker 0 bumps its stats and the table's hits, worker 1 its stats and
// misses; each also writes one of two cells of a heap array of longs that
// sits on a line of its own.
static struct table *table;
static long *cells;

static void work(int me) {
  volatile struct worker_stats *s = &wstats[me];
  s->ops++;
  s->bytes += 8;
  volatile struct table *t = table;
  if (me == 0)
    t->hits++;
  else
    t->misses++;
  ((volatile long *)cells)[me]++;
}

int main(void) {
  table = calloc(1, sizeof(struct table));
  long *c = aligned_alloc(64, 64);
  cells = c;
  lockstep_run(work);
  free(c);
  free(table);
  return 0;
}

// CHECK: false sharing on cache line
// CHECK: object: global 'wstats'
// CHECK: access sites: thread reads writes bytes where
// CHECK-NEXT: T1 1999 1999 +0..7 work {{.*}}member-names.c:37
// CHECK-NEXT: T1 1999 1999 +8..15 work {{.*}}member-names.c:38
// CHECK-NEXT: T2 2000 2000 +40..47 work {{.*}}member-names.c:38
// CHECK-NEXT: T2 1999 2000 +32..39 work {{.*}}member-names.c:37
// CHECK-NEXT: line map: bytes object member threads
// CHECK-NEXT: +0..7 'wstats'+0..7 wstats[0].ops T1 rw
// CHECK-NEXT: +8..15 'wstats'+8..15 wstats[0].bytes T1 rw
// CHECK-NEXT: +16..31 - - (not used)
// CHECK-NEXT: +32..39 'wstats'+32..39 wstats[1].ops T2 rw
// CHECK-NEXT: +40..47 'wstats'+40..47 wstats[1].bytes T2 rw
// CHECK-NEXT: +48..63 - - (not used)
// CHECK-NEXT: suggestion: {{.*}}(struct worker_stats is 32 bytes, 2 per line: make each element 64 bytes, e.g. _Alignas(64) on its first member ops, or pad struct worker_stats to 64 bytes)

// The heap blocks: named through the pointers that hold them.
// CHECK-DAG: heap+0..7 table->hits T1 rw
// CHECK-DAG: heap+8..15 table->misses T2 rw
// CHECK-DAG: +0..7 heap+0..7 c[0] T1 rw
// CHECK-DAG: +8..15 heap+8..15 c[1] T2 rw
// CHECK: SUMMARY: EfficiencySanitizer: cache-frag: 3 false sharing

// The pass describes the global's type and each typed allocation's:
// IR-DAG: @[[WS:__efsan.layout[.0-9]*]] = {{.*}} c"a2*s32`struct worker_stats`{0:ops=b8;8:bytes=b8;16:name=a16*b1;}\00"
// IR-DAG: @[[TABLE:__efsan.layout[.0-9]*]] = {{.*}} c"s16`struct table`{0:hits=b8;8:misses=b8;}\00"
// IR-DAG: @__efsan.global_layouts = private constant [{{[0-9]+}} x { ptr, ptr, ptr }] [{ ptr, ptr, ptr } { ptr @wstats, ptr @__efsan.global_name, ptr @[[WS]] }
// IR-DAG: call void @__efsan_cache_frag_heap_type(ptr %{{.*}}, ptr @[[TABLE]], ptr @__efsan.heap_holder)

// JSON: "members": [
// JSON-NEXT: {"name": "wstats[0].ops", "offset": 0, "size": 8, "threads": [1]},
// JSON-NEXT: {"name": "wstats[0].bytes", "offset": 8, "size": 8, "threads": [1]},
// JSON-NEXT: {"name": "wstats[1].ops", "offset": 32, "size": 8, "threads": [2]},
// JSON-NEXT: {"name": "wstats[1].bytes", "offset": 40, "size": 8, "threads": [2]}],

// NODEBUG: object: global 'wstats'
// NODEBUG: line map: bytes object threads
// NODEBUG-NEXT: +0..15 'wstats'+0..15 T1 rw
// NODEBUG: (each thread's part is 32 bytes, less than a line: make each element 64 bytes, e.g. _Alignas(64) on its type)
