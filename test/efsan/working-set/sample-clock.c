// sample_clock=cpu: the sampler counts the program's CPU time, not the wall
// clock, so a program that sleeps gets no samples while it sleeps. The
// program measures its own process CPU time at the end (the sampler's is in
// it too, so it is an upper bound of the sampler's clock): there can be no
// more samples than periods of it, plus the one a phase boundary takes.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -f %t.log.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.log:sample_clock=cpu:sample_freq=10 %run %t > %t.cpu_ms
// RUN: %python %S/Inputs/check_report.py %t.log --count 1 \
// RUN:   "sample_clock == 'cpu'" \
// RUN:   "samples <= int(open('%t.cpu_ms').read()) // 10 + 1 + 1" \
// RUN:   "[p['name'] for p in phases] == ['busy'] and 1000 <= phases[0]['lines'] <= 1002"
// RUN: env ESAN_OPTIONS=sample_clock=cpu %run %t 2>&1 >/dev/null | FileCheck %s
// CHECK: {{[0-9]+}} samples, one every 20 ms of the program's CPU time
// The default is the wall clock, and the report says so.
// RUN: %run %t 2>&1 >/dev/null | FileCheck --check-prefix=WALL %s
// RUN: rm -f %t.wall.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.wall %run %t > /dev/null
// RUN: %python %S/Inputs/check_report.py %t.wall "sample_clock == 'wall'"
// WALL: one every 20 ms of wall-clock time
// A bad value is refused.
// RUN: env ESAN_OPTIONS=sample_clock=moon not %run %t 2>&1 | FileCheck --check-prefix=BAD %s
// BAD: ERROR: ESAN_OPTIONS: invalid value for option 'sample_clock': must be 'wall' or 'cpu'
#include <sanitizer/efsan_interface.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(void) {
  volatile char *p = aligned_alloc(64, 1000 * 64);
  __efsan_mark_phase("busy");
  for (int round = 0; round < 200; round++)
    for (int i = 0; i < 1000; i++)
      p[i * 64]++;
  __efsan_mark_phase(0);
  // 300 ms asleep: no CPU time, so no samples with sample_clock=cpu.
  struct timespec nap = {0, 300 * 1000 * 1000};
  nanosleep(&nap, 0);
  struct timespec cpu;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
  printf("%ld\n", (long)cpu.tv_sec * 1000 + cpu.tv_nsec / 1000000 + 1);
  return 0;
}
