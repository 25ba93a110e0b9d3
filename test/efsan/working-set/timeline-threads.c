// The timeline with threads: two threads read tables of their own all
// along; every timeline period in which each thread made a whole pass (a
// pass within one sample period) shows each table with all its lines, and
// both tables are reused. The main thread waits until there are three such
// periods.
// RUN: %clang -O2 -g -fsanitize=efficiency-working-set -pthread %s -o %t
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env ESAN_OPTIONS=sample_freq=25:sample_clock=cpu:report_format=json:log_path=%t.d/r %run %t > %t.d/vars
// RUN: %python %S/Inputs/check_report.py %t.d/r --count 1 --vars %t.d/vars \
// RUN:   "timeline['period_ms'] == 100" \
// RUN:   "len([e for e in range(64) if BOTH >> e & 1]) >= 3" \
// RUN:   "all(series('make_x')[e] == LINES_X and series('make_y')[e] == LINES_Y for e in range(64) if BOTH >> e & 1)" \
// RUN:   "reused('make_x') == LINES_X and reused('make_y') == LINES_Y" \
// RUN:   "all(sum(s[i] for s in timeline['by_structure']) + timeline['rest'][i] == n for i, n in enumerate(timeline['lines']))"
#include <pthread.h>
#include <sanitizer/efsan_interface.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { LINES_X = 2000, LINES_Y = 700, PERIOD = 4 }; // 100 ms of 25 ms

__attribute__((noinline)) static char *make_x(void) {
  char *p = aligned_alloc(64, LINES_X * 64);
  if (!p)
    abort();
  return p;
}
__attribute__((noinline)) static char *make_y(void) {
  char *p = aligned_alloc(64, LINES_Y * 64);
  if (!p)
    abort();
  return p;
}

struct worker {
  volatile char *table;
  int lines;
  unsigned long long clean; // bit e: a whole pass within timeline period e
};
static int stop;

static void *work(void *arg) {
  struct worker *w = arg;
  long sum = 0;
  while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
    unsigned before = __efsan_get_sample_count();
    for (int i = 0; i < w->lines; i++)
      sum += w->table[i * 64];
    // No sample in between: the pass lies in sample period before + 1.
    if (__efsan_get_sample_count() == before && before / PERIOD < 64)
      __atomic_fetch_or(&w->clean, 1ULL << (before / PERIOD), __ATOMIC_RELAXED);
  }
  return (void *)sum;
}

int main(void) {
  struct worker x = {make_x(), LINES_X, 0}, y = {make_y(), LINES_Y, 0};
  pthread_t tx, ty;
  pthread_create(&tx, 0, work, &x);
  pthread_create(&ty, 0, work, &y);
  // Three closed periods with a whole pass of each thread (a period still
  // open may get more passes), before the 60th.
  unsigned long long both = 0;
  for (;;) {
    unsigned closed = __efsan_get_sample_count() / PERIOD;
    both = __atomic_load_n(&x.clean, __ATOMIC_RELAXED) &
           __atomic_load_n(&y.clean, __ATOMIC_RELAXED) &
           ((1ULL << closed) - 1);
    if (__builtin_popcountll(both) >= 3 || closed >= 60)
      break;
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, 0);
  }
  __atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
  pthread_join(tx, 0);
  pthread_join(ty, 0);
  printf("BOTH=%llu\nLINES_X=%d\nLINES_Y=%d\n", both, LINES_X, LINES_Y);
  return 0;
}
