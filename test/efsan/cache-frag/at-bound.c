// Two threads that hammer their own counters of one line keep taking it
// from each other: the model's stalls exceed what a thread can lose to one
// line, so each is claimed at that bound (65% of its time beside the other)
// and the report says the figure is the bound, with the spread measured
// fixes of such lines had (docs/CacheFrag.md, "Impact and thresholds").
// Writers whose writes are 2,000 xorshift steps apart are priced from
// their stalls, under the bound, and carry no such line. Idle and pinned;
// the viewer's page of the hammered run says it as well.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread -DSTEPS=2000 %s -o %t.slow
// DEFINE: %{check} = %python %S/Inputs/check_findings.py --only --expect false-sharing:global=counters --threads 1,2
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0 %run %t 2>&1 | FileCheck %s
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json %run %t 2> %t.json
// RUN: %{check} --at-bound yes --min-share 0.3 %t.json
// The page says it too (check_page.py: the page says so exactly where the
// report's impact.at_bound is true), in headless Chromium.
// RUN: %efsan_view %t.json -o %t.html
// RUN: %python %S/../viewer/Inputs/check_page.py %t.html %t.png %t.json | FileCheck %s --check-prefix=PAGE
// RUN: %if taskset %{ env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json taskset -c 0 %run %t 2> %t.pinned.json %}
// RUN: %if taskset %{ %{check} --at-bound yes --min-share 0.3 %t.pinned.json %}
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t.slow 2>&1 | FileCheck %s --check-prefix=SLOW
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1:report_format=json %run %t.slow 2> %t.slow.json
// RUN: %{check} --at-bound no %t.slow.json
// CHECK: #1 false sharing on cache line {{.*}}; threads T1 T2
// CHECK: suggestion:
// CHECK-NEXT: estimate: the threads keep taking the line from each other, so each is claimed at the bound of what a thread loses to one line, 65% of its time beside the other; fixes of such lines measured 45-95% (the machine decides; docs/CacheFrag.md, "Impact and thresholds")
// PAGE: page ok
// SLOW: #1 false sharing on cache line {{.*}}; threads T1 T2
// SLOW: suggestion:
// SLOW-NOT: estimate:
#include "Inputs/workers.h"
#include <stdint.h>

#ifndef STEPS
#define STEPS 0
#define UPDATES 20000000
#else
#define UPDATES 2000
#endif

_Alignas(64) static volatile uint64_t counters[2];

static void *worker(void *arg) {
  long me = (long)arg;
  uint64_t x = (uint64_t)me + 1;
  for (int i = 0; i < UPDATES; i++) {
    for (int k = 0; k < STEPS; k++) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
    }
    counters[me] += x;
  }
  return 0;
}

int main(void) {
  run_workers(worker, 2);
  return (int)(counters[0] + counters[1]) & 0;
}
