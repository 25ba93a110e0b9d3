// main ends with pthread_exit while a worker still runs. glibc ends the
// process with exit(0) when the last thread exits; efsan's sampler thread
// must not keep it alive. The worker's buffered output, the lines it touched
// and the report all survive, and the status is glibc's 0. (A hang is killed
// by the timeout and fails the test.)
// RUN: %clang -O2 -fsanitize=efficiency-working-set -pthread %s -o %t
// RUN: rm -f %t.log.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.log timeout -s KILL 60 %run %t > %t.out
// RUN: FileCheck %s < %t.out
// CHECK: worker done
// RUN: %python %S/../working-set/Inputs/check_report.py %t.log --count 1 "heap >= 100"
// Without the sampler thread too, and in text mode on stderr.
// RUN: env ESAN_OPTIONS=record_snapshots=0 timeout -s KILL 60 %run %t 2>&1 | FileCheck %s --check-prefix=TEXT
// TEXT-DAG: worker done
// TEXT-DAG: SUMMARY: EfficiencySanitizer: working set
// The cache-frag tool too.
// RUN: %clang -O2 -fsanitize=efficiency-cache-frag -pthread %s -o %t.cf
// RUN: timeout -s KILL 60 %run %t.cf 2>&1 | FileCheck %s --check-prefix=CF
// CF-DAG: worker done
// CF-DAG: SUMMARY: EfficiencySanitizer: cache-frag
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

char *lines; // not static: see working-set/exit-paths.c

static void *worker(void *arg) {
  (void)arg;
  usleep(100000);
  for (int i = 0; i < 100; i++)
    ((volatile char *)lines)[i * 64] = 1;
  printf("worker done\n"); // buffered: only exit() flushes it
  return 0;
}

int main(void) {
  lines = aligned_alloc(64, 100 * 64);
  pthread_t thread;
  pthread_create(&thread, 0, worker, 0);
  pthread_exit(0);
}
