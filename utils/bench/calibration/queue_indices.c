// A single-producer single-consumer ring whose head (written by the
// producer only) and tail (written by the consumer only) share a line.
// Fix: head and tail each on a line of their own.
#include "calib.h"

#define ITEMS 50000000L
#define SLOTS 1024
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

static void *calib_thread(void *arg) {
  if ((long)arg == 0) { // producer
    uint64_t x = 5;
    for (uint64_t h = 0; h < ITEMS; h++) {
      while (h - __atomic_load_n(&ring.tail, __ATOMIC_ACQUIRE) >= SLOTS)
        ;
      x = calib_step(x);
      ring.slots[h % SLOTS] = x >> 32;
      __atomic_store_n(&ring.head, h + 1, __ATOMIC_RELEASE);
    }
  } else { // consumer
    uint64_t sum = 0;
    for (uint64_t t = 0; t < ITEMS; t++) {
      while (__atomic_load_n(&ring.head, __ATOMIC_ACQUIRE) == t)
        ;
      sum = sum * 3 + ring.slots[t % SLOTS];
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
