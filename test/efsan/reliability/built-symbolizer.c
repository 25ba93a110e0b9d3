// The report names an allocation site by file and line with the statically
// linked llvm-symbolizer built beside the runtime (cmake/symbolizer), which
// starts in a fraction of the CPU time of Debian's (docs/performance.md,
// "Exit cost"): so with no llvm-symbolizer in PATH at all, the site still
// has its line. A symbolizer named by ESAN_SYMBOLIZER_PATH still wins: one
// that fails leaves the site without its line.
// REQUIRES: built-symbolizer
// RUN: %clang -O2 -g -fsanitize=efficiency-working-set %s -o %t
// RUN: env PATH=/nonexistent %run %t 2>&1 | FileCheck %s
// RUN: rm -rf %t.bin && mkdir %t.bin
// RUN: printf '#!/bin/sh\nexit 1\n' > %t.bin/llvm-symbolizer && chmod +x %t.bin/llvm-symbolizer
// RUN: env ESAN_SYMBOLIZER_PATH=%t.bin/llvm-symbolizer %run %t 2>&1 | FileCheck %s --check-prefix=NAMED
// CHECK: data structures, most lines first
// CHECK-NEXT: heap    1000 lines ({{.*}})  main {{.*}}built-symbolizer.c:[[#@LINE+12]]
// NAMED: data structures, most lines first
// NAMED-NOT: built-symbolizer.c:
// NAMED: heap    1000 lines ({{.*}})  built-symbolizer.c.tmp+0x
// NAMED-NOT: built-symbolizer.c:
// NAMED: SUMMARY
#include <stdio.h>
#include <stdlib.h>

enum { kLines = 1000 };

int main(void) {
  char *block = aligned_alloc(64, kLines * 64);
  for (int i = 0; i < kLines * 64; i += 64)
    block[i] = (char)i;
  long sum = 0;
  for (int i = 0; i < kLines * 64; i += 64)
    sum += block[i];
  printf("%ld\n", sum);
  free(block);
  return 0;
}
