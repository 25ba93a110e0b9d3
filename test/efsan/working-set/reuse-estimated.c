// Reuse when snapshots are estimated: a 64 KiB global table and a 16 MiB
// heap buffer, both read in several sample periods (each is swept, then
// swept again after two more samples have been taken entirely after that:
// every line of them is reused, whatever the machine's load), beside a
// 4 MiB buffer whose first half is swept so too and whose second half is
// written once (half reused, exactly 32768 lines). The 16 MiB sweep makes
// a period touch more than snapshot_budget lines, so the snapshots and the
// reuse split are estimated (reused_sampled_fraction < 1). Each structure's
// reuse is the ratio of reused lines among its sampled ones applied to its
// exact lines, with a 95% interval: the table and the buffer are reused
// 100%, in every run (the selection of lines follows the addresses, which
// ASLR moves: four runs), and the interval holds the exact answer, which
// exact_snapshots=1 gives. Before, the estimate scaled the sampled reused
// lines up by 2^s: "reused about 896 lines (87%)" for the table, 960 in
// the next run, with no stated error.
// RUN: %clang -O2 -g -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.d/r1 %run %t
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.d/r2 %run %t
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.d/r3 %run %t
// RUN: %if taskset %{ env ESAN_OPTIONS=report_format=json:log_path=%t.d/r4 taskset -c 0 %run %t %}
// RUN: %if !taskset %{ env ESAN_OPTIONS=report_format=json:log_path=%t.d/r4 %run %t %}
// RUN: env ESAN_OPTIONS=report_format=json:exact_snapshots=1:log_path=%t.d/exact %run %t
// RUN: %python %S/Inputs/check_report.py %t.d/r1 --count 1 \
// RUN:   "reused_sampled_fraction < 1 and any(f < 1 for f in levels[0]['sampled_fraction'])" \
// RUN:   "named('global', 'table')['lines'] == named('global', 'table')['reused_lines'] == 1024" \
// RUN:   "named('global', 'table')['reused_lines_low'] <= 1024 == named('global', 'table')['reused_lines_high']" \
// RUN:   "[o['reused_lines'] for o in objects if o['lines'] == 262144] == [262144]" \
// RUN:   "[abs(o['reused_lines'] - 32768) <= 2048 for o in objects if o['lines'] == 65536] == [True]" \
// RUN:   "all(o['reused_lines_low'] <= o['reused_lines'] <= o['reused_lines_high'] <= o['lines'] for o in objects)" \
// RUN:   "[2 * o['reused_lines_low'] - o['reused_lines_high'] <= 32768 <= 2 * o['reused_lines_high'] - o['reused_lines_low'] for o in objects if o['lines'] == 65536] == [True]" \
// RUN:   "reused_lines_low <= reused_lines <= reused_lines_high <= total_lines"
// RUN: %python %S/Inputs/check_report.py %t.d/r2 --count 1 \
// RUN:   "reused_sampled_fraction < 1 and any(f < 1 for f in levels[0]['sampled_fraction'])" \
// RUN:   "named('global', 'table')['lines'] == named('global', 'table')['reused_lines'] == 1024" \
// RUN:   "named('global', 'table')['reused_lines_low'] <= 1024 == named('global', 'table')['reused_lines_high']" \
// RUN:   "[o['reused_lines'] for o in objects if o['lines'] == 262144] == [262144]" \
// RUN:   "[abs(o['reused_lines'] - 32768) <= 2048 for o in objects if o['lines'] == 65536] == [True]" \
// RUN:   "all(o['reused_lines_low'] <= o['reused_lines'] <= o['reused_lines_high'] <= o['lines'] for o in objects)" \
// RUN:   "[2 * o['reused_lines_low'] - o['reused_lines_high'] <= 32768 <= 2 * o['reused_lines_high'] - o['reused_lines_low'] for o in objects if o['lines'] == 65536] == [True]" \
// RUN:   "reused_lines_low <= reused_lines <= reused_lines_high <= total_lines"
// RUN: %python %S/Inputs/check_report.py %t.d/r3 --count 1 \
// RUN:   "reused_sampled_fraction < 1 and any(f < 1 for f in levels[0]['sampled_fraction'])" \
// RUN:   "named('global', 'table')['lines'] == named('global', 'table')['reused_lines'] == 1024" \
// RUN:   "named('global', 'table')['reused_lines_low'] <= 1024 == named('global', 'table')['reused_lines_high']" \
// RUN:   "[o['reused_lines'] for o in objects if o['lines'] == 262144] == [262144]" \
// RUN:   "[abs(o['reused_lines'] - 32768) <= 2048 for o in objects if o['lines'] == 65536] == [True]" \
// RUN:   "all(o['reused_lines_low'] <= o['reused_lines'] <= o['reused_lines_high'] <= o['lines'] for o in objects)" \
// RUN:   "[2 * o['reused_lines_low'] - o['reused_lines_high'] <= 32768 <= 2 * o['reused_lines_high'] - o['reused_lines_low'] for o in objects if o['lines'] == 65536] == [True]" \
// RUN:   "reused_lines_low <= reused_lines <= reused_lines_high <= total_lines"
// RUN: %python %S/Inputs/check_report.py %t.d/r4 --count 1 \
// RUN:   "reused_sampled_fraction < 1 and any(f < 1 for f in levels[0]['sampled_fraction'])" \
// RUN:   "named('global', 'table')['lines'] == named('global', 'table')['reused_lines'] == 1024" \
// RUN:   "named('global', 'table')['reused_lines_low'] <= 1024 == named('global', 'table')['reused_lines_high']" \
// RUN:   "[o['reused_lines'] for o in objects if o['lines'] == 262144] == [262144]" \
// RUN:   "[abs(o['reused_lines'] - 32768) <= 2048 for o in objects if o['lines'] == 65536] == [True]" \
// RUN:   "all(o['reused_lines_low'] <= o['reused_lines'] <= o['reused_lines_high'] <= o['lines'] for o in objects)" \
// RUN:   "[2 * o['reused_lines_low'] - o['reused_lines_high'] <= 32768 <= 2 * o['reused_lines_high'] - o['reused_lines_low'] for o in objects if o['lines'] == 65536] == [True]" \
// RUN:   "reused_lines_low <= reused_lines <= reused_lines_high <= total_lines"
// RUN: %python %S/Inputs/check_report.py %t.d/exact --count 1 \
// RUN:   "reused_sampled_fraction == 1 and named('global', 'table')['reused_lines'] == 1024" \
// RUN:   "[o['reused_lines'] for o in objects if o['lines'] in (262144, 65536)] == [262144, 32768]" \
// RUN:   "all(o['reused_lines_low'] == o['reused_lines'] == o['reused_lines_high'] for o in objects)"
// RUN: env ESAN_OPTIONS= %run %t 2>&1 | FileCheck %s
// RUN: env ESAN_OPTIONS=exact_snapshots=1 %run %t 2>&1 | FileCheck %s --check-prefix=EXACT
// CHECK: reused (touched in several sample periods): about {{[0-9]+}} lines ({{[0-9.]+}} MiB, between {{[0-9]+}} and {{[0-9]+}} at 95% confidence)
// CHECK-SAME: ; streamed (in one period only): about {{[0-9]+}} lines
// CHECK: heap    262144 lines (16.0 MiB)  main
// CHECK: reused about 262144 lines (100%, between {{[0-9]+}} and 262144 at 95% confidence), streamed about 0 lines
// CHECK: heap    65536 lines (4.0 MiB)  main
// CHECK: reused about {{3[0-9][0-9][0-9][0-9]}} lines ({{4[6-9]|5[0-3]}}%, between {{[0-9]+}} and {{[0-9]+}} at 95% confidence), streamed about {{3[0-9][0-9][0-9][0-9]}} lines
// CHECK: global  1024 lines (64.0 KiB)  table
// CHECK-NEXT: reused about 1024 lines (100%, between {{[0-9]+}} and 1024 at 95% confidence), streamed about 0 lines
// EXACT: heap    65536 lines (4.0 MiB)  main
// EXACT: reused 32768 lines (50%), streamed 32768 lines
// EXACT: global  1024 lines (64.0 KiB)  table
// EXACT-NEXT: reused 1024 lines (100%), streamed 0 lines
#include <sanitizer/efsan_interface.h>
#include <stdlib.h>
#include <time.h>

#define LINE 64
static unsigned char table[64 << 10] __attribute__((aligned(64)));
enum { HOT = 16 << 20, MIXED = 4 << 20 };


static void sweep(volatile unsigned char *p, size_t bytes) {
  for (size_t i = 0; i < bytes; i += LINE)
    p[i]++;
}

static unsigned samples(void) { return __efsan_get_sample_count(); }

int main(void) {
  unsigned char *hot = calloc(HOT, 1);
  unsigned char *mixed = calloc(MIXED, 1);
  if (!hot || !mixed)
    return 1;
  size_t half = MIXED / 2, piece = half / 4;
  for (int round = 0; round < 4; round++) {
    sweep(table, sizeof(table));
    sweep(hot, HOT);
    sweep(mixed, half);
    // The second half of `mixed`: a quarter of it per round, written once.
    sweep(mixed + half + round * piece, piece);
    // Sample v + 2 starts after sample v + 1 ends, which is after this read:
    // it lies entirely between the sweeps above and those below.
    unsigned v = samples();
    while (samples() < v + 2) {
      sweep(table, sizeof(table));
      struct timespec ms = {0, 1000000};
      nanosleep(&ms, 0);
    }
    sweep(table, sizeof(table));
    sweep(hot, HOT);
    sweep(mixed, half);
  }
  return 0;
}
