// sanitizer_common's child closes every descriptor below the soft
// RLIMIT_NOFILE one at a time before it runs llvm-symbolizer (20,000 system
// calls, 10 ms, where `ulimit -n` is 20000). The runtime lowers the soft
// limit to just above the highest descriptor open for the first lookup,
// which starts the symbolizer, and puts it back after: the symbolizer (a
// wrapper that records its limits, then runs the built one) starts with a
// small limit, the site still has its line, and the program finds its own
// limit as it set it, in the report on demand and at exit.
// REQUIRES: built-symbolizer
// RUN: %clang -O2 -g -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -rf %t.bin %t.limits && mkdir %t.bin
// RUN: printf '#!/bin/sh\ngrep "open files" /proc/$$/limits >> %t.limits\nexec %bindir/llvm-symbolizer "$@"\n' > %t.bin/llvm-symbolizer
// RUN: chmod +x %t.bin/llvm-symbolizer
// RUN: env ESAN_SYMBOLIZER_PATH=%t.bin/llvm-symbolizer %run %t > %t.out 2>&1
// RUN: FileCheck %s < %t.out
// RUN: %python -c "import re, sys; want = int(re.search(r'soft limit ([0-9]+)', open(sys.argv[1]).read()).group(1)); child = [int(l.split()[3]) for l in open(sys.argv[2])]; sys.exit(0 if child and (want <= 1024 or child[0] <= 1024) else 'program soft limit %%d, symbolizer started with %%r' %% (want, child))" %t.out %t.limits
// CHECK: soft limit [[LIMIT:[0-9]+]] set
// CHECK: data structures, most lines first
// CHECK-NEXT: heap    1000 lines ({{.*}})  main {{.*}}symbolizer-fd-limit.c:[[#@LINE+33]]
// CHECK: soft limit [[LIMIT]] after the report
// CHECK: data structures, most lines first
// CHECK-NEXT: heap    1000 lines ({{.*}})  main {{.*}}symbolizer-fd-limit.c:[[#@LINE+30]]
// CHECK: SUMMARY
#include <sanitizer/efsan_interface.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

enum { kLines = 1000 };

static unsigned long long soft_limit(void) {
  struct rlimit limit;
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) {
    perror("getrlimit");
    exit(1);
  }
  return (unsigned long long)limit.rlim_cur;
}

int main(void) {
  // As high as the hard limit allows (up to 65536), as `ulimit -n` may be.
  struct rlimit limit;
  getrlimit(RLIMIT_NOFILE, &limit);
  limit.rlim_cur = limit.rlim_max == RLIM_INFINITY || limit.rlim_max > 65536
                       ? 65536
                       : limit.rlim_max;
  if (setrlimit(RLIMIT_NOFILE, &limit) != 0) {
    perror("setrlimit");
    return 1;
  }
  fprintf(stderr, "soft limit %llu set\n", soft_limit());
  char *block = aligned_alloc(64, kLines * 64);
  for (int i = 0; i < kLines * 64; i += 64)
    block[i] = (char)i;
  __efsan_report();
  fprintf(stderr, "soft limit %llu after the report\n", soft_limit());
  long sum = 0;
  for (int i = 0; i < kLines * 64; i += 64)
    sum += block[i];
  printf("%ld\n", sum);
  return sum == 0;
}
