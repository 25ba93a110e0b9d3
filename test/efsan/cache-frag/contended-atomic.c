// Two threads bump one atomic counter (a locked read-modify-write each
// time) with nothing else in their loop. A locked instruction cannot retire
// into the store buffer, so every transfer of the line stalls its thread:
// the claim may exceed the cap of plain stores (CF_CONTENDED_SHARE, 0.65 of
// the threads' overlap), up to CF_CONTENDED_RMW_SHARE (0.9). By
// construction, not timing: each thread is active on the line all its life,
// alongside the other (same clock span), and its estimated invalidations at
// a fixed 150 ns transfer are many times its CPU time, so the cap decides:
// share = 0.9 * threads' time / run, and the run is little more than the two
// threads. The same loop with plain increments of the same bytes (-DPLAIN)
// is never claimed above the plain-store cap: the pass's flag makes the
// difference (impact.bound_share: 0.9 and 0.65).
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread -DPLAIN %s -o %t.plain
// DEFINE: %{opts} = report_format=json:cache_frag_min_share=0:cache_frag_transfer_ns=150
// DEFINE: %{check} = %python %S/Inputs/check_findings.py --only --expect true-sharing:global=total --threads 1,2
// RUN: env ESAN_OPTIONS=%{opts} %run %t 2> %t.json
// RUN: %{check} --bound-share 0.9 --min-share 0.7 %t.json
// RUN: env ESAN_OPTIONS=%{opts} %run %t.plain 2> %t.plain.json
// RUN: %{check} --bound-share 0.65 --max-share 0.66 %t.plain.json
// RUN: %if taskset %{ env ESAN_OPTIONS=%{opts} taskset -c 0 %run %t 2> %t.pinned.json %}
// RUN: %if taskset %{ %{check} --bound-share 0.9 --min-share 0.7 %t.pinned.json %}
// RUN: %if taskset %{ env ESAN_OPTIONS=%{opts} taskset -c 0 %run %t.plain 2> %t.plain-pinned.json %}
// RUN: %if taskset %{ %{check} --bound-share 0.65 --max-share 0.66 %t.plain-pinned.json %}
#include "Inputs/workers.h"
#include <stdint.h>

#define ROUNDS 10000000

#ifdef PLAIN
_Alignas(64) static volatile uint64_t total;
#else
_Alignas(64) static _Atomic uint64_t total;
#endif

static void *worker(void *arg) {
  uint64_t step = (uint64_t)(long)arg + 1;
  for (int i = 0; i < ROUNDS; i++)
    total += step;
  return 0;
}

int main(void) {
  run_workers(worker, 2);
  printf("%llu\n", (unsigned long long)total);
  return 0;
}
