/* Two threads reduce halves of one array into per-thread slots of a single
 * global array: the slots share a cache line (false sharing), and the
 * volatile slot forces a load and a store per element, as in the classic bug
 * (a multiply-add, so that no build can fold it into one read-modify-write
 * instruction and the timing compares like with like). */
#include <pthread.h>
#include <stdlib.h>
#include "bench_common.h"

enum { THREADS = 2, N = 1 << 20, PASSES = 750 };

static int *data;
static volatile unsigned long partial[THREADS];   /* adjacent: one 64-byte line */

static void *reduce(void *arg) {
  long tid = (long)arg;
  long begin = tid * (N / THREADS), end = begin + N / THREADS;
  for (int p = 0; p < PASSES; p++)
    for (long i = begin; i < end; i++)
      partial[tid] = partial[tid] * 31 + (unsigned long)data[i];
  return NULL;
}

int main(void) {
  data = malloc(sizeof(int) * N);
  if (!data) return 1;
  uint64_t seed = 9;
  for (long i = 0; i < N; i++) data[i] = (int)(bench_next(&seed) % 1000);
  pthread_t threads[THREADS];
  for (long t = 0; t < THREADS; t++)
    if (pthread_create(&threads[t], NULL, reduce, (void *)t)) return 1;
  uint64_t sum = 0;
  for (long t = 0; t < THREADS; t++) {
    pthread_join(threads[t], NULL);
    sum = bench_mix(sum, (uint64_t)partial[t]);
  }
  bench_print_checksum("mt_false_sharing", sum);
  free(data);
  return 0;
}
