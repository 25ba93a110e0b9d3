// The shape of PARSEC streamcluster's pgain(): a work array malloc'ed anew
// on each call (glibc hands back the chunk just freed: the same address),
// thread i updating the k doubles of its slice [i * stride, i * stride + k),
// k the number of centres of that call, the stride padded to 32 bytes as
// streamcluster pads to its CACHE_LINE of 32. With k from 1 to 6 the stride
// is 32 or 64 bytes, so bytes 32..47 are thread 1's in some calls and
// thread 0's in others. Fix (-DFIX): the array 64-byte aligned and the
// stride a multiple of 64 bytes.
#include "calib.h"
#include <stdlib.h>
#include <string.h>

#define CALLS 600
#define UPDATES 400000L
#ifdef FIX
#define PAD 64
#else
#define PAD 32
#endif

static pthread_barrier_t barrier;
static double *work;
static long stride, centres;
static uint64_t checksum;

static void *calib_thread(void *arg) {
  long me = (long)arg;
  uint64_t x = (uint64_t)me + 7;
  for (long call = 0; call < CALLS; call++) {
    if (me == 0) {
      centres = 1 + call % 6;
      stride = (centres * (long)sizeof(double) + PAD - 1) / PAD * PAD /
               (long)sizeof(double);
      size_t bytes = (size_t)(stride * THREADS) * sizeof(double);
#ifdef FIX
      work = aligned_alloc(64, bytes);
#else
      work = malloc(bytes);
#endif
      memset(work, 0, bytes);
    }
    pthread_barrier_wait(&barrier);
    volatile double *mine = work + me * stride;
    for (long u = 0; u < UPDATES; u++) {
      x = calib_step(x);
      mine[u % centres] += (double)(x >> 54);
    }
    pthread_barrier_wait(&barrier);
    if (me == 0) {
      for (long t = 0; t < THREADS; t++)
        for (long c = 0; c < centres; c++)
          checksum = checksum * 31 + (uint64_t)work[t * stride + c];
      free(work);
    }
  }
  return 0;
}

int main(void) {
  pthread_barrier_init(&barrier, 0, THREADS);
  calib_run();
  calib_print("fs_reused_block", checksum);
  return 0;
}
