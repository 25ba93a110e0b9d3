// A short program (a few ms unloaded) with default options: the false
// sharing is found. Sampling is by accesses, one in 1000 per thread: 20000
// accesses per thread give about 20 samples each, enough for the parallel
// estimate, however the scheduler ran the threads (hence also pinned to one
// core, where they run one after the other). The threads spend most of their
// time waiting for their turn: what fixing the line saves is a few percent of
// the run, near cache_frag_min_share's default, so detection is checked with
// every finding shown.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// DEFINE: %{check} = %python %S/Inputs/check_findings.py --only --expect false-sharing:global=counters --threads 1,2 --min-invalidations 1000
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json %run %t 2> %t.default.json
// RUN: %{check} %t.default.json
// RUN: %if taskset %{ env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json taskset -c 0 %run %t 2> %t.pinned.json %}
// RUN: %if taskset %{ %{check} %t.pinned.json %}
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0 %run %t 2>&1 | FileCheck %s
//
// 2 x 10000 lock-step turns of counters[me]++; the model expects about
// 2 * 0.5 * 20000 * (1 - e^-2) = 17293 invalidations if the threads ran in
// parallel (the minimum asked for leaves room for sampling noise).
#define ROUNDS 10000
#include "Inputs/lockstep.h"

_Alignas(64) volatile long counters[8];

static void count(int me) { counters[me]++; }

int main(void) {
  lockstep_run(count);
  return 0;
}

// CHECK: Counts are sampled: each thread samples one access in 1000 on average, up to 16 times fewer while it runs alone or finds nothing shared, each sample then counted as many times; counts shown are samples times 1000.
// CHECK: #1 false sharing on cache line {{0x[0-9a-f]+}}: the fix saves {{.*}} of CPU time ({{.*}} of the run; about {{.*}} of wall time); threads T1 T2
// CHECK-NEXT: invalidations: {{[0-9]+}} observed, {{[0-9]+}} estimated if the threads run in parallel; 0 of the larger count were true sharing
// CHECK-NEXT: threads: T1 lockstep_worker, T2 lockstep_worker
// CHECK-NEXT: T1, T2 created by T0 at:
// CHECK: object: global 'counters' at {{0x[0-9a-f]+}}, size 64; written bytes that invalidate: +0..15
// CHECK: SUMMARY: EfficiencySanitizer: cache-frag: 1 false sharing, 0 true sharing, 0 predicted false sharing;
