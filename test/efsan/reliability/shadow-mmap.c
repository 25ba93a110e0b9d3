// A MAP_FIXED mapping over efsan's shadow [0x7fff8000, 0x2007fff8000)
// would replace the shadow and have 0x81 bytes written into the program's
// memory. It is refused with EINVAL, as TSan and MSan do; so is an mremap
// that moves a mapping there (MREMAP_FIXED) and a shared memory segment
// attached there with SHM_REMAP (without it the kernel refuses). Mappings next to the shadow,
// hints inside it (the kernel places those elsewhere) and ordinary mremaps
// work.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: %run %t 2>&1 | FileCheck %s
// RUN: %clang -O2 -fsanitize=efficiency-cache-frag %s -o %t.cf
// RUN: %run %t.cf 2>&1 | FileCheck %s
// CHECK: fixed in shadow: refused, errno EINVAL
// CHECK: fixed straddling the shadow end: refused, errno EINVAL
// CHECK: fixed-noreplace in shadow: refused, errno EINVAL
// CHECK: hint in shadow: placed outside the shadow
// CHECK: fixed after the shadow: ok, reads 0
// CHECK: mremap fixed into the shadow: refused, errno EINVAL, old mapping reads 7
// CHECK: mremap grown elsewhere: ok, reads 7
// CHECK: shmat in the shadow: refused, errno EINVAL
// CHECK: shmat remap in the shadow: refused, errno EINVAL
// CHECK: shmat remap straddling the shadow start: refused, errno EINVAL
// CHECK: shmat anywhere: ok
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/shm.h>

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

  char *p = mmap(0, 1UL << 20, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  p[0] = 7;
  void *moved = mremap(p, 1UL << 20, 1UL << 20, MREMAP_MAYMOVE | MREMAP_FIXED,
                       (void *)(SHADOW_LO + (1UL << 40)));
  printf("mremap fixed into the shadow: %s, old mapping reads %d\n",
         moved != MAP_FAILED ? "MOVED" : errno == EINVAL ? "refused, errno EINVAL" : "refused, errno ?",
         p[0]);
  char *grown = mremap(p, 1UL << 20, 4UL << 20, MREMAP_MAYMOVE);
  printf("mremap grown elsewhere: %s, reads %d\n",
         grown == MAP_FAILED ? "failed" : "ok", grown == MAP_FAILED ? -1 : grown[0]);

  int segment = shmget(IPC_PRIVATE, 1UL << 20, IPC_CREAT | 0600);
  const struct {
    const char *what;
    unsigned long addr;
    int flags;
  } attaches[] = {
      {"shmat in the shadow", SHADOW_LO + (1UL << 40), 0},
      {"shmat remap in the shadow", SHADOW_LO + (1UL << 40), SHM_REMAP},
      {"shmat remap straddling the shadow start", SHADOW_LO - (1UL << 19), SHM_REMAP},
      {"shmat anywhere", 0, 0},
  };
  for (unsigned i = 0; i < sizeof(attaches) / sizeof(attaches[0]); i++) {
    void *at = shmat(segment, (void *)attaches[i].addr, attaches[i].flags);
    if (at == (void *)-1)
      printf("%s: refused, errno %s\n", attaches[i].what, errno == EINVAL ? "EINVAL" : "?");
    else
      printf("%s: %s\n", attaches[i].what, attaches[i].addr ? "ATTACHED" : "ok");
    if (at != (void *)-1)
      shmdt(at);
  }
  shmctl(segment, IPC_RMID, 0);
  return 0;
}
