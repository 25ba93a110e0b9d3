// The shadow starts at 2 GiB - 32 KiB, above the image of a non-PIE program
// (0x400000) and the start of its brk heap. A heap that grows towards the
// shadow stops below it: brk fails there, as at any mapping, and malloc goes
// on with mmap. Pushing the break up costs no memory (nothing is touched).
// RUN: %clang -O2 -no-pie -fno-pie -fsanitize=efficiency-working-set %s -o %t
// RUN: %run %t 2>&1 | FileCheck %s
// CHECK: image below the shadow: yes
// CHECK: break stopped below the shadow: yes
// CHECK: malloc after that: ok, sum 4950
// CHECK: the total working set size
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define SHADOW_LO 0x7fff8000UL

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0); // before the report at exit
  printf("image below the shadow: %s\n",
         (unsigned long)&main < SHADOW_LO ? "yes" : "no");
  // Grow the break in 64 MiB steps until the kernel refuses.
  unsigned long top = (unsigned long)sbrk(0);
  for (int i = 0; i < 1024; i++) {
    if (sbrk(64L << 20) == (void *)-1)
      break;
    top = (unsigned long)sbrk(0);
  }
  printf("break stopped below the shadow: %s\n",
         top <= SHADOW_LO ? "yes" : "no");
  int *v = malloc(100 * sizeof(int));
  if (!v)
    return 1;
  int sum = 0;
  for (int i = 0; i < 100; i++)
    v[i] = i;
  for (int i = 0; i < 100; i++)
    sum += v[i];
  printf("malloc after that: ok, sum %d\n", sum);
  free(v);
  return 0;
}
