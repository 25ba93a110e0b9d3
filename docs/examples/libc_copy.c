// Working-set example: the program itself never loads or stores the 4 MiB
// buffers; libc's memset and memcpy do. efsan counts the bytes libc reads and
// writes, so the working set still shows both buffers (2 x 4 MiB).
//
//   efsan-clang -O2 -fsanitize=efficiency-working-set libc_copy.c -o libc_copy
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  size_t n = 4 << 20;
  char *src = malloc(n), *dst = malloc(n);
  if (!src || !dst)
    return 1;
  memset(src, 'x', n);
  // An opaque pointer so the compiler keeps the libc call.
  void *(*volatile copy)(void *, const void *, size_t) = memcpy;
  copy(dst, src, n);
  printf("libc_copy: dst[n-1]=%c; expected working set >= %zu lines\n", dst[n - 1],
         2 * n / 64);
  free(src);
  free(dst);
  return 0;
}
