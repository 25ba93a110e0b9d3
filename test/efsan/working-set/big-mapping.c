// A 64 GiB MAP_NORESERVE mapping with one line touched every 64 MiB: exactly
// those 1024 lines count (as "other" memory), also after munmap, and the
// sampler's scans stay cheap (only populated shadow pages are read).
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -f %t.log.*
// RUN: env ESAN_OPTIONS=sample_freq=1:report_format=json:log_path=%t.log %run %t
// RUN: %python %S/Inputs/check_report.py %t.log --count 1 \
// RUN:   "other == 1024" "samples >= 3" "levels[0]['taken'] == samples"
#include <sanitizer/efsan_interface.h>
#include <stdio.h>
#include <sys/mman.h>

int main(void) {
  const size_t size = 64ULL << 30, stride = 64ULL << 20;
  volatile char *big = mmap(0, size, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (big == MAP_FAILED) {
    perror("mmap");
    return 1;
  }
  // Keep touching until the sampler has scanned the mapping a few times.
  unsigned start = __efsan_get_sample_count();
  while (__efsan_get_sample_count() < start + 3)
    for (size_t offset = 0; offset < size; offset += stride)
      big[offset]++;
  munmap((void *)big, size);
  return 0;
}
