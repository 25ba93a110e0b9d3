// An instrumented shared library computes what it computes without efsan.
// Its callers keep values in r10 across the preserve_most sampling callout
// (__efsan_cache_frag_access, defined in the executable). Called through the
// library's PLT, the first call was lazily bound by glibc's resolver, which
// follows the C convention and clobbered r10: c-blosc's own tests computed
// wrong results or jumped to a smashed return address. The callout is now
// called through the GOT, bound when the library is loaded.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -fPIC -shared -Wl,-z,lazy -DLIBRARY %s -o %t.dir/libmix.so
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag %s -L%t.dir -lmix -Wl,-rpath,%t.dir -o %t
// RUN: env -u LD_BIND_NOW %run %t 2>&1 | FileCheck %s
// RUN: env -u LD_BIND_NOW ESAN_OPTIONS=cache_frag_sample_period=1 %run %t 2>&1 | FileCheck %s
// The library calls the callout through the GOT, never a PLT entry.
// RUN: llvm-readelf -r %t.dir/libmix.so | FileCheck %s --check-prefix=GOT
// RUN: llvm-readelf -r %t.dir/libmix.so | not grep 'JUMP_SLOT.*__efsan_cache_frag_access'
// The working set's callouts follow the C convention; checked all the same,
// and the miss-ratio curves' preserve_all __efsan_ws_mark_lines, called
// through the GOT too (a lazily bound first call clobbered the loop's sums:
// "mix: DIFFERENT").
// RUN: %clang -O2 -g -fsanitize=efficiency-working-set -fPIC -shared -Wl,-z,lazy -DLIBRARY %s -o %t.dir/libmix.so
// RUN: %clang -O2 -g -fsanitize=efficiency-working-set %s -L%t.dir -lmix -Wl,-rpath,%t.dir -o %t.ws
// RUN: env -u LD_BIND_NOW %run %t.ws 2>&1 | FileCheck %s
// RUN: env -u LD_BIND_NOW ESAN_OPTIONS=mrc_sample_shift=0 %run %t.ws 2>&1 | FileCheck %s
// RUN: llvm-readelf -r %t.dir/libmix.so | FileCheck %s --check-prefix=WSGOT
// RUN: llvm-readelf -r %t.dir/libmix.so | not grep 'JUMP_SLOT.*__efsan_ws_mark_lines'
// WSGOT: R_X86_64_GLOB_DAT {{.*}} __efsan_ws_mark_lines
// GOT: R_X86_64_GLOB_DAT {{.*}} __efsan_cache_frag_access
// CHECK-DAG: mix: same
// CHECK-DAG: ==EfficiencySanitizer:
#include <stdio.h>
#include <stdlib.h>

#define SUMS 12

#ifdef LIBRARY
// Twelve sums live across every sampled access: the loop keeps them all in
// registers, r10 among them.
unsigned long mix(const unsigned long *a, long n) {
  unsigned long s[SUMS] = {0};
  for (long i = 0; i + SUMS <= n; i += SUMS) {
#pragma clang loop unroll(full)
    for (int k = 0; k < SUMS; k++)
      s[k] = s[k] * 31 + (a[i + k] ^ (unsigned long)k);
  }
  unsigned long r = 0;
  for (int k = 0; k < SUMS; k++)
    r = r * 1000003 + s[k];
  return r;
}
#else
unsigned long mix(const unsigned long *a, long n);

static unsigned long expected(const unsigned long *a, long n) {
  unsigned long s[SUMS] = {0};
  for (long i = 0; i + SUMS <= n; i += SUMS)
    for (int k = 0; k < SUMS; k++)
      s[k] = s[k] * 31 + (a[i + k] ^ (unsigned long)k);
  unsigned long r = 0;
  for (int k = 0; k < SUMS; k++)
    r = r * 1000003 + s[k];
  return r;
}

int main(void) {
  long n = SUMS * 100000;
  unsigned long *a = malloc(n * sizeof *a);
  for (long i = 0; i < n; i++)
    a[i] = (unsigned long)i * 2654435761u;
  unsigned long got = mix(a, n), want = expected(a, n);
  printf("mix: %s\n", got == want ? "same" : "DIFFERENT");
  free(a);
  return got != want;
}
#endif
