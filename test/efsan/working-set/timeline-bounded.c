// A long run keeps a bounded timeline: with snapshot_history=4 the series
// has at most 4 entries, each covering as many periods as the others (the
// last one fewer), together all the periods of the run; an entry's
// structures add up to its lines, and the table read all along has all its
// lines in each entry.
// RUN: %clang -O2 -g -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env ESAN_OPTIONS=sample_freq=100:sample_clock=cpu:snapshot_history=4:report_format=json:log_path=%t.d/r %run %t > %t.d/vars
// RUN: %python %S/Inputs/check_report.py %t.d/r --count 1 --vars %t.d/vars \
// RUN:   "timeline['period_ms'] == 100 and timeline['periods'] >= 12" \
// RUN:   "len(timeline['lines']) <= 4 and timeline['periods_per_entry'] >= 4" \
// RUN:   "sum(timeline['entry_periods']) == timeline['periods']" \
// RUN:   "all(n == timeline['periods_per_entry'] for n in timeline['entry_periods'][:-1])" \
// RUN:   "all(sum(s[i] for s in timeline['by_structure']) + timeline['rest'][i] == n for i, n in enumerate(timeline['lines']))" \
// RUN:   "all(n == TABLE for n in series('make_table')[:-1])" \
// RUN:   "timeline['start_us'][0] == 0 and all(a == b for a, b in zip(timeline['end_us'], timeline['start_us'][1:]))"
#include <sanitizer/efsan_interface.h>
#include <stdio.h>
#include <stdlib.h>

enum { TABLE = 300 };

__attribute__((noinline)) static char *make_table(void) {
  char *p = aligned_alloc(64, TABLE * 64);
  if (!p)
    abort();
  return p;
}

int main(void) {
  volatile char *table = make_table();
  // 13 samples of 100 ms: 13 periods at level 0 (100 ms already).
  while (__efsan_get_sample_count() < 13)
    for (int t = 0; t < TABLE; t++)
      table[t * 64]++;
  printf("TABLE=%d\n", TABLE);
  return 0;
}
