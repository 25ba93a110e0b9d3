// While the main thread is alone, the runtime logs its samples and applies
// them to the line states in batches (docs/design/CacheFragModel.md, "A thread alone");
// a thread it creates must still find the states as if each sample had
// been applied at once. Here main writes 8 lines 3200 times each (about
// 160 samples: at period 10 a thread alone samples one access in 160, each
// counted 16 times; all still in the log when it creates the reader, and
// about 20 per line, so that every line has one), and the
// reader's reads of lines main wrote often make each line a candidate (a
// shared summary). If the log were not applied when the reader is created,
// the reader would find the lines untouched and no summary would be made.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: env ESAN_OPTIONS=verbosity=1:cache_frag_sample_period=10:cache_frag_tracking_threshold=10 %run %t 2>&1 | FileCheck %s
// RUN: %if taskset %{ env ESAN_OPTIONS=verbosity=1:cache_frag_sample_period=10:cache_frag_tracking_threshold=10 taskset -c 0 %run %t 2>&1 | FileCheck %s %}
// CHECK: cache-frag lines: 0 records, 0 thread parts {{.*}}, 8 shared summaries, 0 solo summaries
#include <pthread.h>

#define LINES 8
#define ROUNDS 3200
// One long per line, every other line: no line next to another one used.
static volatile long data[LINES * 16] __attribute__((aligned(128)));

static void *reader(void *arg) {
  long sum = 0;
  for (int round = 0; round < ROUNDS; round++)
    for (int i = 0; i < LINES * 16; i += 16)
      sum += data[i];
  return (void *)sum;
}

int main(void) {
  for (int round = 0; round < ROUNDS; round++)
    for (int i = 0; i < LINES * 16; i += 16)
      data[i] = round;
  pthread_t t;
  pthread_create(&t, 0, reader, 0);
  pthread_join(t, 0);
  return 0;
}
