// The working set's time axis is the sampler's real clock, also when the
// sampler falls behind: three phases of lengths the program measures itself
// (0.24 s, 0.20 s, 0.23 s, as in issue 34), the middle one sweeping 32 MiB,
// with sampler_max_cpu=1, so that the sampler, owing rest for its scans of
// the large phase, takes its samples late there (samples 100 ms apart
// instead of 10). Every snapshot and timeline entry carries the interval it
// covers; they follow each other without a gap from the start of the run to
// the report; a phase boundary ends the snapshot of every level and the
// timeline's entry; a late snapshot lies in a span the report names
// (sampler_behind, and the text's "the sampler fell behind" line); the
// page draws each snapshot over its interval, with the phase markers where
// the phase table puts them, on the same axis, and hatches the late spans
// (Inputs/check_time_axis.py). Before, the page drew snapshot j at
// j x 10 ms: the 32 MiB peak ended at ~320 ms while the table said the
// large phase ran until 0.46 s, and the last marker fell past the axis.
// The same pinned to one CPU, where the sampler and the program share it.
// RUN: %clang -O2 -g -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: env ESAN_OPTIONS=report_format=json:sample_freq=10:sampler_max_cpu=1:log_path=%t.dir/r %run %t > %t.dir/out
// RUN: %efsan_view %t.dir/r.* -o %t.dir/page.html
// RUN: %python %S/Inputs/check_time_axis.py %t.dir/out %t.dir/page.html %t.dir/r.* | FileCheck %s
// RUN: %python -c "import json, glob; r = json.load(open(glob.glob('%t.dir/r.*')[0])); assert r['sampler_behind_samples'] >= 1, r['sampler_behind']"
// RUN: env ESAN_OPTIONS=sample_freq=10:sampler_max_cpu=1 %run %t 2>&1 | FileCheck %s --check-prefix=TEXT
// RUN: %if taskset %{ rm -rf %t.pinned && mkdir %t.pinned %}
// RUN: %if taskset %{ env ESAN_OPTIONS=report_format=json:sample_freq=10:sampler_max_cpu=1:log_path=%t.pinned/r taskset -c 0 %run %t > %t.pinned/out %}
// RUN: %if taskset %{ %efsan_view %t.pinned/r.* -o %t.pinned/page.html %}
// RUN: %if taskset %{ %python %S/Inputs/check_time_axis.py %t.pinned/out %t.pinned/page.html %t.pinned/r.* | FileCheck %s %}
#include <sanitizer/efsan_interface.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static unsigned long sweep(volatile unsigned char *buf, size_t bytes, double ms) {
  unsigned long sum = 0;
  double end = now_ms() + ms;
  while (now_ms() < end)
    for (size_t i = 0; i < bytes; i += 64)
      sum += buf[i]++;
  return sum;
}

int main(void) {
  static const char *const names[3] = {"small", "large", "small again"};
  static const double lengths[3] = {240, 200, 230};
  size_t small = 256 << 10, large = 32 << 20;
  unsigned char *a = calloc(small, 1);
  unsigned char *b = calloc(large, 1);
  if (!a || !b)
    return 1;
  unsigned long sum = 0;
  for (int p = 0; p < 3; p++) {
    __efsan_mark_phase(names[p]);
    // Between the phase's start and its end as the report gives them.
    double start = now_ms();
    sum += sweep(p == 1 ? b : a, p == 1 ? large : small, lengths[p]);
    double end = now_ms();
    printf("PHASE %s %.3f\n", names[p], end - start);
  }
  printf("checksum %lu\n", sum % 7);
  return 0;
}

// CHECK: time axis ok: report: 7 levels, 3 phases, {{[0-9]+}} timeline entries, {{[1-9][0-9]*}} samples behind
// CHECK: time axis ok: level 0: 3 markers, {{[1-9][0-9]*}} points on the axis
// CHECK: time axis ok: structures: 3 markers, 0 points on the axis

// TEXT: phase "small", {{[0-9.]+}}-{{[0-9.]+}} s: 41{{[0-9][0-9]}} lines
// TEXT: phase "large", {{[0-9.]+}}-{{[0-9.]+}} s: 524{{[0-9][0-9][0-9]}} lines
// TEXT: phase "small again"
// TEXT: samples, one every 10 ms of wall-clock time; level k keeps a snapshot every 4^k samples and at each phase boundary
// TEXT: the sampler fell behind: {{[0-9]+}} sample{{s?}} covered more than one and a half periods ({{[0-9]+}} ms in all; each snapshot covers the time since the one before), at:
// TEXT-NEXT: {{[0-9]+\.[0-9]+-[0-9]+\.[0-9]+ s \([0-9]+ samples?\)}}
