// Accesses to an element of an array member and to a field of an embedded
// struct count for the member that holds them, at -O0 (struct GEPs) and at
// -O2 (byte offsets from a pointer parameter, named by its debug info, also
// a `state_t *` for a typedef of an anonymous struct): a char buffer
// accessed by index is hot, not padding.
// RUN: %clang -O0 -g -fsanitize=efficiency-cache-frag %s -o %t.O0
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t.O0 2>&1 | FileCheck %s
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag %s -o %t.O2
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t.O2 2>&1 | FileCheck %s

#include <stdlib.h>
struct vec {
  int x;
  int y;
};
struct record {
  int id;
  struct vec pos;
  char buf[256];
  long tail;
};

// N = 1000 stores to buf[i], M = 300 loads and 300 stores of pos.y, K = 70
// stores to id.
__attribute__((noinline)) void fill(struct record *r, int i) {
  r->buf[i] = (char)i;
}
__attribute__((noinline)) void move(struct record *r) { r->pos.y++; }
__attribute__((noinline)) void set_id(struct record *r, int i) { r->id = i; }

// bzip2's EState: a typedef of an anonymous struct with hot arrays, reached
// through a pointer parameter. inUse: 400 stores.
typedef struct {
  int nInUse;
  unsigned char inUse[256];
} state_t;

__attribute__((noinline)) void mark(state_t *s, int i) { s->inUse[i] = 1; }

// Hide where r and s come from, so that -O2 keeps the calls.
struct record *volatile sink;
state_t *volatile state_sink;

int main(void) {
  sink = calloc(1, sizeof(struct record));
  struct record *r = sink;
  state_sink = calloc(1, sizeof(state_t));
  state_t *s = state_sink;
  for (int i = 0; i < 1000; i++)
    fill(r, i & 255);
  for (int i = 0; i < 300; i++)
    move(r);
  for (int i = 0; i < 70; i++)
    set_id(r, i);
  // The stores above must stay: nothing else reads them.
  for (int i = 0; i < 400; i++)
    mark(s, i & 255);
  __asm__ volatile("" : : "r"(r), "r"(s) : "memory");
  free(s);
  free(r);
  return 0;
}

// CHECK: Struct field usage (estimated accesses per field):
// CHECK-NEXT: struct record: size 280, 4 fields, 1670 accesses
// CHECK-NEXT: field 0 id offset 0 size 4 type int count 70{{$}}
// CHECK-NEXT: field 1 pos offset 4 size 8 type struct vec count 600 (hot)
// CHECK-NEXT: field 2 buf offset 12 size 256 type char[256] count 1000 (hot)
// CHECK-NEXT: field 3 tail offset 272 size 8 type long count 0 (cold)
// Moving the 8-byte tail out would not free a line; the hot fields cannot
// fit in fewer lines than they span: no notes.
// CHECK-NEXT: state_t: size 260, 2 fields, 400 accesses
// CHECK-NEXT: field 0 nInUse offset 0 size 4 type int count 0 (cold)
// CHECK-NEXT: field 1 inUse offset 4 size 256 type unsigned char[256] count 400 (hot)
// 260 bytes are 5 lines, 256 are 4.
// CHECK-NEXT: note: hot/cold mix: 1 cold field(s) share cache lines with hot ones (nInUse); move them to a separate struct
// CHECK-NOT: padding
// CHECK: SUMMARY:
