// Attribution at the time of the access: two threads falsely share the
// counters of one heap block, which is freed; the next block of that size
// (glibc hands back the same memory) is shared the same way. The same line
// holds two objects over time: each is named, with its own allocation line.
// With log_path set, nothing at all reaches the program's stderr (objects
// are named without asking the symbolizer about heap addresses).
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: rm -f %t.log.*
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:log_path=%t.log:report_format=json %run %t 2> %t.stderr
// RUN: count 0 < %t.stderr
// RUN: %python %S/Inputs/check_findings.py --only --expect false-sharing:heap=heap-reuse.c --min-objects 2 %t.log.*
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1:report_format=json %run %t 2> %t.exact.json
// RUN: %python %S/Inputs/check_findings.py --only --expect false-sharing:heap=heap-reuse.c --min-objects 2 %t.exact.json
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0 %run %t 2>&1 | FileCheck %s
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define ROUNDS 400000

static volatile long *counters;

static void *worker(void *arg) {
  long me = (long)arg;
  for (int i = 0; i < ROUNDS; i++)
    counters[me]++;
  return 0;
}

static void run(void) {
  pthread_t t[2];
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], 0, worker, (void *)i);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
}

int main(void) {
  long *first = malloc(64); // 16-byte aligned: both counters on one line
  counters = first;
  run();
  free(first);
  long *second = malloc(64); // the same chunk again (glibc tcache)
  if (second != first)
    fprintf(stdout, "note: the second block is elsewhere\n");
  counters = second;
  run();
  free(second);
  return 0;
}

// Both blocks are named (the order is by invalidations, so either first).
// CHECK: #1 false sharing on cache line
// CHECK: object: heap object at [[ADDR:0x[0-9a-f]+]], size 64; written bytes that invalidate: +0..15
// CHECK-NEXT: #0 {{.*}} in main {{.*}}heap-reuse.c:{{39|43}}
// CHECK: object: heap object at [[ADDR]], size 64; written bytes that invalidate: +0..15
// CHECK-NEXT: #0 {{.*}} in main {{.*}}heap-reuse.c:{{39|43}}
