// A module instrumented for another layout of the cache-frag module info
// (here version 1's: no version, no field flags) is refused with one line,
// not misread. Its constructor's call is made by hand.
// RUN: %clang -O2 -fsanitize=efficiency-cache-frag %s -o %t
// RUN: not %run %t 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: count 1 < %t.err
// CHECK: EfficiencySanitizer: ERROR: a module was instrumented by another efsan (its cache-frag module info is not version 2); rebuild it with the efsan-clang of this runtime

void __efsan_init(int tool, void *module_info);

struct version1_module_info {
  const char *module_name;
  unsigned num_structs;
  void *structs;
  unsigned num_globals;
  void *globals;
};

static struct version1_module_info old = {"old.c", 0, 0, 0, 0};

int main(void) {
  __efsan_init(1, &old);
  return 0;
}
