// More of the program's struct types with accesses than
// cache_frag_max_structs lists, one program type whose accesses never run,
// and the C++ library's types (a std::vector's): the report says how many
// of the program's types it left out, and the SUMMARY counts every type with
// accesses. Before, a program type without accesses, which sorts between
// the program's types and the library's, ended the count: the "more not
// shown" line was missing and the SUMMARY counted the library's types in
// one program and not in another (cppcheck: 20 of 126 shown, no line).
// RUN: %clangxx -O1 -g -fsanitize=efficiency-cache-frag %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1:cache_frag_max_structs=1 %run %t 2>&1 | FileCheck %s
#include <cstdio>
#include <vector>

struct Busy {
  long a, b;
};
struct Quiet {
  long c;
};
struct Never {
  long d;
};

__attribute__((noinline)) void touch_busy(Busy *p, int i) { p->a += i; p->b ^= i; }
__attribute__((noinline)) void touch_quiet(Quiet *p, int i) { p->c += i; }
__attribute__((noinline)) void touch_never(Never *p) { p->d++; }

Busy *volatile busy_sink;
Quiet *volatile quiet_sink;
Never *volatile never_sink;

int main(int argc, char **) {
  busy_sink = new Busy();
  quiet_sink = new Quiet();
  never_sink = new Never();
  for (int i = 0; i < 2000; i++)
    touch_busy(busy_sink, i);
  for (int i = 0; i < 500; i++)
    touch_quiet(quiet_sink, i);
  if (argc > 5)
    touch_never(never_sink);
  std::vector<std::pair<int, int>> v;
  for (int i = 0; i < 100; i++)
    v.push_back({i, -i});
  long sum = 0;
  for (auto &p : v)
    sum += p.first + p.second;
  printf("%ld %ld %ld\n", busy_sink->a, quiet_sink->c, sum);
  return 0;
}
// CHECK: Struct field usage (estimated accesses per field):
// CHECK-NEXT: Busy: size 16, 2 fields
// CHECK-NOT: Quiet:
// CHECK: (1 more struct types with accesses not shown; see cache_frag_max_structs)
// CHECK-NEXT: ({{[1-9][0-9]*}} C++ library or lambda type{{s?}} with {{[0-9]+}} accesses not shown; cache_frag_struct_library=1 lists them)
// CHECK-NEXT: SUMMARY: EfficiencySanitizer: cache-frag: {{.*}}; {{[3-9]|[1-9][0-9]+}} struct types with field accesses
// CHECK: 1999000 124750 0
