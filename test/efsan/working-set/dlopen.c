// dlopen of a library built without efsan: it loads and runs; its own
// accesses are not seen, but the program's accesses to the library's globals
// count as globals, also after dlclose.
// RUN: %stock_clang -O2 -fPIC -shared %S/Inputs/uninstrumented-lib.c -o %t.so
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t -ldl
// RUN: rm -f %t.log.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.log %run %t %t.so | FileCheck %s
// RUN: %python %S/Inputs/check_report.py %t.log --count 1 "heap == 10" "globals >= 64"
// CHECK: library ok
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  void *library = dlopen(argv[1], RTLD_NOW);
  if (!library) {
    fprintf(stderr, "%s\n", dlerror());
    return 1;
  }
  char *(*table_address)(void) = (char *(*)(void))dlsym(library, "lib_table_address");
  void (*fill)(char *, int) = (void (*)(char *, int))dlsym(library, "lib_fill");
  char *unseen = aligned_alloc(64, 100 * 64);
  fill(unseen, 100);
  volatile char *table = table_address();
  for (int i = 0; i < 64; i++)
    table[i * 64]++;
  volatile char *mine = aligned_alloc(64, 10 * 64);
  for (int i = 0; i < 10; i++)
    mine[i * 64]++;
  dlclose(library);
  printf("library ok\n");
  return 0;
}
