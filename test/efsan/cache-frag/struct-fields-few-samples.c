// Layout advice needs enough samples: 200000 accesses at the default period
// of a thread alone (1 in 16000, each counted 16 times: docs/CacheFrag.md,
// "A thread alone") are about 12 samples, too few to call fields hot or
// cold with confidence, so no "move the cold fields" note; exactly counted
// (cache_frag_sample_period=1) the same accesses give the note.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0 %run %t 2>&1 | FileCheck %s
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t 2>&1 | FileCheck %s --check-prefix=EXACT
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json %run %t 2>&1 | FileCheck %s --check-prefix=JSON
#include <stdlib.h>

struct wide {
  long hot;
  long cold[15]; // never accessed: 120 bytes of cold data in 128
};

__attribute__((noinline)) void bump(struct wide *w) { w->hot++; }

struct wide *volatile sink;

int main(void) {
  sink = calloc(1, sizeof(struct wide));
  for (int i = 0; i < 100000; i++)
    bump(sink);
  free(sink);
  return 0;
}

// CHECK: struct wide: size 128, 2 fields
// CHECK-NEXT: field 0 hot offset 0 size 8 type long count {{[0-9]+}}{{$}}
// CHECK-NEXT: field 1 cold offset 8 size 120 type long[15] count 0{{$}}
// CHECK-NEXT: sampled accesses: too few to call a field hot or cold, or to advise on the layout
// CHECK-NOT: note:

// EXACT: struct wide: size 128, 2 fields, 200000 accesses
// EXACT-NEXT: field 0 hot offset 0 size 8 type long count 200000 (hot)
// EXACT-NEXT: field 1 cold offset 8 size 120 type long[15] count 0 (cold)
// EXACT: note: hot/cold mix

// JSON: {"name": "struct wide", "size": 128, "accesses": {{[0-9]+}}, "hot_cold_mix": false, "hot_span": 8, "sampled_accesses": {{[0-9]|[12][0-9]|3[01]}}, "layout_judged": false,
// JSON-NEXT: "fields": [
// JSON-NEXT: {"index": 0, "name": "hot", "offset": 0, "size": 8, "type": "long", "count": {{[0-9]+}}, "heat": "too_few_samples", "shares_line_with_hot": false, "address_escapes": false},
// JSON-NEXT: {"index": 1, "name": "cold", "offset": 8, "size": 120, "type": "long[15]", "count": 0, "heat": "too_few_samples", "shares_line_with_hot": false, "address_escapes": false}]}
