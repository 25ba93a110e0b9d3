/* True sharing: two threads hammer one atomic counter (relaxed fetch_add),
 * with a little private work between increments. */
#include <pthread.h>
#include <stdatomic.h>
#include "bench_common.h"

enum { THREADS = 2, INCREMENTS = 100000000 };

static _Atomic unsigned long counter;
static unsigned long private_work[THREADS * 8];  /* one line per thread */

static void *hammer(void *arg) {
  long tid = (long)arg;
  uint64_t seed = (uint64_t)tid + 10, local = 0;
  for (long i = 0; i < INCREMENTS; i++) {
    local += bench_next(&seed) & 3;
    atomic_fetch_add_explicit(&counter, (local & 1) + 1, memory_order_relaxed);
  }
  private_work[tid * 8] = local;
  return NULL;
}

int main(void) {
  pthread_t threads[THREADS];
  for (long t = 0; t < THREADS; t++)
    if (pthread_create(&threads[t], NULL, hammer, (void *)t)) return 1;
  for (long t = 0; t < THREADS; t++) pthread_join(threads[t], NULL);
  uint64_t sum = atomic_load(&counter);
  for (long t = 0; t < THREADS; t++) sum = bench_mix(sum, private_work[t * 8]);
  bench_print_checksum("mt_atomic_counter", sum);
  return 0;
}
