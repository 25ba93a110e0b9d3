// A consumer much faster than its producer polls the head a few dozen
// times per item, and between two of its samples (a thousand accesses
// apart) the head has changed: no run of one unchanged value. Those polls
// are waits all the same: side by side the consumer gets no further ahead
// than the items the producer made. Before, its clock counted them as work
// and ran 7-14 times the producer's accesses (16-23 million against 1.6-2.2
// million), and their use of the ring's line met on the clock for a
// fraction of the run (claims 0.03-0.25 from run to run); now a sampled
// load of the address of the thread's previous sample, of bytes other
// threads write and it never does, does not move its clock (1.5 million
// against 1.1 million). verbosity=2 prints each thread's accesses beside
// the line's pricing; the check allows 3 times.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: env ESAN_OPTIONS=verbosity=2:cache_frag_min_share=0 %run %t 2> %t.log
// RUN: %python %S/Inputs/check_clock_accesses.py %t.log
// RUN: %if taskset %{ env ESAN_OPTIONS=verbosity=2:cache_frag_min_share=0 taskset -c 0 %run %t 2> %t.pinned.log %}
// RUN: %if taskset %{ %python %S/Inputs/check_clock_accesses.py %t.pinned.log %}
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#define ITEMS 400000L
#define SLOTS 256
struct ring {
  _Alignas(64) uint64_t head; // written by the producer only
  uint64_t tail;              // written by the consumer only
  _Alignas(64) uint64_t slots[SLOTS];
};
static struct ring ring;
static uint64_t consumed;

static inline uint64_t step(uint64_t x) {
  x ^= x << 13;
  x ^= x >> 7;
  return x ^ (x << 17);
}

static void *producer(void *arg) {
  uint64_t x = 5, tail = 0;
  for (uint64_t h = 0; h < ITEMS; h++) {
    for (int k = 0; k < 100; k++)
      x = step(x);
    do
      tail = __atomic_load_n(&ring.tail, __ATOMIC_ACQUIRE);
    while (h - tail >= SLOTS);
    ring.slots[h % SLOTS] = x >> 32;
    __atomic_store_n(&ring.head, h + 1, __ATOMIC_RELEASE);
  }
  return arg;
}

static void *consumer(void *arg) {
  uint64_t sum = 0, head = 0;
  for (uint64_t t = 0; t < ITEMS; t++) {
    do
      head = __atomic_load_n(&ring.head, __ATOMIC_ACQUIRE);
    while (head == t);
    sum = sum * 3 + ring.slots[t % SLOTS];
    __atomic_store_n(&ring.tail, t + 1, __ATOMIC_RELEASE);
  }
  consumed = sum;
  return arg;
}

int main(void) {
  pthread_t p, c;
  pthread_create(&p, 0, producer, 0);
  pthread_create(&c, 0, consumer, 0);
  pthread_join(p, 0);
  pthread_join(c, 0);
  printf("checksum %llx\n", (unsigned long long)consumed);
  return 0;
}
