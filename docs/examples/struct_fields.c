// Cache-frag example: struct field usage. `struct particle` mixes two hot
// fields (x, vx) with a cold 96-byte name and a rarely used id, so the hot
// fields of consecutive particles are spread over many cache lines. The
// report's struct section counts accesses per field and flags the mix.
//
//   efsan-clang -O2 -g -fsanitize=efficiency-cache-frag struct_fields.c -o sf
#include <stdio.h>
#include <stdlib.h>

struct particle {
  double x;
  char name[96];
  int id;
  double vx;
};

int main(void) {
  enum { kN = 4096, kSteps = 200 };
  struct particle *p = calloc(kN, sizeof *p);
  if (!p)
    return 1;
  for (int i = 0; i < kN; i++) {
    p[i].id = i;
    p[i].vx = (i % 7) * 0.5;
  }
  for (int s = 0; s < kSteps; s++)
    for (int i = 0; i < kN; i++)
      p[i].x += p[i].vx * 0.01;
  double sum = 0;
  for (int i = 0; i < kN; i++)
    sum += p[i].x;
  printf("struct_fields: %.3f\n", sum);
  free(p);
  return 0;
}
