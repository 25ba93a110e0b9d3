// The working set by data structure: three heap buffers from three
// allocation sites (one freed before exit, one not aligned to a line), a
// global array, a file mapping and a thread's stack, each touched in full,
// are each listed with their own line count: exactly N for N lines, and
// N + 1 for a buffer of N lines that does not start on a line (a line
// counts for the object that holds its first byte, or else for the one
// that starts in it).
// RUN: %clang -O2 -g -fsanitize=efficiency-working-set -pthread %s -o %t
// RUN: rm -f %t.log.* && dd if=/dev/zero of=%t.data bs=4096 count=16 2>/dev/null
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.log %run %t %t.data
// RUN: %python %S/Inputs/check_report.py %t.log --count 1 \
// RUN:   "site('alloc_big') == 1000 and site('alloc_freed') == 600" \
// RUN:   "site('alloc_unaligned') == 301" \
// RUN:   "named('global', 'table')['lines'] == 250 and named('global', 'table')['alloc_stack'] is None" \
// RUN:   "named('mapping', '%t.data')['lines'] == 10 * 64" \
// RUN:   "any(o['kind'] == 'stack' and o['name'].startswith('thread T1 stack (worker') and o['lines'] >= 16 for o in objects)" \
// RUN:   "sum(o['lines'] for o in objects) + objects_rest['lines'] == total_lines" \
// RUN:   "[o['lines'] for o in objects] == sorted((o['lines'] for o in objects), reverse=True)"
// Only the top N are listed; the rest is summed.
// RUN: rm -f %t.top.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.top:report_objects=2 %run %t %t.data
// RUN: %python %S/Inputs/check_report.py %t.top --count 1 \
// RUN:   "len(objects) == 2 and site('alloc_big') == 1000" \
// RUN:   "objects_rest['objects'] >= 4 and sum(o['lines'] for o in objects) + objects_rest['lines'] == total_lines"
// report_objects=0: no list.
// RUN: rm -f %t.none.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.none:report_objects=0 %run %t %t.data
// RUN: %python %S/Inputs/check_report.py %t.none --count 1 "objects == [] and heap >= 1900"
// Text form.
// RUN: %run %t %t.data 2>&1 | FileCheck %s
// CHECK: data structures, most lines first ({{[0-9]+}} in all):
// CHECK-NEXT: heap    1000 lines (62.5 KiB)  alloc_big {{.*}}objects.c:{{[0-9]+}}
// CHECK-NEXT: called from main {{.*}}objects.c
// CHECK: mapping 640 lines (40.0 KiB)  {{.*}}.data
// CHECK: heap    600 lines (37.5 KiB)  alloc_freed {{.*}}objects.c
// CHECK: heap    301 lines (18.8 KiB)  alloc_unaligned {{.*}}objects.c
// CHECK: global  250 lines (15.6 KiB)  table
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>

char table[250 * 64] __attribute__((aligned(64)));

// No tail calls: the allocation stack must show the site's function.
#define SITE __attribute__((noinline, disable_tail_calls))
SITE char *alloc_big(void) { return aligned_alloc(64, 1000 * 64); }
SITE char *alloc_freed(void) { return aligned_alloc(64, 600 * 64); }
SITE char *alloc_unaligned(void) { return malloc(300 * 64 + 8) + 8; }

// Not inlined: the pass leaves alone the accesses to a local array that
// does not escape (worker's scratch).
__attribute__((noinline)) static void touch(volatile char *p, long bytes) {
  for (long i = 0; i < bytes; i += 64)
    p[i]++;
  p[bytes - 1]++;
}

static void *worker(void *arg) {
  volatile char scratch[16 * 64]; // 16 lines of this thread's stack
  touch(scratch, sizeof(scratch));
  return arg;
}

int main(int argc, char **argv) {
  char *big = alloc_big(), *freed = alloc_freed(), *unaligned = alloc_unaligned();
  touch(big, 1000 * 64);
  touch(freed, 600 * 64);
  touch(unaligned, 300 * 64);
  touch(table, sizeof(table));
  int fd = open(argv[1], O_RDONLY);
  volatile char *data = mmap(0, 16 * 4096, PROT_READ, MAP_PRIVATE, fd, 0);
  long sum = 0;
  for (int i = 0; i < 10 * 4096; i += 64)
    sum += data[i];
  pthread_t thread;
  pthread_create(&thread, 0, worker, 0);
  pthread_join(thread, 0);
  // Freed last: nothing allocated after it takes its lines.
  free(freed);
  return (int)sum;
}
