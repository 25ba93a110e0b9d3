// A symbolizer that starts but dies while the report at exit is written
// (its pipe breaks) must not change how the program ends: no SIGPIPE, the
// program's status and its buffered stdout are kept.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: rm -rf %t.bin && mkdir %t.bin
// RUN: printf '#!/bin/sh\nexit 1\n' > %t.bin/llvm-symbolizer && chmod +x %t.bin/llvm-symbolizer
// RUN: env ESAN_OPTIONS=cache_frag_period_ms=0:cache_frag_tracking_threshold=1:external_symbolizer_path=%t.bin/llvm-symbolizer %run %t > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// CHECK: main ran
#include "../cache-frag/Inputs/lockstep.h"
#include <stdio.h>

struct stats {
  long hits;
  long misses;
  long bytes[4];
};

static struct stats *per_thread;

static void hit(int me) { per_thread[me].hits++; }

UNINSTRUMENTED static void clear(struct stats *s, int n) {
  for (volatile long *p = (volatile long *)s; p < (volatile long *)(s + n); p++)
    *p = 0;
}

int main(void) {
  per_thread = aligned_alloc(64, 4 * sizeof(struct stats));
  clear(per_thread, 4);
  lockstep_run(hit);
  printf("main ran\n"); // buffered until exit
  return 0;
}
