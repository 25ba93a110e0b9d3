// A late, short parallel phase: one second of serial work on private data,
// then two threads bump packed counters for a few tens of milliseconds. The
// sampled default must see it as well as exact mode (sampling is by
// accesses, not by time windows that the long serial phase would dilute).
// The phase is a small share of the run, below cache_frag_min_share's
// default: detection is checked with every finding shown.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// DEFINE: %{check} = %python %S/Inputs/check_findings.py --only --expect false-sharing:global=late --threads 1,2
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json %run %t 2> %t.default.json
// RUN: %{check} %t.default.json
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json:cache_frag_sample_period=1 %run %t 2> %t.exact.json
// RUN: %{check} %t.exact.json
// RUN: %if taskset %{ env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json taskset -c 0 %run %t 2> %t.pinned.json %}
// RUN: %if taskset %{ %{check} %t.pinned.json %}
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0 %run %t 2>&1 | FileCheck %s
#include "Inputs/workers.h"
#include <stdio.h>
#include <time.h>

_Alignas(64) volatile long late[2];
static volatile long serial_data[4096];

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void *worker(void *arg) {
  long me = (long)arg;
  for (int i = 0; i < 300000; i++)
    late[me]++;
  return 0;
}

int main(void) {
  double start = now();
  long i = 0;
  while (now() - start < 1.0)
    for (int j = 0; j < 4096; j++, i++)
      serial_data[j] += i;
  run_workers(worker, 2);
  printf("%ld\n", late[0] + serial_data[1]);
  return 0;
}

// Threads are named by the function they run (from the symbol table).
// CHECK: #1 false sharing on cache line
// CHECK: threads: T1 worker, T2 worker
