// A MAP_FIXED mapping over efsan's shadow [0x7fff8000, 0x2007fff8000)
// would replace the shadow and have 0x81 bytes written into the program's
// memory. It is refused with EINVAL, as TSan and MSan do. Mappings next to
// the shadow and hints inside it (the kernel places those elsewhere) work.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: %run %t 2>&1 | FileCheck %s
// CHECK: fixed in shadow: refused, errno EINVAL
// CHECK: fixed straddling the shadow end: refused, errno EINVAL
// CHECK: fixed-noreplace in shadow: refused, errno EINVAL
// CHECK: hint in shadow: placed outside the shadow
// CHECK: fixed after the shadow: ok, reads 0
#include <errno.h>
#include <stdio.h>
#include <sys/mman.h>

#define SHADOW_LO 0x7fff8000UL
#define SHADOW_HI 0x2007fff8000UL

static void try_map(const char *what, unsigned long addr, unsigned long size,
                    int flags) {
  char *p = mmap((void *)addr, size, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | flags, -1, 0);
  if (p == MAP_FAILED) {
    printf("%s: refused, errno %s\n", what, errno == EINVAL ? "EINVAL" : "?");
    return;
  }
  unsigned long got = (unsigned long)p;
  if (!(flags & (MAP_FIXED | MAP_FIXED_NOREPLACE))) {
    printf("%s: %s\n", what,
           got + size <= SHADOW_LO || got >= SHADOW_HI
               ? "placed outside the shadow"
               : "placed INSIDE the shadow");
  } else {
    p[0] = 1;
    p[size / 2] = 2;
    printf("%s: ok, reads %d\n", what, p[1] + p[size / 2 + 1]);
  }
  munmap(p, size);
}

int main(void) {
  try_map("fixed in shadow", SHADOW_LO, 2UL << 40, MAP_FIXED);
  try_map("fixed straddling the shadow end", SHADOW_HI - (1UL << 20),
          2UL << 20, MAP_FIXED);
  try_map("fixed-noreplace in shadow", SHADOW_LO + (1UL << 30), 1UL << 20,
          MAP_FIXED_NOREPLACE);
  try_map("hint in shadow", SHADOW_LO + (1UL << 30), 1UL << 20, 0);
  try_map("fixed after the shadow", SHADOW_HI, 1UL << 20, MAP_FIXED);
  return 0;
}
