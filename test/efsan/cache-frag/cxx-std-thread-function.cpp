// std::thread workers that run a function through a pointer, as leveldb's
// Env::StartThread does (std::thread(function, arg)), one through
// std::bind, and one std::async (whose thread runs the shared state's
// _M_run, as cppcheck -j2's do): _M_run calls the callable indirectly, so
// its code names no function of the program. Each thread is named by the
// function it runs.
// Before: the code past _M_run's end was taken for the thread's ("T1
// efsan.module_ctor", in leveldb "T1 leveldb::PosixLogger::~PosixLogger()"),
// then the callable's type for every thread ("T1 void (*)(void*), T2 void
// (*)(void*)").
// RUN: %clangxx -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t 2>&1 | FileCheck %s
// RUN: %if taskset %{ env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 taskset -c 0 %run %t 2>&1 | FileCheck %s %}
// RUN: %clangxx -O0 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t0
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t0 2>&1 | FileCheck %s
// The working set names the threads' stacks the same way (the std::async
// thread's: the others touch no line of their stacks).
// RUN: %clangxx -O2 -g -fsanitize=efficiency-working-set -pthread %s -o %t.ws
// RUN: env ESAN_OPTIONS=report_objects=100 %run %t.ws 2>&1 | FileCheck %s --check-prefix=WS
#include <atomic>
#include <cstdio>
#include <functional>
#include <future>
#include <thread>

#define UNINSTRUMENTED __attribute__((disable_sanitizer_instrumentation, noinline))

struct Counters {
  long a, b, c;
};
// On one line whatever the runtime's own data shifts the program's by (a layout
// with c on the next line left T4 out of the finding).
alignas(64) static Counters counters;

// Lock-step turns among three threads, in code the tool does not see, so
// that the threads take the line from each other whatever the machine.
static std::atomic<int> turn;
UNINSTRUMENTED static void wait_turn(int me) {
  while (turn.load(std::memory_order_acquire) != me)
    std::this_thread::yield();
}
UNINSTRUMENTED static void pass_turn(int me) {
  turn.store((me + 1) % 3, std::memory_order_release);
}

static void count_a(void *arg) {
  for (int i = 0; i < 2000; i++) {
    wait_turn(0);
    ((Counters *)arg)->a++;
    pass_turn(0);
  }
}
static void count_b(void *arg) {
  for (int i = 0; i < 2000; i++) {
    wait_turn(1);
    ((Counters *)arg)->b++;
    pass_turn(1);
  }
}
static void count_c(Counters *counters, int step) {
  for (int i = 0; i < 2000; i++) {
    wait_turn(2);
    counters->c += step;
    pass_turn(2);
  }
}

// Not inlined: the thread's state holds the pointer, as when a library
// starts threads for its callers.
__attribute__((noinline)) static std::thread start(void (*function)(void *),
                                                    void *arg) {
  return std::thread(function, arg);
}

static long sum_up(const long *values, int n) {
  long sum = 0;
  for (int i = 0; i < n; i++)
    sum += values[i];
  return sum;
}

int main() {
  static long values[1024];
  for (int i = 0; i < 1024; i++)
    values[i] = i;
  std::future<long> total = std::async(std::launch::async, sum_up, values, 1024);
  std::thread a = start(count_a, &counters), b = start(count_b, &counters);
  std::thread c(std::bind(count_c, &counters, 1));
  a.join();
  b.join();
  c.join();
  printf("%ld %ld %ld %ld\n", counters.a, counters.b, counters.c, total.get());
  return 0;
}
// CHECK: false sharing on cache line
// CHECK: threads:
// CHECK-DAG: T2 count_a(void*)
// CHECK-DAG: T3 count_b(void*)
// CHECK-DAG: T4 count_c(Counters*, int)
// CHECK-NOT: module_ctor
// CHECK: object: global 'counters'
// CHECK: 2000 2000 2000 523776
// WS-NOT: _Async_state_impl
// WS: thread T1 stack (sum_up(long const*, int))
// WS-NOT: _Async_state_impl
// WS: 2000 2000 2000 523776
