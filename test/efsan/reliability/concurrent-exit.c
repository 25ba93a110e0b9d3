// Threads that call exit() at the same time as main returns (glibc's exit is
// not thread-safe) still get exactly one complete report: the threads that
// lose the race wait until the report is written. Repeated, because the
// race is won by a different thread each time.
// RUN: %clang -O2 -fsanitize=efficiency-working-set -pthread %s -o %t
// RUN: rm -rf %t.one %t.many && mkdir %t.one %t.many
// RUN: %python %S/Inputs/concurrent_exit.py %t %t.one 1 40
// RUN: %python %S/Inputs/concurrent_exit.py %t %t.many 32 20
#include <pthread.h>
#include <stdlib.h>

static int status;

static void *exit_now(void *arg) {
  (void)arg;
  exit(status);
}

int main(int argc, char **argv) {
  int workers = atoi(argv[1]);
  status = atoi(argv[2]);
  pthread_t thread;
  for (int i = 0; i < workers; i++)
    pthread_create(&thread, 0, exit_now, 0);
  return status;
}
