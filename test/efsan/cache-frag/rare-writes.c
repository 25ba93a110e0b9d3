// Rare writes next to hot reads: one thread reads its word of a line 200000
// times while another writes the neighbouring word 50 times. The line never
// reaches the tracking threshold (100 writes), so nothing is reported.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_period_ms=0 %run %t 2>&1 | FileCheck %s
#include <pthread.h>
#include <stdio.h>

_Alignas(128) volatile long line[8];

static void *reader(void *arg) {
  long sum = 0;
  for (int i = 0; i < 200000; i++)
    sum += line[0];
  return (void *)sum;
}

static void *writer(void *arg) {
  for (int i = 0; i < 50; i++)
    line[1] = i;
  return 0;
}

int main(void) {
  pthread_t r, w;
  pthread_create(&r, 0, reader, 0);
  pthread_create(&w, 0, writer, 0);
  pthread_join(r, 0);
  pthread_join(w, 0);
  return 0;
}

// CHECK: EfficiencySanitizer: cache-frag report
// CHECK: Counts are exact
// CHECK: No false sharing, true sharing or predicted false sharing above the report threshold.
// CHECK-NOT: #1
// CHECK: SUMMARY: EfficiencySanitizer: cache-frag: 0 false sharing, 0 true sharing, 0 predicted false sharing;
