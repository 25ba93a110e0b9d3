// The hot/cold note names the cold fields that share a cache line with a hot
// one, and only those. lbzip2's note said "20 cold field(s) share cache
// lines with 1 hot one(s)" when 2 of the 20 were on the hot field's line and
// the rest kilobytes away. JSON marks those fields shares_line_with_hot.
// RUN: %clang -O0 -g -fsanitize=efficiency-cache-frag %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_sample_period=1 %run %t 2>&1 | FileCheck %s
// RUN: env ESAN_OPTIONS=cache_frag_sample_period=1:report_format=json %run %t 2> %t.json
// RUN: %python -c "import json, sys; s = [t for t in json.load(open(sys.argv[1]))['structs'] if t['name'] == 'struct encoder'][0]; near = [f['name'] for f in s['fields'] if f['shares_line_with_hot']]; sys.exit(0 if near == ['level', 'flags'] and s['hot_cold_mix'] else 'near %%r' %% near)" %t.json
// CHECK: struct encoder: size {{[0-9]+}}, 7 fields
// CHECK: note: hot/cold mix: 2 cold field(s) share cache lines with hot ones (level, flags); move them to a separate struct
#include <stdio.h>
#include <stdlib.h>

struct encoder {
  long position; // hot
  int level;     // cold, on the hot line
  int flags;     // cold, on the hot line
  char block[6000];
  int crc;       // cold, kilobytes away
  int checksum;  // cold, kilobytes away
  long total;    // cold, kilobytes away
};

int main(void) {
  struct encoder *e = calloc(1, sizeof *e);
  e->level = 9;
  for (int i = 0; i < 5000; i++)
    e->position += i;
  for (int i = 0; i < 500; i++) // warm: neither hot nor cold
    e->block[i * 7] = (char)i;
  printf("%ld %d\n", e->position, e->level);
  free(e);
  return 0;
}
