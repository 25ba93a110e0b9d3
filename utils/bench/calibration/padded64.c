// Per-thread slots correctly padded to 64 bytes, the two slots side by side
// in one 128-byte aligned pair of lines: false sharing only on CPUs whose
// adjacent-line prefetch pairs lines (efsan's 128-byte prediction). Fix:
// slots padded to 128 bytes.
#include "calib.h"

#define ITERATIONS 400000000L
#ifdef FIX
#define SLOT_BYTES 128
#else
#define SLOT_BYTES 64
#endif
struct slot {
  _Alignas(SLOT_BYTES) volatile uint64_t value;
};
_Alignas(128) static struct slot slots[THREADS];

static void *calib_thread(void *arg) {
  long me = (long)arg;
  for (long i = 0; i < ITERATIONS; i++)
    slots[me].value += (uint64_t)i ^ (uint64_t)me;
  return 0;
}

int main(void) {
  calib_run();
  calib_print("padded64", slots[0].value * 31 + slots[1].value);
  return 0;
}
