// cache-frag: a write in a loop carries, in flags bits 16-23 of its access
// call, the instructions one iteration of its innermost loop runs per write
// to a line (a block's writes to other words within 64 bytes of one base
// count once; each block as often as the block frequencies run it per
// iteration; an inner loop's times its constant trip count), read as the
// profile's loop that takes as long (a loop without inner loops counts at
// most its longest chain of dependent instructions, or its instructions
// over 4, plus what runs beside the profile loops' chains: 3 per write to a
// line and 3 per iteration), and in bits 24-31 the accesses the countdown
// counts per write to a line, in quarters (the runtime tells from them the
// part of the loop's writes a line gets).
// The runtime reads the machine profile's loops at that work: what a line
// both threads keep writing costs a thread falls as the work between its
// writes grows (docs/CacheFrag.md, "The machine profile"). The loops below
// are the profile's shapes (efsan_cache_frag_calibrate.c) written in C: the
// counts checked here are the ones the runtime places those shapes at
// (efsan_cache_frag_machine.c and efsan_cache_frag_internal.h, CF_WORK_*). A
// word written more than once per iteration sets bit 3 too (with little work
// between, a run of writes, which the profile's tightest loops bound: the
// runtime decides). A write outside any loop is not marked. Flags 1 is a
// plain write.
// RUN: %stock_clang -Xclang -load -Xclang %efsan_plugin -fpass-plugin=%efsan_plugin -mllvm -efsan-tool=cache-frag \
// RUN:   -O2 -S -emit-llvm %s -o - | FileCheck %s
#include <stdint.h>
typedef uint64_t u64;

// CHECK-LABEL: define {{.*}}@add_value(
// One write per iteration: load, add, store, the value's add and xor, and
// the loop's own add, compare and branch; a load and a store per write,
// 8 quarters: 8 << 24 | 8 << 16 | 1 = 134742017.
// CHECK: call preserve_mostcc void @__efsan_cache_frag_access(ptr %{{.*}}, i64 8, i32 134742017,
void add_value(volatile u64 *word, u64 base) {
#pragma clang loop unroll(disable)
  for (u64 i = 0; i < 4096; i++)
    *word += (base + i) ^ 0x5bd1;
}

// CHECK-LABEL: define {{.*}}@inc_each(
// 8 << 24 | 6 << 16 | 1 = 134610945.
// CHECK: call preserve_mostcc void @__efsan_cache_frag_access(ptr %{{.*}}, i64 8, i32 134610945,
void inc_each(volatile u64 *word) {
#pragma clang loop unroll(disable)
  for (unsigned i = 0; i < 4096; i++)
    (*word)++;
}

#define STEP                                                                   \
  x ^= x << 13;                                                                \
  x ^= x >> 7;                                                                 \
  x ^= x << 17;

// N steps of xorshift, then one write: the profile's loops with work.
#define WORK(N)                                                                \
  void work_##N(volatile u64 *word, u64 base) {                                \
    u64 x = base | 1;                                                          \
    _Pragma("clang loop unroll(disable)")                                      \
    for (unsigned i = 0; i < 4096; i++) {                                      \
      for (unsigned k = 0; k < N; k++) {                                       \
        STEP                                                                   \
      }                                                                        \
      *word += x;                                                              \
    }                                                                          \
  }

// CHECK-LABEL: define {{.*}}@work_1(
// 6 instructions a step: 8 << 24 | 12 << 16 | 1 = 135004161.
// CHECK: call preserve_mostcc void @__efsan_cache_frag_access(ptr %{{.*}}, i64 8, i32 135004161,
WORK(1)

// CHECK-LABEL: define {{.*}}@work_2(
// 8 << 24 | 18 << 16 | 1 = 135397377.
// CHECK: call preserve_mostcc void @__efsan_cache_frag_access(ptr %{{.*}}, i64 8, i32 135397377,
WORK(2)

// CHECK-LABEL: define {{.*}}@work_4(
// 8 << 24 | 30 << 16 | 1 = 136183809.
// CHECK: call preserve_mostcc void @__efsan_cache_frag_access(ptr %{{.*}}, i64 8, i32 136183809,
WORK(4)

// CHECK-LABEL: define {{.*}}@work_8(
// 8 << 24 | 54 << 16 | 1 = 137756673.
// CHECK: call preserve_mostcc void @__efsan_cache_frag_access(ptr %{{.*}}, i64 8, i32 137756673,
WORK(8)

// CHECK-LABEL: define {{.*}}@work_32(
// 8 << 24 | 247 << 16 | 1 = 150405121.
// CHECK: call preserve_mostcc void @__efsan_cache_frag_access(ptr %{{.*}}, i64 8, i32 150405121,
WORK(32)

// A step of xorshift and a step of another mix in a chain of its own (so
// that the vectoriser does not pair them), then one write: 18 instructions,
// but the core runs the chains side by side and an iteration takes as long
// as the loop with one step's (an AMD VM: two steps in two chains and one
// step both lost 0.77-0.83 of their time to a line both threads write, two
// steps in one chain 0.65): read as that loop, 12 (8 << 24 | 12 << 16 | 1
// = 135004161).
// CHECK-LABEL: define {{.*}}@two_chains(
// CHECK: call preserve_mostcc void @__efsan_cache_frag_access(ptr %{{.*}}, i64 8, i32 135004161,
void two_chains(volatile u64 *word, u64 *out, u64 base) {
  u64 x = base | 1, y = base | 2;
#pragma clang loop unroll(disable)
  for (unsigned i = 0; i < 4096; i++) {
    STEP
    y *= 0x9e3779b97f4a7c15ull;
    y ^= y >> 29;
    y *= 0xbf58476d1ce4e5b9ull;
    y ^= y >> 32;
    *word += x;
  }
  *out = y;
}

// Two fields of one struct written each iteration (fs_stats16's loop): one
// write to a line, as the core commits both each time it holds the line; the
// iteration's 22 instructions less the second field's update (its load, add
// and store: no time of their own beside the work), 19, read as its chain of
// two steps (12) and 3 + 3 beside it, 18; and 4 accesses (16 quarters), per
// write to a line: 16 << 24 | 18 << 16 | 1 = 269615105.
struct stats {
  u64 count, total;
};
// CHECK-LABEL: define {{.*}}@fields_of_one_line(
// CHECK: call preserve_mostcc void @__efsan_cache_frag_access(ptr %{{.*}}, i64 8, i32 269615105,
// CHECK: call preserve_mostcc void @__efsan_cache_frag_access(ptr %{{.*}}, i64 8, i32 269615105,
#define FIELDS(NAME, TYPE)                                                     \
  void NAME(volatile TYPE *s, long me, u64 base) {                             \
    u64 x = base | 1;                                                          \
    _Pragma("clang loop unroll(disable)")                                      \
    for (unsigned i = 0; i < 4096; i++) {                                      \
      STEP                                                                     \
      STEP                                                                     \
      s[me].count++;                                                           \
      s[me].total += x >> 50;                                                  \
    }                                                                          \
  }
FIELDS(fields_of_one_line, struct stats)

// The same two writes 64 bytes apart: two lines, two writes to lines; the
// iteration's 22 instructions read as 21 (its chain of 12, 3 per write and
// 3), 10.5 per write, 11 rounded: 8 << 24 | 11 << 16 | 1 = 134938625.
struct apart {
  u64 count;
  u64 pad[7];
  u64 total;
};
// CHECK-LABEL: define {{.*}}@fields_apart(
// CHECK: call preserve_mostcc void @__efsan_cache_frag_access(ptr %{{.*}}, i64 8, i32 134938625,
// CHECK: call preserve_mostcc void @__efsan_cache_frag_access(ptr %{{.*}}, i64 8, i32 134938625,
FIELDS(fields_apart, struct apart)

// An inner loop the compiler keeps, with a trip count it knows: counted
// 100 times per write of the outer loop, which clang unrolls by two (so the
// word is written twice per iteration, far apart; 255 is the most the flags
// hold, for the instructions and for the 100 reads per write alike:
// 255 << 24 | 255 << 16 | 8 | 1, -65527 as a signed i32).
// CHECK-LABEL: define {{.*}}@inner_loop(
// CHECK: call preserve_mostcc void @__efsan_cache_frag_access(ptr %{{.*}}, i64 8, i32 -65527,
void inner_loop(volatile u64 *word, volatile u64 *scratch, u64 n) {
  for (u64 i = 0; i < n; i++) {
#pragma clang loop unroll(disable) vectorize(disable)
    for (unsigned k = 0; k < 100; k++)
      (void)scratch[k];
    *word += i;
  }
}

// A write under a branch counts as often as the block frequencies run its
// block: with no branch weights, LLVM guesses an equality test true 3/8 of
// the time, so the 12 instructions every iteration runs and the write's
// block of 4 make 13.5 an iteration, read as its chain of one step and 3 *
// 3/8 + 3 beside it, 10.1, and 10.1 / (3/8) = 27 per write, not 16; its
// load and store, 2 accesses per write (8 << 24 | 27 << 16 | 1 =
// 135987201).
// CHECK-LABEL: define {{.*}}@conditional(
// CHECK: call preserve_mostcc void @__efsan_cache_frag_access(ptr %{{.*}}, i64 8, i32 135987201,
void conditional(volatile u64 *word, u64 base) {
  u64 x = base | 1;
#pragma clang loop unroll(disable)
  for (unsigned i = 0; i < 4096; i++) {
    STEP
    if ((x & 3) == 0)
      (*word)++;
  }
}

// Increments in a row: the word is written four times per iteration, 4
// instructions per write (8 << 24 | 4 << 16 | 8 | 1 = 134479881).
// CHECK-LABEL: define {{.*}}@inc_run(
// CHECK: call preserve_mostcc void @__efsan_cache_frag_access(ptr %{{.*}}, i64 8, i32 134479881,
void inc_run(volatile u64 *word) {
#pragma clang loop unroll(disable)
  for (unsigned i = 0; i < 1024; i++) {
    (*word)++;
    (*word)++;
    (*word)++;
    (*word)++;
  }
}

// The profile's atomics (flags 3: a locked write): a bare add, its loop's
// add, compare and branch: 4 << 24 | 4 << 16 | 3 = 67371011; after a step
// of xorshift: 4 << 24 | 10 << 16 | 3 = 67764227.
// CHECK-LABEL: define {{.*}}@locked_each(
// CHECK: call preserve_mostcc void @__efsan_cache_frag_access(ptr %{{.*}}, i64 8, i32 67371011,
void locked_each(u64 *word) {
#pragma clang loop unroll(disable)
  for (unsigned i = 0; i < 4096; i++)
    __atomic_fetch_add(word, 1, __ATOMIC_RELAXED);
}

// CHECK-LABEL: define {{.*}}@locked_work_1(
// CHECK: call preserve_mostcc void @__efsan_cache_frag_access(ptr %{{.*}}, i64 8, i32 67764227,
void locked_work_1(u64 *word, u64 base) {
  u64 x = base | 1;
#pragma clang loop unroll(disable)
  for (unsigned i = 0; i < 4096; i++) {
    STEP
    __atomic_fetch_add(word, x, __ATOMIC_RELAXED);
  }
}

// CHECK-LABEL: define {{.*}}@outside_loops(
// CHECK: call preserve_mostcc void @__efsan_cache_frag_access(ptr %{{.*}}, i64 8, i32 1,
// CHECK-NOT: i32 {{[0-9][0-9][0-9][0-9][0-9]+}},
// CHECK-LABEL: define {{.*}}efsan.module_ctor
void outside_loops(volatile u64 *word) { *word += 1; }
