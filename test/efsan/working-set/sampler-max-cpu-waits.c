// sampler_max_cpu is a share of the program's own CPU time too, not only of
// one core: a program that waits most of the time (here it sleeps 20 ms
// after each pass over 16 MiB; a loaded machine does the same to any
// program) gets a sampler that uses at most that share of what the program
// used. The rest a sample owes was paid by wall-clock time alone, and the
// sampler took about 1% of the wall-clock time, several times 1% of the
// program's CPU time (about 20% here). The program reads its CPU time itself;
// the bound checked (6%) leaves room for the first sample, the credit of
// ten periods and the last sample's overshoot (1.5-2%; 1.5-3.5%, once 8%, with half
// the work), and holds on a loaded machine (the program only waits more).
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -f %t.log.*
// RUN: env ESAN_OPTIONS=sample_freq=1:sampler_max_cpu=1:report_format=json:log_path=%t.log %run %t > %t.vars
// RUN: %python %S/Inputs/check_report.py %t.log --count 1 --vars %t.vars \
// RUN:   "sampler_late_samples >= 1" \
// RUN:   "sampler_cpu_ms * 1000 <= 0.06 * (process_cpu_us - sampler_cpu_ms * 1000)"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long cpu_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1000000L + ts.tv_nsec / 1000;
}

int main(void) {
  size_t size = 16 << 20;
  volatile char *data = malloc(size);
  if (!data)
    return 1;
  struct timespec rest = {0, 20 * 1000 * 1000};
  // At least 600 ms of the program's CPU time (and 80 passes), each pass
  // changing 256 KiB of shadow for the samples to scan.
  for (int pass = 0; pass < 80 || cpu_us() < 600000; pass++) {
    for (size_t i = 0; i < size; i += 64)
      data[i]++;
    nanosleep(&rest, 0);
  }
  // The sampler's share is taken out by the check: the process's CPU time
  // includes it.
  printf("process_cpu_us=%ld\n", cpu_us());
  return 0;
}
