/* Phoenix-shape histogram: an image of 3-byte pixels (blue, green, red) is
 * split between 2 threads; each counts its pixels into its own three int
 * arrays, reached through its argument struct, and the main thread adds the
 * arrays up. Per pixel: 3 byte loads and 3 counter increments, nothing else,
 * the tightest loop of the Phoenix suite. */
#include <pthread.h>
#include <stdlib.h>
#include "bench_common.h"

enum { THREADS = 2, PIXELS = 16 * 1024 * 1024, PASSES = 40 };

struct histogram_job {
  const unsigned char *pixels;   /* 3 bytes per pixel */
  long first_byte, end_byte;
  int *red, *green, *blue;       /* 256 counters each, this thread's own */
};

static void *count_pixels(void *arg) {
  struct histogram_job *job = arg;
  for (int pass = 0; pass < PASSES; pass++)
    for (long i = job->first_byte; i < job->end_byte; i += 3) {
      job->blue[job->pixels[i]]++;
      job->green[job->pixels[i + 1]]++;
      job->red[job->pixels[i + 2]]++;
    }
  return NULL;
}

int main(void) {
  size_t bytes = 3 * (size_t)PIXELS;
  unsigned char *pixels = malloc(bytes);
  if (!pixels) return 1;
  uint64_t seed = 17;
  for (size_t i = 0; i < bytes; i++) {
    /* Photograph-like: a smooth ramp plus noise, so some bins dominate. */
    uint64_t noise = bench_next(&seed) & 31;
    pixels[i] = (unsigned char)((i / 3 % 4096) / 32 + noise + (i % 3) * 40);
  }
  struct histogram_job jobs[THREADS];
  pthread_t threads[THREADS];
  for (int t = 0; t < THREADS; t++) {
    jobs[t].pixels = pixels;
    jobs[t].first_byte = 3 * (long)t * (PIXELS / THREADS);
    jobs[t].end_byte = jobs[t].first_byte + 3 * (long)(PIXELS / THREADS);
    jobs[t].red = calloc(256, sizeof(int));
    jobs[t].green = calloc(256, sizeof(int));
    jobs[t].blue = calloc(256, sizeof(int));
    if (!jobs[t].red || !jobs[t].green || !jobs[t].blue) return 1;
  }
  for (int t = 0; t < THREADS; t++)
    if (pthread_create(&threads[t], NULL, count_pixels, &jobs[t])) return 1;
  for (int t = 0; t < THREADS; t++) pthread_join(threads[t], NULL);
  uint64_t sum = 0;
  for (int bin = 0; bin < 256; bin++) {
    uint64_t r = 0, g = 0, b = 0;
    for (int t = 0; t < THREADS; t++) {
      r += (unsigned)jobs[t].red[bin];
      g += (unsigned)jobs[t].green[bin];
      b += (unsigned)jobs[t].blue[bin];
    }
    sum = bench_mix(bench_mix(bench_mix(sum, r), g), b);
  }
  bench_print_checksum("ph_histogram", sum);
  for (int t = 0; t < THREADS; t++) {
    free(jobs[t].red); free(jobs[t].green); free(jobs[t].blue);
  }
  free(pixels);
  return 0;
}
