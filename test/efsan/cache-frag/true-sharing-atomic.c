// One atomic counter hammered by all threads: true sharing (every thread
// writes the same bytes), reported once, never as false sharing.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// DEFINE: %{check} = %python %S/Inputs/check_findings.py --only --expect true-sharing:global=hits --threads 1,2,3 --bytes 1:0:8
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json %run %t 2> %t.default.json
// RUN: %{check} %t.default.json
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json:cache_frag_sample_period=1 %run %t 2> %t.exact.json
// RUN: %{check} %t.exact.json
// RUN: %if taskset %{ env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json taskset -c 0 %run %t 2> %t.pinned.json %}
// RUN: %if taskset %{ %{check} %t.pinned.json %}
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0 %run %t 2>&1 | FileCheck %s
#include "Inputs/workers.h"
#include <stdio.h>

#define NTHREADS 3
#define ROUNDS 300000

_Alignas(128) long hits;

static void *worker(void *arg) {
  for (int i = 0; i < ROUNDS; i++)
    __atomic_fetch_add(&hits, 1, __ATOMIC_RELAXED);
  return 0;
}

int main(void) {
  run_workers(worker, NTHREADS);
  printf("%ld\n", hits);
  return 0;
}

// CHECK-NOT: false sharing on
// CHECK: #1 true sharing on cache line [[LINE:0x[0-9a-f]+]]: {{.*}} of the run; about {{.*}} of wall time); threads T1 T2 T3
// CHECK: object: global 'hits' at [[LINE]], size 8; written bytes that invalidate: +0..7
// CHECK: suggestion: threads write the same bytes of global 'hits' (true sharing; padding cannot help)
// CHECK-NOT: #2
// CHECK: SUMMARY: EfficiencySanitizer: cache-frag: 0 false sharing, 1 true sharing, 0 predicted false sharing;
