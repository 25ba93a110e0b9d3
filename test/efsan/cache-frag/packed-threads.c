// 4 and 8 threads on packed per-thread counters (one long each, one line):
// false sharing among all of them, every thread named.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread -DNTHREADS=4 %s -o %t4
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread -DNTHREADS=8 %s -o %t8
// DEFINE: %{check4} = %python %S/Inputs/check_findings.py --only --expect false-sharing:global=counters --threads 1,2,3,4 --bytes 1:0:8 --bytes 4:24:8
// DEFINE: %{check8} = %python %S/Inputs/check_findings.py --only --expect false-sharing:global=counters --threads 1,2,3,4,5,6,7,8 --bytes 1:0:8 --bytes 8:56:8
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json %run %t4 2> %t4.default.json
// RUN: %{check4} %t4.default.json
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json %run %t8 2> %t8.default.json
// RUN: %{check8} %t8.default.json
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json:cache_frag_sample_period=1 %run %t4 2> %t4.exact.json
// RUN: %{check4} %t4.exact.json
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json:cache_frag_sample_period=1 %run %t8 2> %t8.exact.json
// RUN: %{check8} %t8.exact.json
// RUN: %if taskset %{ env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json taskset -c 0 %run %t4 2> %t4.pinned.json %}
// RUN: %if taskset %{ %{check4} %t4.pinned.json %}
// RUN: %if taskset %{ env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json taskset -c 0 %run %t8 2> %t8.pinned.json %}
// RUN: %if taskset %{ %{check8} %t8.pinned.json %}
#include "Inputs/workers.h"
#include <stdio.h>

#define ROUNDS 200000

_Alignas(64) volatile long counters[NTHREADS];

static void *worker(void *arg) {
  long me = (long)arg;
  for (int i = 0; i < ROUNDS; i++)
    counters[me]++;
  return 0;
}

int main(void) {
  run_workers(worker, NTHREADS);
  printf("%ld\n", counters[0]);
  return 0;
}
