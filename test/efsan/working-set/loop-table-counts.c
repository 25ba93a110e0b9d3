// A table all of whose lines are marked but one the miss-ratio curves observe
// (that line never gets bit 0) runs, for a chunk of a long loop or a whole
// run of a short one, a copy of the loop without checks that counts the
// table's accesses to that line (docs/Pass.md, "Tables"); each is still
// recorded, the count logged at the chunk's end. The program places two
// 16-line tables where exactly one line is observed (at 1/8192 of the lines,
// by the hash the runtime uses) and its bytes where no line is, so that the
// only accesses to observed lines of a phase are those to the table's line,
// which it counts itself: the phase's recorded accesses must be exactly
// those, with the counting copies (the first chunk, or the first run, runs
// the checked copy, which marks the other lines) and without them
// (-efsan-loop-table-counts=0: the checked copy throughout). A sample every
// 5 seconds: the run ends before the first (an access during a sampler's
// scan is not recorded). The tables' sums must not depend on the
// instrumentation.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: %clang -O2 -fsanitize=efficiency-working-set -mllvm -efsan-loop-table-counts=0 %s -o %t.checked
// RUN: %clang -O2 %s -o %t.plain
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: %t.plain > %t.d/plain
// RUN: env ESAN_OPTIONS=mrc_sample_shift=13:sample_freq=5000:report_format=json:log_path=%t.d/log %run %t > %t.d/vars
// RUN: diff %t.d/plain %t.d/vars
// RUN: %python %S/Inputs/check_report.py %t.d/log --count 1 --vars %t.d/vars \
// RUN:   "[p['name'] for p in phases] == ['long', 'short', 'sums']" \
// RUN:   "miss_ratio_curve['sampled_fraction'] == 1 / 8192" \
// RUN:   "EXPECT_LONG > 10000 and EXPECT_SHORT > 10000" \
// RUN:   "phases[0]['miss_ratio_curve']['sampled_accesses'] == EXPECT_LONG" \
// RUN:   "phases[1]['miss_ratio_curve']['sampled_accesses'] == EXPECT_SHORT"
// RUN: env ESAN_OPTIONS=mrc_sample_shift=13:sample_freq=5000:report_format=json:log_path=%t.d/checked %run %t.checked > %t.d/vars.checked
// RUN: diff %t.d/plain %t.d/vars.checked
// RUN: %python %S/Inputs/check_report.py %t.d/checked --count 1 --vars %t.d/vars.checked \
// RUN:   "phases[0]['miss_ratio_curve']['sampled_accesses'] == EXPECT_LONG" \
// RUN:   "phases[1]['miss_ratio_curve']['sampled_accesses'] == EXPECT_SHORT"
#include <stdint.h>
#include <stdio.h>

__attribute__((weak)) void __efsan_mark_phase(const char *name);

enum {
  SHIFT = 13,
  REGION_LINES = 1 << 20,  // 64 MiB, untouched but for what the program uses
  TABLE_LINES = 16,        // 128 counters
  LONG_BYTES = 640 << 10,  // three chunks of the loop
  SHORT_BYTES = 32 << 10,  // a loop marked whole,
  SHORT_RUNS = 64,         // run again and again
};

static _Alignas(64) unsigned char region[(size_t)REGION_LINES * 64];

// The runtime's choice (docs/InstrumentationABI.md, "Miss-ratio curves").
static int observed(long line) {
  uint64_t shadow = ((uintptr_t)&region[line * 64] >> 6) + 0x7fff8000ULL;
  return shadow * 0x9e3779b97f4a7c15ULL <= (~0ULL >> SHIFT);
}

static int used_until; // lines before it are taken

// The first TABLE_LINES lines from used_until on with exactly one observed,
// the fifth; its index in *line.
static uint64_t *place_table(long *line) {
  for (long l = used_until + 4; l + TABLE_LINES - 4 < REGION_LINES; l++) {
    if (!observed(l))
      continue;
    int others = 0;
    for (long k = l - 4; k < l - 4 + TABLE_LINES; k++)
      others += k != l && observed(k);
    if (others)
      continue;
    *line = 4;
    used_until = (int)(l - 4 + TABLE_LINES);
    return (uint64_t *)&region[(l - 4) * 64];
  }
  return NULL;
}

// Bytes on lines none of which is observed.
static unsigned char *place_bytes(long bytes) {
  long need = bytes / 64, run = 0;
  for (long l = used_until; l < REGION_LINES; l++) {
    run = observed(l) ? 0 : run + 1;
    if (run == need) {
      used_until = (int)(l + 1);
      return &region[(l + 1 - need) * 64];
    }
  }
  return NULL;
}

__attribute__((noinline)) void count(uint64_t *table, const unsigned char *b,
                                     long n) {
  for (long i = 0; i < n; i++)
    table[b[i]]++;
}

int main(void) {
  long long_line, short_line;
  uint64_t *long_table = place_table(&long_line);
  unsigned char *long_bytes = place_bytes(LONG_BYTES);
  uint64_t *short_table = place_table(&short_line);
  unsigned char *short_bytes = place_bytes(SHORT_BYTES);
  if (!long_table || !long_bytes || !short_table || !short_bytes) {
    printf("no layout\n");
    return 1;
  }
  unsigned v = 7;
  long expect_long = 0, expect_short = 0;
  for (long i = 0; i < LONG_BYTES; i++) {
    v = v * 1103515245u + 12345u;
    long_bytes[i] = (unsigned char)((v >> 9) & 127);
    expect_long += long_bytes[i] / 8 == long_line;
  }
  for (long i = 0; i < SHORT_BYTES; i++) {
    v = v * 1103515245u + 12345u;
    short_bytes[i] = (unsigned char)((v >> 9) & 127);
    expect_short += (short_bytes[i] / 8 == short_line) * SHORT_RUNS;
  }
  if (__efsan_mark_phase)
    __efsan_mark_phase("long");
  count(long_table, long_bytes, LONG_BYTES);
  if (__efsan_mark_phase)
    __efsan_mark_phase("short");
  for (int r = 0; r < SHORT_RUNS; r++)
    count(short_table, short_bytes, SHORT_BYTES);
  if (__efsan_mark_phase)
    __efsan_mark_phase("sums");
  uint64_t sum = 0;
  for (int b = 0; b < 8 * TABLE_LINES; b++)
    sum = sum * 31 + long_table[b] + 3 * short_table[b];
  printf("EXPECT_LONG=%ld\nEXPECT_SHORT=%ld\nSUM=%llu\n", expect_long,
         expect_short, (unsigned long long)sum);
  return 0;
}
