// sampler_max_cpu keeps the sampler thread within a share of one core: a
// sample over a large changed working set is followed by a rest of
// (100 - P) / P times its CPU time, less a credit of at most ten periods, so
// with P = 1 and a 1 ms period every sample that scans the 1 MiB of shadow
// of 64 MiB (far more than 100 microseconds of work on any machine) makes
// the next one late once the credit is spent. The snapshots still come and
// the total stays exact.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -f %t.log.*
// RUN: env ESAN_OPTIONS=sample_freq=1:sampler_max_cpu=1:report_format=json:log_path=%t.log %run %t
// RUN: %python %S/Inputs/check_report.py %t.log --count 1 \
// RUN:   "heap == (64 << 20) // 64" "samples >= 8" "sampler_max_cpu == 1" \
// RUN:   "1 <= sampler_late_samples <= samples"
// RUN: env ESAN_OPTIONS=sample_freq=1:sampler_max_cpu=1 %run %t 2>&1 | FileCheck %s
// CHECK: the sampler used {{[0-9.]+ (ns|us|ms|s)}} of CPU time; {{[1-9][0-9]*}} sample{{s?}} came late to keep it within 1% of one core (sampler_max_cpu)
// The default is 5; the key is always in the JSON report.
// RUN: rm -f %t.default.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.default %run %t
// RUN: %python %S/Inputs/check_report.py %t.default --count 1 \
// RUN:   "sampler_max_cpu == 5 and sampler_late_samples >= 0"
// A share outside 1..100 is a one-line error.
// RUN: env ESAN_OPTIONS=sampler_max_cpu=0 not %run %t 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: env ESAN_OPTIONS=sampler_max_cpu=101 not %run %t 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: env ESAN_OPTIONS=sampler_max_cpu=0 not %run %t 2>&1 | count 1
// BAD: EfficiencySanitizer: ERROR: ESAN_OPTIONS: invalid value for option 'sampler_max_cpu': must be 1..100 (percent of one core)
#include <sanitizer/efsan_interface.h>
#include <stdlib.h>

int main(void) {
  size_t size = 64 << 20;
  volatile char *data = malloc(size);
  if (!data)
    return 1;
  // Touch every line until eight more samples have been taken: each one
  // finds most of the shadow changed.
  unsigned start = __efsan_get_sample_count();
  while (__efsan_get_sample_count() < start + 8)
    for (size_t i = 0; i < size; i += 64)
      data[i]++;
  return 0;
}
