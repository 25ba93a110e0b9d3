// A pool of 4-byte spin locks, one per thread, packed into one line: each
// thread takes and releases its own lock (atomic exchange + store), so two
// threads write the two halves of one 8-byte word. That is false sharing,
// byte-exactly: no thread touches another's bytes.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// DEFINE: %{check} = %python %S/Inputs/check_findings.py --only --expect false-sharing:global=locks --threads 1,2 --bytes 1:0:4 --bytes 2:4:4
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json %run %t 2> %t.default.json
// RUN: %{check} %t.default.json
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json:cache_frag_sample_period=1 %run %t 2> %t.exact.json
// RUN: %{check} %t.exact.json
// RUN: %if taskset %{ env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json taskset -c 0 %run %t 2> %t.pinned.json %}
// RUN: %if taskset %{ %{check} %t.pinned.json %}
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0 %run %t 2>&1 | FileCheck %s
#include "Inputs/workers.h"
#include <stdio.h>

#define NTHREADS 2
#define ROUNDS 300000

_Alignas(64) int locks[16];
static long protected_sums[NTHREADS][16];

static void *worker(void *arg) {
  long me = (long)arg;
  for (int i = 0; i < ROUNDS; i++) {
    while (__atomic_exchange_n(&locks[me], 1, __ATOMIC_ACQUIRE))
      ;
    protected_sums[me][i & 7] += i;
    __atomic_store_n(&locks[me], 0, __ATOMIC_RELEASE);
  }
  return 0;
}

int main(void) {
  run_workers(worker, NTHREADS);
  printf("%ld\n", protected_sums[0][0] + protected_sums[1][0]);
  return 0;
}

// CHECK: #1 false sharing on cache line [[LINE:0x[0-9a-f]+]]: the fix saves {{.*}} of CPU time ({{.*}} of the run; about {{.*}} of wall time); threads T1 T2
// CHECK: object: global 'locks' at [[LINE]], size 64; written bytes that invalidate: +0..7
// CHECK: accesses: bytes object-bytes thread reads writes
// CHECK-DAG: +0..3 +0..3 T1
// CHECK-DAG: +4..7 +4..7 T2
// CHECK: suggestion: threads write different bytes of global 'locks'
// CHECK-NOT: true sharing on
// CHECK: SUMMARY: EfficiencySanitizer: cache-frag: 1 false sharing, 0 true sharing
