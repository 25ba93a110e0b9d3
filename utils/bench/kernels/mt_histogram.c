/* Phoenix-style parallel histogram: each thread counts the RGB bytes of its
 * half of an image into its own histograms, allocated back to back in one
 * heap block; the main thread merges them. */
#include <pthread.h>
#include <stdlib.h>
#include "bench_common.h"

enum { THREADS = 2, PIXELS = 8 * 1024 * 1024, PASSES = 144 };

struct histogram { unsigned long red[256], green[256], blue[256]; };

static unsigned char *image;
static struct histogram *per_thread;

static void *count(void *arg) {
  long tid = (long)arg;
  struct histogram *h = &per_thread[tid];
  long begin = tid * (PIXELS / THREADS), end = begin + PIXELS / THREADS;
  for (int p = 0; p < PASSES; p++)
    for (long i = begin; i < end; i++) {
      const unsigned char *px = image + 3 * i;
      h->red[px[0]]++;
      h->green[px[1]]++;
      h->blue[px[2]]++;
    }
  return NULL;
}

int main(void) {
  image = malloc(3 * (size_t)PIXELS);
  per_thread = calloc(THREADS, sizeof(struct histogram));
  if (!image || !per_thread) return 1;
  uint64_t seed = 11;
  for (size_t i = 0; i < 3 * (size_t)PIXELS; i += 8) {
    uint64_t v = bench_next(&seed);
    for (int b = 0; b < 8 && i + b < 3 * (size_t)PIXELS; b++)
      image[i + b] = (unsigned char)((v >> (8 * b)) & (b & 1 ? 0xff : 0x7f));
  }
  pthread_t threads[THREADS];
  for (long t = 0; t < THREADS; t++)
    if (pthread_create(&threads[t], NULL, count, (void *)t)) return 1;
  for (long t = 0; t < THREADS; t++) pthread_join(threads[t], NULL);
  uint64_t sum = 0;
  for (int bin = 0; bin < 256; bin++) {
    unsigned long r = 0, g = 0, b = 0;
    for (int t = 0; t < THREADS; t++) {
      r += per_thread[t].red[bin];
      g += per_thread[t].green[bin];
      b += per_thread[t].blue[bin];
    }
    sum = bench_mix(bench_mix(bench_mix(sum, r), g), b);
  }
  bench_print_checksum("mt_histogram", sum);
  free(image); free(per_thread);
  return 0;
}
