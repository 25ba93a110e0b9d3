// A source file in a directory whose name holds colons (as build trees of
// some projects do): llvm-symbolizer answers "file:line:column", and the
// runtime reads the line and column from the end, so the site keeps the
// whole file name and its line. The helper is inlined into main, and a
// wrapper of malloc: both frames of the one code address come out, the
// inlined one first.
// RUN: rm -rf %t.dir && mkdir -p %t.dir/v1:2:x && cp %s %t.dir/v1:2:x/prog.c
// RUN: %clang -O2 -g -fsanitize=efficiency-working-set %t.dir/v1:2:x/prog.c -o %t
// RUN: env ESAN_OPTIONS=symbol_cache= %run %t 2>&1 | FileCheck %s
// CHECK: heap {{.*}} lines {{.*}} main {{.*}}/v1:2:x/prog.c:[[@LINE+17]]{{$}}
// CHECK-NEXT: through wrapper make_table {{.*}}/v1:2:x/prog.c:[[@LINE+9]]{{$}}
// Also from the symbol cache, written by the run above.
// RUN: rm -rf %t.cache
// RUN: env ESAN_OPTIONS=symbol_cache=%t.cache %run %t 2>&1 | FileCheck %s
// RUN: env ESAN_OPTIONS=symbol_cache=%t.cache %run %t 2>&1 | FileCheck %s
#include <stdlib.h>
#include <string.h>

static inline __attribute__((always_inline)) char *make_table(size_t n) {
  char *table = malloc(n);
  if (table)
    memset(table, 1, n);
  return table;
}

int main(void) {
  volatile char *table = make_table(64 * 100);
  int sum = 0;
  for (int i = 0; i < 64 * 100; i += 64)
    sum += table[i];
  return sum == 100 ? 0 : 1;
}
