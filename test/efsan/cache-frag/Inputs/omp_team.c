// A library's OpenMP team, built by GCC (uninstrumented): runs body(i) on
// thread i of a parallel region of n threads (GOMP_parallel).
#include <omp.h>

void run_team(int n, void (*body)(int me)) {
#pragma omp parallel num_threads(n)
  body(omp_get_thread_num());
}
