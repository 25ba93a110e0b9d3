// A single-producer single-consumer ring whose head (written by the
// producer only) and tail (written by the consumer only) share a line, each
// read by the other side at every item. The producer does more work per
// item than the consumer, so the consumer keeps up and the ring stays
// nearly empty (the usual state of a queue that is not the bottleneck):
// with a faster producer the ring flips between full and empty from run to
// run and so does its speed (measured: from 16x slower to 8x faster).
// Fix, as the report suggests: head and tail each on a line of its own, and
// each side keeps the last value it read of the other's index, reading it
// again only when the ring looks full (producer) or empty (consumer).
// Padding alone gains nothing here: the reader still needs each new index.
#include "calib.h"

#define ITEMS 10000000L
#define SLOTS 1024
#define PRODUCER_WORK 20
#define CONSUMER_WORK 5
struct ring {
#ifdef FIX
  _Alignas(64) uint64_t head;
  _Alignas(64) uint64_t tail;
#else
  _Alignas(64) uint64_t head;
  uint64_t tail;
#endif
  _Alignas(64) uint64_t slots[SLOTS];
};
static struct ring ring;
static uint64_t consumed;

#ifdef FIX
// The other side's index as last read, re-read only while it blocks.
#define WAIT_WHILE(cached, index, blocked)                                     \
  while (blocked)                                                              \
    cached = __atomic_load_n(&index, __ATOMIC_ACQUIRE)
#else
#define WAIT_WHILE(cached, index, blocked)                                     \
  do                                                                           \
    cached = __atomic_load_n(&index, __ATOMIC_ACQUIRE);                        \
  while (blocked)
#endif

static void *calib_thread(void *arg) {
  if ((long)arg == 0) { // producer
    uint64_t x = 5, tail = 0;
    for (uint64_t h = 0; h < ITEMS; h++) {
      for (int k = 0; k < PRODUCER_WORK; k++)
        x = calib_step(x);
      WAIT_WHILE(tail, ring.tail, h - tail >= SLOTS);
      ring.slots[h % SLOTS] = x >> 32;
      __atomic_store_n(&ring.head, h + 1, __ATOMIC_RELEASE);
    }
  } else { // consumer
    uint64_t sum = 0, head = 0;
    for (uint64_t t = 0; t < ITEMS; t++) {
      WAIT_WHILE(head, ring.head, head == t);
      uint64_t v = ring.slots[t % SLOTS];
      for (int k = 0; k < CONSUMER_WORK; k++)
        v = calib_step(v);
      sum = sum * 3 + v;
      __atomic_store_n(&ring.tail, t + 1, __ATOMIC_RELEASE);
    }
    consumed = sum;
  }
  return 0;
}

int main(void) {
  calib_run();
  calib_print("queue_indices", consumed);
  return 0;
}
