// The timeline: two heap structures take turns, three timeline periods each
// (A A A B B B A A A). In every period the program spent on one of them,
// the timeline attributes all of its lines to it (within 2%) and none of the
// other's; the entries add up to their periods' lines, which are the
// snapshots of the timeline's level, and both are reused.
// The program switches on the sample count, not the clock: a switch waits
// for the sample that ends a period, so no period mixes the two (sample
// periods of the program's CPU time). The sample count is published when a
// sample's scan of the shadow ends: lines the program touches while the
// scan runs, in pages it has passed, count in the next period, so on a
// loaded machine (the sampler preempted mid-scan) the first period after a
// switch may still hold the old structure's lines; it is left out of the
// "none of the other's" checks (seen: 1000 B lines after the B -> A switch).
// RUN: %clang -O2 -g -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env ESAN_OPTIONS=sample_freq=25:sample_clock=cpu:report_format=json:log_path=%t.d/r %run %t > %t.d/vars
// RUN: %python %S/Inputs/check_report.py %t.d/r --count 1 --vars %t.d/vars \
// RUN:   "timeline['period_ms'] == 100 and timeline['level'] == 1 and timeline['periods_per_entry'] == 1" \
// RUN:   "len(timeline['lines']) >= FIRST + 9" \
// RUN:   "all(abs(series('make_a')[FIRST + i] - LINES_A) <= LINES_A / 50 for i in (0, 1, 2, 6, 7, 8))" \
// RUN:   "all(series('make_b')[FIRST + i] <= LINES_B / 50 for i in (0, 1, 2, 7, 8))" \
// RUN:   "all(abs(series('make_b')[FIRST + i] - LINES_B) <= LINES_B / 50 for i in (3, 4, 5))" \
// RUN:   "all(series('make_a')[FIRST + i] <= LINES_A / 50 for i in (4, 5))" \
// RUN:   "all(sum(s[i] for s in timeline['by_structure']) + timeline['rest'][i] == n for i, n in enumerate(timeline['lines']))" \
// RUN:   "all(n == levels[1]['lines'][i] for i, n in enumerate(timeline['lines'][:-1]))" \
// RUN:   "reused('make_a') == LINES_A and reused('make_b') == LINES_B"
// RUN: env ESAN_OPTIONS=sample_freq=25:sample_clock=cpu %run %t 2>&1 >/dev/null | FileCheck %s
// CHECK: reused (touched in several sample periods): {{[0-9]+}} lines {{.*}}; streamed (in one period only): {{[0-9]+}} lines
#include <sanitizer/efsan_interface.h>
#include <stdio.h>
#include <stdlib.h>

enum { LINES_A = 3000, LINES_B = 1000, PERIOD = 4 }; // 100 ms of 25 ms

// Not tail calls: the allocation sites are these functions.
__attribute__((noinline)) static char *make_a(void) {
  char *p = aligned_alloc(64, LINES_A * 64);
  if (!p)
    abort();
  return p;
}
__attribute__((noinline)) static char *make_b(void) {
  char *p = aligned_alloc(64, LINES_B * 64);
  if (!p)
    abort();
  return p;
}

// Touches the lines until the sample that ends timeline period `until`;
// the sample count is read before each line, so that no line is touched
// after that sample (up to the instant between the read and the store).
static void touch_until(volatile char *p, int lines, unsigned until) {
  for (;;)
    for (int i = 0; i < lines; i++) {
      if (__efsan_get_sample_count() >= until * PERIOD)
        return;
      p[i * 64]++;
    }
}

int main(void) {
  char *a = make_a(), *b = make_b();
  // Start at a period boundary: wait (touching nothing) for the next one.
  unsigned first = __efsan_get_sample_count() / PERIOD + 1;
  while (__efsan_get_sample_count() < first * PERIOD)
    ;
  for (int turn = 0; turn < 3; turn++)
    touch_until(turn % 2 ? b : a, turn % 2 ? LINES_B : LINES_A,
                first + 3 * (turn + 1));
  printf("FIRST=%u\nLINES_A=%d\nLINES_B=%d\n", first, LINES_A, LINES_B);
  return 0;
}
