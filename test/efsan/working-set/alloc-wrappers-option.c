// Allocation wrappers that do more than allocate (sqlite's chain:
// sqlite3Malloc takes a mutex and calls mallocWithAlarm, which keeps
// statistics and calls sqlite3MemMalloc, which puts a size header before
// the block) do not have a wrapper's shape: the option alloc_wrappers names
// them. Without it every object is named by the innermost one (sqlite's top
// ten objects all read "sqlite3MemMalloc", and here the two sites print
// alike and are one entry); with it, by the first frame outside them.
// RUN: %clang -O2 -g -fsanitize=efficiency-working-set -pthread %s -o %t
// RUN: %run %t 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: env "ESAN_OPTIONS=alloc_wrappers='mem_malloc,malloc_with_alarm,db_malloc'" %run %t 2>&1 | FileCheck %s --check-prefix=ALL
// Part of the chain named: the rest is the site.
// RUN: env "ESAN_OPTIONS=alloc_wrappers='mem_malloc,malloc_with_alarm'" %run %t 2>&1 | FileCheck %s --check-prefix=PART
// A name that is no frame's changes nothing.
// RUN: env "ESAN_OPTIONS=alloc_wrappers=no_such_function" %run %t 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: data structures, most lines first
// SHAPE-NEXT: heap    {{30[0-2]}} lines ({{.*}})  mem_malloc {{.*}}alloc-wrappers-option.c
// SHAPE-NEXT: called from malloc_with_alarm
// SHAPE-NEXT: called from db_malloc
// SHAPE-NEXT: reused {{(about )?[0-9]+}} lines ({{[0-9]+}}%), streamed {{[0-9]+}} lines
// SHAPE-NOT: mem_malloc
// SHAPE: SUMMARY
// ALL: data structures, most lines first
// ALL-NEXT: heap    {{20[01]}} lines ({{.*}})  new_table {{.*}}alloc-wrappers-option.c
// ALL-NEXT: through wrapper mem_malloc
// ALL-NEXT: through wrapper malloc_with_alarm
// ALL-NEXT: through wrapper db_malloc
// ALL-NEXT: called from main
// ALL-NEXT: reused {{(about )?[0-9]+}} lines ({{[0-9]+}}%), streamed {{[0-9]+}} lines
// ALL-NEXT: miss ratio
// ALL-NEXT: heap    {{10[01]}} lines ({{.*}})  new_index {{.*}}alloc-wrappers-option.c
// ALL-NEXT: through wrapper mem_malloc
// ALL-NEXT: through wrapper malloc_with_alarm
// ALL-NEXT: through wrapper db_malloc
// ALL-NEXT: called from main
// ALL-NEXT: reused {{(about )?[0-9]+}} lines ({{[0-9]+}}%), streamed {{[0-9]+}} lines
// PART: data structures, most lines first
// PART-NEXT: heap    {{20[01]}} lines ({{.*}})  db_malloc {{.*}}alloc-wrappers-option.c
// PART-NEXT: through wrapper mem_malloc
// PART-NEXT: through wrapper malloc_with_alarm
// PART-NEXT: called from new_table
// PART-NEXT: called from main
// PART-NEXT: reused {{(about )?[0-9]+}} lines ({{[0-9]+}}%), streamed {{[0-9]+}} lines
// PART-NEXT: miss ratio
// PART-NEXT: heap    {{10[01]}} lines ({{.*}})  db_malloc {{.*}}alloc-wrappers-option.c
// PART-NEXT: through wrapper mem_malloc
// PART-NEXT: through wrapper malloc_with_alarm
// PART-NEXT: called from new_index
// PART-NEXT: called from main
// PART-NEXT: reused {{(about )?[0-9]+}} lines ({{[0-9]+}}%), streamed {{[0-9]+}} lines
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t mem_mutex = PTHREAD_MUTEX_INITIALIZER;
static long mem_used;

// sqlite3MemMalloc: a size header, an error logged on failure.
__attribute__((noinline)) static void *mem_malloc(int size) {
  long *p = malloc(size + 8);
  if (p) {
    p[0] = size;
    p++;
  } else {
    fprintf(stderr, "failed to allocate %d bytes\n", size);
  }
  return p;
}

__attribute__((noinline)) static void mem_free(void *p) {
  free((long *)p - 1);
}

// mallocWithAlarm: statistics.
__attribute__((noinline)) static void malloc_with_alarm(int size, void **pp) {
  void *p = mem_malloc(size);
  if (p)
    mem_used += size;
  *pp = p;
}

// sqlite3Malloc: under the allocator's mutex.
__attribute__((noinline)) void *db_malloc(unsigned long size) {
  void *p;
  if (size == 0 || size >= 0x7fffff00) {
    p = 0;
  } else {
    pthread_mutex_lock(&mem_mutex);
    malloc_with_alarm((int)size, &p);
    pthread_mutex_unlock(&mem_mutex);
  }
  return p;
}

#define FRAME __attribute__((noinline, disable_tail_calls)) static

FRAME char *new_table(void) { return db_malloc(200 * 64); }
FRAME char *new_index(void) { return db_malloc(100 * 64); }

static void fill(char *p, size_t size) {
  memset(p, 1, size);
  __asm__ volatile("" : : "r"(p) : "memory");
}

int main(void) {
  char *table = new_table(), *index = new_index();
  fill(table, 200 * 64);
  fill(index, 100 * 64);
  mem_free(table);
  mem_free(index);
  return 0;
}
