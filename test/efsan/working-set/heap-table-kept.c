// The heap table the object attribution sorts is kept from one tally to the
// next while no block is allocated (freeing one keeps its record), and built
// again as soon as one is: a report after a free reuses it, and blocks
// allocated after it (at the addresses of the freed ones) own their lines.
// RUN: %clang -O2 -g -fsanitize=efficiency-working-set %s -o %t
// RUN: env ESAN_OPTIONS=record_snapshots=0:verbosity=2 %run %t 2>&1 | FileCheck %s
// CHECK: objects: heap table of {{[0-9]+}} ranges built
// CHECK: heap {{ *}}4000 lines {{.*}} alloc_a {{.*}}heap-table-kept.c
// CHECK: after free
// CHECK: objects: heap table of {{[0-9]+}} ranges reused
// CHECK: heap {{ *}}4000 lines {{.*}} alloc_a {{.*}}heap-table-kept.c
// CHECK: allocating again
// CHECK: objects: heap table of {{[0-9]+}} ranges built
// CHECK: heap {{ *}}4000 lines {{.*}} alloc_b {{.*}}heap-table-kept.c
#include <sanitizer/efsan_interface.h>
#include <stdio.h>
#include <stdlib.h>

#define BLOCKS 1000
#define LINES 4

// Each allocation site is a frame of its own (no tail call to the allocator).
#define SITE __attribute__((noinline, disable_tail_calls)) static char *
SITE alloc_a(void) { return aligned_alloc(64, LINES * 64); }
SITE alloc_b(void) { return aligned_alloc(64, LINES * 64); }

static void touch(char **blocks) {
  for (int i = 0; i < BLOCKS; i++)
    for (int l = 0; l < LINES; l++)
      ((volatile char *)blocks[i])[l * 64] = 1;
}

int main(void) {
  static char *blocks[BLOCKS];
  for (int i = 0; i < BLOCKS; i++)
    blocks[i] = alloc_a();
  touch(blocks);
  __efsan_report();
  for (int i = 0; i < BLOCKS; i++)
    free(blocks[i]);
  fprintf(stderr, "after free\n");
  // The freed blocks keep their lines; the table is the same.
  __efsan_report();
  fprintf(stderr, "allocating again\n");
  for (int i = 0; i < BLOCKS; i++)
    blocks[i] = alloc_b();
  touch(blocks);
  return 0;
}
