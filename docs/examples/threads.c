// Working-set example: four threads, each owning a 1 MiB slice of one heap
// buffer, plus a shared 64 KiB table every thread reads. The working set is
// 4 MiB + 64 KiB of distinct lines whatever the interleaving.
//
//   efsan-clang -O2 -fsanitize=efficiency-working-set -pthread threads.c -o threads
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

enum { kThreads = 4, kSlice = 1 << 20, kTable = 64 << 10, kRounds = 4000 };
static unsigned char *buffer;
static unsigned char table[kTable];

static void *worker(void *arg) {
  unsigned char *slice = buffer + (size_t)(long)arg * kSlice;
  unsigned long sum = 0;
  for (int r = 0; r < kRounds; r++)
    for (size_t i = 0; i < kSlice; i += 64)
      sum += slice[i] += table[i % kTable];
  return (void *)sum;
}

int main(void) {
  buffer = malloc((size_t)kThreads * kSlice);
  if (!buffer)
    return 1;
  for (int i = 0; i < kTable; i++)
    table[i] = (unsigned char)i;
  pthread_t t[kThreads];
  for (long i = 0; i < kThreads; i++)
    pthread_create(&t[i], NULL, worker, (void *)i);
  unsigned long total = 0;
  for (int i = 0; i < kThreads; i++) {
    void *r;
    pthread_join(t[i], &r);
    total += (unsigned long)r;
  }
  printf("threads: checksum %lu; expected working set >= %d lines\n", total % 1000,
         (kThreads * kSlice + kTable) / 64);
  free(buffer);
  return 0;
}
