// One address handed out again and again with two sizes (malloc 24, free,
// malloc 20, free: glibc returns the same chunk) costs O(1) per malloc and
// free: the heap table keeps, per start address, only freed blocks that
// still own bytes. It went quadratic (a chain of stale records per address:
// 5 s for 100,000 rounds, redis 17x slower); a million rounds must now take
// a fraction of a second, the timeout only catches the quadratic table.
// Ownership stays exact: a 4000-byte block reusing a freed 8000-byte one
// owns its own lines, and the older block keeps the rest (counted by the
// program from the address it got). Two million allocations: every one
// keeps its stack (alloc_stacks_exact=0), so that both sites are exact.
// RUN: %clang -O2 -g -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -f %t.log.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.log:alloc_stacks_exact=0 timeout 120 %run %t 1000000 > %t.vars
// RUN: FileCheck %s < %t.vars
// CHECK: rounds=
// CHECK: same_address=1
// RUN: %python %S/Inputs/check_report.py %t.log --count 1 --vars %t.vars \
// RUN:   "site('alloc_small') - small_lines in (0, 1)" "site('alloc_big') == big_lines"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE 64

// Keeps a block the program never reads from being optimised away.
static void use(void *p) { __asm__ volatile("" : : "r"(p) : "memory"); }

// Each allocation site is a frame of its own (no tail call to malloc).
#define SITE __attribute__((noinline, disable_tail_calls)) static char *
SITE alloc_big(void) { return malloc(8000); }
SITE alloc_small(void) { return malloc(4000); }
SITE alloc_24(void) { return malloc(24); }
SITE alloc_20(void) { return malloc(20); }

// Lines whose first byte lies in [lo, hi).
static long lines_starting_in(unsigned long lo, unsigned long hi) {
  unsigned long first = (lo + LINE - 1) / LINE, end = (hi + LINE - 1) / LINE;
  return (long)(end - first);
}

int main(int argc, char **argv) {
  long rounds = atol(argv[1]);
  // stdout's buffer is allocated now, not in the freed blocks at the end.
  printf("rounds=%ld\n", rounds);
  for (long i = 0; i < rounds; i++) {
    char *a = alloc_24();
    a[0] = (char)i;
    use(a);
    free(a);
    char *b = alloc_20();
    b[0] = (char)i;
    use(b);
    free(b);
  }
  char *big = 0, *small = 0;
  for (int i = 0; i < 3; i++) {
    big = alloc_big();
    memset(big, 1, 8000);
    use(big);
    free(big);
    small = alloc_small();
    memset(small, 2, 4000);
    use(small);
    free(small);
  }
  // The small block owns the lines that start in it (and the line its first
  // byte is in, unless the block before holds that line's first byte); the
  // big one keeps the lines that start past the small one.
  unsigned long s = (unsigned long)small;
  printf("same_address=%d\n", big == small);
  printf("small_lines=%ld\n", lines_starting_in(s, s + 4000));
  printf("big_lines=%ld\n", lines_starting_in(s + 4000, s + 8000));
  return 0;
}
