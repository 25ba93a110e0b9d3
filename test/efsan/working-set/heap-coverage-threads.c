// The counts that let malloc and free skip the heap table for blocks
// without an allocation stack (efsan_heap.c) must cover every byte of every
// record the table keeps, or a kept block's free would skip the table and
// leave it live. Four threads allocate blocks of 16 bytes to 6 KiB (small
// and large records), many with a stack (a sample per 1 KiB allocated) and
// many without, keep some, free others, and free many of each other's
// blocks (handed over through a shared ring), so that records of
// different stripes share granules and pages and are dropped by other
// threads. At the report, the runtime checks every record against the
// counts (verbosity 2) and the program's checksum is the plain build's.
// RUN: %clang -O2 -g -fsanitize=efficiency-working-set -pthread %s -o %t
// RUN: %clang -O2 -g -pthread %s -o %t.plain
// RUN: %run %t.plain > %t.expected
// RUN: env ESAN_OPTIONS=verbosity=2:alloc_stacks_exact=2000:alloc_stack_sample_bytes=1024 %run %t > %t.out 2> %t.err
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s < %t.err
// CHECK: objects: {{[1-9][0-9]*}} heap records, 0 with a byte the coverage counts miss
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 4
#define ROUNDS 60000
#define RING 1024
#define KEPT 512

static char *ring[RING];
static pthread_mutex_t ring_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long sums[THREADS];

static uint64_t next(uint64_t *x) {
  *x ^= *x << 13;
  *x ^= *x >> 7;
  *x ^= *x << 17;
  return *x;
}

static void *work(void *arg) {
  long me = (long)arg;
  uint64_t x = 0x9e3779b97f4a7c15ull * (uint64_t)(me + 1);
  char *kept[KEPT] = {0};
  unsigned long sum = 0;
  for (long i = 0; i < ROUNDS; i++) {
    uint64_t r = next(&x);
    size_t size = (r & 7) == 0 ? 4097 + (r >> 8) % 2048 : 16 + (r >> 8) % 500;
    char *p = malloc(size);
    memset(p, (int)(i & 0xff), size);
    sum += (unsigned char)p[size - 1];
    switch ((r >> 40) % 3) {
    case 0: // freed at once
      free(p);
      break;
    case 1: { // kept a while by this thread
      size_t k = (r >> 20) % KEPT;
      free(kept[k]);
      kept[k] = p;
      break;
    }
    default: { // handed to whichever thread takes the slot next
      size_t k = (r >> 30) % RING;
      pthread_mutex_lock(&ring_lock);
      char *old = ring[k];
      ring[k] = p;
      pthread_mutex_unlock(&ring_lock);
      free(old);
    }
    }
  }
  for (int k = 0; k < KEPT; k++)
    free(kept[k]);
  sums[me] = sum;
  return NULL;
}

int main(void) {
  pthread_t threads[THREADS];
  for (long t = 0; t < THREADS; t++)
    pthread_create(&threads[t], NULL, work, (void *)t);
  for (long t = 0; t < THREADS; t++)
    pthread_join(threads[t], NULL);
  unsigned long total = 0;
  for (int t = 0; t < THREADS; t++)
    total += sums[t];
  for (int k = 0; k < RING; k++)
    free(ring[k]);
  printf("checksum %lu\n", total);
  return 0;
}
