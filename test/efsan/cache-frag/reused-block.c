// Sharing is judged within an object's lifetime (PARSEC streamcluster's
// pgain(): work_mem is malloc'ed anew on each call, lands at the same
// address, and each thread writes its own part, whose bounds move with the
// number of centres). Here two threads own [0, split) and [split, 64) of a
// block freed and allocated again each round, split 24 or 40 in turn: bytes
// 24..39 are each thread's in different rounds, never both threads' in one.
// The finding is false sharing (the padding fix gains: utils/bench/
// calibration/fs_reused_block.c), with one object row for the block's
// allocations and the advice for an allocation; the runtime used to call it
// "true sharing; padding cannot help", beside an "unknown" object row for
// the bytes of its earlier allocations.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0 %run %t 2>&1 | FileCheck %s
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json %run %t 2> %t.json
// RUN: %python %S/Inputs/check_findings.py --expect false-sharing:heap=reused-block.c --objects 1 --suggestion aligned_alloc %t.json
// RUN: %python %S/Inputs/check_reused_block.py %t.json
// RUN: %if taskset %{ env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json taskset -c 0 %run %t 2> %t.pinned.json %}
// RUN: %if taskset %{ %python %S/Inputs/check_reused_block.py %t.pinned.json %}
// The block's first byte may fall anywhere in a line: one or two lines
// are shared, each a finding of its own.
// CHECK-NOT: true sharing on
// CHECK: false sharing on cache line
// CHECK: 0 of the larger count were true sharing
// CHECK: object: heap object at {{0x[0-9a-f]+}}, size 64, allocated there {{[0-9]+}} times (sharing is judged within each)
// CHECK-NEXT: #0 {{.*}} in worker {{.*}}reused-block.c:46
// CHECK-NOT: object:
// CHECK: suggestion: threads write different bytes of the heap object allocated at {{.*}}reused-block.c:46 on one cache line
// CHECK-SAME: allocate it 64-byte aligned
// CHECK-NOT: true sharing on
// CHECK: SUMMARY: EfficiencySanitizer: cache-frag: {{[12]}} false sharing, 0 true sharing
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

enum { kRounds = 40, kWrites = 2000000 };
static pthread_barrier_t barrier;
static char *volatile block;
static long sums[2];

static void *worker(void *arg) {
  long id = (long)arg;
  for (int round = 0; round < kRounds; round++) {
    // The block is the same site's each round, and glibc hands back the
    // chunk just freed.
    if (id == 0)
      block = malloc(64);
    pthread_barrier_wait(&barrier);
    int split = round % 2 ? 40 : 24;
    char *mine = block + (id ? split : 0);
    int len = id ? 64 - split : split;
    for (int i = 0; i < kWrites; i++)
      mine[i % len] = (char)i;
    sums[id] += mine[len - 1];
    pthread_barrier_wait(&barrier);
    if (id == 0)
      free(block);
  }
  return 0;
}

int main(void) {
  pthread_t t[2];
  pthread_barrier_init(&barrier, 0, 2);
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], 0, worker, (void *)i);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  printf("sums %ld %ld\n", sums[0], sums[1]);
  return 0;
}
