// Accesses through a pointer derived from an array member (array decay into
// a local, as LZ4HC does: `U32* const hashTable = hc4->hashTable;`) count
// for that member. They counted for nothing, and the report called the
// hottest arrays "count 0 (cold)" and advised moving them out. A variable
// index from a pointer into an array member stays inside that member (C's
// rule for pointer arithmetic), so the pass attributes it when the index's
// stride is the array's element size. Exact counts at sample period 1:
// insert() and insert_const() (LZ4's const-qualified pointers) read and
// write hash[h] and write chain[i] once per byte, and main reads one element
// of each.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_sample_period=1 %run %t 2>&1 | FileCheck %s
// RUN: %clang -O0 -g -fsanitize=efficiency-cache-frag %s -o %t.O0
// RUN: env ESAN_OPTIONS=cache_frag_sample_period=1 %run %t.O0 2>&1 | FileCheck %s
// CHECK: struct ctx: size {{[0-9]+}}, 4 fields
// CHECK-NEXT: field 0 hash offset 0 size 16384 type unsigned int[4096] count 200001 (hot)
// CHECK-NEXT: field 1 chain offset 16384 size 16384 type unsigned short[8192] count 100001 (hot)
// CHECK-NOT: hot/cold mix
// CHECK: SUMMARY
#include <stdio.h>
#include <stdlib.h>

#define N 100000

struct ctx {
  unsigned hash[4096];
  unsigned short chain[8192];
  unsigned next;
  int level;
};

__attribute__((noinline)) static void insert(struct ctx *c,
                                             const unsigned char *p,
                                             unsigned n) {
  unsigned *ht = c->hash;
  unsigned short *ch = c->chain;
  for (unsigned i = c->next; i < n; i++) {
    unsigned h = (p[i] * 2654435761u) >> 20;
    ch[i & 8191] = (unsigned short)(i - ht[h]);
    ht[h] = i;
  }
  c->next = n;
}

// The same as LZ4HC writes it: const-qualified pointers (the debug info's
// variable types are `const` around the pointer type).
__attribute__((noinline)) static void insert_const(struct ctx *const c,
                                                   const unsigned char *p,
                                                   unsigned n) {
  unsigned *const ht = c->hash;
  unsigned short *const ch = c->chain;
  for (unsigned i = c->next; i < n; i++) {
    unsigned h = (p[i] * 2654435761u) >> 20;
    ch[i & 8191] = (unsigned short)(i - ht[h]);
    ht[h] = i;
  }
  c->next = n;
}

int main(void) {
  struct ctx *c = calloc(1, sizeof *c);
  unsigned char *data = malloc(N);
  for (unsigned i = 0; i < N; i++)
    data[i] = (unsigned char)(i * 7 + (i >> 5));
  insert(c, data, N / 2);
  insert_const(c, data, N);
  printf("%u %u\n", c->hash[5], c->chain[100]);
  free(data);
  free(c);
  return 0;
}
