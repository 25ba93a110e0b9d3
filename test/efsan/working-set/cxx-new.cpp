// C++ allocations go through the runtime's operator new and delete
// (efsan_new_delete.cpp), which take their memory from libc as libstdc++'s
// do: the program's results are unchanged and the working set counts the
// blocks as heap. new[] and delete[], nothrow new and an over-aligned type
// (operator new(size_t, align_val_t)), each touching N lines: 3N heap lines,
// plus at most one more for each of the two 16-byte-aligned blocks (and a
// couple for libc's own use).
// RUN: %clangxx -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -f %t.a.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.a %run %t 1000 > %t.out
// RUN: FileCheck %s --check-prefix=RESULT < %t.out
// RUN: %python %S/Inputs/check_report.py %t.a --count 1 \
// RUN:   "3000 <= heap <= 3000 + 4"
// Failures keep the standard semantics: the new_handler runs and the
// allocation is retried; without one, the throwing forms throw
// std::bad_alloc and the nothrow forms return nullptr.
// RUN: %run %t oom 2>&1 | FileCheck %s --check-prefix=OOM
// RESULT: sum 8002 aligned 1
// OOM: handler 1 retried 1
// OOM-NEXT: bad_alloc caught
// OOM-NEXT: nothrow null 1
// OOM-NEXT: aligned bad_alloc caught
// OOM-NEXT: aligned overflow bad_alloc caught
#include <new>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct alignas(128) Block {
  long v[16];
};

// The optimiser may leave out a new/delete pair whose memory does not escape.
static void escape(void *p) { asm volatile("" : : "r"(p) : "memory"); }

static int handler_calls;

static void handler() {
  // Gives up after one call, as a handler with nothing left to free does.
  handler_calls++;
  std::set_new_handler(nullptr);
}

static size_t huge(volatile size_t *n) { return *n; }

static int oom() {
  volatile size_t too_big = SIZE_MAX / 4;
  std::set_new_handler(handler);
  try {
    char *p = new char[huge(&too_big)];
    printf("allocated %p\n", (void *)p);
  } catch (const std::bad_alloc &) {
    printf("handler %d retried %d\n", handler_calls, handler_calls == 1);
    printf("bad_alloc caught\n");
  }
  char *q = new (std::nothrow) char[huge(&too_big)];
  escape(q);
  printf("nothrow null %d\n", q == nullptr);
  try {
    Block *b = new Block[huge(&too_big) / sizeof(Block)];
    printf("allocated %p\n", (void *)b);
  } catch (const std::bad_alloc &) {
    printf("aligned bad_alloc caught\n");
  }
  // The count overflows: operator new gets SIZE_MAX, which cannot be
  // rounded up to the alignment. (libstdc++ 12's own operator new rounds it
  // to 0 and returns a block of 0 bytes; the standard wants bad_alloc.)
  try {
    Block *b = new Block[huge(&too_big)];
    printf("allocated %p\n", (void *)b);
  } catch (const std::bad_alloc &) {
    printf("aligned overflow bad_alloc caught\n");
  }
  return 0;
}

int main(int argc, char **argv) {
  if (!strcmp(argv[1], "oom"))
    return oom();
  int lines = atoi(argv[1]);
  long *a = new long[lines * 8];
  long *b = new (std::nothrow) long[lines * 8];
  Block *c = new Block[lines / 2];
  escape(a);
  escape(b);
  escape(c);
  long sum = 0;
  for (int i = 0; i < lines * 8; i++) {
    a[i] = i % 2;
    b[i] = a[i];
    sum += a[i] + b[i];
  }
  for (int i = 0; i < lines / 2; i++)
    for (int j = 0; j < 16; j++)
      sum += c[i].v[j] = (i == 0 && j < 2);
  printf("sum %ld aligned %d\n", sum, (uintptr_t)c % alignof(Block) == 0);
  delete[] c;
  delete[] b;
  delete[] a;
  return 0;
}
