// By default a program that SIGINT or SIGTERM ends (Ctrl-C, kill, a CI
// timeout) still writes its report, under both tools, and then dies of the
// signal: the shell sees 128 + its number. report_on_signals=0 turns it
// off. The program waits for the signal for at most 60 s, then ends by
// itself with status 3 (a failure here).
// RUN: %clang -O2 -g -fsanitize=efficiency-working-set %s -o %t.ws
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag %s -o %t.cf
// RUN: bash %S/Inputs/kill_when_ready.sh INT %t.ws-int.txt %run %t.ws wait | FileCheck %s --check-prefix=STATUS-INT
// RUN: FileCheck %s --check-prefix=WS < %t.ws-int.txt
// RUN: bash %S/Inputs/kill_when_ready.sh TERM %t.ws-term.txt %run %t.ws wait | FileCheck %s --check-prefix=STATUS-TERM
// RUN: FileCheck %s --check-prefix=WS < %t.ws-term.txt
// RUN: bash %S/Inputs/kill_when_ready.sh INT %t.cf-int.txt %run %t.cf wait | FileCheck %s --check-prefix=STATUS-INT
// RUN: FileCheck %s --check-prefix=CF < %t.cf-int.txt
// RUN: bash %S/Inputs/kill_when_ready.sh TERM %t.cf-term.txt %run %t.cf wait | FileCheck %s --check-prefix=STATUS-TERM
// RUN: FileCheck %s --check-prefix=CF < %t.cf-term.txt
// The same on one core.
// RUN: %if taskset %{ taskset -c 0 bash %S/Inputs/kill_when_ready.sh TERM %t.pinned.txt %run %t.ws wait | FileCheck %s --check-prefix=STATUS-TERM %}
// RUN: %if taskset %{ FileCheck %s --check-prefix=WS < %t.pinned.txt %}
// RUN: %if taskset %{ taskset -c 0 bash %S/Inputs/kill_when_ready.sh INT %t.pinned-cf.txt %run %t.cf wait | FileCheck %s --check-prefix=STATUS-INT %}
// RUN: %if taskset %{ FileCheck %s --check-prefix=CF < %t.pinned-cf.txt %}
// STATUS-INT: status 130
// STATUS-TERM: status 143
// WS: ==[[PID:[0-9]+]]==  heap       50 lines
// WS: SUMMARY: EfficiencySanitizer: working set of {{[0-9]+}} cache lines ({{.*}}) in process [[PID]]
// CF: SUMMARY: EfficiencySanitizer: cache-frag:
//
// Turned off: the signal ends the program without a report.
// RUN: env ESAN_OPTIONS=report_on_signals=0 bash %S/Inputs/kill_when_ready.sh TERM %t.off.txt %run %t.ws wait | FileCheck %s --check-prefix=STATUS-TERM
// RUN: count 0 < %t.off.txt
//
// The program's own handler wins, and the program sees the default action
// where efsan's handler stands in for it: a program that installs its
// handler only where the action is still the default (the idiom
// `if (signal(SIGTERM, SIG_IGN) != SIG_IGN) signal(SIGTERM, handler)`,
// Python's KeyboardInterrupt) does so as without efsan. Here the handler
// ends the program normally, with its report at exit.
// RUN: bash %S/Inputs/kill_when_ready.sh TERM %t.own.txt %run %t.ws own | FileCheck %s --check-prefix=OWN
// RUN: FileCheck %s --check-prefix=WS < %t.own.txt
// OWN: SIGINT: default, SIGTERM: default
// OWN-NEXT: the program's SIGTERM handler ran
// OWN-NEXT: status 0
// SIG_DFL set again gives the signal back to efsan.
// RUN: bash %S/Inputs/kill_when_ready.sh TERM %t.again.txt %run %t.ws default-again | FileCheck %s --check-prefix=AGAIN
// RUN: FileCheck %s --check-prefix=WS < %t.again.txt
// AGAIN: SIGTERM: the program's handler, then default
// AGAIN-NEXT: status 143
// A handler set past the interceptors (sigset, sysv_signal), with
// sigaction(act, oldact) on one struct: the program sees its own handler.
// RUN: bash %S/Inputs/kill_when_ready.sh TERM %t.sigset.txt %run %t.ws sigset | FileCheck %s --check-prefix=SIGSET
// SIGSET: SIGTERM: the program's handler
// SIGSET-NEXT: the program's SIGTERM handler ran
// SIGSET-NEXT: status 0
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

char *lines; // not static: see working-set/exit-paths.c
static volatile sig_atomic_t terminated;

static void on_term(int signal) { terminated = 1; }

// Until a signal ends the program (or sets `terminated`), for at most 60 s.
static int wait_for_signal(void) {
  struct timespec start, now, pause = {0, 10 * 1000 * 1000};
  clock_gettime(CLOCK_MONOTONIC, &start);
  do {
    nanosleep(&pause, NULL);
    if (terminated)
      return 0;
    clock_gettime(CLOCK_MONOTONIC, &now);
  } while (now.tv_sec - start.tv_sec < 60);
  printf("no signal came\n");
  return 3;
}

static int is_default(int signal) {
  struct sigaction action;
  sigaction(signal, NULL, &action);
  return action.sa_handler == SIG_DFL;
}

int main(int argc, char **argv) {
  lines = aligned_alloc(64, 50 * 64);
  for (int i = 0; i < 50; i++)
    ((volatile char *)lines)[i * 64] = 1;
  if (argc > 1 && strcmp(argv[1], "own") == 0) {
    int int_default = is_default(SIGINT);
    int term_default = signal(SIGTERM, SIG_IGN) == SIG_DFL;
    if (term_default)
      signal(SIGTERM, on_term);
    printf("SIGINT: %s, SIGTERM: %s\n", int_default ? "default" : "not default",
           term_default ? "default" : "not default");
  } else if (argc > 1 && strcmp(argv[1], "default-again") == 0) {
    signal(SIGTERM, on_term);
    int own = signal(SIGTERM, SIG_DFL) == on_term;
    printf("SIGTERM: %s, then %s\n", own ? "the program's handler" : "?",
           is_default(SIGTERM) ? "default" : "not default");
  }
  if (argc > 1 && strcmp(argv[1], "sigset") == 0) {
    sigset(SIGTERM, on_term);
    struct sigaction action;
    sigaction(SIGTERM, NULL, &action);
    sigaction(SIGTERM, &action, &action);
    printf("SIGTERM: %s\n", action.sa_handler == on_term ? "the program's handler"
                                                         : "not the program's handler");
  }
  printf("ready\n");
  fflush(stdout);
  int status = wait_for_signal();
  if (terminated)
    printf("the program's SIGTERM handler ran\n");
  return status;
}
