// A program pinned to one CPU (taskset -c 0) is priced with the machine's
// transfer, not a default: the measurement's two threads run on a CPU of the
// mask and on another online CPU (the claims of a pinned run are those of
// the same program unpinned, docs/design/CacheFragImpact.md, "Transfer cost"). Before, a
// one-CPU mask gave up at once: "default (one CPU)". On a loaded machine
// every attempt may meet busy CPUs; the report then says so, and never
// claims the one-CPU default.
// REQUIRES: taskset, two-cpus-online
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: env ESAN_OPTIONS=verbosity=2:cache_frag_min_share=0 taskset -c 0 %run %t 2>&1 | FileCheck %s
// RUN: env ESAN_OPTIONS=report_format=json:cache_frag_min_share=0 taskset -c 0 %run %t 2>&1 | FileCheck %s --check-prefix=JSON
// The measurement is in the background: it never delays the program, and
// the report waits for it only when it has lines to price.
// RUN: env ESAN_OPTIONS=verbosity=2:cache_frag_measure_transfer=0 taskset -c 0 %run %t 2>&1 | FileCheck %s --check-prefix=OFF
//
// CHECK: cache-frag: ping-pong between CPUs [[FIRST:[0-9]+]] and {{[0-9]+}}: {{[0-9]+}} attempts
// CHECK-NOT: one CPU
// CHECK: A line moving between cores costs {{[0-9]+}} ns ({{measured between CPUs [0-9]+ and [0-9]+, outside the program's affinity mask|default \(the ping-pong did not run on two CPUs\)}});
// CHECK: false sharing
// JSON: "transfer_source": "{{measured between CPUs [0-9]+ and [0-9]+, outside the program's affinity mask|default \(the ping-pong did not run on two CPUs\)}}",
// OFF-NOT: ping-pong between
// OFF: A line moving between cores costs 150 ns (default (cache_frag_measure_transfer=0));
#define ROUNDS 20000
#include "Inputs/lockstep.h"

_Alignas(64) volatile long counters[8];

static void count(int me) { counters[me]++; }

int main(void) {
  lockstep_run(count);
  return 0;
}
