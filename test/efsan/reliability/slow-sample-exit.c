// A sample that takes far longer than the sample period must not keep the
// sampler running back to back: a report on demand and exit need its lock.
// The program marks 4 GiB of a MAP_NORESERVE mapping (64 MiB of shadow, all
// of it changed before every sample) by writing it to /dev/null: the write
// interceptor marks the range as read, the kernel never touches the pages.
// With sample_freq=1 every sample takes much longer than its period. Pinned
// to one core, the sampler used to hold its lock for all but a few
// instructions of its time slice, and a report on demand waited for it for
// half a minute on average, often longer (with 8 GiB marked, 5 of the 10
// reports came out in 200 s). The program asks for ten reports, each after
// marking the range again, then marks it once more and returns while the
// sampler is scanning. (`timeout` is only a safety net so that a hang fails
// the test instead of stalling the suite; the program needs a few seconds of
// CPU.) Its CPU time is nearly all its own busy wait for the next sample:
// that sample comes after the rest the last one owes, paid in the program's
// CPU time: (100 - P) / P times a sample's 60 ms at sampler_max_cpu=P, and
// twice that for an estimated sample (all but the first here: 64 million
// lines a period), 18 times at P = 10. (Charged once, at P = 5: 8.8-10.1 of
// 11.1-12.3 s pinned; at P = 2, 49 times: 37.6 of 40.0 s.) The runs name the
// share, so that the default's does not set the test's length.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: env ESAN_OPTIONS=sample_freq=1:sampler_max_cpu=10 %if taskset %{ taskset -c 0 %} timeout 200 %run %t > %t.pinned 2>&1
// RUN: FileCheck %s < %t.pinned
// RUN: env ESAN_OPTIONS=sample_freq=1:sampler_max_cpu=10:verbosity=3 timeout 200 %run %t > %t.free 2>&1
// RUN: FileCheck %s < %t.free
// Whether the old sampler starved a waiter depended on the schedule; what
// the fix guarantees does not: the sampler keeps to sampler_max_cpu (10%) of
// a core, so a sample charged C of CPU time (its CPU time, twice that if
// estimated: the log says which) is followed by a pause of at least 9 C,
// less the credit of ten periods (10 ms here) that quick samples
// earn (verbosity=3 logs when each sample started, how long it took and its
// CPU time, in microseconds, rounded down). Wall time is no measure on a
// loaded machine (a 1 ms sample of 0.2 ms CPU owes no pause). Some samples
// must have overrun the 1 ms period, else the test shows nothing.
// RUN: %python -c "import re, sys; s = [(int(a), int(b), int(c)) for a, b, c in re.findall(r'sampler: sample started at ([0-9]+) us took ([0-9]+) us \([0-9]+ us of CPU, charged ([0-9]+) us\)', open(sys.argv[1]).read())]; gaps = [(t1 - t0 - d0, c0) for (t0, d0, c0), (t1, d1, c1) in zip(s, s[1:])]; bad = [g for g in gaps if g[0] + 3 < 9 * g[1] - 10000]; sys.exit(0 if len(s) >= 3 and any(d >= 1000 for _, d, _ in s) and not bad else 'samples %%r, pauses shorter than owed: %%r' %% (s[:20], bad[:10]))" %t.free
// RUN: rm -f %t.log.*
// RUN: env ESAN_OPTIONS=sample_freq=1:sampler_max_cpu=10:report_format=json:log_path=%t.log %if taskset %{ taskset -c 0 %} timeout 200 %run %t exit-only
// RUN: %python %S/../working-set/Inputs/check_report.py %t.log --count 1 \
// RUN:   "other == (4 << 30) // 64" "samples >= 1" "sampler_cpu_ms > 0"
// CHECK-COUNT-10: other    67108864 lines (4.0 GiB)
// CHECK: marked again, returning from main
// CHECK: other    67108864 lines (4.0 GiB)
// CHECK: SUMMARY: EfficiencySanitizer: working set of
#include <fcntl.h>
#include <sanitizer/efsan_interface.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static void mark(int devnull, const char *p, size_t size) {
  for (size_t done = 0; done < size;) {
    ssize_t n = write(devnull, p + done, size - done);
    if (n <= 0) {
      perror("write");
      _exit(1);
    }
    done += (size_t)n;
  }
}

int main(int argc, char **argv) {
  const size_t size = 4ULL << 30;
  char *big = mmap(0, size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  int devnull = open("/dev/null", O_WRONLY);
  if (big == MAP_FAILED || devnull < 0) {
    perror("setup");
    return 1;
  }
  if (argc < 2) {
    for (int i = 0; i < 10; i++) {
      unsigned before = __efsan_get_sample_count();
      mark(devnull, big, size);
      // Let a sample of the whole range start.
      while (__efsan_get_sample_count() < before + 1)
        ;
      __efsan_report();
    }
  }
  unsigned before = __efsan_get_sample_count();
  mark(devnull, big, size);
  while (__efsan_get_sample_count() < before + 1)
    ;
  mark(devnull, big, size);
  fprintf(stderr, "marked again, returning from main\n");
  return 0;
}
