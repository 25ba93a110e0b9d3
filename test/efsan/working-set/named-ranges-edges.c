// __efsan_name_range beyond a shared segment: a later call replaces the
// overlap (a part named inside a named whole; a null name takes a range's
// name away), heap and global memory take names too (their rows keep their
// kind), a name too long is cut, size 0 does nothing, a range past the end
// of the address space is refused with one warning for all such calls, and
// four threads naming 1000 ranges each at once all count.
// RUN: %clang -O2 -pthread -fsanitize=efficiency-working-set %s -o %t
// RUN: %run %t 2>&1 | FileCheck %s
// RUN: rm -f %t.log.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.log:report_objects=100 %run %t 2> %t.stderr
// RUN: %python %S/Inputs/check_report.py %t.log --count 1 \
// RUN:   "part('whole') == 70 and part('middle') == 20" \
// RUN:   "named('mapping', '\"middle\" in anonymous memory')['lines'] == 20" \
// RUN:   "named('mapping', 'anonymous memory')['lines'] == 10" \
// RUN:   "named('heap', '\"arena\"')['lines'] == 24 and named('global', '\"table head\"')['lines'] == 32" \
// RUN:   "named('global', 'table')['lines'] == 32" \
// RUN:   "part('L' * 252 + '...') == 5" \
// RUN:   "len([o for o in objects if o.get('named_range', '').startswith('T')]) + objects_rest['objects'] >= 4000" \
// RUN:   "sum(o['lines'] for o in objects) + objects_rest['lines'] == total_lines"
// RUN: FileCheck %s --check-prefix=WARN < %t.stderr
#include <sanitizer/efsan_interface.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

_Alignas(64) char table[64 * 64];

static void touch(volatile char *p, int lines) {
  for (int i = 0; i < lines; i++)
    p[i * 64]++;
}

enum { kThreads = 4, kRangesPerThread = 1000 };
static char *shared;

static void *namer(void *arg) {
  long me = (long)arg;
  char name[32];
  for (int i = 0; i < kRangesPerThread; i++) {
    snprintf(name, sizeof(name), "T%ld part %d", me, i);
    __efsan_name_range(shared + (me * kRangesPerThread + i) * 64, 64, name);
  }
  return 0;
}

int main(void) {
  char *map = mmap(0, 100 * 64, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  __efsan_name_range(map, 100 * 64, "whole");
  __efsan_name_range(map + 40 * 64, 20 * 64, "middle");
  __efsan_name_range(map, 10 * 64, NULL);
  __efsan_name_range(map + 10 * 64, 0, "nothing");
  touch(map, 100);

  char *arena = aligned_alloc(64, 24 * 64);
  __efsan_name_range(arena, 24 * 64, "arena");
  touch(arena, 24);
  __efsan_name_range(table, 32 * 64, "table head");
  touch(table, 64);

  char *other = mmap(0, 5 * 64, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  char long_name[300];
  memset(long_name, 'L', sizeof(long_name) - 1);
  long_name[sizeof(long_name) - 1] = 0;
  __efsan_name_range(other, 5 * 64, long_name);
  touch(other, 5);

  __efsan_name_range((void *)0x7ffffffff000, 1 << 20, "past the end");
  __efsan_name_range(map, (size_t)-1, "wraps around");

  shared = mmap(0, kThreads * kRangesPerThread * 64, PROT_READ | PROT_WRITE,
                MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  pthread_t threads[kThreads];
  for (long t = 0; t < kThreads; t++)
    pthread_create(&threads[t], 0, namer, (void *)t);
  for (int t = 0; t < kThreads; t++)
    pthread_join(threads[t], 0);
  touch(shared, kThreads * kRangesPerThread);
  return 0;
}

// WARN: ==[[#]]==EfficiencySanitizer: WARNING: __efsan_name_range(0x7ffffffff000, 1048576, ...): the range goes past the end of the program's address space; not named (further such calls are ignored silently)
// WARN-NOT: WARNING

// CHECK: WARNING: __efsan_name_range(0x7ffffffff000, 1048576, ...): the range goes past
// CHECK-NOT: WARNING
// CHECK: data structures, most lines first
// CHECK-DAG: mapping 70 lines (4.4 KiB)  "whole" in anonymous memory
// CHECK-DAG: mapping 20 lines (1.3 KiB)  "middle" in anonymous memory
// CHECK-DAG: mapping 10 lines (640 B)  anonymous memory
// CHECK-DAG: heap    24 lines (1.5 KiB)  "arena"
// CHECK-DAG: global  32 lines (2.0 KiB)  "table head"
// CHECK-DAG: global  32 lines (2.0 KiB)  table
// CHECK-NOT: "nothing"
