// A C library built with efsan, loaded by Python with ctypes: the
// interpreter is not instrumented, so the runtime comes from the shared
// libclang_rt.efsan-x86_64.so with LD_PRELOAD (without it, dlopen fails:
// undefined symbol: __efsan_init, or one of the miss-ratio curves' threshold
// and callout, which the loader binds first). The library starts its tool when it is
// loaded, and the report at the interpreter's exit names the library's data
// and lines. What the library computes does not change.
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O2 -g -shared -fPIC -fsanitize=efficiency-working-set %s -o %t/libws.so
// RUN: %clang -O2 -g -shared -fPIC -fsanitize=efficiency-cache-frag -pthread %s -o %t/libcf.so
// RUN: %stock_clang -O2 -g -shared -fPIC -pthread %s -o %t/libplain.so
// RUN: %python %S/Inputs/ctypes_host.py %t/libplain.so sum_table 1000 | FileCheck %s --check-prefix=SUM
// RUN: not %python %S/Inputs/ctypes_host.py %t/libws.so sum_table 1000 2>&1 | FileCheck %s --check-prefix=NO-RUNTIME
// NO-RUNTIME: undefined symbol: __efsan_{{init|mrc_threshold|ws_mark_lines}}
//
// Working set: the block the library allocates, by its line.
// RUN: env LD_PRELOAD=%efsan_rtdir/libclang_rt.efsan-x86_64.so %python %S/Inputs/ctypes_host.py %t/libws.so sum_table 1000 > %t/ws.out 2> %t/ws.err
// RUN: FileCheck %s --check-prefix=SUM < %t/ws.out
// RUN: FileCheck %s --check-prefix=WS < %t/ws.err
// SUM: sum_table returned 109890000
// WS: EfficiencySanitizer: the total working set size:
// WS: data structures, most lines first
// WS: heap {{11[23][0-9]}} lines ({{.*}}) sum_table {{.*}}python-ctypes.c:[[# @LINE + 34]]
// The stack ends at libffi, which has no frame pointers: nothing after it is
// a frame (no return address on the stack, nothing for the symbolizer to
// fail on).
// WS-NOT: {{\[stack\]|symbolizer: error}}
// WS: SUMMARY: EfficiencySanitizer: working set of
//
// Cache-frag: the library's struct by its fields, and false sharing between
// the threads the library starts, on its global, at its line.
// RUN: env LD_PRELOAD=%efsan_rtdir/libclang_rt.efsan-x86_64.so ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %python %S/Inputs/ctypes_host.py %t/libcf.so run_counters > %t/cf.out 2> %t/cf.err
// RUN: FileCheck %s --check-prefix=RUN-COUNTERS < %t/cf.out
// RUN: FileCheck %s --check-prefix=CF < %t/cf.err
// RUN-COUNTERS: run_counters returned 4000
// CF: EfficiencySanitizer: cache-frag report
// CF: #1 false sharing on cache line {{0x[0-9a-f]+}}
// CF: object: global 'counters' at {{0x[0-9a-f]+}}, size 64
// CF: access sites: thread reads writes bytes where
// CF-NEXT: T1 1999 1999 +0..7 count {{.*}}python-ctypes.c:[[# @LINE + 32]]
// CF-NEXT: T2 1999 2000 +8..15 count {{.*}}python-ctypes.c:[[# @LINE + 31]]
// CF: struct totals: size 72, 4 fields
// CF-NEXT: field 0 hits
// CF: SUMMARY: EfficiencySanitizer: cache-frag: 1 false sharing
#include "../cache-frag/Inputs/lockstep.h"
#include <stdlib.h>

struct totals {
  long hits;
  long misses;
  char pad[48];
  long total;
};

// Working set: n entries of 72 bytes, each touched 10 times.
long sum_table(int n) {
  struct totals *table = calloc(n, sizeof(*table));
  long sum = 0;
  for (int round = 0; round < 10; round++)
    for (int i = 0; i < n; i++) {
      table[i].hits += i;
      table[i].total += table[i].hits;
      sum += table[i].total;
    }
  free(table);
  return sum;
}

// Cache-frag: two threads, each with its own counter on one line.
_Alignas(64) volatile long counters[8];

static void count(int me) { counters[me]++; }

long run_counters(void) {
  lockstep_run(count);
  struct totals *t = calloc(1, sizeof(*t));
  for (int i = 0; i < 100; i++)
    ((volatile struct totals *)t)->hits += i;
  long result = counters[0] + counters[1];
  free(t);
  return result;
}
