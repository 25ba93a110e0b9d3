// Advice for a C++ type is spelt in C++: C's _Alignas(64) does not compile
// as C++ on a type. The report's suggestion declares the element type
// aligned (`struct alignas(64) Stats`, or with
// std::hardware_destructive_interference_size); the test takes the
// declaration out of the report and compiles it with clang++, checking that
// each element then has a line of its own. The type's language comes from
// its debug info (the pass marks layouts of a C++ unit); C types keep C's
// spelling (json.c, member-names.c, false-sharing-heap.c).
// Before: "e.g. _Alignas(64) on its first member ops, or pad Stats to 64
// bytes", which clang++ rejects.
// RUN: %clangxx -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t 2> %t.txt
// RUN: FileCheck %s < %t.txt
// RUN: %python %S/Inputs/compile_advice.py %t.txt %t.advice "long ops; long bytes;"
// RUN: %clangxx -std=c++17 -fsyntax-only -Werror %t.advice.1.cpp
// RUN: %clangxx -std=c++17 -fsyntax-only %t.advice.2.cpp
// Pinned to one CPU, the same advice.
// RUN: %if taskset %{ env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 taskset -c 0 %run %t 2>&1 | FileCheck %s %}
#include <atomic>
#include <cstdio>
#include <thread>

#define UNINSTRUMENTED __attribute__((disable_sanitizer_instrumentation, noinline))

struct Stats {
  long ops;
  long bytes;
};
alignas(64) Stats stats[2];

static std::atomic<int> turn;
UNINSTRUMENTED static void wait_turn(int me) {
  while (turn.load(std::memory_order_acquire) != me)
    std::this_thread::yield();
}
UNINSTRUMENTED static void pass_turn(int me) {
  turn.store(1 - me, std::memory_order_release);
}

static void work(int me) {
  for (int i = 0; i < 2000; i++) {
    wait_turn(me);
    stats[me].ops++;
    pass_turn(me);
  }
}

int main() {
  std::thread a(work, 0), b(work, 1);
  a.join();
  b.join();
  std::fprintf(stderr, "total %ld\n", stats[0].ops + stats[1].ops);
  return 0;
}

// CHECK: total 4000
// CHECK: #1 false sharing on cache line
// CHECK: object: global 'stats' at 0x{{[0-9a-f]+}}, size 32
// CHECK-NOT: _Alignas
// CHECK: suggestion: threads write different bytes of global 'stats' on one cache line: align it to 64 bytes and pad each thread's part to 64 bytes (Stats is 16 bytes, 4 per line: make each element 64 bytes, e.g. declare it `struct alignas(64) Stats` (or alignas(std::hardware_destructive_interference_size), C++17's <new>), or pad Stats to 64 bytes), or accumulate in thread-local variables; the fix saves {{.*}}
// CHECK-NOT: _Alignas
// CHECK: SUMMARY: EfficiencySanitizer: cache-frag: 1 false sharing
