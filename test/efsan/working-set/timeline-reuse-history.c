// Reuse across the top level's snapshot: the shadow's level bits say which
// lines were touched in an earlier sample period only since the top level's
// last snapshot, which clears them; older touches are kept apart. A table
// read once, then again after more than a top-level period (64 samples with
// snapshot_step=1) with a buffer written once in between: the table is
// reused, the buffer streamed.
// RUN: %clang -O2 -g -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env ESAN_OPTIONS=sample_freq=1:snapshot_step=1:sample_clock=cpu:report_format=json:log_path=%t.d/r %run %t > %t.d/vars
// RUN: %python %S/Inputs/check_report.py %t.d/r --count 1 --vars %t.d/vars \
// RUN:   "site('make_table') == TABLE and reused('make_table') == TABLE" \
// RUN:   "site('make_stream') == STREAM and reused('make_stream') == 0"
#include <sanitizer/efsan_interface.h>
#include <stdio.h>
#include <stdlib.h>

enum { TABLE = 2000, STREAM = 4000, TOP_PERIOD = 64 };

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

// Spins (touching no new memory) until `samples` more samples were taken.
static void wait_samples(unsigned samples) {
  unsigned until = __efsan_get_sample_count() + samples;
  while (__efsan_get_sample_count() < until)
    ;
}

int main(void) {
  volatile char *table = make_table(), *stream = make_stream();
  long sum = 0;
  for (int t = 0; t < TABLE; t++)
    sum += table[t * 64];
  // A top-level snapshot falls in any TOP_PERIOD samples in a row.
  wait_samples(TOP_PERIOD + 2);
  for (int s = 0; s < STREAM; s++)
    stream[s * 64] = 1;
  for (int t = 0; t < TABLE; t++)
    sum += table[t * 64];
  wait_samples(2);
  printf("TABLE=%d\nSTREAM=%d\n", TABLE, STREAM);
  return (int)(sum & 1);
}
