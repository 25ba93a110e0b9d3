// A C++ program as a C++ programmer writes it: std::thread workers, one
// running a lambda, one a functor, named with pthread_setname_np (one by
// itself, one by main through native_handle, both exited before the report),
// counting into a block from std::make_unique. The report names each thread
// by its name and the code it runs (the lambda's or the functor's
// operator() with its file:line), says where main created it (not
// std::thread::_M_start_thread in libstdc++, where the frame-pointer
// unwinder stopped), names the block by the program's line (not
// std::make_unique's), and leaves the lambda's closure type (clang's
// "main::$_0", the captures) out of the struct field report.
// Before: "threads: T1 'worker-0' (unknown), T2 'adder' (unknown)", "T1, T2
// created by T0 at: #0 ... in std::thread::_M_start_thread(...)", and
// "struct.main::$_0: size 8, 1 fields ... type any pointer".
// RUN: %clangxx -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t 2>&1 | FileCheck %s
// RUN: %if taskset %{ env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 taskset -c 0 %run %t 2>&1 | FileCheck %s %}
// At -O0 the callable is a function of its own, not inlined into the
// state's _M_run: it is found by name, with the line it starts on.
// RUN: %clangxx -O0 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t0
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t0 2>&1 | FileCheck %s --check-prefix=O0
// The working set: the std::thread workers' stacks by name and callable, and
// the block by the program's line.
// RUN: %clangxx -O2 -g -fsanitize=efficiency-working-set -pthread %s -o %t.ws
// RUN: env ESAN_OPTIONS=report_objects=100 %run %t.ws 2> %t.ws.txt
// RUN: FileCheck %s --check-prefix=WS < %t.ws.txt
// RUN: FileCheck %s --check-prefix=WS-LIBRARY < %t.ws.txt
#include <pthread.h>
#include <atomic>
#include <cstdio>
#include <memory>
#include <thread>

#define UNINSTRUMENTED __attribute__((disable_sanitizer_instrumentation, noinline))

struct Stats {
  long ops;
  long bytes;
};
struct alignas(64) Pair {
  Stats s[2];
};

// Lock-step turns (as Inputs/lockstep.h), in code the tool does not see.
static std::atomic<int> turn;
UNINSTRUMENTED static void wait_turn(int me) {
  while (turn.load(std::memory_order_acquire) != me)
    std::this_thread::yield();
}
UNINSTRUMENTED static void pass_turn(int me) {
  turn.store(1 - me, std::memory_order_release);
}

struct Adder {
  Pair *pair;
  void operator()() const {
    for (int i = 0; i < 2000; i++) {
      wait_turn(1);
      pair->s[1].ops++; // ADDER-LINE
      pass_turn(1);
    }
  }
};

int main() {
  auto pair = std::make_unique<Pair>(); // ALLOC-LINE
  Pair *p = pair.get();
  std::thread worker([p] {
    pthread_setname_np(pthread_self(), "worker-0");
    for (int i = 0; i < 2000; i++) {
      wait_turn(0);
      p->s[0].ops++; // LAMBDA-LINE
      pass_turn(0);
    }
  });
  std::thread adder(Adder{p}); // ADDER-CREATED
  pthread_setname_np(adder.native_handle(), "adder");
  worker.join();
  adder.join();
  std::fprintf(stderr, "total %ld\n", p->s[0].ops + p->s[1].ops);
  return 0;
}

// CHECK: total 4000
// CHECK: #1 false sharing on cache line
// CHECK-NEXT: invalidations:
// CHECK-NEXT: threads: T1 'worker-0' (main::$_0::operator()() const {{.*}}cxx-std-thread.cpp:{{6[7-9]|7[0-4]}}), T2 'adder' (Adder::operator()() const {{.*}}cxx-std-thread.cpp:{{5[5-9]|6[01]}})
// CHECK-NEXT: T1 created by T0 at:
// CHECK-NEXT: #0 0x{{[0-9a-f]+}} in main {{.*}}cxx-std-thread.cpp:67
// CHECK-NEXT: T2 created by T0 at:
// CHECK-NEXT: #0 0x{{[0-9a-f]+}} in main {{.*}}cxx-std-thread.cpp:75
// CHECK-NEXT: object: heap object at 0x{{[0-9a-f]+}}, size 64; {{.*}} allocated at:
// CHECK-NEXT: #0 0x{{[0-9a-f]+}} in main {{.*}}cxx-std-thread.cpp:65
// CHECK-NOT: _M_start_thread
// CHECK: access sites: thread reads writes bytes where
// CHECK-NEXT: T1 {{[0-9]+}} 2000 +0..7 main::$_0::operator()() const {{.*}}cxx-std-thread.cpp:71
// CHECK-NEXT: T2 {{[0-9]+}} 2000 +16..23 Adder::operator()() const {{.*}}cxx-std-thread.cpp:58
// CHECK: Struct field usage (estimated accesses per field):
// CHECK-NOT: $_
// CHECK: C++ library or lambda type{{s?}} with {{[0-9]+}} accesses not shown
// CHECK-NEXT: SUMMARY: EfficiencySanitizer: cache-frag: 1 false sharing, 0 true sharing, 0 predicted false sharing;

// O0: threads: T1 'worker-0' (main::$_0::operator()() const {{.*}}cxx-std-thread.cpp:67), T2 'adder' (Adder::operator()() const {{.*}}cxx-std-thread.cpp:55)
// O0-NEXT: T1 created by T0 at:
// O0-NEXT: #0 0x{{[0-9a-f]+}} in main {{.*}}cxx-std-thread.cpp:67
// O0: allocated at:
// O0-NEXT: #0 0x{{[0-9a-f]+}} in main {{.*}}cxx-std-thread.cpp:65
// O0: Struct field usage (estimated accesses per field):
// O0-NOT: $_
// O0: SUMMARY:

// The block is named by the program's line, and the std::thread states by
// the lines that construct them; no heap site is in the C++ library.
// WS: data structures, most lines first
// WS-DAG: heap 1 lines (64 B) main {{.*}}cxx-std-thread.cpp:65
// WS-DAG: heap 1 lines (64 B) main {{.*}}cxx-std-thread.cpp:67
// WS-DAG: heap 1 lines (64 B) main {{.*}}cxx-std-thread.cpp:75
// WS: SUMMARY:
// WS-LIBRARY: data structures, most lines first
// WS-LIBRARY-NOT: {{heap .*(std::|__new_allocator|libstdc)}}
// WS-LIBRARY-NOT: called from
// WS-LIBRARY: SUMMARY:
