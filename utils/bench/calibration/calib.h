// Shared by the calibration pairs (utils/bench/calibrate.py): two worker
// threads run work(0) and work(1) side by side; the program prints a
// checksum of what they computed, the same with and without -DFIX.
#ifndef CALIB_H
#define CALIB_H
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

// More for the pairs of one atomic bumped by four and eight threads
// (calibrate.py's ts_atomic_4, ts_atomic_8).
#ifndef THREADS
#define THREADS 2
#endif

// Private work the compiler cannot fold (an LCG's steps would fold into
// one multiply-add): steps of xorshift64.
static inline uint64_t calib_step(uint64_t x) {
  x ^= x << 13;
  x ^= x >> 7;
  return x ^ (x << 17);
}

// A thread's own 8-byte word: packed next to the other threads' words, or
// with -DFIX (the fix the report suggests) on a line of its own.
#ifdef FIX
struct calib_word { _Alignas(64) volatile uint64_t value; };
#else
struct calib_word { volatile uint64_t value; };
#endif

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
