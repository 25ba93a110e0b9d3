// efsan-view on real working-set reports: the page of a run with three
// phases (a small buffer, a large one, the small one again) and the diff of
// two runs whose large phase differs, both loaded in headless Chromium and
// checked against the reports: every level with snapshots has a timeline
// whose points carry the report's numbers in order, the log-scale switch
// works, the console stays empty, and a screenshot lands next to the page.
// The diff's data structures (the two buffers are two sites) carry each
// run's lines, reused and streamed lines, and both runs' structure charts
// their timelines.
// The Perfetto export of the same report follows the trace-event format and
// holds the same series.
// RUN: %clang -O2 -g -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: env ESAN_OPTIONS=report_format=json:sample_freq=10:log_path=%t.dir/small %run %t 1
// RUN: env ESAN_OPTIONS=report_format=json:sample_freq=10:log_path=%t.dir/large %run %t 4
// RUN: %efsan_view %t.dir/small.* -o %t.dir/page.html
// RUN: %python %S/Inputs/check_page.py %t.dir/page.html %t.dir/page.png %t.dir/small.* \
// RUN:   | FileCheck %s --check-prefix=PAGE
// RUN: %efsan_view --diff %t.dir/small.* %t.dir/large.* -o %t.dir/diff.html
// RUN: %python %S/Inputs/check_page.py --diff %t.dir/diff.html %t.dir/diff.png %t.dir/small.* %t.dir/large.* \
// RUN:   | FileCheck %s --check-prefix=DIFF
// RUN: %efsan_view --perfetto %t.dir/small.* -o %t.dir/trace.json
// RUN: %python %S/Inputs/check_trace.py %t.dir/trace.json %t.dir/small.* | FileCheck %s --check-prefix=TRACE
//
// Self-contained: nothing on the page names a URL to fetch.
// RUN: not grep -Eq '(src|href)="(https?:)?//' %t.dir/page.html
// RUN: not grep -Eq '(src|href)="(https?:)?//' %t.dir/diff.html
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static unsigned long sweep(volatile unsigned char *buf, size_t bytes, double seconds) {
  unsigned long sum = 0;
  double end = now() + seconds;
  while (now() < end)
    for (size_t i = 0; i < bytes; i += 64)
      sum += buf[i]++;
  return sum;
}

int main(int argc, char **argv) {
  size_t scale = argc > 1 ? strtoul(argv[1], 0, 10) : 1;
  size_t small = 64 << 10, large = scale << 20;
  // Two sites on two lines: two data structures by name.
  unsigned char *a = calloc(small, 1);
  unsigned char *b = calloc(large, 1);
  if (!a || !b)
    return 1;
  unsigned long sum = sweep(a, small, 0.15) + sweep(b, large, 0.15) + sweep(a, small, 0.15);
  printf("%lu\n", sum % 7);
  return 0;
}

// PAGE: page ok: pid {{[0-9]+}} working-set: {{[1-9][0-9]*}} timelines, {{[1-9][0-9]*}} points
// PAGE: page ok: {{[0-9]+}} svg, {{[0-9]+}} console messages, screenshot {{.*}}page.png
// DIFF: page ok: diff working-set: total {{[0-9]+}} -> {{[0-9]+}} lines, {{[1-9]}} levels overlaid
// DIFF: page ok: diff working-set: {{[2-9]|[1-9][0-9]}} data structures with reuse, 2 structure charts
// DIFF: page ok: {{.*}} screenshot {{.*}}diff.png
// TRACE: trace ok: {{[0-9]+}} events, {{[1-9]}} counter tracks, {{[1-9]}} levels and 0 phases of 1 reports match
