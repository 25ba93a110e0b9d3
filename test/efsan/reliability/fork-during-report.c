// fork while another thread is writing a report (holding the report locks):
// the child's own report must not deadlock on a lock that no thread of the
// child will ever release. (A hang is killed by the timeout.)
// RUN: %clang -O2 -fsanitize=efficiency-working-set -pthread %s -o %t
// RUN: env ESAN_OPTIONS=report_at_exit=0 timeout -s KILL 120 %run %t 2> %t.err | FileCheck %s
// CHECK: 20 children reported
#include <pthread.h>
#include <sanitizer/efsan_interface.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int done;

static void *report_forever(void *arg) {
  (void)arg;
  while (!done)
    __efsan_report();
  return 0;
}

int main(void) {
  pthread_t thread;
  pthread_create(&thread, 0, report_forever, 0);
  int reported = 0;
  for (int i = 0; i < 20; i++) {
    usleep(1000);
    pid_t pid = fork();
    if (pid == 0) {
      __efsan_report();
      _exit(7);
    }
    int status;
    waitpid(pid, &status, 0);
    reported += WIFEXITED(status) && WEXITSTATUS(status) == 7;
  }
  done = 1;
  pthread_join(thread, 0);
  printf("%d children reported\n", reported);
  return 0;
}
