/* Phoenix-shape linear regression: 2 threads sum x, y, x*x, y*y and x*y
 * over their halves of an array of 2-byte points into their own sums
 * struct, through a pointer. The points are chars, which may alias the sums,
 * so the compiler keeps the five sums in memory: per point 2 byte loads and
 * 5 read-modify-writes of 8-byte sums. Each thread's struct is its own
 * 64-byte aligned block (no sharing). */
#include <pthread.h>
#include <stdlib.h>
#include "bench_common.h"

enum { THREADS = 2, POINTS = 8 * 1024 * 1024, PASSES = 60 };

struct point { char x, y; };
struct sums { long long sx, sy, sxx, syy, sxy; };
struct regression_job {
  const struct point *points;
  long first, end;
  struct sums *sums;
};

static void *sum_points(void *arg) {
  struct regression_job *job = arg;
  struct sums *s = job->sums;
  for (int pass = 0; pass < PASSES; pass++)
    for (long i = job->first; i < job->end; i++) {
      long long x = job->points[i].x, y = job->points[i].y;
      s->sx += x;
      s->sy += y;
      s->sxx += x * x;
      s->syy += y * y;
      s->sxy += x * y;
    }
  return NULL;
}

int main(void) {
  struct point *points = malloc(sizeof(struct point) * POINTS);
  if (!points) return 1;
  uint64_t seed = 23;
  for (long i = 0; i < POINTS; i++) {
    uint64_t r = bench_next(&seed);
    int x = (int)(r % 100);
    points[i].x = (char)x;
    points[i].y = (char)(x / 2 + (int)((r >> 8) % 20));
  }
  struct regression_job jobs[THREADS];
  pthread_t threads[THREADS];
  for (int t = 0; t < THREADS; t++) {
    jobs[t].points = points;
    jobs[t].first = (long)t * (POINTS / THREADS);
    jobs[t].end = jobs[t].first + POINTS / THREADS;
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
  bench_print_checksum("ph_linear_regression", sum);
  free(points);
  return 0;
}
