// The cache section matches this machine's sysfs, which the checker reads
// itself (or, where the kernel has no sysfs cache directory, cpuid's L1d and
// L2 as glibc's getconf reads them); every verdict (the total, each level's
// peak, each snapshot) names the smallest data cache that holds it. Working
// sets of three sizes: one that fits L1d, one that needs more than L1d, one
// larger than 2 MiB.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -f %t.log.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.log:sample_freq=5 %run %t 100
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.log:sample_freq=5 %run %t 4000
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.log:sample_freq=5 %run %t 40000
// RUN: %run %t 4000 2> %t.text
// RUN: %python %S/Inputs/check_caches.py %t.log %t.text
#include <stdlib.h>

int main(int argc, char **argv) {
  int lines = atoi(argv[1]);
  volatile char *p = aligned_alloc(64, (size_t)lines * 64);
  for (int round = 0; round < 20; round++)
    for (int i = 0; i < lines; i++)
      p[i * 64]++;
  return 0;
}
