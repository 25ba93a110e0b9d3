/* Phoenix's linear regression as the suite runs it: the points (2 bytes
 * each) are a file of 1 GiB mapped with mmap and streamed once by 2 threads,
 * each summing x, y, x*x, y*y and x*y of its half into its own sums struct
 * through a pointer (the points are chars, which may alias the sums, so the
 * five sums stay in memory: per point 2 byte loads and 5 read-modify-writes).
 * Each thread's struct is its own 64-byte aligned block (no sharing). */
#include <pthread.h>
#include "bench_common.h"

enum { THREADS = 2 };
#define INPUT_BYTES (1ul << 30)

struct point { char x, y; };
struct sums { long long sx, sy, sxx, syy, sxy; };
struct regression_job {
  const struct point *points;
  size_t first, end;
  struct sums *sums;
};

static void *sum_points(void *arg) {
  struct regression_job *job = arg;
  struct sums *s = job->sums;
  for (size_t i = job->first; i < job->end; i++) {
    long long x = job->points[i].x, y = job->points[i].y;
    s->sx += x;
    s->sy += y;
    s->sxx += x * x;
    s->syy += y * y;
    s->sxy += x * y;
  }
  return NULL;
}

/* x in 0..99, y = x / 2 plus noise (even bytes x, odd bytes y). */
static unsigned char point_byte(size_t i, uint64_t *seed) {
  static int x;
  uint64_t r = bench_next(seed);
  if (i % 2 == 0) {
    x = (int)(r % 100);
    return (unsigned char)x;
  }
  return (unsigned char)(x / 2 + (int)((r >> 8) % 20));
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--make-input") == 0)
    return bench_make_input(argv[2], INPUT_BYTES, 23, point_byte);
  size_t bytes;
  unsigned char *data = argc == 2 ? bench_map_input(argv[1], &bytes) : NULL;
  if (!data) return 1;
  const struct point *points = (const struct point *)data;
  size_t count = bytes / sizeof(struct point);
  struct regression_job jobs[THREADS];
  pthread_t threads[THREADS];
  for (int t = 0; t < THREADS; t++) {
    jobs[t].points = points;
    jobs[t].first = (size_t)t * (count / THREADS);
    jobs[t].end = t == THREADS - 1 ? count : jobs[t].first + count / THREADS;
    jobs[t].sums = aligned_alloc(64, 64);
    if (!jobs[t].sums) return 1;
    *jobs[t].sums = (struct sums){0, 0, 0, 0, 0};
  }
  for (int t = 0; t < THREADS; t++)
    if (pthread_create(&threads[t], NULL, sum_points, &jobs[t])) return 1;
  for (int t = 0; t < THREADS; t++) pthread_join(threads[t], NULL);
  struct sums total = {0, 0, 0, 0, 0};
  for (int t = 0; t < THREADS; t++) {
    total.sx += jobs[t].sums->sx;
    total.sy += jobs[t].sums->sy;
    total.sxx += jobs[t].sums->sxx;
    total.syy += jobs[t].sums->syy;
    total.sxy += jobs[t].sums->sxy;
    free(jobs[t].sums);
  }
  uint64_t sum = bench_mix(bench_mix(bench_mix(bench_mix(bench_mix(0,
      (uint64_t)total.sx), (uint64_t)total.sy), (uint64_t)total.sxx),
      (uint64_t)total.syy), (uint64_t)total.sxy);
  bench_print_checksum("ph_linear_regression_mmap", sum);
  munmap(data, bytes);
  return 0;
}
