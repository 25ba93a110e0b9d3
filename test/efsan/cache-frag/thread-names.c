// Threads named by the program (pthread_setname_np on itself or on another
// thread, prctl(PR_SET_NAME)) are named so in the reports, as TSan names
// them ("Thread T2 'worker1'"): cache-frag's threads line and JSON, the
// working set's thread stacks.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0 %run %t 2>&1 | FileCheck %s
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json %run %t 2> %t.json
// RUN: %python -c "import json, sys; f = json.load(open(sys.argv[1]))['findings'][0]; names = {t['thread']: t.get('name') for t in f['thread_start_functions']}; sys.exit(0 if names == {1: 'adder-0', 2: 'adder-1'} else 'names %%r' %% names)" %t.json
// RUN: %clang -O2 -g -fsanitize=efficiency-working-set -pthread %s -o %t.ws
// RUN: env ESAN_OPTIONS=report_objects=100 %run %t.ws 2>&1 | FileCheck %s --check-prefix=WS
// CHECK: threads: T1 'adder-0' (adder), T2 'adder-1' (adder)
// WS-DAG: thread T1 'adder-0' stack (adder)
// WS-DAG: thread T2 'adder-1' stack (adder)
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <sys/prctl.h>

static volatile long counters[2];
static pthread_barrier_t named;

static void *adder(void *arg) {
  long me = (long)arg;
  if (me == 1)
    prctl(PR_SET_NAME, "adder-1", 0, 0, 0); // itself
  pthread_barrier_wait(&named);
  volatile long big[64]; // a stack the working set sees
  for (long i = 0; i < 30000000; i++) {
    counters[me]++;
    big[i % 64] = i;
  }
  return 0;
}

int main(void) {
  pthread_t t[2];
  pthread_barrier_init(&named, 0, 3);
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], 0, adder, (void *)i);
  pthread_setname_np(t[0], "adder-0"); // another thread
  pthread_barrier_wait(&named);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  printf("%ld %ld\n", counters[0], counters[1]);
  return 0;
}
