// Two threads that only store to their own words of one line, as fast as
// they can (flags, indices, last-seen values: each word written, never read
// back, by its thread). A line moves between cores at most once per
// transfer, and a thread whose stores wait in its store buffer loses at most
// one transfer per move it receives: together the two lose at most the time
// they overlap on the line, which is at most half the two threads' time
// (each thread's time is at least the overlap). So the seconds the fix saves
// are at most 0.5 of the threads' seconds, by construction, whatever the
// transfer, idle, loaded or pinned. (Before the line's limit each thread was
// priced at 0.65 of the overlap: 0.63-0.64 of the threads' time.)
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// DEFINE: %{check} = %python %S/Inputs/check_findings.py --only --expect false-sharing:global=last_seen --threads 1,2 --max-threads-share 0.5
// RUN: env ESAN_OPTIONS=report_format=json:cache_frag_min_share=0:cache_frag_transfer_ns=2000 %run %t 2> %t.far.json
// RUN: %{check} %t.far.json
// RUN: env ESAN_OPTIONS=report_format=json:cache_frag_min_share=0 %run %t 2> %t.measured.json
// RUN: %{check} %t.measured.json
// RUN: %if taskset %{ env ESAN_OPTIONS=report_format=json:cache_frag_min_share=0:cache_frag_transfer_ns=2000 taskset -c 0 %run %t 2> %t.pinned.json %}
// RUN: %if taskset %{ %{check} %t.pinned.json %}
#include "Inputs/workers.h"
#include <stdint.h>

#define STORES 200000000L
_Alignas(64) static volatile uint64_t last_seen[2];

static void *worker(void *arg) {
  long me = (long)arg;
  for (long i = 0; i < STORES; i++)
    last_seen[me] = (uint64_t)i;
  return 0;
}

int main(void) {
  run_workers(worker, 2);
  printf("%llu\n", (unsigned long long)(last_seen[0] + last_seen[1]));
  return 0;
}
