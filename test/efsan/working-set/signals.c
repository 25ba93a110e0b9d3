// The program's own SIGALRM and SIGPROF handlers and interval timers keep
// working: the sampler is a thread with every signal blocked, not a timer
// signal. Lines the handlers touch are counted.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -f %t.log.*
// RUN: env ESAN_OPTIONS=sample_freq=1:report_format=json:log_path=%t.log %run %t | FileCheck %s
// RUN: %python %S/Inputs/check_report.py %t.log --count 1 "heap == 8 + 8 + 16" "samples >= 1"
// CHECK: alarms >= 5, profs >= 5
#include <sanitizer/efsan_interface.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

char *alarm_lines, *prof_lines, *main_lines; // not static: see exit-paths.c
static volatile sig_atomic_t alarms, profs;

static void on_alarm(int sig) {
  for (int i = 0; i < 8; i++)
    ((volatile char *)alarm_lines)[i * 64]++;
  alarms++;
}

static void on_prof(int sig, siginfo_t *info, void *context) {
  for (int i = 0; i < 8; i++)
    ((volatile char *)prof_lines)[i * 64]++;
  profs++;
}

int main(void) {
  alarm_lines = aligned_alloc(64, 8 * 64);
  prof_lines = aligned_alloc(64, 8 * 64);
  main_lines = aligned_alloc(64, 16 * 64);
  signal(SIGALRM, on_alarm);
  struct sigaction action;
  memset(&action, 0, sizeof(action));
  action.sa_sigaction = on_prof;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigaction(SIGPROF, &action, 0);
  struct itimerval every_ms = {{0, 1000}, {0, 1000}};
  setitimer(ITIMER_REAL, &every_ms, 0);
  setitimer(ITIMER_PROF, &every_ms, 0);
  while (alarms < 5 || profs < 5 || __efsan_get_sample_count() < 1)
    for (int i = 0; i < 16; i++)
      ((volatile char *)main_lines)[i * 64]++;
  struct itimerval off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_REAL, &off, 0);
  setitimer(ITIMER_PROF, &off, 0);
  printf("alarms >= %d, profs >= %d\n", alarms >= 5 ? 5 : 0, profs >= 5 ? 5 : 0);
  return 0;
}
