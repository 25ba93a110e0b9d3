/* Phoenix-shape matrix multiply: C = A * B for int matrices, i-j-k order
 * (a dot product per element, B read down a column), each of 2 threads
 * computing its own block of rows of C. */
#include <pthread.h>
#include <stdlib.h>
#include "bench_common.h"

enum { THREADS = 2, N = 900 };

struct multiply_job { const int *a, *b; int *c; int first_row, end_row; };

static void *multiply_rows(void *arg) {
  struct multiply_job *job = arg;
  for (int i = job->first_row; i < job->end_row; i++)
    for (int j = 0; j < N; j++) {
      int dot = 0;
      for (int k = 0; k < N; k++)
        dot += job->a[i * N + k] * job->b[k * N + j];
      job->c[i * N + j] = dot;
    }
  return NULL;
}

int main(void) {
  int *a = malloc(sizeof(int) * N * N), *b = malloc(sizeof(int) * N * N);
  int *c = malloc(sizeof(int) * N * N);
  if (!a || !b || !c) return 1;
  uint64_t seed = 29;
  for (int i = 0; i < N * N; i++) {
    a[i] = (int)(bench_next(&seed) % 64);
    b[i] = (int)(bench_next(&seed) % 64);
  }
  struct multiply_job jobs[THREADS];
  pthread_t threads[THREADS];
  for (int t = 0; t < THREADS; t++) {
    jobs[t] = (struct multiply_job){a, b, c, t * (N / THREADS), (t + 1) * (N / THREADS)};
    if (pthread_create(&threads[t], NULL, multiply_rows, &jobs[t])) return 1;
  }
  for (int t = 0; t < THREADS; t++) pthread_join(threads[t], NULL);
  uint64_t sum = 0;
  for (int i = 0; i < N * N; i++) sum = bench_mix(sum, (uint64_t)(unsigned)c[i]);
  bench_print_checksum("ph_matrix_multiply", sum);
  free(a); free(b); free(c);
  return 0;
}
