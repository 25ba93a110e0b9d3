// A rare writer next to a hot reader: one thread reads its word of a line
// millions of times while another writes the neighbouring word 1000 times
// among its own private work. At most 1000 invalidations can exist, a tiny
// share of the threads' time: nothing is reported, sampled or exact.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// DEFINE: %{check} = %python %S/Inputs/check_findings.py --none
// RUN: env ESAN_OPTIONS=report_format=json %run %t 2> %t.default.json
// RUN: %{check} %t.default.json
// RUN: env ESAN_OPTIONS=report_format=json:cache_frag_sample_period=1 %run %t 2> %t.exact.json
// RUN: %{check} %t.exact.json
// RUN: %if taskset %{ env ESAN_OPTIONS=report_format=json taskset -c 0 %run %t 2> %t.pinned.json %}
// RUN: %if taskset %{ %{check} %t.pinned.json %}
// RUN: %run %t 2>&1 | FileCheck %s
#include <pthread.h>
#include <stdio.h>

_Alignas(128) volatile long line[8];
static volatile long private_data[2][1024];

static void *reader(void *arg) {
  long sum = 0;
  for (int i = 0; i < 10000000; i++)
    sum += line[0];
  return (void *)sum;
}

static void *writer(void *arg) {
  for (int i = 0; i < 1000; i++) {
    line[1] = i;
    for (int j = 0; j < 10000; j++)
      private_data[1][j & 1023] += j;
  }
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
// CHECK: No false sharing, true sharing or predicted false sharing above the report threshold.
// CHECK-NOT: #1
// CHECK: SUMMARY: EfficiencySanitizer: cache-frag: 0 false sharing, 0 true sharing, 0 predicted false sharing;
