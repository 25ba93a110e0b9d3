// Per-thread int counters in one heap array (word_count's use_len): each
// thread mostly works on private data and bumps its own 4-byte counter now
// and then. Two threads' counters share 8-byte words: false sharing of the
// heap object, named by its allocation site.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// DEFINE: %{check} = %python %S/Inputs/check_findings.py --only --expect false-sharing:heap=int-counters.c --threads 1,2,3,4
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json %run %t 2> %t.default.json
// RUN: %{check} %t.default.json
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json:cache_frag_sample_period=1 %run %t 2> %t.exact.json
// RUN: %{check} %t.exact.json
// RUN: %if taskset %{ env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json taskset -c 0 %run %t 2> %t.pinned.json %}
// RUN: %if taskset %{ %{check} %t.pinned.json %}
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0 %run %t 2>&1 | FileCheck %s
#include "Inputs/workers.h"
#include <stdio.h>
#include <stdlib.h>

#define NTHREADS 4
#define WORDS 4096
#define PASSES 60

static int *use_len;
// Each thread's private words on lines of its own, 256 bytes from the next
// thread's (so not even a 128-byte line is shared).
_Alignas(128) static unsigned words[NTHREADS][WORDS + 64];

static void *worker(void *arg) {
  long me = (long)arg;
  for (int pass = 0; pass < PASSES; pass++)
    for (int i = 0; i < WORDS; i++) {
      words[me][i] = words[me][i] * 31 + (unsigned)i; // private work
      if ((words[me][i] & 7) == 0)
        use_len[me]++;
    }
  return 0;
}

int main(void) {
  use_len = calloc(NTHREADS, sizeof(int));
  run_workers(worker, NTHREADS);
  printf("%d\n", use_len[0] + use_len[3]);
  free(use_len);
  return 0;
}

// CHECK: #1 false sharing on cache line {{.*}} of the run; about {{.*}} of wall time); threads T1 T2 T3 T4
// CHECK: object: heap object at 0x{{[0-9a-f]+}}, size 16; written bytes that invalidate: +0..15 ({{[0-9]+}} invalidations); allocated at:
// CHECK-NEXT: #0 {{.*}} in main {{.*}}int-counters.c:39
// CHECK: SUMMARY: EfficiencySanitizer: cache-frag: 1 false sharing, 0 true sharing
