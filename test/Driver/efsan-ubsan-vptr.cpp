// efsan-clang++ with UBSan's C++ checks (vptr): their handlers come from the
// efsan runtime's C++ part.

// RUN: %clangxx -O0 -fsanitize=vptr,efficiency-working-set %s -o %t
// RUN: %run %t 2>&1 | FileCheck %s
// CHECK: runtime error: downcast of address {{0x[0-9a-f]+}} which does not point to an object of type 'Derived'
// CHECK: done
#include <cstdio>
struct Base {
  virtual ~Base() {}
  int base_value = 1;
};
struct Derived : Base {
  int derived_value = 2;
};
struct Other : Base {
  int other_value = 3;
};
int main() {
  Base *object = new Other;
  Derived *wrong = static_cast<Derived *>(object);
  std::printf("%s\n", wrong ? "done" : "null");
  delete object;
  return 0;
}
