// A global array of structs indexed by a variable, and a char array member
// indexed by a variable: at -O2 the address of recs[i].buf[j] is a GEP over
// the array of structs, a byte offset to buf, then an index into buf. Every
// access counts for the member that holds it: buf is hot (it was counted 0
// and called padding), and no note suggests moving a member.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag %s -o %t.O2
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t.O2 2>&1 | FileCheck %s
// RUN: %clang -O0 -g -fsanitize=efficiency-cache-frag %s -o %t.O0
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t.O0 2>&1 | FileCheck %s
#include <stdio.h>

struct point {
  double x, y;
};
struct record {
  int id;
  char buf[256];
  struct point pos;
  long cold_counter;
};
struct record recs[64];

int main(void) {
  long sum = 0;
  for (int r = 0; r < 100; r++)
    for (int i = 0; i < 64; i++) {
      recs[i].buf[(i * 7 + r) & 255] += (char)r; // a read and a write
      recs[i].pos.y += 1.0;                       // a read and a write
      sum += recs[i].id;                          // a read
    }
  printf("%ld %f\n", sum, recs[3].pos.y); // one more read of pos
  return 0;
}

// 100 x 64 = 6400 iterations.
// CHECK: struct record: size 288, 4 fields, 32001 accesses
// CHECK-NEXT: field 0 id offset 0 size 4 type int count 6400 (hot)
// CHECK-NEXT: field 1 buf offset 4 size 256 type char[256] count 12800 (hot)
// CHECK-NEXT: field 2 pos offset 264 size 16 type struct point count 12801 (hot)
// CHECK-NEXT: field 3 cold_counter offset 280 size 8 type long count 0 (cold)
// CHECK-NOT: note:
// CHECK: SUMMARY:
