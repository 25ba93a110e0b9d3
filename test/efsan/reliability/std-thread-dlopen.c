// A C program (no libstdc++ at start-up) loads a C++ library that starts a
// std::thread. The runtime's std::thread::_M_start_thread wrapper, which the
// executable exports, receives the library's call: it finds libstdc++'s
// then, RTLD_LOCAL or not, and the thread runs (no crash through a null
// REAL).
// RUN: %stock_clang++ -O2 -fPIC -shared -pthread %S/Inputs/std_thread_lib.cpp -o %t.so
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t -ldl
// RUN: %run %t %t.so 2>&1 | FileCheck %s
// RUN: %clang -O2 -g -fsanitize=efficiency-working-set -pthread %s -o %t.ws -ldl
// RUN: %run %t.ws %t.so 2>&1 | FileCheck %s
// CHECK: counted 1000
// CHECK: SUMMARY: EfficiencySanitizer:
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv) {
  void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    fprintf(stderr, "dlopen: %s\n", dlerror());
    return 1;
  }
  long (*count_in_thread)(long) =
      (long (*)(long))dlsym(library, "count_in_thread");
  fprintf(stderr, "counted %ld\n", count_in_thread(1000));
  return 0;
}
