// A loop whose only access is at a loop-invariant address (its range never
// grows, so it always fits the loop-range limit) touches that line in every
// sample period it runs in. Marked once before the loop, the line counted in
// the first period only ("1 0 0 0 ..."); a loop of more iterations than the
// limit has bytes is marked in chunks of 262144 iterations instead, so the
// level-0 snapshots while it runs count the line. The clock is the program's
// CPU time, so that periods pass only while the loop runs (a loaded
// machine), and a period is 20 ms: dozens of snapshots, each of several
// chunks (a chunk of atomic adds takes over 5 ms when other cores contend
// memory: with 5-ms periods a third of them saw no chunk start).
// (On a loaded machine a sampler that woke late takes the next sample at
// once, after a period in which the program hardly ran: up to a quarter of
// the snapshots may be empty.)
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -f %t.log.*
// RUN: env ESAN_OPTIONS=sample_clock=cpu:sample_freq=20:snapshot_history=65536:report_format=json:log_path=%t.log %run %t 100000000
// RUN: %python %S/Inputs/check_report.py %t.log --count 1 \
// RUN:   "globals >= 1" "len(level0) >= 10" "sum(1 for n in level0 if n < 1) <= len(level0) // 4"
// A short loop (fewer iterations than the limit) is still marked once, before
// it, in the copy without checks.
// RUN: %clang -O2 -fsanitize=efficiency-working-set -fno-discard-value-names -S -emit-llvm %s -o - | FileCheck %s
// CHECK-LABEL: define {{.*}} @spin(
// CHECK: icmp ult i64 %{{.*}}, 262144
// CHECK: efsan.chunk.mark:
#include <stdio.h>
#include <stdlib.h>

long counter;

__attribute__((noinline)) void spin(long n) {
  for (long i = 0; i < n; i++)
    __atomic_fetch_add(&counter, i ^ (i >> 3), __ATOMIC_RELAXED);
}

int main(int argc, char **argv) {
  spin(atol(argv[1]));
  printf("%ld\n", counter);
  return 0;
}
