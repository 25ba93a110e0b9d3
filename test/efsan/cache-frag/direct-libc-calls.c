// The program's libc string calls count their ranges down inline and call
// libc's function directly when none of them is sampled (docs/Pass.md,
// "libc string calls"): the runtime publishes libc's functions at start-up,
// each only where its interceptor's common flag is on, and a call whose
// range is sampled, or whose pointer is null, goes to the interceptor. Both
// kinds of call compute what libc does, also interleaved on one strtok_r
// scan (a sample period of 2 sends every other call to the interceptor,
// period 1 all of them).
// RUN: %clang -O2 -fsanitize=efficiency-cache-frag %s -o %t
// RUN: %run %t 2>&1 | FileCheck %s --check-prefixes=CHECK,ON
// RUN: env ESAN_OPTIONS=cache_frag_sample_period=2 %run %t 2>&1 | FileCheck %s --check-prefixes=CHECK,ON
// RUN: env ESAN_OPTIONS=cache_frag_sample_period=1 %run %t 2>&1 | FileCheck %s --check-prefixes=CHECK,ON
// RUN: env ESAN_OPTIONS=intercept_strlen=0:intercept_memcmp=0 %run %t 2>&1 | FileCheck %s --check-prefixes=CHECK,FLAGS
// RUN: %clang -O2 %s -o %t.plain -ldl && %run %t.plain 2>&1 | FileCheck %s
// A program with its own strlen (defined in another file, so the pass sees a
// declaration) keeps calling it: the runtime leaves that pointer null.
// RUN: %clang -O0 -c -DOWN_STRLEN %s -o %t.own.o
// RUN: %clang -O2 -fsanitize=efficiency-cache-frag %s %t.own.o -o %t.own
// RUN: %run %t.own 2>&1 | FileCheck %s --check-prefixes=CHECK,OWN
// OWN: strlen: not published
// OWN-NEXT: memcmp: libc's
// ON: strlen: libc's
// ON-NEXT: memcmp: libc's
// ON-NEXT: strchr: libc's
// FLAGS: strlen: not published
// FLAGS-NEXT: memcmp: not published
// FLAGS-NEXT: strchr: libc's
// CHECK: tokens: 6 lengths 2+3+5+7+11+13 last 'thirteen.....'
// CHECK-NEXT: compare: 0 -1 1 found 14
// OWN-NEXT: own strlen called
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#ifdef OWN_STRLEN
int own_strlen_calls;
size_t strlen(const char *s) {
  const char *end = s;
  while (*end)
    end++;
  own_strlen_calls++;
  return (size_t)(end - s);
}
#else
#pragma weak own_strlen_calls
extern int own_strlen_calls;

extern void *__efsan_cf_strlen, *__efsan_cf_memcmp, *__efsan_cf_strchr;

static void published(const char *name, void *pointer) {
  void *libc = dlsym(RTLD_NEXT, name);
  printf("%s: %s\n", name,
         !pointer ? "not published" : pointer == libc ? "libc's" : "other");
}

// Defined by the runtime; absent from the plain build.
#pragma weak __efsan_cf_strlen
#pragma weak __efsan_cf_memcmp
#pragma weak __efsan_cf_strchr

int main(int argc, char **argv) {
  if (&__efsan_cf_strlen) {
    published("strlen", __efsan_cf_strlen);
    published("memcmp", __efsan_cf_memcmp);
    published("strchr", __efsan_cf_strchr);
  }
  char text[] = "ab cde fghij klmnopq rstuvwxyzAB thirteen.....";
  const char *volatile delimiters = " ";
  char *save = NULL;
  int tokens = 0;
  char lengths[64] = "", *last = NULL;
  for (char *t = strtok_r(text, delimiters, &save); t;
       t = strtok_r(NULL, delimiters, &save), tokens++) {
    snprintf(lengths + strlen(lengths), sizeof(lengths) - strlen(lengths),
             "%s%zu", tokens ? "+" : "", strlen(t));
    last = t;
  }
  printf("tokens: %d lengths %s last '%s'\n", tokens, lengths, last);
  const char *volatile a = "same words", *volatile b = "same wordz";
  const char *volatile haystack = "a needle in 15: needle";
  size_t n = 9 + (argc > 5);
  printf("compare: %d %d %d found %d\n", memcmp(a, b, n),
         memcmp(a, b, n + 1) < 0 ? -1 : 1, strcmp(b, a) > 0 ? 1 : -1,
         (int)(strstr(haystack, ": needle") - haystack));
  if (&own_strlen_calls && own_strlen_calls > 0)
    printf("own strlen called\n");
  return 0;
}
#endif
