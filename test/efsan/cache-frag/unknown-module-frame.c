// A frame in a library without symbols is shown as module+offset (as the
// other sanitizers print it), not as <unknown>: here the heap block that is
// falsely shared is allocated inside a stripped shared library.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %stock_clang -O2 -fPIC -shared -fno-omit-frame-pointer -DLIBRARY %s -o %t.dir/libmakecounters.so
// RUN: llvm-strip %t.dir/libmakecounters.so
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -L%t.dir -lmakecounters -Wl,-rpath,%t.dir -o %t
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t 2>&1 | FileCheck %s
#include <stdlib.h>

#ifdef LIBRARY
// Static: once stripped, nothing names it.
__attribute__((noinline)) static long *allocate(void) {
  long *c = aligned_alloc(64, 64);
  for (int i = 0; i < 8; i++)
    c[i] = 0;
  return c;
}

long *make_counters(void) { return allocate(); }
#else
#include "Inputs/workers.h"

long *make_counters(void);
static volatile long *counters;

static void *worker(void *arg) {
  long me = (long)arg;
  for (int i = 0; i < 200000; i++)
    counters[me]++;
  return 0;
}

int main(void) {
  counters = make_counters();
  run_workers(worker, 2);
  return 0;
}
#endif

// CHECK: #1 false sharing on cache line
// CHECK: object: heap object at {{.*}}; allocated at:
// (make_counters tail-calls allocate: no frame of its own.)
// CHECK-NEXT: #0 0x{{[0-9a-f]+}} in libmakecounters.so+0x{{[0-9a-f]+}}{{$}}
// CHECK-NEXT: #1 0x{{[0-9a-f]+}} in main {{.*}}unknown-module-frame.c
