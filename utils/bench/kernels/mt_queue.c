/* Producer/consumer over a bounded single-producer single-consumer ring:
 * head and tail on their own lines, acquire/release publication, each side
 * caching the other's index and re-reading it only when the ring looks full
 * or empty, and a yield while waiting (the machine may have only 2 cores). */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include "bench_common.h"

enum { SLOTS = 1024, ITEMS = 100 * 1000 * 1000, SPINS_BEFORE_YIELD = 64 };

/* A 32-byte message: enough payload per item that the queue is not pure
 * synchronisation. */
struct message { uint64_t words[4]; };

static struct {
  _Alignas(64) _Atomic unsigned long head;   /* next slot to write */
  _Alignas(64) _Atomic unsigned long tail;   /* next slot to read */
  _Alignas(64) struct message slots[SLOTS];
} ring;

static void *produce(void *arg) {
  (void)arg;
  uint64_t seed = 12;
  unsigned long tail_seen = 0;
  for (unsigned long n = 0; n < ITEMS; n++) {
    struct message item;
    for (int w = 0; w < 4; w++) item.words[w] = bench_next(&seed) >> (8 * w);
    unsigned long head = atomic_load_explicit(&ring.head, memory_order_relaxed);
    int spins = 0;
    while (head - tail_seen == SLOTS) {
      tail_seen = atomic_load_explicit(&ring.tail, memory_order_acquire);
      if (head - tail_seen == SLOTS && ++spins % SPINS_BEFORE_YIELD == 0) sched_yield();
    }
    ring.slots[head % SLOTS] = item;
    atomic_store_explicit(&ring.head, head + 1, memory_order_release);
  }
  return NULL;
}

static void *consume(void *arg) {
  uint64_t *result = arg, sum = 0;
  unsigned long head_seen = 0;
  for (unsigned long n = 0; n < ITEMS; n++) {
    unsigned long tail = atomic_load_explicit(&ring.tail, memory_order_relaxed);
    int spins = 0;
    while (head_seen == tail) {
      head_seen = atomic_load_explicit(&ring.head, memory_order_acquire);
      if (head_seen == tail && ++spins % SPINS_BEFORE_YIELD == 0) sched_yield();
    }
    const struct message *m = &ring.slots[tail % SLOTS];
    for (int w = 0; w < 4; w++) sum = bench_mix(sum, m->words[w]);
    atomic_store_explicit(&ring.tail, tail + 1, memory_order_release);
  }
  *result = sum;
  return NULL;
}

int main(void) {
  pthread_t producer, consumer;
  uint64_t sum = 0;
  if (pthread_create(&consumer, NULL, consume, &sum)) return 1;
  if (pthread_create(&producer, NULL, produce, NULL)) return 1;
  pthread_join(producer, NULL);
  pthread_join(consumer, NULL);
  bench_print_checksum("mt_queue", sum);
  return 0;
}
