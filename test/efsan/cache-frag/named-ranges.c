// Memory of a shared anonymous mapping, carved into parts named with
// __efsan_name_range: two threads that write different counters of one
// named part falsely share its line, and the finding names the part (its
// object line, the line map, the suggestion, the JSON); two named parts on
// one line, each written by one thread, are two objects, each named, and
// the fix is in how the memory is carved; a suppression matches a range's
// name. The counts are exact (lock-step
// threads, every access seen) and so do not depend on the schedule: the
// same on one CPU.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t 2>&1 | FileCheck %s
// RUN: %if taskset %{ env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 taskset -c 0 %run %t 2>&1 | FileCheck %s %}
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t parts 2>&1 | FileCheck %s --check-prefix=PARTS
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1:report_format=json %run %t 2> %t.json
// RUN: %python -c "import json, sys; f = json.load(open(sys.argv[1]))['findings'][0]; \
// RUN:   n = f['object']['named_range']; \
// RUN:   assert f['object']['kind'] == 'unknown' and n['name'] == 'Stats' and n['size'] == 64 and n['mapping'] == '/dev/zero (deleted)', n; \
// RUN:   assert n['address'] == f['line_address'], n; \
// RUN:   assert [r['named_range']['name'] for r in f['line_map']] == ['Stats'] * 3, f['line_map']; \
// RUN:   print('ok')" %t.json | FileCheck %s --check-prefix=JSON
// JSON: ok
// A suppression names the range as a global's name.
// RUN: echo "false_sharing:^Right Counter$" > %t.supp
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1:suppressions=%t.supp %run %t parts 2>&1 | FileCheck %s --check-prefix=SUPPRESSED
// SUPPRESSED: ==1 finding suppressed (suppressions={{.*}}.supp)
// SUPPRESSED-NEXT: SUMMARY: EfficiencySanitizer: cache-frag: 0 false sharing,
// The same program without the sanitizer: the calls do nothing.
// RUN: %clang -O2 -pthread %s -o %t.plain && %run %t.plain
#include <sanitizer/efsan_interface.h>
#include <string.h>
#include <sys/mman.h>

#include "Inputs/lockstep.h"

struct stats {
  long reads;
  long writes;
};
static volatile struct stats *stats;
static volatile long *left, *right;

static void count(int me) {
  if (me)
    stats->writes++;
  else
    stats->reads++;
}

static void count_parts(int me) {
  if (me)
    (*right)++;
  else
    (*left)++;
}

int main(int argc, char **argv) {
  char *segment = mmap(0, 1 << 16, PROT_READ | PROT_WRITE,
                       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (segment == MAP_FAILED)
    return 1;
  __efsan_name_range(segment, 4096, "Buffer Descriptors");
  if (argc > 1 && !strcmp(argv[1], "parts")) {
    __efsan_name_range(segment + 4096, 32, "Left Counter");
    __efsan_name_range(segment + 4096 + 32, 32, "Right Counter");
    left = (volatile long *)(segment + 4096);
    right = (volatile long *)(segment + 4096 + 32);
    lockstep_run(count_parts);
  } else {
    __efsan_name_range(segment + 4096, 64, "Stats");
    stats = (volatile struct stats *)(segment + 4096);
    lockstep_run(count);
  }
  munmap(segment, 1 << 16);
  return 0;
}

// Unmapped before the report: the names stay.
// CHECK: #1 false sharing on cache line [[LINE:0x[0-9a-f]+]]: {{.*}}; threads T1 T2
// CHECK-NEXT: invalidations: 3999 observed, {{[0-9]+}} estimated if the threads run in parallel; 0 of the larger count were true sharing
// CHECK: object: named range "Stats" at [[LINE]], size 64, in /dev/zero (deleted) (first byte at [[LINE]]); written bytes that invalidate (line offsets): +0..15 (3999 invalidations)
// CHECK: line map: bytes object threads
// CHECK-NEXT: +0..7 "Stats"+0..7 T1 rw
// CHECK-NEXT: +8..15 "Stats"+8..15 T2 rw
// CHECK-NEXT: +16..63 "Stats"+16..63 (not used)
// CHECK-NEXT: suggestion: threads write different bytes of the named range "Stats" on one cache line
// CHECK: SUMMARY: EfficiencySanitizer: cache-frag: 1 false sharing, 0 true sharing, 0 predicted false sharing;

// PARTS: #1 false sharing on cache line [[LINE:0x[0-9a-f]+]]: {{.*}}; threads T1 T2
// PARTS: object: named range "{{Left|Right}} Counter" at 0x{{[0-9a-f]+}}, size 32, in /dev/zero (deleted) (first byte at 0x{{[0-9a-f]+}}); written bytes that invalidate (line offsets): +{{0|32}}..{{7|39}} ({{[0-9]+}} invalidations)
// PARTS-NEXT: object: named range "{{Left|Right}} Counter" at 0x{{[0-9a-f]+}}, size 32, in /dev/zero (deleted) (first byte at 0x{{[0-9a-f]+}}); written bytes that invalidate (line offsets): +{{0|32}}..{{7|39}} ({{[0-9]+}} invalidations)
// PARTS: line map: bytes object threads
// PARTS-NEXT: +0..7 "Left Counter"+0..7 T1 rw
// PARTS-NEXT: +8..31 "Left Counter"+8..31 (not used)
// PARTS-NEXT: +32..39 "Right Counter"+0..7 T2 rw
// PARTS-NEXT: +40..63 "Right Counter"+8..31 (not used)
// PARTS-NEXT: suggestion: each thread writes a named range of its own, and the ranges lie on one cache line ("{{Left|Right}} Counter", 32 bytes and "{{Left|Right}} Counter", 32 bytes): start each one on a 64-byte boundary
// PARTS: SUMMARY: EfficiencySanitizer: cache-frag: 1 false sharing, 0 true sharing, 0 predicted false sharing;
