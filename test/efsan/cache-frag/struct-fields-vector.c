// A vectorised access to adjacent members (-O2 moves `ops` and `bytes` as one
// <2 x i64>) counts for each member it covers, not only the first.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag %s -S -emit-llvm -o - | FileCheck --check-prefix=IR %s
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t 2>&1 | FileCheck %s
// RUN: %clang -O0 -g -fsanitize=efficiency-cache-frag %s -o %t.O0
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t.O0 2>&1 | FileCheck %s

#include <stdlib.h>
struct worker_stats {
  long ops;
  long bytes;
  char name[16];
};

// IR: load <2 x i64>
// IR: call preserve_mostcc void @__efsan_cache_frag_access(ptr {{.*}}, i64 16, i32 256, ptr @__efsan.struct.worker_stats.counters)
// IR: call preserve_mostcc void @__efsan_cache_frag_access(ptr {{.*}}, i64 16, i32 257, ptr @__efsan.struct.worker_stats.counters)

// N = 500 calls: 500 loads and 500 stores of each of ops and bytes.
__attribute__((noinline)) void account(struct worker_stats *s, long n) {
  s->ops++;
  s->bytes += n;
}

struct worker_stats *volatile sink;

int main(void) {
  sink = calloc(1, sizeof(struct worker_stats));
  struct worker_stats *s = sink;
  for (long i = 0; i < 500; i++)
    account(s, i);
  __asm__ volatile("" : : "r"(s) : "memory");
  free(s);
  return 0;
}

// CHECK: Struct field usage (estimated accesses per field):
// CHECK-NEXT: struct worker_stats: size 32, 3 fields, 2000 accesses
// CHECK-NEXT: field 0 ops offset 0 size 8 type long count 1000 (hot)
// CHECK-NEXT: field 1 bytes offset 8 size 8 type long count 1000 (hot)
// CHECK-NEXT: field 2 name offset 16 size 16 type char[16] count 0 (cold)
