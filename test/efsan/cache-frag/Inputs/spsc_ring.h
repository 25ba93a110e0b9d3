// A single-producer single-consumer ring whose head and tail indices share
// a line: each item costs the producer PRODUCER_STEPS and the consumer
// CONSUMER_STEPS xorshift steps of private work. The producer is efsan
// thread T1, the consumer T2; main prints a checksum of what was consumed.
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

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
    for (int k = 0; k < PRODUCER_STEPS; k++)
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
    uint64_t v = ring.slots[t % SLOTS];
    for (int k = 0; k < CONSUMER_STEPS; k++)
      v = step(v);
    sum = sum * 3 + v;
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
