// Two threads update their own sums, next to each other on one line, and
// after each round the first thread reads both (a checksum, PARSEC
// streamcluster's shape after pgain()'s loop): the line moves between the
// threads on every update, and that is false sharing, which padding removes;
// the one read per round of the other thread's sum is true sharing, a few
// invalidations, not all of the other thread's. The runtime used to count
// every invalidation of a thread's writes as true sharing once another
// thread had used its bytes at all, so a sampled read of the checksum (every
// read at period 1, a rare one at the default) made the other thread's
// invalidations true sharing and halved the claim.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t 2>&1 | FileCheck %s
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1:report_format=json %run %t 2> %t.json
// RUN: %python %S/Inputs/check_true_part.py --most 0.05 %t.json
// RUN: %if taskset %{ env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1:report_format=json taskset -c 0 %run %t 2> %t.pinned.json %}
// RUN: %if taskset %{ %python %S/Inputs/check_true_part.py --most 0.05 %t.pinned.json %}
#include <pthread.h>
#include <stdio.h>

#define ROUNDS 40
#define UPDATES 20000

static struct {
  long sum[2];
} sums;
static pthread_barrier_t barrier;
static long checksum;

static void *worker(void *arg) {
  long me = (long)arg;
  for (int round = 0; round < ROUNDS; round++) {
    for (long i = 0; i < UPDATES; i++)
      ((volatile long *)sums.sum)[me] += i ^ me;
    pthread_barrier_wait(&barrier);
    if (me == 0)
      checksum = checksum * 31 + sums.sum[0] + sums.sum[1];
    pthread_barrier_wait(&barrier);
  }
  return 0;
}

int main(void) {
  pthread_t threads[2];
  pthread_barrier_init(&barrier, 0, 2);
  for (long t = 0; t < 2; t++)
    pthread_create(&threads[t], 0, worker, (void *)t);
  for (int t = 0; t < 2; t++)
    pthread_join(threads[t], 0);
  printf("checksum %ld\n", checksum);
  return 0;
}

// CHECK-NOT: true sharing on
// CHECK: #1 false sharing on cache line
// CHECK: line map: bytes object member threads
// CHECK-DAG: 'sums'+0..7 sums.sum[0] T1 rw
// CHECK-DAG: 'sums'+8..15 sums.sum[1] T1 r, T2 rw
// CHECK: suggestion: threads write different bytes of global 'sums'
// CHECK: SUMMARY: EfficiencySanitizer: cache-frag: 1 false sharing, 0 true sharing
