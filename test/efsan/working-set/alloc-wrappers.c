// A heap object allocated through the program's allocation wrappers is
// named by the first frame outside them, its site; the wrappers follow the
// name, marked, then the site's callers. lbzip2 listed every block of its
// encoder as "xmalloc" (called from xnmalloc, from encode encode.c:450),
// three times. Here: gnulib's xmalloc (a null check that calls a noreturn
// function) and its xnmalloc (an overflow check, static inline in a
// header), found by their shape by the pass; blocks of one site reached
// through different paths below the printed callers are one entry.
// RUN: %clang -O2 -g -fsanitize=efficiency-working-set %s -o %t
// RUN: %run %t 2>&1 | FileCheck %s
// RUN: rm -f %t.log.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.log %run %t
// RUN: %python %S/Inputs/check_report.py %t.log --count 1 \
// RUN:   "300 <= site('encode') <= 303 and 100 <= site('decode') <= 101 and site('xmalloc') is None" \
// RUN:   "[o['name'].split()[0] for o in objects if o['kind'] == 'heap'] == ['encode', 'decode']" \
// RUN:   "[f['function'] for f in objects[0]['alloc_stack'] if f.get('allocation_wrapper')] == ['xmalloc', 'xnmalloc']"
// The viewer names the object by its site too, and marks the wrappers.
// RUN: %efsan_view %t.log.* -o %t.html
// RUN: FileCheck %s --check-prefix=VIEW < %t.html
// VIEW: allocated in encode (alloc-wrappers.c:{{[0-9]+}})
// VIEW: xmalloc (alloc-wrappers.c:{{[0-9]+}}) <span class="muted">(allocation wrapper)</span>
// CHECK: data structures, most lines first
// CHECK-NEXT: heap    {{30[0-3]}} lines ({{.*}})  encode {{.*}}alloc-wrappers.c
// CHECK-NEXT: through wrapper xmalloc {{.*}}alloc-wrappers.c:[[#XMALLOC:]]
// CHECK-NEXT: through wrapper xnmalloc {{.*}}xalloc.h
// CHECK-NEXT: called from work {{.*}}alloc-wrappers.c
// CHECK-NEXT: called from step {{.*}}alloc-wrappers.c
// CHECK-NEXT: reused {{(about )?[0-9]+}} lines ({{[0-9]+}}%), streamed {{[0-9]+}} lines
// CHECK-NEXT: miss ratio
// CHECK-NEXT: heap    {{10[01]}} lines ({{.*}})  decode {{.*}}alloc-wrappers.c
// CHECK-NEXT: through wrapper xmalloc {{.*}}alloc-wrappers.c:[[#XMALLOC]]
// CHECK-NEXT: called from main
// CHECK-NEXT: reused {{(about )?[0-9]+}} lines ({{[0-9]+}}%), streamed {{[0-9]+}} lines
// CHECK-NOT: xmalloc
// CHECK: SUMMARY
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "Inputs/xalloc.h"

__attribute__((noreturn, noinline)) static void xalloc_die(void) {
  fputs("memory exhausted\n", stderr);
  exit(1);
}

__attribute__((noinline)) void *xmalloc(size_t n) {
  void *p = malloc(n);
  if (!p && n != 0)
    xalloc_die();
  return p;
}

void xalloc_die_overflow(void) { xalloc_die(); }

#define FRAME __attribute__((noinline, disable_tail_calls)) static

static void fill(char *p, size_t size) {
  memset(p, 1, size);
  __asm__ volatile("" : : "r"(p) : "memory");
}

static char *blocks[4];
static int count;

FRAME void encode(void) { blocks[count++] = XNMALLOC(100 * 64, char); }
FRAME void work(void) { encode(); }
FRAME void step(void) { work(); }
FRAME void via_a(void) { step(); }
FRAME void via_b(void) { step(); }
FRAME void via_c(void) { step(); }
FRAME void decode(void) { blocks[count++] = xmalloc(100 * 64); }

int main(void) {
  via_a();
  via_b();
  via_c();
  decode();
  for (int i = 0; i < count; i++)
    fill(blocks[i], 100 * 64);
  for (int i = 0; i < count; i++)
    free(blocks[i]);
  return 0;
}
