// A std::string that grows allocates inside the C++ library (operator new
// from basic_string::_M_create, from _M_mutate, from _M_append), which has
// no frame pointers: its frames are stepped out of by their call frame
// information, so the growing string's heap blocks are named by the
// program's line that grows it, called from main, not by "_M_mutate".
// Before: "heap ... std::__cxx11::basic_string<...>::_M_mutate(...)" with
// no caller.
// RUN: %clangxx -O2 -g -fsanitize=efficiency-working-set %s -o %t
// RUN: env ESAN_OPTIONS=report_objects=20 %run %t 2>&1 | FileCheck %s
// RUN: %clangxx -O0 -g -fsanitize=efficiency-working-set %s -o %t0
// RUN: env ESAN_OPTIONS=report_objects=20 %run %t0 2>&1 | FileCheck %s
// The cache-frag build unwinds the same stacks and computes the same.
// RUN: %clangxx -O2 -g -fsanitize=efficiency-cache-frag %s -o %t.cf
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.cf.log %run %t.cf > %t.cf.out
// RUN: FileCheck %s --check-prefix=OUT < %t.cf.out
#include <cstdio>
#include <string>
#include <vector>

static std::vector<std::string> kept;

__attribute__((noinline)) static void grow(int n) {
  std::string s;
  for (int i = 0; i < n; i++)
    s += "abcdefghij"; // GROW
  kept.push_back(s);
}

int main() {
  for (int k = 0; k < 500; k++)
    grow(1000);
  long total = 0;
  for (int r = 0; r < 4; r++)
    for (const std::string &s : kept)
      total += s[(r * 97) % s.size()];
  printf("%ld\n", total);
  return 0;
}

// CHECK: data structures, most lines first
// CHECK-NOT: _M_mutate
// CHECK: heap {{.*}} grow(int) {{.*}}cxx-string-growth.cpp:[[#@LINE-17]]
// CHECK-NEXT: called from main {{.*}}cxx-string-growth.cpp:[[#@LINE-12]]
// OUT: 200000
