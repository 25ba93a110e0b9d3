// C++ struct field usage from debug info: an array member, an embedded
// struct and a std::string member, each accessed a known number of times,
// counted for the member that holds them (the string's inlined size() reads
// the string's length: a read of `label`); source type names (std::string,
// char[64]); the C++ library's own types folded into one line. The string's
// constructor stores the address of its own inline buffer into `label`
// (libstdc++'s short-string pointer): an escape, so the count of `label` is
// a lower bound (its characters, read through that pointer, count for no
// field).
// RUN: %clangxx -O2 -g -fsanitize=efficiency-cache-frag %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t 2>&1 | FileCheck %s
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1:cache_frag_struct_library=1 %run %t 2>&1 | FileCheck %s --check-prefix=LIBRARY
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1:report_format=json %run %t 2>&1 | FileCheck %s --check-prefix=JSON
#include <algorithm>
#include <string>
#include <vector>

struct vec {
  int x;
  int y;
};
struct record {
  int id;
  vec pos;
  char buf[64];
  std::string label;
  long tail;
  // Spelled as C++ spells it: "const char *const", not "const const char *".
  const char *const name = "record";
};

// N = 500 stores to buf[i], M = 200 loads and 200 stores of pos.y, K = 300
// loads of label's length (plus the few accesses of the string's
// constructor and destructor); id and tail are never accessed.
__attribute__((noinline)) void fill(record *r, int i) { r->buf[i] = (char)i; }
__attribute__((noinline)) void move(record *r) { r->pos.y++; }
__attribute__((noinline)) unsigned long label_length(record *r) {
  return r->label.size();
}

record *volatile sink;

int main() {
  record *r = new record();
  sink = r;
  for (int i = 0; i < 500; i++)
    fill(sink, i & 63);
  for (int i = 0; i < 200; i++)
    move(sink);
  unsigned long total = 0;
  for (int i = 0; i < 300; i++)
    total += label_length(sink);
  // The C++ library's types: a sorted vector of std::pair.
  std::vector<std::pair<int, int>> v(64);
  for (int i = 0; i < 64; i++)
    v[i] = {(i * 37) % 64, i};
  std::sort(v.begin(), v.end());
  delete r;
  return (int)(total + v[0].second);
}

// CHECK: Struct field usage (estimated accesses per field):
// CHECK-NEXT: record: size 128, 6 fields, 12{{0[0-9]}} accesses
// CHECK-NEXT: field 0 id offset 0 size 4 type int count 0 (cold)
// CHECK-NEXT: field 1 pos offset 4 size 8 type vec count 400 (hot)
// CHECK-NEXT: field 2 buf offset 12 size 64 type char[64] count 500 (hot)
// CHECK-NEXT: field 3 label offset 80 size 32 type std::string count 30{{[0-9]}} (hot; lower bound: address escapes)
// CHECK-NEXT: field 4 tail offset 112 size 8 type long count 0 (cold)
// CHECK-NEXT: field 5 name offset 120 size 8 type const char *const count {{[0-9]}} (cold)
// CHECK-NOT: std::
// CHECK: C++ library or lambda type{{s?}} with {{[0-9]+}} accesses not shown; cache_frag_struct_library=1 lists them
// CHECK-NEXT: SUMMARY:

// LIBRARY: record: size 128
// LIBRARY: std::
// LIBRARY-NOT: not shown

// JSON: "structs": [
// JSON-NEXT: {"name": "record", "size": 128, "accesses": 12{{0[0-9]}},
// JSON: "folded_library_structs": {"types": {{[1-9][0-9]*}}, "accesses": {{[1-9][0-9]*}}}
