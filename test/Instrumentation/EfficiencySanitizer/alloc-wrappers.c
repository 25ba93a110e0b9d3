// Allocation wrappers found by their shape: a function that calls an
// allocator and returns its result (or null), whose other calls are on a
// path that ends the program or that runs only when the allocation failed.
// The module constructor registers their names with the runtime. Static
// inline helpers are found before inlining removes them (-O2), and a
// wrapper of a wrapper is one too. Functions that do anything else with the
// block (fill it, keep statistics, take a lock) are not wrappers, nor is one
// that allocates a fixed size (the size comes from a wrapper's parameters).
// RUN: %clang -O2 -g -fsanitize=efficiency-working-set -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: FileCheck %s --check-prefix=NOT < %t.ll
// RUN: %clang -O0 -g -fsanitize=efficiency-cache-frag -S -emit-llvm %s -o - | FileCheck %s
// The pass alone (opt) finds the wrappers still in the module.
// RUN: %clang -O2 -g -S -emit-llvm %s -o - \
// RUN:   | %opt -load-pass-plugin=%efsan_plugin -passes='efsan<working-set>' -S \
// RUN:   | FileCheck %s --check-prefix=OPT
// CHECK-DAG: c"xmalloc\00"
// CHECK-DAG: c"xnmalloc\00"
// CHECK-DAG: c"CALLOC\00"
// CHECK-DAG: c"xstrdup\00"
// CHECK-DAG: c"zalloc\00"
// CHECK-DAG: c"maybe_alloc\00"
// CHECK-DAG: c"aligned_block\00"
// CHECK-DAG: c"small_or_big\00"
// CHECK-DAG: c"my_malloc\00"
// CHECK: call void @__efsan_register_alloc_wrappers(ptr @efsan.alloc_wrappers, i64 9)
// NOT-NOT: c"node_new\00"
// NOT-NOT: c"counted_malloc\00"
// NOT-NOT: c"header_malloc\00"
// NOT-NOT: c"logged_malloc\00"
// NOT-NOT: c"alloc_table\00"
// OPT-DAG: c"xmalloc\00"
// OPT-DAG: c"maybe_alloc\00"
// OPT-NOT: c"CALLOC\00"
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Noreturn void die(const char *what);

// gnulib's xmalloc.
__attribute__((noinline)) void *xmalloc(size_t n) {
  void *p = malloc(n);
  if (!p && n != 0)
    die("xmalloc");
  return p;
}

// gnulib's xnmalloc: an overflow check, then the wrapper above.
static inline void *xnmalloc(size_t n, size_t s) {
  if (s && n > (size_t)-1 / s)
    die("xnmalloc");
  return xmalloc(n * s);
}

// Phoenix's CALLOC: perror, then an assert that may be compiled out.
static inline void *CALLOC(size_t n, size_t s) {
  void *p = calloc(n, s);
  if (p == NULL) {
    perror("calloc");
    assert(p != NULL);
  }
  return p;
}

__attribute__((noinline)) char *xstrdup(const char *s) {
  char *copy = strdup(s);
  if (!copy)
    abort();
  return copy;
}

// sqlite3MallocZero's shape: clearing the block it returns is allowed.
__attribute__((noinline)) void *zalloc(size_t n) {
  void *p = malloc(n);
  if (p)
    memset(p, 0, n);
  return p;
}

__attribute__((noinline)) void *maybe_alloc(size_t n) {
  if (n == 0)
    return NULL;
  return malloc(n);
}

__attribute__((noinline)) void *small_or_big(size_t n) {
  return n < 64 ? calloc(1, n) : malloc(n);
}

__attribute__((noinline)) void *aligned_block(size_t n) {
  void *p;
  if (posix_memalign(&p, 64, n))
    return NULL;
  return p;
}

// c-blosc's: an error message when either the status or the block says the
// allocation failed.
__attribute__((noinline)) unsigned char *my_malloc(size_t size) {
  void *block = NULL;
  int res = posix_memalign(&block, 32, size);
  if (res != 0 || block == NULL) {
    printf("Error allocating memory!");
    return NULL;
  }
  return (unsigned char *)block;
}

// Not wrappers.
struct node {
  int value;
  struct node *next;
};
__attribute__((noinline)) struct node *node_new(int value) {
  struct node *n = malloc(sizeof *n);
  n->value = value; // fills the block: the object is the constructor's
  n->next = NULL;
  return n;
}

long allocations;
__attribute__((noinline)) void *counted_malloc(size_t n) {
  allocations++; // statistics (sqlite's mallocWithAlarm): alloc_wrappers=
  return malloc(n);
}

__attribute__((noinline)) void *header_malloc(size_t n) {
  long *p = malloc(n + sizeof(long)); // sqlite3MemMalloc's size header
  if (!p)
    return NULL;
  p[0] = (long)n;
  return p + 1;
}

// A fixed size: a site of its own (the table's), not a wrapper.
__attribute__((noinline)) void *alloc_table(void) {
  return calloc(1024, sizeof(long));
}

__attribute__((noinline)) void *logged_malloc(size_t n) {
  fprintf(stderr, "malloc %zu\n", n); // a call on the path that returns
  return malloc(n);
}

void *use(void) {
  void *blocks[] = {xnmalloc(4, 8), CALLOC(2, 8), xstrdup("x"), zalloc(8),
                    maybe_alloc(8), aligned_block(64), node_new(1),
                    counted_malloc(8), header_malloc(8), logged_malloc(8),
                    small_or_big(8), alloc_table(), my_malloc(8)};
  return blocks[(long)allocations % 13];
}
