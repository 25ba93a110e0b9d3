/* Phoenix's histogram as the suite runs it: the image is a file of 1 GiB
 * mapped with mmap and streamed once (the published programs read inputs of
 * 0.2-1.8 GB so), split between 2 threads, each counting its pixels into
 * its own three int arrays reached through its argument struct. Nearly every
 * sample of cache-frag lands on a line never sampled before (ph_histogram
 * loops 40 times over 48 MiB instead). Per pixel: 3 byte loads and 3
 * counter increments. */
#include <pthread.h>
#include "bench_common.h"

enum { THREADS = 2 };
#define INPUT_BYTES (1ul << 30)

struct histogram_job {
  const unsigned char *pixels; /* 3 bytes per pixel */
  size_t first_byte, end_byte;
  int *red, *green, *blue;     /* 256 counters each, this thread's own */
};

static void *count_pixels(void *arg) {
  struct histogram_job *job = arg;
  for (size_t i = job->first_byte; i < job->end_byte; i += 3) {
    job->blue[job->pixels[i]]++;
    job->green[job->pixels[i + 1]]++;
    job->red[job->pixels[i + 2]]++;
  }
  return NULL;
}

/* Photograph-like: a smooth ramp plus noise, so some bins dominate. */
static unsigned char pixel_byte(size_t i, uint64_t *seed) {
  return (unsigned char)((i / 3 % 4096) / 32 + (bench_next(seed) & 31) + (i % 3) * 40);
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--make-input") == 0)
    return bench_make_input(argv[2], INPUT_BYTES, 17, pixel_byte);
  size_t bytes;
  unsigned char *pixels = argc == 2 ? bench_map_input(argv[1], &bytes) : NULL;
  if (!pixels) return 1;
  size_t pixel_count = bytes / 3;
  struct histogram_job jobs[THREADS];
  pthread_t threads[THREADS];
  for (int t = 0; t < THREADS; t++) {
    jobs[t].pixels = pixels;
    jobs[t].first_byte = 3 * (pixel_count / THREADS) * (size_t)t;
    jobs[t].end_byte = t == THREADS - 1 ? 3 * pixel_count
                                        : jobs[t].first_byte + 3 * (pixel_count / THREADS);
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
  bench_print_checksum("ph_histogram_mmap", sum);
  for (int t = 0; t < THREADS; t++) {
    free(jobs[t].red); free(jobs[t].green); free(jobs[t].blue);
  }
  munmap(pixels, bytes);
  return 0;
}
