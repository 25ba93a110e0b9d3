// Frames found once are kept in symbol_cache, one file per build of each
// module: the next process of the same binary starts no symbolizer when the
// file covers its report (here the symbolizer of the second run cannot
// start at all, and the frames are complete), and a cache file cut short or
// followed by junk is read up to the damage and then made anew.
// RUN: %clang -O1 -g -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -rf %t.cache %t.bin && mkdir %t.bin
// RUN: printf '#!/bin/sh\nexit 1\n' > %t.bin/llvm-symbolizer && chmod +x %t.bin/llvm-symbolizer
// RUN: env ESAN_OPTIONS=symbol_cache=%t.cache %run %t 2> %t.first
// RUN: FileCheck %s < %t.first
// RUN: ls %t.cache | FileCheck %s --check-prefix=FILES
// RUN: env ESAN_OPTIONS=symbol_cache=%t.cache:external_symbolizer_path=%t.bin/llvm-symbolizer %run %t 2> %t.second
// RUN: FileCheck %s < %t.second
// RUN: not grep -E "WARNING|\+0x" %t.second
// Without the cache, the broken symbolizer leaves the frames unnamed.
// RUN: env ESAN_OPTIONS=symbol_cache=:external_symbolizer_path=%t.bin/llvm-symbolizer %run %t 2> %t.none
// RUN: FileCheck %s --check-prefix=NONE < %t.none
// A damaged file: its last record cut short, then junk.
// RUN: %python -c "import glob; f = glob.glob('%t.cache/*')[0]; d = open(f, 'rb').read(); open(f, 'wb').write(d[:-9] + b'CODE 0xzz\\nnot a record')"
// RUN: env ESAN_OPTIONS=symbol_cache=%t.cache %run %t 2> %t.damaged
// RUN: FileCheck %s < %t.damaged
// The damaged file was replaced by one that covers the report again.
// RUN: not grep -q "not a record" %t.cache/*
// RUN: env ESAN_OPTIONS=symbol_cache=%t.cache:external_symbolizer_path=%t.bin/llvm-symbolizer %run %t 2> %t.again
// RUN: FileCheck %s < %t.again
// CHECK: heap {{.*}} fill_table {{.*}}symbol-cache.c:[[#MALLOC:]]
// CHECK-NEXT: called from main {{.*}}symbol-cache.c:[[#MALLOC+5]]
// FILES: {{^[0-9a-f]{40}\.di$}}
// NONE-NOT: fill_table {{.*}}symbol-cache.c
#include <stdlib.h>
#include <string.h>

struct table {
  char cells[1 << 20];
};

static struct table *table;

__attribute__((noinline)) static void fill_table(void) {
  table = malloc(sizeof(*table));
  memset(table, 1, sizeof(*table));
}

int main(void) {
  fill_table();
  return table->cells[17] - 1;
}
