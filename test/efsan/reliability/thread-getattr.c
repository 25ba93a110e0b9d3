// A thread that asks for its own stack (pthread_getattr_np, as libomp,
// garbage collectors and fiber libraries do at thread start) must not hang.
// glibc's pthread_getattr_np calls realloc while it holds the thread's lock;
// the realloc interceptor captures an allocation stack, and the unwinder
// once asked pthread_getattr_np for the stack bounds on the same thread:
// a deadlock at 0% CPU. Each thread's bounds are now learned at its start.
// Threads that ask at once, threads that allocate first, and the main thread.
// RUN: %clang -O2 -g -fsanitize=efficiency-working-set -pthread %s -o %t.ws
// RUN: timeout 60 %run %t.ws 2>&1 | FileCheck %s
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t.cf
// RUN: timeout 60 %run %t.cf 2>&1 | FileCheck %s
// RUN: env ESAN_OPTIONS=cache_frag_sample_period=1 timeout 60 %run %t.cf 2>&1 | FileCheck %s
// CHECK-DAG: main stack ok
// CHECK-DAG: 8 threads: stack ok 8
// CHECK-DAG: ==EfficiencySanitizer:
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int stack_known(void) {
  pthread_attr_t attr;
  size_t size = 0;
  void *base = 0;
  if (pthread_getattr_np(pthread_self(), &attr))
    return 0;
  pthread_attr_getstack(&attr, &base, &size);
  pthread_attr_destroy(&attr);
  int local;
  return size > 0 && (char *)&local >= (char *)base &&
         (char *)&local < (char *)base + size;
}

static void *worker(void *arg) {
  // Odd threads allocate before they ask (their stack capture comes first).
  void *p = (long)arg & 1 ? malloc(100) : 0;
  int ok = stack_known();
  free(p);
  return (void *)(long)ok;
}

int main(void) {
  printf("main stack %s\n", stack_known() ? "ok" : "unknown");
  pthread_t threads[8];
  for (long i = 0; i < 8; i++)
    pthread_create(&threads[i], 0, worker, (void *)i);
  long ok = 0;
  for (int i = 0; i < 8; i++) {
    void *r;
    pthread_join(threads[i], &r);
    ok += (long)r;
  }
  printf("8 threads: stack ok %ld\n", ok);
  return 0;
}
