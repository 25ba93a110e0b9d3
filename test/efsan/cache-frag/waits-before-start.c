// A thread that polls a flag until the other thread is there (a worker
// waiting for its partner, a producer that filled a ring before its
// consumer ran) makes no progress side by side: its virtual clock stands
// still while it polls an unchanged value. Here the first worker polls for
// 200 ms, hundreds of millions of accesses, before the second exists; then
// both bump their own counter of one line. Before, the first worker's
// clock ran that far ahead of the second's, their use of the line never
// met on the clock, and the false sharing was not reported at all (or, for
// a ring whose consumer started 8 ms late, claimed 0.23 instead of 0.38).
// Also pinned to one CPU, where the poll takes whole time slices.
// REQUIRES: taskset
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// DEFINE: %{check} = %python %S/Inputs/check_findings.py --expect false-sharing:global=counters --threads 1,2 --min-share 0.1
// RUN: env ESAN_OPTIONS=report_format=json %run %t 2> %t.json
// RUN: %{check} %t.json
// RUN: env ESAN_OPTIONS=report_format=json taskset -c 0 %run %t 2> %t.pinned.json
// RUN: %{check} %t.pinned.json
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#define BUMPS 20000000L
static _Alignas(64) struct {
  volatile uint64_t first, second; // one line, two writers
} counters;
static int go;

static void *worker(void *arg) {
  volatile uint64_t *mine = arg ? &counters.second : &counters.first;
  if (!arg)
    while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
      ;
  for (long i = 0; i < BUMPS; i++)
    ++*mine;
  return 0;
}

int main(void) {
  pthread_t first, second;
  pthread_create(&first, 0, worker, 0);
  struct timespec later = {0, 200 * 1000 * 1000};
  nanosleep(&later, 0);
  pthread_create(&second, 0, worker, (void *)1);
  __atomic_store_n(&go, 1, __ATOMIC_RELEASE);
  pthread_join(first, 0);
  pthread_join(second, 0);
  printf("%llu %llu\n", (unsigned long long)counters.first,
         (unsigned long long)counters.second);
  return 0;
}
