// Link combinations, the same in both drivers (docs/Driver.md).

// A static executable cannot run the runtime (it needs the dynamic loader):
// refused at link time in clang's words. Compiling with -static is fine.
// RUN: not %clang -fsanitize=efficiency-working-set -static %s -o %t 2>&1 | FileCheck %s --check-prefix=STATIC
// RUN: not %clang -fsanitize=efficiency-cache-frag,undefined -static %s -o %t 2>&1 | FileCheck %s --check-prefix=STATIC-CF
// RUN: not %clang -fsanitize=efficiency-working-set -static-pie %s -o %t 2>&1 | FileCheck %s --check-prefix=STATIC-PIE
// STATIC: error: invalid argument '-fsanitize=efficiency-working-set' not allowed with '-static'
// STATIC-CF: error: invalid argument '-fsanitize=efficiency-cache-frag' not allowed with '-static'
// STATIC-PIE: error: invalid argument '-fsanitize=efficiency-working-set' not allowed with '-static-pie'
// RUN: %clang -fsanitize=efficiency-working-set -static -c %s -o %t.o

// safe-stack's runtime intercepts pthread_create too.
// RUN: not %clang -fsanitize=efficiency-working-set,safe-stack %s -o %t 2>&1 | FileCheck %s --check-prefix=SAFESTACK
// SAFESTACK: error: invalid argument '-fsanitize=efficiency-working-set' not allowed with '-fsanitize=safe-stack'

// libFuzzer: its coverage instrumentation must not bring clang's standalone
// UBSan runtime (a second sanitizer_common); the fuzzer builds and runs.
// RUN: %clang -O1 -fsanitize=efficiency-working-set,fuzzer -DFUZZER %s -o %t.fuzz
// RUN: env ESAN_OPTIONS=report_format=json %run %t.fuzz -runs=50 2>&1 | FileCheck %s --check-prefix=FUZZ
// FUZZ: Done 50 runs
// FUZZ: "tool": "working-set"
// With UBSan too (its handlers are in the efsan runtime).
// RUN: %clang -O1 -fsanitize=efficiency-working-set,fuzzer,undefined -DFUZZER %s -o %t.fuzzub
// RUN: env ESAN_OPTIONS=report_format=json %run %t.fuzzub -runs=50 2>&1 | FileCheck %s --check-prefix=FUZZ
// RUN: %clang -O1 -fsanitize=efficiency-cache-frag,fuzzer-no-link %s -o %t.nolink
// RUN: %run %t.nolink 2>&1 | FileCheck %s --check-prefix=NOLINK
// NOLINK-DAG: main ran
// NOLINK-DAG: SUMMARY: EfficiencySanitizer:
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef FUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static volatile uint8_t sink;
  for (size_t i = 0; i < size; i++)
    sink = data[i];
  return 0;
}
#else
int main(void) {
  printf("main ran\n");
  return 0;
}
#endif
