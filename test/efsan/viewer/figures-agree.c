// The page prints every figure as the text report does: for the same JSON,
// a finding's CPU time, share and wall time in the page's "the fix saves"
// row and its ranking bar are the strings of the text's suggestion (one
// rule: three significant digits, whole percents from 10%), and a
// portability note (a 128-byte prediction on a CPU that does not pair
// lines, forced with cache_frag_line_pairs=no) is listed apart, after the
// findings, out of the ranking and the findings card. The text report of
// the same program: the note is not a finding, not counted in its SUMMARY.
// Before: the text printed "166.123 ms (64.6648% ...)", the page "166 ms
// (64.7%)"; the note was finding #2 and counted.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: env ESAN_OPTIONS=report_format=json:cache_frag_min_share=0:cache_frag_line_pairs=no:log_path=%t.dir/report %run %t
// RUN: %efsan_view %t.dir/report.* -o %t.dir/page.html
// RUN: %python %S/Inputs/check_figures.py %t.dir/page.html %t.dir/report.* | FileCheck %s
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_line_pairs=no %run %t 2>&1 | FileCheck %s --check-prefix=TEXT
// Beside the page: the same checks, pinned.
// RUN: %if taskset %{ env ESAN_OPTIONS=report_format=json:cache_frag_min_share=0:cache_frag_line_pairs=no:log_path=%t.dir/pinned taskset -c 0 %run %t %}
// RUN: %if taskset %{ %efsan_view %t.dir/pinned.* -o %t.dir/pinned.html %}
// RUN: %if taskset %{ %python %S/Inputs/check_figures.py %t.dir/pinned.html %t.dir/pinned.* | FileCheck %s %}
#include <pthread.h>
#include <stdio.h>

// counters: both threads' counters on one line (false sharing). slots: each
// thread's slot on a line of its own, both lines one 128-byte pair (a
// prediction, a portability note where lines do not pair). The threads run
// side by side for a while, so that every figure has digits to print.
_Alignas(128) static volatile long counters[2];
struct slot {
  volatile long count;
  long unused[7];
};
_Alignas(128) static struct slot slots[2];

static void *work(void *arg) {
  long me = (long)arg;
  for (long i = 0; i < 20000000; i++) {
    counters[me]++;
    slots[me].count++;
  }
  return 0;
}

int main(void) {
  pthread_t t[2];
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], 0, work, (void *)i);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  // Not the slots: main's one read of them after the join, when sampled,
  // makes a line of its own (communication after the threads ended).
  printf("%ld\n", counters[0] + counters[1]);
  return 0;
}

// CHECK: figures ok: 1 findings and 1 portability notes print as the text does

// TEXT: Fixing the findings below saves {{[0-9.]+ (ns|us|ms|s)}} of CPU time ({{[0-9]+%|[0-9]\.[0-9]%|<0.1%}} of the run; about {{[0-9.]+ (ns|us|ms|s)}} of wall time).
// TEXT: #1 false sharing on cache line
// TEXT-NOT: #2
// TEXT: Portability notes (not findings: no gain on this CPU, a gain where lines pair):
// TEXT-NEXT: note 1: predicted false sharing with 128-byte lines
// TEXT-NOT: #2
// TEXT: SUMMARY: EfficiencySanitizer: cache-frag: 1 false sharing, 0 true sharing, 0 predicted false sharing; 1 portability note;
