// The report is written once, after the program's atexit handlers and
// destructors, whether main returns, calls exit() or another thread calls
// exit(). abort() ends the process without a report and without hanging.
// RUN: %clang -O2 -fsanitize=efficiency-working-set -pthread %s -o %t
// RUN: rm -f %t.r.* %t.e.* %t.t.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.r %run %t return
// RUN: %python %S/Inputs/check_report.py %t.r --count 1 "heap == 100 + 10 + 20"
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.e %run %t exit
// RUN: %python %S/Inputs/check_report.py %t.e --count 1 "heap == 100 + 10 + 20"
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.t %run %t thread-exit
// RUN: %python %S/Inputs/check_report.py %t.t --count 1 "heap == 100 + 10 + 20"
// RUN: %run %t exit 2>&1 | FileCheck %s --check-prefix=ONCE
// ONCE: SUMMARY: EfficiencySanitizer: working set
// ONCE-NOT: EfficiencySanitizer
// RUN: not --crash %run %t abort 2>&1 | FileCheck %s --check-prefix=ABORT
// ABORT: aborting
// ABORT-NOT: EfficiencySanitizer
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// Not static: GlobalOpt would turn a static pointer that only ever holds one
// malloc result into a global array (and the lines into globals).
char *in_main, *in_atexit, *in_destructor;

static void touch(volatile char *lines, int n) {
  for (int i = 0; i < n; i++)
    lines[i * 64]++;
}

static void at_exit_handler(void) { touch(in_atexit, 10); }

__attribute__((destructor)) static void destructor(void) {
  touch(in_destructor, 20);
}

static void *exit_from_thread(void *arg) {
  (void)arg;
  exit(0);
}

int main(int argc, char **argv) {
  in_main = aligned_alloc(64, 100 * 64);
  in_atexit = aligned_alloc(64, 10 * 64);
  in_destructor = aligned_alloc(64, 20 * 64);
  atexit(at_exit_handler);
  touch(in_main, 100);
  const char *how = argv[1];
  if (!strcmp(how, "exit"))
    exit(0);
  if (!strcmp(how, "thread-exit")) {
    pthread_t thread;
    pthread_create(&thread, 0, exit_from_thread, 0);
    pthread_join(thread, 0);
    return 1; // not reached
  }
  if (!strcmp(how, "abort")) {
    fprintf(stderr, "aborting\n");
    abort();
  }
  return 0;
}
