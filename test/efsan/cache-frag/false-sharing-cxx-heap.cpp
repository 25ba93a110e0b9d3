// A std::vector<std::atomic<long>> built in a user function, one element per
// thread: the two elements share a cache line of the vector's heap block. The
// block's allocation stack must start in the program's frames, not in
// libstdc++'s operator new (built without frame pointers, where the
// frame-pointer unwinder loses the program's frames): the runtime defines
// operator new itself.
// Fails before the runtime's operator new: the stack was
// "#0 operator new(unsigned long)", "#1 main", the vector's function lost.
// RUN: %clangxx -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t 2>&1 | FileCheck %s
// The same at -O0, where the allocation goes through std::allocator's
// (instrumented, frame-pointer) functions.
// RUN: %clangxx -O0 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t0
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t0 2>&1 | FileCheck %s
#include <atomic>
#include <vector>

#include "Inputs/lockstep.h"

static std::vector<std::atomic<long>> *counters;

static void count(int me) {
  (*counters)[me].fetch_add(1, std::memory_order_relaxed);
}

__attribute__((noinline)) static std::vector<std::atomic<long>> *
make_counters() {
  return new std::vector<std::atomic<long>>(2); // the allocation line
}

int main() {
  counters = make_counters();
  lockstep_run(count);
  fprintf(stderr, "total %ld\n", (*counters)[0].load() + (*counters)[1].load());
  delete counters;
  return 0;
}

// The leading frames of std::vector and std::allocator (inlined at -O2,
// instantiated at -O0) are left out: the stack starts at the program's line.
// CHECK: total 4000
// CHECK: false sharing on cache line [[LINE:0x[0-9a-f]+]]
// CHECK: object: heap object at 0x{{[0-9a-f]+}}, size 16; {{.*}} allocated at:
// CHECK-NEXT: #0 0x{{[0-9a-f]+}} in make_counters() {{.*}}false-sharing-cxx-heap.cpp:28
// CHECK-NEXT: #1 0x{{[0-9a-f]+}} in main {{.*}}false-sharing-cxx-heap.cpp:32
// The access sites are the program's line that called the (inlined)
// std::atomic code, not the library header's line.
// CHECK: access sites: thread reads writes bytes where
// CHECK-NEXT: T1 0 2000 +{{[0-9]+}}..{{[0-9]+}} count(int) {{.*}}false-sharing-cxx-heap.cpp:23
// CHECK-NEXT: T2 0 2000 +{{[0-9]+}}..{{[0-9]+}} count(int) {{.*}}false-sharing-cxx-heap.cpp:23
// The library's internals are not named as members.
// CHECK-NOT: _M_i
// CHECK: suggestion: threads write different bytes of the heap object allocated at {{.*}}false-sharing-cxx-heap.cpp:28 on one cache line
// CHECK: SUMMARY: EfficiencySanitizer: cache-frag: 1 false sharing
