// A phase counts the lines every thread touched in it: two threads touch 300
// lines each, 100 of them shared, between the main thread's marks; their
// stacks are listed as objects of the phase.
// RUN: %clang -O2 -g -fsanitize=efficiency-working-set -pthread %s -o %t
// RUN: rm -f %t.log.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.log %run %t
// RUN: %python %S/Inputs/check_report.py %t.log --count 1 \
// RUN:   "[p['name'] for p in phases] == ['work', 'idle']" \
// RUN:   "sum(o['lines'] for o in phases[0]['objects'] if o['kind'] == 'heap') == 500" \
// RUN:   "500 <= phases[0]['lines'] <= 500 + 40" \
// RUN:   "any(o['kind'] == 'stack' and o['name'].startswith('thread T') for o in phases[0]['objects'])" \
// RUN:   "phases[1]['lines'] <= 4"
#include <pthread.h>
#include <sanitizer/efsan_interface.h>
#include <stdlib.h>

static char *lines;

__attribute__((noinline)) static void touch(volatile char *p, int count) {
  for (int i = 0; i < count; i++)
    p[i * 64]++;
}

static void *worker(void *arg) {
  long index = (long)arg;
  volatile char scratch[4 * 64];
  touch(scratch, 4);
  touch(lines + index * 200 * 64, 300); // [0, 300) and [200, 500)
  return 0;
}

int main(void) {
  lines = aligned_alloc(64, 500 * 64);
  __efsan_mark_phase("work");
  pthread_t threads[2];
  for (long i = 0; i < 2; i++)
    pthread_create(&threads[i], 0, worker, (void *)i);
  for (int i = 0; i < 2; i++)
    pthread_join(threads[i], 0);
  __efsan_mark_phase("idle");
  __efsan_mark_phase(0);
  return 0;
}
