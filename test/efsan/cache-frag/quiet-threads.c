// Threads whose samples find nothing shared sample less often
// (cache_frag_quiet_weight; docs/CacheFrag.md, "What it costs"): each worker
// first writes its own array and bumps its own struct's counter for about
// 10 million accesses, then both bump packed counters in one line. The
// private phase must run at the lower rate (a few hundred samples counted
// 16 times, none with the weight off), its field counts must stay unbiased,
// and the sharing after it must be found as with the weight off: the first
// sample on the shared line puts its thread back to the default period.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// DEFINE: %{check} = %python %S/Inputs/check_findings.py --only --expect false-sharing:global=shared --threads 1,2
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json %run %t 2> %t.default.json
// RUN: %{check} %t.default.json
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json:cache_frag_quiet_weight=1 %run %t 2> %t.off.json
// RUN: %{check} %t.off.json
// RUN: %if taskset %{ env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json taskset -c 0 %run %t 2> %t.pinned.json %}
// RUN: %if taskset %{ %{check} %t.pinned.json %}
// RUN: env ESAN_OPTIONS=verbosity=1:cache_frag_min_share=0 %run %t 2>&1 | FileCheck %s
// RUN: env ESAN_OPTIONS=verbosity=1:cache_frag_min_share=0:cache_frag_quiet_weight=1 %run %t 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: env ESAN_OPTIONS=cache_frag_quiet_weight=0 not %run %t 2>&1 | FileCheck %s --check-prefix=BAD
//
// About 20 million private accesses: 20,000 samples at the default period,
// about 1,300 at a sixteenth of it (after 64 samples at each of 1, 2, 4, 8).
// CHECK: cache-frag sampling: {{[0-9]+}} samples while the process had one thread, each counted 16 times; {{[1-9][0-9][0-9][0-9]?}} samples of threads that found nothing shared, counted up to 16 times
// The counter: 2 x 1,024,000 increments (4,096,000 accesses), estimated to
// within 25% (about 250 samples of it at the lowest rate: 4 standard
// deviations).
// CHECK: struct tally: size 16, 2 fields
// CHECK: field 0 hits offset 0 size 8 type long count {{(3[0-9]|4[0-9]|50)[0-9][0-9][0-9][0-9][0-9]}} (hot)
// OFF: 0 samples of threads that found nothing shared, counted up to 1 times
// OFF: struct tally: size 16, 2 fields
// OFF: field 0 hits offset 0 size 8 type long count {{(3[0-9]|4[0-9]|50)[0-9][0-9][0-9][0-9][0-9]}} (hot)
// BAD: cache_frag_quiet_weight must be 1..255 (got 0)
#include "Inputs/workers.h"
#include <stdio.h>

#define WORDS 4096
#define ROUNDS 1000
#define BUMPS 1000000

struct tally {
  long hits;
  long misses;
};
// Each thread's data on lines of its own, no two threads' lines adjacent.
static struct {
  struct tally tally;
  char pad[112];
} tallies[2] __attribute__((aligned(128)));
static long own[2][WORDS + 32] __attribute__((aligned(128)));
_Alignas(64) volatile long shared[2];

__attribute__((noinline)) static void count(struct tally *t) { t->hits++; }

static void *worker(void *arg) {
  long me = (long)arg;
  for (int round = 0; round < ROUNDS; round++)
    for (int j = 0; j < WORDS; j++) {
      own[me][j] += round;
      if ((j & 3) == 0)
        count(&tallies[me].tally);
    }
  for (int i = 0; i < BUMPS; i++)
    shared[me]++;
  return 0;
}

int main(void) {
  run_workers(worker, 2);
  printf("%ld\n", shared[0] + shared[1] + own[0][1] + own[1][2] +
                      tallies[0].tally.hits + tallies[1].tally.misses);
  return 0;
}
