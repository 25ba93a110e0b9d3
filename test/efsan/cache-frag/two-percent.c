// A line that gets about 2% of each thread's writes: the threads mostly
// update private arrays and bump their own slot of a shared line every 50th
// write. Thinly spread writes still add up to false sharing the tool finds
// (shown with cache_frag_min_share=0: what fixing it saves depends on the
// machine, near the default threshold).
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// DEFINE: %{check} = %python %S/Inputs/check_findings.py --only --expect false-sharing:global=shared --threads 1,2
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json %run %t 2> %t.default.json
// RUN: %{check} %t.default.json
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json:cache_frag_sample_period=1 %run %t 2> %t.exact.json
// RUN: %{check} %t.exact.json
// RUN: %if taskset %{ env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json taskset -c 0 %run %t 2> %t.pinned.json %}
// RUN: %if taskset %{ %{check} %t.pinned.json %}
#include "Inputs/workers.h"
#include <stdio.h>

_Alignas(64) volatile long shared[2];
// Each thread's private array on lines of its own, 256 bytes away from the
// other's (so not even a 128-byte line is shared).
_Alignas(128) static volatile long private_data[2][2048 + 32];

static void *worker(void *arg) {
  long me = (long)arg;
  for (int i = 0; i < 5000000; i++) {
    private_data[me][i & 2047] = i;
    if (i % 49 == 0)
      shared[me]++;
  }
  return 0;
}

int main(void) {
  run_workers(worker, 2);
  printf("%ld\n", shared[0] + private_data[1][7]);
  return 0;
}
