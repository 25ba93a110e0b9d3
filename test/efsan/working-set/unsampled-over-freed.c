// Past alloc_stacks_exact, a block without an allocation stack names no
// structure, and the heap table is not told of it (a lock per malloc and
// per free was a tenth of cppcheck's time under the working set): it is
// told only where the block lands on a kept record's bytes. On a small
// freed block (at most 4 KiB) that record is forgotten: its lines count as
// heap memory of no known block, the new block's and its rest alike. On a
// larger one the new block is kept, without a site, and owns its own lines;
// the freed block keeps the rest. Both freed blocks get their stacks within
// the exact budget; the blocks that land on them are made after it, with
// one sample per 64 MiB allocated, so that they have none. With every stack
// kept (alloc_stacks_exact=0), the new blocks take their own lines only, by
// site. The program counts the lines from the addresses it got.
// RUN: %clang -O2 -g -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -f %t.log.* %t.exact.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.log:alloc_stacks_exact=300:alloc_stack_sample_bytes=67108864 %run %t > %t.vars
// RUN: FileCheck %s < %t.vars
// CHECK: small_same_address=1
// CHECK: large_same_address=1
// RUN: %python %S/Inputs/check_report.py %t.log --count 1 --vars %t.vars \
// RUN:   "allocation_stacks['sampled']" \
// RUN:   "site('make_small_freed') is None and site('make_on_small') is None" \
// RUN:   "site('make_large_freed') == large_rest_lines and site('make_on_large') is None" \
// RUN:   "named('heap', 'heap memory of no known block (most in blocks whose allocation stack was not sampled: alloc_stacks_exact)')['lines'] == small_lines + on_large_lines"
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.exact:alloc_stacks_exact=0 %run %t > %t.exact.vars
// RUN: %python %S/Inputs/check_report.py %t.exact --count 1 --vars %t.exact.vars \
// RUN:   "not allocation_stacks['sampled']" \
// RUN:   "site('make_on_small') == on_small_lines and site('make_small_freed') == small_lines - on_small_lines" \
// RUN:   "site('make_on_large') == on_large_lines and site('make_large_freed') == large_rest_lines"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE 64
#define SMALL 2048
#define ON_SMALL 1024
#define LARGE (64 * 1024)
#define ON_LARGE 1000
#define FILLERS 400

static void use(void *p) { __asm__ volatile("" : : "r"(p) : "memory"); }

#define SITE __attribute__((noinline, disable_tail_calls)) static char *
SITE make_small_freed(void) { return malloc(SMALL); }
SITE make_on_small(void) { return malloc(ON_SMALL); }
SITE make_large_freed(void) { return malloc(LARGE); }
SITE make_on_large(void) { return malloc(ON_LARGE); }
SITE make_filler(void) { return malloc(16); }

// Lines whose first byte lies in [lo, hi).
static long lines_starting_in(unsigned long lo, unsigned long hi) {
  unsigned long first = (lo + LINE - 1) / LINE, end = (hi + LINE - 1) / LINE;
  return (long)(end - first);
}

int main(void) {
  static char *fillers[FILLERS];
  // stdout's buffer is allocated now, not in the freed blocks later.
  printf("start=1\n");
  char *small = make_small_freed();
  char *guard = make_filler(); // keeps the freed blocks apart from the top
  char *large = make_large_freed();
  char *guard2 = make_filler();
  memset(small, 1, SMALL);
  memset(large, 1, LARGE);
  use(small), use(large), use(guard), use(guard2);
  // Past the exact budget: the blocks below get no stack. The fillers
  // stay live and are never touched.
  for (int i = 0; i < FILLERS; i++)
    use(fillers[i] = make_filler());
  free(large);
  char *on_large = make_on_large();
  free(small);
  char *on_small = make_on_small();
  memset(on_small, 2, ON_SMALL);
  memset(on_large, 2, ON_LARGE);
  use(on_small), use(on_large);
  unsigned long s = (unsigned long)small, l = (unsigned long)large;
  printf("small_same_address=%d\n", on_small == small);
  printf("large_same_address=%d\n", on_large == large);
  printf("small_lines=%ld\n", lines_starting_in(s, s + SMALL));
  printf("on_small_lines=%ld\n", lines_starting_in(s, s + ON_SMALL));
  printf("on_large_lines=%ld\n", lines_starting_in(l, l + ON_LARGE));
  printf("large_rest_lines=%ld\n", lines_starting_in(l + ON_LARGE, l + LARGE));
  return 0;
}
