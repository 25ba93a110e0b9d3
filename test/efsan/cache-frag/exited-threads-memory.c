// A program that runs its work in rounds of short-lived threads (sqlite's
// threadtest3: 15 tests of up to 10 threads, one after the other; servers
// with a thread per request) must not keep every line those threads ever
// shared: once a line's threads have exited and the line has nothing to
// report, its record, threads' parts and summaries go back to the tables.
// Here 80 rounds of 2 threads each write their own word of every line of a
// fresh 128 KiB block (163,840 lines, a record each in exact mode: 1.9 KB
// per line, 300 MiB; the table holds 65,536). Before, the run grew by
// 116 MiB and 98,304 lines went untracked; now each round's records are
// reused two rounds later, and every line is tracked (a line whose record
// went back while one thread still had its second pass to make counts
// again). The false sharing of the first threads (on lines they left long
// before the end) is still reported. The program checks its own peak RSS.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_sample_period=1:cache_frag_min_share=0 %run %t 2>&1 | FileCheck %s
// RUN: %if taskset %{ env ESAN_OPTIONS=cache_frag_sample_period=1:cache_frag_min_share=0 taskset -c 0 %run %t 2>&1 | FileCheck %s %}
//
// CHECK-DAG: rounds: peak RSS within the data + 32 MiB
// CHECK-DAG: Cache lines tracked in detail: {{1[6-9][0-9][0-9][0-9][0-9]}};
// CHECK-DAG: #1 false sharing on cache line {{.*}} threads T1 T2
// CHECK-DAG: global 'counters'
// CHECK-NOT: more lines needed tracking
#include "Inputs/lockstep.h"
#include <sys/resource.h>

#define ROUND_BLOCK (128 << 10)
#define ROUND_COUNT 80
#define LINE_WORDS 8

_Alignas(64) volatile long counters[8];

static void count(int me) { counters[me]++; }

static long peak_rss_kib(void) {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

static long *round_block;

// Each thread writes its word of each line, twice over: a record per line,
// a few invalidations each (far from a finding).
static void *round_worker(void *arg) {
  long me = (long)arg;
  for (int pass = 0; pass < 2; pass++)
    for (long i = me; i < ROUND_BLOCK / 8; i += LINE_WORDS)
      round_block[i] += pass + 1;
  return 0;
}

int main(void) {
  lockstep_run(count);
  long before = peak_rss_kib();
  long sum = 0;
  for (int round = 0; round < ROUND_COUNT; round++) {
    // Never freed: every round's lines are new lines.
    round_block = calloc(1, ROUND_BLOCK);
    pthread_t threads[2];
    for (long t = 0; t < 2; t++)
      pthread_create(&threads[t], 0, round_worker, (void *)t);
    for (int t = 0; t < 2; t++)
      pthread_join(threads[t], 0);
    sum += round_block[0] + round_block[1];
  }
  long grown = peak_rss_kib() - before;
  long limit = (long)ROUND_COUNT * ROUND_BLOCK / 1024 + 32 * 1024;
  if (grown <= limit)
    printf("rounds: peak RSS within the data + 32 MiB\n");
  else
    printf("rounds: peak RSS grew by %ld KiB (limit %ld)\n", grown, limit);
  return sum == ROUND_COUNT * 6 ? 0 : 1;
}
