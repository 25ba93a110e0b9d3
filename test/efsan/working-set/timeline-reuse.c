// Reuse: a table read in every sample period beside a buffer written once,
// a line at a time, over many periods (a stream). The table's lines are all
// reused and the buffer's all streamed, for the whole run and for the phase
// that holds both; the reused part is what the verdict is about.
// RUN: %clang -O2 -g -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env ESAN_OPTIONS=sample_freq=5:sample_clock=cpu:report_format=json:log_path=%t.d/r %run %t > %t.d/vars
// RUN: %python %S/Inputs/check_report.py %t.d/r --count 1 --vars %t.d/vars \
// RUN:   "site('make_table') == TABLE and reused('make_table') == TABLE" \
// RUN:   "site('make_stream') == STREAM and reused('make_stream') <= STREAM / 50" \
// RUN:   "TABLE <= reused_lines <= TABLE + 16 and reused_fits_level == (0 if not caches else reused_fits_level)" \
// RUN:   "phases[0]['name'] == 'work' and TABLE <= phases[0]['reused_lines'] <= TABLE + 16" \
// RUN:   "[o['reused_lines'] for o in phases[0]['objects'] if o['lines'] == STREAM] == [0]"
// RUN: env ESAN_OPTIONS=sample_freq=5:sample_clock=cpu %run %t 2>&1 >/dev/null | FileCheck %s
// CHECK: reused (touched in several sample periods): {{5[0-9][0-9]}} lines {{.*}}; streamed (in one period only): {{200[0-9][0-9]}} lines
// Each listed structure's own split, in one line under it (its frames
// first), for the whole run and for the phase; the stream's reused part is
// the few lines a sample's scan split on a loaded machine (as above).
// CHECK: data structures, most lines first
// CHECK-NEXT: heap    20000 lines ({{.*}})  make_stream
// CHECK-NEXT: called from main
// CHECK-NEXT: reused [[#STREAM_REUSED:]] lines ({{[0-2]}}%)
// CHECK-SAME: , streamed [[#20000-STREAM_REUSED]] lines
// CHECK-NEXT: miss ratio
// CHECK-NEXT: heap    500 lines ({{.*}})  make_table
// CHECK-NEXT: called from main
// CHECK-NEXT: reused 500 lines (100%), streamed 0 lines
// CHECK: phase "work"
// CHECK-NEXT: heap    20000 lines ({{.*}})  make_stream
// CHECK-NEXT: called from main
// CHECK-NEXT: reused [[#PHASE_STREAM_REUSED:]] lines ({{[0-2]}}%)
// CHECK-SAME: , streamed [[#20000-PHASE_STREAM_REUSED]] lines
// CHECK-NEXT: heap    500 lines ({{.*}})  make_table
// CHECK-NEXT: called from main
// CHECK-NEXT: reused 500 lines (100%), streamed 0 lines
#include <sanitizer/efsan_interface.h>
#include <stdio.h>
#include <stdlib.h>

enum { TABLE = 500, STREAM = 20000 };

__attribute__((noinline)) static char *make_table(void) {
  char *p = aligned_alloc(64, TABLE * 64);
  if (!p)
    abort();
  return p;
}
__attribute__((noinline)) static char *make_stream(void) {
  char *p = aligned_alloc(64, STREAM * 64);
  if (!p)
    abort();
  return p;
}

int main(void) {
  volatile char *table = make_table(), *stream = make_stream();
  __efsan_mark_phase("work");
  unsigned start = __efsan_get_sample_count();
  long sum = 0;
  // One line of the stream, then a pass over the table, until the stream is
  // written and the table was read in passes at least two sample periods
  // apart.
  for (int i = 0; i < STREAM || __efsan_get_sample_count() < start + 3; i++) {
    if (i < STREAM)
      stream[i * 64] = 1;
    for (int t = 0; t < TABLE; t++)
      sum += table[t * 64];
  }
  __efsan_mark_phase(NULL);
  printf("TABLE=%d\nSTREAM=%d\n", TABLE, STREAM);
  return (int)(sum & 1);
}
