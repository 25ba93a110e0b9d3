// Writers whose writes are further apart than a transfer: two threads bump
// their own counters of one line once per 100 xorshift steps of private
// work (well over 40 ns of CPU time on any x86 core). The line is false
// sharing either way, but what it costs depends on the transfer: a store
// retires into the store buffer and the work up to the thread's next write
// hides up to CF_RUN_AHEAD_NS (70 ns) of it. With a 40 ns transfer (two
// vCPUs of one core complex) every transfer is hidden: share near 0, by
// construction, whatever the machine's load. With a 2000 ns transfer
// (cache_frag_transfer_ns), far longer than the writes' gap, each
// invalidation stalls its writer and the line costs a large share.
// The bounds (lost <= threads' time <= run) are checked on every finding.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// DEFINE: %{check} = %python %S/Inputs/check_findings.py --only --expect false-sharing:global=counters --threads 1,2
// DEFINE: %{fast} = env ESAN_OPTIONS=report_format=json:cache_frag_min_share=0:cache_frag_transfer_ns=40
// DEFINE: %{slow} = env ESAN_OPTIONS=report_format=json:cache_frag_min_share=0:cache_frag_transfer_ns=2000
// RUN: %{fast} %run %t 2> %t.fast.json
// RUN: %{check} --max-share 0.01 --at-bound no %t.fast.json
// RUN: %{slow} %run %t 2> %t.slow.json
// RUN: %{check} --min-share 0.3 %t.slow.json
// RUN: %if taskset %{ %{fast} taskset -c 0 %run %t 2> %t.fast-pinned.json %}
// RUN: %if taskset %{ %{check} --max-share 0.01 %t.fast-pinned.json %}
// RUN: %if taskset %{ %{slow} taskset -c 0 %run %t 2> %t.slow-pinned.json %}
// RUN: %if taskset %{ %{check} --min-share 0.3 %t.slow-pinned.json %}
#include "Inputs/workers.h"
#include <stdint.h>

_Alignas(64) static volatile uint64_t counters[2];

static void *worker(void *arg) {
  long me = (long)arg;
  uint64_t x = (uint64_t)me + 1;
  for (int i = 0; i < 1000000; i++) {
    for (int k = 0; k < 100; k++) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
    }
    counters[me] += x >> 40;
  }
  return 0;
}

int main(void) {
  run_workers(worker, 2);
  printf("%llu\n", (unsigned long long)(counters[0] ^ counters[1]));
  return 0;
}
