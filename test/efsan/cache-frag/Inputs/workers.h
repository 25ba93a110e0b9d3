// Runs worker(i) on n new threads (i = 0..n-1) and joins them: worker i is
// efsan thread T<i+1> (the main thread is T0).
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static void run_workers(void *(*worker)(void *), int n) {
  pthread_t threads[64];
  if (n > 64)
    abort();
  for (long i = 0; i < n; i++)
    if (pthread_create(&threads[i], 0, worker, (void *)i)) {
      fprintf(stderr, "pthread_create failed\n");
      exit(2);
    }
  for (int i = 0; i < n; i++)
    pthread_join(threads[i], 0);
}
