// Ranges that libc reads and writes for the program count as accesses and
// are sampled like them: an unsampled range costs an inline decrement of the
// countdown in the interceptor, and the range that runs it out goes to the
// runtime. Two threads write their own halves of one line only through
// strncpy (the loop itself touches no memory): the false sharing is found
// from the interceptors' samples alone, at the default sample period, and
// each thread's estimated writes are its 2 million calls (one range each;
// 2000 samples: within 20% is nine standard deviations).
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0 %run %t 2>&1 | FileCheck %s
// RUN: %if taskset %{ env ESAN_OPTIONS=cache_frag_min_share=0 taskset -c 0 %run %t 2>&1 | FileCheck %s %}
// The loop rereads the volatile `source` beside each strncpy, half of its
// accesses: not a wait (docs/CacheFrag.md, the threads' time side by side).
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:verbosity=2 %run %t 2>&1 | FileCheck %s --check-prefix=WAITS
// WAITS-NOT: cache-frag waits:
// WAITS: cache-frag impact: line
// WAITS-NOT: cache-frag waits:
// CHECK: done
// CHECK: #1 false sharing on cache line
// CHECK: object: global 'halves'
// CHECK: accesses:
// The main thread's printf of the halves may be sampled too (a line of its
// own among these, in any order).
// CHECK-DAG: +0..30 {{.*}} 0 {{(1[6-9]|2[0-3])[0-9]{5}$}}
// CHECK-DAG: +32..62 {{.*}} 0 {{(1[6-9]|2[0-3])[0-9]{5}$}}
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define CALLS 2000000

static struct {
  char half[2][32];
} halves __attribute__((aligned(64)));

static const char *volatile source = "sampled through the interceptor";

static void *writer(void *arg) {
  char *mine = halves.half[(long)arg];
  for (int i = 0; i < CALLS; i++) {
    strncpy(mine, source, sizeof(halves.half[0]) - 1);
    __asm__ volatile("" ::: "memory");
  }
  return 0;
}

int main(void) {
  pthread_t threads[2];
  for (long t = 0; t < 2; t++)
    pthread_create(&threads[t], 0, writer, (void *)t);
  for (int t = 0; t < 2; t++)
    pthread_join(threads[t], 0);
  fprintf(stderr, "done %s\n", halves.half[1]);
  return 0;
}
