// A single-producer single-consumer ring whose head (written by the
// producer only) and tail (written by the consumer only) share a line: each
// byte has one writer, so the advice is to give each writer's words a line
// of its own and let each reader keep the last index it read, never "the
// same bytes" or "padding cannot help". (Padding alone saves nothing
// measurable: the reader needs each new index anyway.)
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// DEFINE: %{check} = %python %S/Inputs/check_findings.py --expect true-sharing:global=ring --threads 1,2 --suggestion "put each writer's words on a line of its own" --suggestion "keep the last value it read" --no-suggestion "padding cannot help" --no-suggestion "same bytes"
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json:cache_frag_min_share=0 %run %t 2> %t.default.json
// RUN: %{check} %t.default.json
// RUN: %if taskset %{ env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json:cache_frag_min_share=0 taskset -c 0 %run %t 2> %t.pinned.json %}
// RUN: %if taskset %{ %{check} %t.pinned.json %}
#include "Inputs/workers.h"
#include <sched.h>
#include <stdint.h>

#define ITEMS 200000
#define SLOTS 256
struct {
  _Alignas(64) uint64_t head;
  uint64_t tail;
} ring;
// The items themselves: lines one thread writes and the other reads.
_Alignas(64) static uint64_t slots[SLOTS];
static uint64_t sum;

static void *worker(void *arg) {
  if ((long)arg == 0) {
    for (uint64_t h = 0; h < ITEMS; h++) {
      while (h - __atomic_load_n(&ring.tail, __ATOMIC_ACQUIRE) >= SLOTS)
        sched_yield();
      slots[h % SLOTS] = h * 7;
      __atomic_store_n(&ring.head, h + 1, __ATOMIC_RELEASE);
    }
  } else {
    for (uint64_t t = 0; t < ITEMS; t++) {
      while (__atomic_load_n(&ring.head, __ATOMIC_ACQUIRE) == t)
        sched_yield();
      sum += slots[t % SLOTS];
      __atomic_store_n(&ring.tail, t + 1, __ATOMIC_RELEASE);
    }
  }
  return 0;
}

int main(void) {
  run_workers(worker, 2);
  printf("%llu\n", (unsigned long long)sum);
  return 0;
}
