// Struct field counts for the usual C idioms, exact for a single-threaded
// program with the window always open, the same at -O0 (struct GEPs) and -O2
// (where clang 19 keeps no field index for field 0 and gives an anonymous
// struct an empty TBAA name): an anonymous struct behind a typedef is named
// after the typedef, whether reached as an array element p[i], through a bare
// pointer parameter or as a global (the source names: `point_t`, `struct
// node`, member names); field 0 is counted too. Two typedefs
// with the same member layout (one TBAA node in C) are told apart by the
// pointer parameter's type in the debug info. Compiled as C++
// (types in a namespace) the names are the qualified ones.
// RUN: %clang -O0 -g -fsanitize=efficiency-cache-frag %s -o %t.O0
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t.O0 2>&1 | FileCheck %s --check-prefixes=CHECK,C
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag %s -o %t.O2
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t.O2 2>&1 | FileCheck %s --check-prefixes=CHECK,C
// RUN: %clangxx -x c++ -O2 -g -fsanitize=efficiency-cache-frag %s -o %t.cxx
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t.cxx 2>&1 | FileCheck %s --check-prefixes=CHECK,CXX

#include <stdlib.h>

#ifdef __cplusplus
namespace geo {
#endif
typedef struct { double x, y; int id; } point_t; // anonymous struct
typedef struct { long len; int kind; } seg_t;    // used only through pointers
struct node { long key; long hits; };            // a named struct
typedef struct { int lo, hi; } range_t;          // same layout as size2_t
typedef struct { int w, h; } size2_t;
#ifdef __cplusplus
} // namespace geo
using namespace geo;
#endif

point_t origin;

// Array element: 1 load of y, 1 load and 1 store of x (field 0, no GEP at -O2).
__attribute__((noinline)) static void advance(point_t *p, long i) {
  p[i].x += p[i].y + 1;
}

// Bare pointer: 1 load and 1 store of x (the pointer itself), of id.
__attribute__((noinline)) static void shift(point_t *p) {
  p->x += 2;
  p->id++;
}

// 1 load of kind, 1 load and 1 store of len.
__attribute__((noinline)) static void grow(seg_t *s) { s->len += s->kind; }

// 1 load and 1 store of hits.
__attribute__((noinline)) static void hit(struct node *n) { n->hits++; }

// 1 load and 1 store of hi; of w.
__attribute__((noinline)) static void widen(range_t *r) { r->hi++; }
__attribute__((noinline)) static void stretch(size2_t *s) { s->w++; }

int main(void) {
  enum { N = 1000 };
  point_t *points = (point_t *)calloc(N, sizeof *points);
  seg_t *seg = (seg_t *)calloc(1, sizeof *seg);
  struct node *n = (struct node *)calloc(1, sizeof *n);
  range_t *range = (range_t *)calloc(1, sizeof *range);
  size2_t *size = (size2_t *)calloc(1, sizeof *size);
  if (!points || !seg || !n || !range || !size)
    return 1;
  for (long i = 0; i < N; i++)
    advance(points, i);  // x: 2000, y: 1000
  for (int i = 0; i < 100; i++)
    shift(&points[i]);   // x: 200, id: 200
  seg->kind = 3;         // kind: 1
  for (int i = 0; i < 50; i++)
    grow(seg);           // len: 100, kind: 50
  for (int i = 0; i < 10; i++)
    hit(n);              // hits: 20
  for (int i = 0; i < 30; i++)
    widen(range);        // hi: 60
  for (int i = 0; i < 20; i++)
    stretch(size);       // w: 40
  origin.x = 1.5;        // x: 1
  origin.id = 2;         // id: 1
  // x: 1, len: 1, hits: 1, hi: 1, w: 1
  int ok = points[0].x == 3 && seg->len == 150 && n->hits == 10 &&
           range->hi == 30 && size->w == 20;
  free(range);
  free(size);
  free(points);
  free(seg);
  free(n);
  return ok ? 0 : 1;
}

// CHECK: Struct field usage (estimated accesses per field):
// C-NEXT:   point_t: size 24, 3 fields, 3403 accesses
// CXX-NEXT: geo::point_t: size 24, 3 fields, 3403 accesses
// CHECK-NEXT: field 0 x offset 0 size 8 type double count 2202 (hot)
// CHECK-NEXT: field 1 y offset 8 size 8 type double count 1000 (hot)
// CHECK-NEXT: field 2 id offset 16 size 4 type int count 201{{$}}
// C-NEXT:   seg_t: size 16, 2 fields, 152 accesses
// CXX-NEXT: geo::seg_t: size 16, 2 fields, 152 accesses
// CHECK-NEXT: field 0 len offset 0 size 8 type long count 101 (hot)
// CHECK-NEXT: field 1 kind offset 8 size 4 type int count 51 (hot)
// C-NEXT:   range_t: size 8, 2 fields, 61 accesses
// CXX-NEXT: geo::range_t: size 8, 2 fields, 61 accesses
// CHECK-NEXT: field 0 lo offset 0 size 4 type int count 0 (cold)
// CHECK-NEXT: field 1 hi offset 4 size 4 type int count 61 (hot)
// C-NEXT:   size2_t: size 8, 2 fields, 41 accesses
// CXX-NEXT: geo::size2_t: size 8, 2 fields, 41 accesses
// CHECK-NEXT: field 0 w offset 0 size 4 type int count 41 (hot)
// CHECK-NEXT: field 1 h offset 4 size 4 type int count 0 (cold)
// C-NEXT:   struct node: size 16, 2 fields, 21 accesses
// CXX-NEXT: geo::node: size 16, 2 fields, 21 accesses
// CHECK-NEXT: field 0 key offset 0 size 8 type long count 0 (cold)
// CHECK-NEXT: field 1 hits offset 8 size 8 type long count 21 (hot)
// CHECK-NEXT: SUMMARY: EfficiencySanitizer: cache-frag: 0 false sharing, 0 true sharing, 0 predicted false sharing; 5 struct types with field accesses
