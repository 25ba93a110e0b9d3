// A byte array written interleaved: thread t writes the bytes i with
// i % 4 == t of one 64-byte line. Every 8-byte word is written by all four
// threads, but no byte by two of them: false sharing, not true sharing.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// DEFINE: %{check} = %python %S/Inputs/check_findings.py --only --expect false-sharing:global=bytes --threads 1,2,3,4
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json %run %t 2> %t.default.json
// RUN: %{check} %t.default.json
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json:cache_frag_sample_period=1 %run %t 2> %t.exact.json
// RUN: %{check} %t.exact.json
// RUN: %if taskset %{ env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json taskset -c 0 %run %t 2> %t.pinned.json %}
// RUN: %if taskset %{ %{check} %t.pinned.json %}
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0 %run %t 2>&1 | FileCheck %s
#include "Inputs/workers.h"
#include <stdio.h>

#define NTHREADS 4
#define ROUNDS 100000

_Alignas(64) volatile unsigned char bytes[64];

static void *worker(void *arg) {
  long me = (long)arg;
  for (int round = 0; round < ROUNDS; round++)
    for (int i = (int)me; i < 64; i += NTHREADS)
      bytes[i] = (unsigned char)(bytes[i] + 1);
  return 0;
}

int main(void) {
  run_workers(worker, NTHREADS);
  printf("%d\n", bytes[0] + bytes[1]);
  return 0;
}

// CHECK: #1 false sharing on cache line [[LINE:0x[0-9a-f]+]]: {{.*}} of the run; about {{.*}} of wall time); threads T1 T2 T3 T4
// CHECK: object: global 'bytes' at [[LINE]], size 64
// CHECK-NOT: true sharing on
// CHECK: SUMMARY: EfficiencySanitizer: cache-frag: 1 false sharing, 0 true sharing
