// An untouched 64 TiB PROT_NONE reservation is not registered as a region
// to scan: scans cost in proportion to the memory the program can touch,
// not to its address-space reservations, so neither the samples nor fork
// nor exit slow down. The part it later makes accessible and touches is
// found at the next sample and counted.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: env ESAN_OPTIONS=verbosity=2:sample_freq=1 timeout -s KILL 300 %run %t 2>&1 | FileCheck %s
// CHECK: forked 20 times
// CHECK: {{ [0-9]{1,6} }}MiB of address space scanned
// CHECK: other    16 lines
#include <stdio.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
  unsigned long size = 64UL << 40;
  char *arena = mmap(0, size, PROT_NONE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (arena == MAP_FAILED) {
    perror("mmap");
    return 1;
  }
  for (int i = 0; i < 20; i++) {
    pid_t pid = fork();
    if (pid == 0)
      _exit(0);
    waitpid(pid, 0, 0);
  }
  printf("forked 20 times\n");
  fflush(stdout);
  // Make one page accessible and touch 16 lines of it.
  char *page = arena + (size / 2);
  mprotect(page, 4096, PROT_READ | PROT_WRITE);
  usleep(20000); // let a sample find the page (the report re-reads the maps too)
  for (int i = 0; i < 16; i++)
    ((volatile char *)page)[i * 64] = 1;
  return 0;
}
