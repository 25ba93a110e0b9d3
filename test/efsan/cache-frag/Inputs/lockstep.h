// Lock-step threads for exact cache-frag expectations: NTHREADS workers take
// turns (0, 1, ..., NTHREADS-1, 0, ...) for ROUNDS rounds each, so every test
// knows the exact order of the instrumented accesses and thus the exact
// invalidation counts. The turn variable lives on its own 128-byte block and
// is only touched by uninstrumented code, so it never shows in a report.
// Worker w runs as efsan thread T<w+1> (the main thread is T0).
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef NTHREADS
#define NTHREADS 2
#endif
#ifndef ROUNDS
#define ROUNDS 2000
#endif

#define UNINSTRUMENTED __attribute__((disable_sanitizer_instrumentation, noinline))

static struct {
  _Alignas(128) int turn;
  char pad[124];
} lockstep;

UNINSTRUMENTED static void lockstep_wait(int me) {
  while (__atomic_load_n(&lockstep.turn, __ATOMIC_ACQUIRE) != me)
    sched_yield();
}

UNINSTRUMENTED static void lockstep_pass(int me) {
  __atomic_store_n(&lockstep.turn, (me + 1) % NTHREADS, __ATOMIC_RELEASE);
}

// Runs body(w) for w = 0..NTHREADS-1 on NTHREADS new threads, in turns; only
// body is instrumented.
// volatile: the optimiser must not inline the instrumented body into the
// uninstrumented worker.
static void (*volatile lockstep_body)(int);

UNINSTRUMENTED static void *lockstep_worker(void *arg) {
  int me = (int)(long)arg;
  for (int round = 0; round < ROUNDS; round++) {
    lockstep_wait(me);
    lockstep_body(me);
    lockstep_pass(me);
  }
  return 0;
}

UNINSTRUMENTED static void lockstep_run(void (*body)(int)) {
  pthread_t threads[NTHREADS];
  lockstep_body = body;
  for (long w = 0; w < NTHREADS; w++)
    if (pthread_create(&threads[w], 0, lockstep_worker, (void *)w)) {
      fprintf(stderr, "pthread_create failed\n");
      exit(2);
    }
  for (int w = 0; w < NTHREADS; w++)
    pthread_join(threads[w], 0);
}
