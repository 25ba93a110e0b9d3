// Lines touched by several threads are all counted, each once; every
// thread's stack is a stack region.
// RUN: %clang -O2 -fsanitize=efficiency-working-set -pthread %s -o %t
// RUN: rm -f %t.log.*
// RUN: env ESAN_OPTIONS=sample_freq=1:report_format=json:log_path=%t.log %run %t
// RUN: %python %S/Inputs/check_report.py %t.log --count 1 \
// RUN:   "heap == 4 * 250 + 100" "stack >= 4 * 8"
#include <pthread.h>
#include <stdlib.h>

enum { kThreads = 4, kLinesPerThread = 250, kSharedLines = 100 };
char *private_lines, *shared_lines; // not static: see exit-paths.c

__attribute__((noinline)) static void use_stack(volatile char *scratch) {
  for (int i = 0; i < 8; i++)
    scratch[i * 64] = (char)i;
}

static void *worker(void *arg) {
  long index = (long)arg;
  volatile char scratch[8 * 64]; // 8 lines of this thread's stack
  for (int round = 0; round < 100; round++) {
    for (int i = 0; i < kLinesPerThread; i++)
      private_lines[(index * kLinesPerThread + i) * 64]++;
    for (int i = 0; i < kSharedLines; i++)
      (void)((volatile char *)shared_lines)[i * 64];
    use_stack(scratch);
  }
  return 0;
}

int main(void) {
  private_lines = aligned_alloc(64, kThreads * kLinesPerThread * 64);
  shared_lines = aligned_alloc(64, kSharedLines * 64);
  pthread_t threads[kThreads];
  for (long i = 0; i < kThreads; i++)
    pthread_create(&threads[i], 0, worker, (void *)i);
  for (int i = 0; i < kThreads; i++)
    pthread_join(threads[i], 0);
  return 0;
}
