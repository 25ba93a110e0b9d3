// Shared by the calibration pairs (utils/bench/calibrate.py): two worker
// threads run work(0) and work(1) side by side; the program prints a
// checksum of what they computed, the same with and without -DFIX.
#ifndef CALIB_H
#define CALIB_H
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#define THREADS 2

// Private work the compiler cannot fold (an LCG's steps would fold into
// one multiply-add): steps of xorshift64.
static inline uint64_t calib_step(uint64_t x) {
  x ^= x << 13;
  x ^= x >> 7;
  return x ^ (x << 17);
}

static void *calib_thread(void *arg);

static void calib_run(void) {
  pthread_t t[THREADS];
  for (long i = 0; i < THREADS; i++)
    pthread_create(&t[i], 0, calib_thread, (void *)i);
  for (int i = 0; i < THREADS; i++)
    pthread_join(t[i], 0);
}

static void calib_print(const char *name, uint64_t sum) {
  printf("%s checksum %016llx\n", name, (unsigned long long)sum);
}
#endif
