// Cache-frag example: two threads update their own statistics, but the
// 16-byte structs sit side by side in one global array, so every update
// invalidates the other core's copy of the line: false sharing on `stats`
// (the report names the members, `stats[1].ops`, and the lines that write
// them). `padded`
// shows the usual fix (one 64-byte line per thread): no line is shared any
// more, but the two lines form a 128-byte pair, which adjacent-line
// prefetching moves together: predicted false sharing (pad to 128 bytes to
// be clean). A shared atomic `hits`, bumped every 128th iteration, is true
// sharing, reported as such, not as false sharing.
//
//   efsan-clang -O2 -g -fsanitize=efficiency-cache-frag -pthread false_sharing.c -o fs
#include <pthread.h>
#include <stdio.h>

enum { kThreads = 2, kIters = 100 * 1000 * 1000 };

struct padded_counter {
  volatile long value;
  char pad[64 - sizeof(long)];
};

struct worker_stats {
  volatile long ops;
  volatile long bytes;
};

struct worker_stats stats[kThreads];                            // false sharing
struct padded_counter padded[kThreads] __attribute__((aligned(64))); // clean
long hits;                                                      // true sharing

static void *worker(void *arg) {
  long id = (long)arg;
  for (long i = 0; i < kIters; i++) {
    stats[id].ops++;
    stats[id].bytes += 64;
    padded[id].value++;
    if ((i & 127) == 0)
      __atomic_fetch_add(&hits, 1, __ATOMIC_RELAXED);
  }
  return NULL;
}

int main(void) {
  pthread_t t[kThreads];
  for (long i = 0; i < kThreads; i++)
    pthread_create(&t[i], NULL, worker, (void *)i);
  for (int i = 0; i < kThreads; i++)
    pthread_join(t[i], NULL);
  printf("false_sharing: %ld %ld %ld\n", stats[0].ops + stats[1].ops,
         padded[0].value + padded[1].value, hits);
  return 0;
}
