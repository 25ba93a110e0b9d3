// A loop that may leave early, with accesses in two blocks that run in every
// iteration (a search that stops at a match or at a sentinel), gets a copy
// without instrumentation that takes whole iterations' accesses off the
// countdown at once, four iterations between two subtractions for a body as
// small as this one's (EfficiencySanitizerCountdown.cpp, planBudgetLoop). It
// computes what the plain build computes, whatever the sample period (at 3
// the loop switches between the copies every iteration or two; at 1 the copy
// never runs), and every access it runs is still counted once: each round
// makes 16 searches that stop at a match after t + 1 loads of `id` and t of
// `val` (t = 0..15) and one that stops at the sentinel's `val` after 41 of
// each; main reads each match's `id` once and stores both fields of 64
// records once. 150,000 rounds: `id` 150,000 * 193 + 64 = 28,950,064
// accesses, `val` 150,000 * 161 + 64 = 24,150,064, estimated within 3% from
// one sample in 1000 (a lone thread's samples weighing 1) where a copy that
// took off one access too many or too few at each way out would be 5-7% off,
// and the period 3 run and the one with the copies off agree.
// RUN: %clang -O2 -g %s -o %t.plain
// RUN: %run %t.plain > %t.plain.out
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_alone_weight=1 %run %t > %t.out 2> %t.err
// RUN: diff %t.plain.out %t.out
// RUN: FileCheck %s < %t.err
// RUN: env ESAN_OPTIONS=cache_frag_sample_period=3 %run %t > %t.3.out 2> %t.3.err
// RUN: diff %t.plain.out %t.3.out
// RUN: env ESAN_OPTIONS=cache_frag_sample_period=1 %run %t > %t.1.out 2> %t.1.err
// RUN: diff %t.plain.out %t.1.out
// RUN: FileCheck %s --check-prefix=EXACT < %t.1.err
#include <stdio.h>

struct rec {
  long id;
  long val;
};

__attribute__((noinline)) long find(const struct rec *r, long id) {
  long i = 0;
  while (r[i].id != id) {
    if (r[i].val < 0)
      return -1;
    i++;
  }
  return i;
}

static struct rec recs[64];

int main(void) {
  for (long i = 0; i < 64; i++) {
    recs[i].id = i * 7 + 1;
    recs[i].val = i == 40 ? -1 : i;
  }
  long sum = 0;
  for (long round = 0; round < 150000; round++) {
    for (long t = 0; t < 16; t++)
      sum += find(recs, recs[(t + round) & 15].id) * (round & 3);
    sum += find(recs, -5 - (round & 1));
  }
  printf("%ld\n", sum);
  return 0;
}

// CHECK: field 0 id offset 0 size 8 type long count {{(28[0-9]|29[0-7])[0-9][0-9][0-9][0-9][0-9]}}
// CHECK: field 1 val offset 8 size 8 type long count {{(23[4-9]|24[0-8])[0-9][0-9][0-9][0-9][0-9]}}
// EXACT: field 0 id offset 0 size 8 type long count 28950064
// EXACT: field 1 val offset 8 size 8 type long count 24150064
