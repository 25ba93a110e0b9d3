// No two listed data structures print the same lines: two allocation stacks
// that differ only in frames the report does not show (below the two
// printed callers, or in frames cut at the runtime's own) are one site to a
// user, and one entry with the lines of both. pixz listed
// "heap 961 lines liblzma.so.5+0x1ee32" twice; lbzip2 "xmalloc / xnmalloc /
// encode encode.c:450" three times. (A block that does not start on a line
// has one more line.)
// RUN: %clang -O2 -g -fsanitize=efficiency-working-set %s -o %t
// RUN: %run %t 2>&1 | FileCheck %s
// CHECK: data structures, most lines first ({{[0-9]+}} in all):
// CHECK-NEXT: heap    {{20[0-2]}} lines ({{.*}})  alloc_buf {{.*}}objects-alike.c
// CHECK-NEXT: called from make {{.*}}objects-alike.c
// CHECK-NEXT: called from build {{.*}}objects-alike.c
// CHECK-NEXT: reused {{(about )?[0-9]+}} lines ({{[0-9]+}}%), streamed {{[0-9]+}} lines
// CHECK-NEXT: miss ratio
// CHECK-NEXT: heap    {{5[01]}} lines ({{.*}})  other
// CHECK-NOT: alloc_buf
// CHECK: SUMMARY
#include <stdlib.h>
#include <string.h>

#define FRAME __attribute__((noinline, disable_tail_calls)) static char *
// A fixed size: alloc_buf is the site, not an allocation wrapper (whose
// size comes from its caller; those are alloc-wrappers.c's).
FRAME alloc_buf(void) { return malloc(100 * 64); }
FRAME make(void) { return alloc_buf(); }
FRAME build(void) { return make(); }
FRAME via_a(void) { return build(); }
FRAME via_b(void) { return build(); }
FRAME other(void) { return malloc(50 * 64); }

static void use(char *p, size_t size) {
  memset(p, 1, size);
  __asm__ volatile("" : : "r"(p) : "memory");
}

int main(void) {
  char *a = via_a(), *b = via_b(), *c = other();
  use(a, 100 * 64);
  use(b, 100 * 64);
  use(c, 50 * 64);
  free(a);
  free(b);
  free(c);
  return 0;
}
