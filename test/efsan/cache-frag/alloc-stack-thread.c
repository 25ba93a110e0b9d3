// An allocation stack ends at the program's own frames: a block allocated in
// a thread's start routine was named with the runtime's trampoline and
// libc's start_thread below it ("#1 ThreadTrampoline(void*)
// efsan_interceptors.cpp", "called from ThreadTrampoline"), under both
// tools; so were thread creation stacks of threads created by threads.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: %run %t 2>&1 | FileCheck %s --check-prefix=CF
// RUN: %if taskset %{ env ESAN_OPTIONS=cache_frag_min_share=0 taskset -c 0 %run %t 2>&1 | FileCheck %s --check-prefix=CF %}
// CF: T2 created by T1 at:
// CF-NEXT: #0 {{.*}} in starter {{.*}}alloc-stack-thread.c:[[@LINE+34]]
// CF-NEXT: object: heap object at {{.*}}, size 4112;
// CF-NEXT: #0 {{.*}} in starter {{.*}}alloc-stack-thread.c:[[@LINE+29]]
// CF-NEXT: accesses:
// RUN: %clang -O2 -g -fsanitize=efficiency-working-set -pthread %s -o %t.ws
// RUN: rm -f %t.log.*
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json:log_path=%t.log %run %t.ws
// RUN: %python %S/../working-set/Inputs/check_report.py %t.log --count 1 \
// RUN:   "[f['function'] for o in objects if o['kind'] == 'heap' and o['alloc_stack'] for f in o['alloc_stack'] if o['alloc_stack'][0]['function'] == 'starter'] == ['starter']"
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:report_objects=3 %run %t.ws 2>&1 | FileCheck %s --check-prefix=WS
// WS: heap {{.*}} starter {{.*}}alloc-stack-thread.c
// WS-NOT: called from
// WS: stack
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct counters {
  long a, b;
  char log[4096]; // lines of its own: the working set names the block
};
static struct counters *shared;

static void *bump_b(void *arg) {
  for (long i = 0; i < 2000000; i++)
    __atomic_fetch_add(&shared->b, 1, __ATOMIC_RELAXED);
  return arg;
}

static void *starter(void *arg) {
  shared = calloc(1, sizeof *shared);
  memset(shared->log, 1, sizeof shared->log);
  pthread_t t;
  pthread_create(&t, 0, bump_b, 0);
  for (long i = 0; i < 2000000; i++)
    __atomic_fetch_add(&shared->a, 1, __ATOMIC_RELAXED);
  pthread_join(t, 0);
  return arg;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, starter, 0);
  pthread_join(t, 0);
  printf("%ld %ld\n", shared->a, shared->b);
  return 0;
}
