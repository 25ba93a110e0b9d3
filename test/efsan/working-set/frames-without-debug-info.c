// Frames of code built without debug info (a library's, or a program built
// without -g) are named by their function alone, on every line of an
// object's stack: pixz's buffers allocated inside liblzma read
// "called from liblzma.so.5+0x1f32f ?:0".
// RUN: %clang -O1 -fsanitize=efficiency-working-set %s -o %t
// RUN: %run %t 2>&1 | FileCheck %s
// CHECK: heap {{ *}}16385 lines (1.0 MiB)  fill{{$}}
// CHECK-NEXT: called from main{{$}}
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) char *fill(int n) {
  char *p = malloc(n);
  for (int i = 0; i < n; i++)
    p[i] = (char)i;
  return p;
}

int main(void) {
  char *p = fill(1 << 20);
  long s = 0;
  for (int r = 0; r < 4; r++)
    for (int i = 0; i < (1 << 20); i++)
      s += p[i];
  printf("%ld\n", s);
  return 0;
}
