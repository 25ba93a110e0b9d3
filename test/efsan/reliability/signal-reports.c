// Reports from long-running programs. report_on_signals=1 (the default)
// writes the report when SIGTERM, SIGINT or SIGHUP ends the program, which
// then still dies of the signal; report_signal=N writes a report each time
// signal N arrives while the program keeps running (with report_format=json
// and log_path, each in its own file), also when N is one of those three.
// With report_on_signals=0 a signal ends the program without a report.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: %python %S/Inputs/signal_reports.py %t %t.dir
// Bad values are option errors.
// RUN: env ESAN_OPTIONS=report_signal=9 not %run %t 2>&1 | FileCheck %s --check-prefix=KILL
// KILL: EfficiencySanitizer: ERROR: ESAN_OPTIONS: invalid value for option 'report_signal': must be 0 or a signal number that can be caught and is not a fault (e.g. 12, SIGUSR2)
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

char *lines; // not static: see working-set/exit-paths.c

int main(void) {
  lines = aligned_alloc(64, 50 * 64);
  for (int i = 0; i < 50; i++)
    ((volatile char *)lines)[i * 64] = 1;
  printf("ready\n");
  fflush(stdout);
  for (;;)
    pause();
}
