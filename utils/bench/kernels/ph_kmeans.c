/* Phoenix-shape k-means: 3-dimensional int points, K means; in every round
 * each of 2 threads assigns its half of the points to the nearest mean
 * (squared distance, all K means per point), recording the assignment and
 * adding the point to its own per-cluster sums; the main thread then
 * recomputes the means from both threads' sums. */
#include <pthread.h>
#include <stdlib.h>
#include "bench_common.h"

enum { THREADS = 2, POINTS = 100000, DIM = 3, K = 64, ROUNDS = 60 };

struct kmeans_job {
  const int *points;             /* POINTS x DIM */
  const int *means;              /* K x DIM */
  int *cluster_of;               /* POINTS */
  long long *sums;               /* K x DIM, this thread's own */
  long *counts;                  /* K, this thread's own */
  int first, end;
  pthread_t thread;
};

static void *assign_points(void *arg) {
  struct kmeans_job *job = arg;
  for (int p = job->first; p < job->end; p++) {
    const int *point = &job->points[p * DIM];
    int best = 0;
    long best_distance = -1;
    for (int k = 0; k < K; k++) {
      long distance = 0;
      for (int d = 0; d < DIM; d++) {
        long delta = point[d] - job->means[k * DIM + d];
        distance += delta * delta;
      }
      if (best_distance < 0 || distance < best_distance) {
        best_distance = distance;
        best = k;
      }
    }
    job->cluster_of[p] = best;
    for (int d = 0; d < DIM; d++) job->sums[best * DIM + d] += point[d];
    job->counts[best]++;
  }
  return NULL;
}

int main(void) {
  int *points = malloc(sizeof(int) * POINTS * DIM), *means = malloc(sizeof(int) * K * DIM);
  int *cluster_of = malloc(sizeof(int) * POINTS);
  if (!points || !means || !cluster_of) return 1;
  uint64_t seed = 31;
  for (int i = 0; i < POINTS * DIM; i++) points[i] = (int)(bench_next(&seed) % 1000);
  for (int i = 0; i < K * DIM; i++) means[i] = points[i];
  struct kmeans_job jobs[THREADS];
  for (int t = 0; t < THREADS; t++) {
    jobs[t].points = points;
    jobs[t].means = means;
    jobs[t].cluster_of = cluster_of;
    jobs[t].first = t * (POINTS / THREADS);
    jobs[t].end = (t + 1) * (POINTS / THREADS);
    jobs[t].sums = aligned_alloc(64, sizeof(long long) * K * DIM);
    jobs[t].counts = aligned_alloc(64, sizeof(long) * K);
    if (!jobs[t].sums || !jobs[t].counts) return 1;
  }
  for (int round = 0; round < ROUNDS; round++) {
    for (int t = 0; t < THREADS; t++) {
      for (int i = 0; i < K * DIM; i++) jobs[t].sums[i] = 0;
      for (int k = 0; k < K; k++) jobs[t].counts[k] = 0;
      if (pthread_create(&jobs[t].thread, NULL, assign_points, &jobs[t])) return 1;
    }
    for (int t = 0; t < THREADS; t++) pthread_join(jobs[t].thread, NULL);
    for (int k = 0; k < K; k++) {
      long count = 0;
      for (int t = 0; t < THREADS; t++) count += jobs[t].counts[k];
      if (!count) continue;
      for (int d = 0; d < DIM; d++) {
        long long total = 0;
        for (int t = 0; t < THREADS; t++) total += jobs[t].sums[k * DIM + d];
        means[k * DIM + d] = (int)(total / count);
      }
    }
  }
  uint64_t sum = 0;
  for (int i = 0; i < K * DIM; i++) sum = bench_mix(sum, (uint64_t)(unsigned)means[i]);
  for (int p = 0; p < POINTS; p += 97) sum = bench_mix(sum, (uint64_t)cluster_of[p]);
  bench_print_checksum("ph_kmeans", sum);
  for (int t = 0; t < THREADS; t++) { free(jobs[t].sums); free(jobs[t].counts); }
  free(points); free(means); free(cluster_of);
  return 0;
}
