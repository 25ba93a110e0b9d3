// A thread alone (no other thread exists yet) samples cache_frag_alone_weight
// times less often and counts each sample that many times
// (docs/design/CacheFragModel.md, "A thread alone"). What a later thread finds must be
// as before: lines main wrote often alone are candidates when the reader
// reads them (8 shared summaries), and main's struct field counts are
// estimated without bias. Main makes about 8.8 million accesses alone:
// about 550 samples at the default period and weight 16 (8800 without the
// weight, which the first check rules out), each counted 16 times. Each
// line gets 300,000 writes, about 19 samples at mean period 16,000: with
// 100,000 (6 samples) one of the 8 lines had none in 1.5% of runs and the
// reader found 7 candidates.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: env ESAN_OPTIONS=verbosity=1:cache_frag_min_share=0 %run %t 2>&1 | FileCheck %s
// RUN: %if taskset %{ env ESAN_OPTIONS=verbosity=1:cache_frag_min_share=0 taskset -c 0 %run %t 2>&1 | FileCheck %s %}
// RUN: env ESAN_OPTIONS=verbosity=1:cache_frag_min_share=0:cache_frag_alone_weight=1 %run %t 2>&1 | FileCheck %s --check-prefix=UNWEIGHTED
// CHECK: cache-frag lines: 0 records, 0 thread parts {{.*}}, 8 shared summaries, 0 solo summaries
// CHECK: cache-frag sampling: {{[2-6][0-9][0-9]}} samples while the process had one thread, each counted 16 times
// The counter field: 3.2 million increments alone (6.4 million accesses),
// estimated to within 25% (about 400 samples: 5 standard deviations).
// CHECK: struct counters: size 16, 2 fields
// CHECK: field 0 hits offset 0 size 8 type long count {{(4[89]|[5-7][0-9])[0-9][0-9][0-9][0-9][0-9]}} (hot)
// UNWEIGHTED: cache-frag lines: 0 records, 0 thread parts {{.*}}, 8 shared summaries, 0 solo summaries
// UNWEIGHTED: cache-frag sampling: 0 samples while the process had one thread, each counted 1 times
#include <pthread.h>

#define LINES 8
#define WRITES 300000
#define READS 20000
// One long per line, every other line: no line next to another one used.
static volatile long data[LINES * 16] __attribute__((aligned(128)));

struct counters {
  long hits;
  long misses;
};
static struct counters counters;

__attribute__((noinline)) static void count(struct counters *c) { c->hits++; }

static void *reader(void *arg) {
  long sum = 0;
  for (int round = 0; round < READS; round++)
    for (int i = 0; i < LINES * 16; i += 16)
      sum += data[i];
  return (void *)sum;
}

int main(void) {
  for (int round = 0; round < WRITES; round++)
    for (int i = 0; i < LINES * 16; i += 16)
      data[i] = round;
  for (int i = 0; i < 3200000; i++)
    count(&counters);
  pthread_t t;
  pthread_create(&t, 0, reader, 0);
  pthread_join(t, 0);
  return counters.misses;
}
