// A struct with no name that a variable has (`static struct { ... } g;`:
// pigz keeps its whole state so) is named after that variable, `struct
// <anonymous> g`, with its members' names and source types from the debug
// info, also through an array of it and for a union; before, it was
// `struct.anon` with fields `i64` and `[32810 x i8]`. -O0 and -O2 alike.
// RUN: %clang -O0 -g -fsanitize=efficiency-cache-frag %s -o %t.O0
// RUN: env ESAN_OPTIONS=cache_frag_sample_period=1 %run %t.O0 2>&1 | FileCheck %s
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag %s -o %t.O2
// RUN: env ESAN_OPTIONS=cache_frag_sample_period=1 %run %t.O2 2>&1 | FileCheck %s
#include <stdio.h>

static struct {
  long count;
  char name[32810];
  int level;
} g;

static struct {
  int lo;
  int hi;
} pairs[4];

static union {
  long as_long;
  double as_double;
} value;

// 1000 calls: 2000 accesses to count (a load and a store; main reads it
// once more), 1000 to name, 1000 to level; 1000 stores to pairs[i].hi; 1000
// to value, whose two members share the field.
__attribute__((noinline)) static void bump(int i) {
  g.count += i;
  g.level = i;
  g.name[i & 7] = 1;
  ((volatile int *)&pairs[i & 3].hi)[0] = i;
  ((volatile long *)&value.as_long)[0] = i;
}

int main(void) {
  for (int i = 0; i < 1000; i++)
    bump(i);
  printf("%ld\n", g.count);
  return 0;
}
// CHECK: Struct field usage (estimated accesses per field):
// CHECK-DAG: struct <anonymous> g: size 32824, 3 fields, 4001 accesses
// CHECK-DAG: field 0 count offset 0 size 8 type long count 2001 (hot)
// CHECK-DAG: field 1 name offset 8 size 32810 type char[32810] count 1000 (hot)
// CHECK-DAG: field 2 level offset 32820 size 4 type int count 1000 (hot)
// CHECK-DAG: struct <anonymous> pairs: size 8, 2 fields, 1000 accesses
// CHECK-DAG: field 1 hi offset 4 size 4 type int count 1000 (hot)
// CHECK-DAG: union <anonymous> value: size 8, 1 fields, 1000 accesses
// CHECK-DAG: field 0 as_long,as_double offset 0 size 8 type {{.*}} count 1000 (hot)
// CHECK-NOT: struct.anon
// CHECK: SUMMARY
