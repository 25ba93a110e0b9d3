// Struct field counts are exact for a single-threaded program with the window
// always open, and the report flags the hot/cold mix (in a struct larger than
// a cache line) and the hot fields that span two cache lines. Only what the
// debug info shows is no member is padding (the bytes clang adds before an
// over-aligned member); an untouched `char pad[56]` member is a cold field,
// and in a struct that fits one line no note says to move it out. Without
// debug info an untouched byte array is only "unused": it may be padding.
// With it the names are the source's (`struct node`, member names).
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t 2>&1 | FileCheck %s
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1:report_format=json %run %t 2>&1 | FileCheck %s --check-prefix=JSON
// RUN: %clang -O2 -fsanitize=efficiency-cache-frag %s -o %t.nodebug
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t.nodebug 2>&1 | FileCheck %s --check-prefix=NODEBUG

struct node {
  long key;      // written once per call
  long value;    // read once per call
  long history[6]; // never touched: cold
  long hits;     // read and written once per call
};

struct unused {
  int a;
};

struct padded_counter {
  long value;   // read and written once per call
  char pad[56]; // a member that pads: never touched
};

// clang lays this out as { i8, [63 x i8], i32, [60 x i8] }: two padding
// fields that are no member.
struct aligned_pair {
  char tag;                               // read once per call
  int value __attribute__((aligned(64))); // written once per call
};

// Each call: 1 store to key, 1 load of value, 1 load + 1 store of hits.
__attribute__((noinline)) static void touch(struct node *n, int i) {
  n->key = i;
  n->hits += n->value;
}

__attribute__((noinline)) static void bump(struct padded_counter *c) {
  c->value++;
}

struct node nodes[4];
struct padded_counter counter;

__attribute__((noinline)) static void set_pair(struct aligned_pair *p) {
  p->value = p->tag;
}

struct aligned_pair pair;

int main(void) {
  for (int i = 0; i < 1000; i++)
    touch(&nodes[i & 3], i);
  for (int i = 0; i < 300; i++)
    bump(&counter);
  for (int i = 0; i < 200; i++)
    set_pair(&pair);
  return 0;
}

// CHECK: Struct field usage (estimated accesses per field):
// CHECK-NEXT: struct node: size 72, 4 fields, 4000 accesses
// CHECK-NEXT: field 0 key offset 0 size 8 type long count 1000 (hot)
// CHECK-NEXT: field 1 value offset 8 size 8 type long count 1000 (hot)
// CHECK-NEXT: field 2 history offset 16 size 48 type long[6] count 0 (cold)
// CHECK-NEXT: field 3 hits offset 64 size 8 type long count 2000 (hot)
// CHECK-NEXT: note: hot/cold mix: 1 cold field(s) share cache lines with hot ones (history); move them to a separate struct
// CHECK-NEXT: note: hot fields span 72 bytes (at least 2 cache lines per object); group them together
// CHECK-NEXT: struct padded_counter: size 64, 2 fields, 600 accesses
// CHECK-NEXT: field 0 value offset 0 size 8 type long count 600 (hot)
// CHECK-NEXT: field 1 pad offset 8 size 56 type char[56] count 0 (cold)
// CHECK-NEXT: struct aligned_pair: size 128, 4 fields, 400 accesses
// CHECK-NEXT: field 0 tag offset 0 size 1 type char count 200 (hot)
// CHECK-NEXT: field 1 offset 1 size 63 type [63 x i8] count 0 (unused: padding?)
// CHECK-NEXT: field 2 value offset 64 size 4 type int count 200 (hot)
// CHECK-NEXT: field 3 offset 68 size 60 type [60 x i8] count 0 (unused: padding?)
// CHECK-NOT: hot/cold mix
// CHECK-NOT: struct unused
// CHECK: SUMMARY: EfficiencySanitizer: cache-frag: 0 false sharing, 0 true sharing, 0 predicted false sharing; 3 struct types with field accesses

// JSON: "structs": [
// JSON-NEXT: {"name": "struct node", "size": 72, "accesses": 4000, "hot_cold_mix": true, "hot_span": 72,
// JSON-NEXT: "fields": [
// JSON-NEXT: {"index": 0, "name": "key", "offset": 0, "size": 8, "type": "long", "count": 1000, "heat": "hot", "shares_line_with_hot": false, "address_escapes": false},
// JSON-NEXT: {"index": 1, "name": "value", "offset": 8, "size": 8, "type": "long", "count": 1000, "heat": "hot", "shares_line_with_hot": false, "address_escapes": false},
// JSON-NEXT: {"index": 2, "name": "history", "offset": 16, "size": 48, "type": "long[6]", "count": 0, "heat": "cold", "shares_line_with_hot": true, "address_escapes": false},
// JSON-NEXT: {"index": 3, "name": "hits", "offset": 64, "size": 8, "type": "long", "count": 2000, "heat": "hot", "shares_line_with_hot": false, "address_escapes": false}]},
// JSON-NEXT: {"name": "struct padded_counter", "size": 64, "accesses": 600, "hot_cold_mix": false, "hot_span": 8,
// JSON-NEXT: "fields": [
// JSON-NEXT: {"index": 0, "name": "value", "offset": 0, "size": 8, "type": "long", "count": 600, "heat": "hot", "shares_line_with_hot": false, "address_escapes": false},
// JSON-NEXT: {"index": 1, "name": "pad", "offset": 8, "size": 56, "type": "char[56]", "count": 0, "heat": "cold", "shares_line_with_hot": true, "address_escapes": false}]},
// JSON-NEXT: {"name": "struct aligned_pair", "size": 128, "accesses": 400, "hot_cold_mix": false, "hot_span": 68,
// JSON-NEXT: "fields": [
// JSON-NEXT: {"index": 0, "name": "tag", "offset": 0, "size": 1, "type": "char", "count": 200, "heat": "hot", "shares_line_with_hot": false, "address_escapes": false},
// JSON-NEXT: {"index": 1, "name": null, "offset": 1, "size": 63, "type": "[63 x i8]", "count": 0, "heat": "padding", "shares_line_with_hot": false, "address_escapes": false},
// JSON-NEXT: {"index": 2, "name": "value", "offset": 64, "size": 4, "type": "int", "count": 200, "heat": "hot", "shares_line_with_hot": false, "address_escapes": false},
// JSON-NEXT: {"index": 3, "name": null, "offset": 68, "size": 60, "type": "[60 x i8]", "count": 0, "heat": "padding", "shares_line_with_hot": false, "address_escapes": false}]}
// JSON-NEXT: ]

// Without debug info the names are the LLVM ones, nothing is called padding,
// and neither padding nor the byte array member counts as cold.
// NODEBUG: struct.padded_counter: size 64, 2 fields, 600 accesses
// NODEBUG-NEXT: field 0 offset 0 size 8 type i64 count 600 (hot)
// NODEBUG-NEXT: field 1 offset 8 size 56 type [56 x i8] count 0 (unused)
// NODEBUG-NEXT: struct.aligned_pair: size 128, 4 fields, 400 accesses
// NODEBUG-NEXT: field 0 offset 0 size 1 type i8 count 200 (hot)
// NODEBUG-NEXT: field 1 offset 1 size 63 type [63 x i8] count 0 (unused)
// NODEBUG-NEXT: field 2 offset 64 size 4 type i32 count 200 (hot)
// NODEBUG-NEXT: field 3 offset 68 size 60 type [60 x i8] count 0 (unused)
// NODEBUG-NOT: hot/cold mix
// NODEBUG-NOT: padding
// NODEBUG: SUMMARY:
