// Threads that update one struct under a mutex, taking turns: true sharing,
// and the report says the writes are made while holding a lock (access
// sites "lock held", advice about the lock, not private copies). With
// atomics instead of the lock, the usual advice.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t 2>&1 | FileCheck %s
// RUN: %if taskset %{ env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 taskset -c 0 %run %t 2>&1 | FileCheck %s %}
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread -DNO_LOCK %s -o %t.atomic
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t.atomic 2>&1 | FileCheck %s --check-prefix=ATOMIC
#include "Inputs/lockstep.h"

struct totals {
  long items;
  long bytes;
};

static struct totals totals;
static pthread_mutex_t totals_lock = PTHREAD_MUTEX_INITIALIZER;

static void add(int me) {
#ifdef NO_LOCK
  __atomic_fetch_add(&totals.items, 1, __ATOMIC_RELAXED);
  __atomic_fetch_add(&totals.bytes, me + 1, __ATOMIC_RELAXED);
#else
  pthread_mutex_lock(&totals_lock);
  totals.items++;
  totals.bytes += me + 1;
  pthread_mutex_unlock(&totals_lock);
#endif
}

int main(void) {
  lockstep_run(add);
  return totals.items == 2 * ROUNDS ? 0 : 1;
}

// CHECK: #1 true sharing on cache line
// CHECK: invalidations: 3999 observed
// CHECK: access sites: thread reads writes bytes where
// CHECK-NEXT: T1 1999 1999 +{{[0-9]+}}..{{[0-9]+}} add {{.*}}true-sharing-locked.c:{{26|27}} (lock held)
// CHECK-NEXT: T1 1999 1999 +{{[0-9]+}}..{{[0-9]+}} add {{.*}}true-sharing-locked.c:{{26|27}} (lock held)
// CHECK-NEXT: T2 {{1999|2000}} 2000 +{{[0-9]+}}..{{[0-9]+}} add {{.*}}true-sharing-locked.c:{{26|27}} (lock held)
// CHECK-NEXT: T2 {{1999|2000}} 2000 +{{[0-9]+}}..{{[0-9]+}} add {{.*}}true-sharing-locked.c:{{26|27}} (lock held)
// The optimiser may split the static struct into one global per member
// (totals.0, totals.1); the debug info still names them as members.
// CHECK: line map: bytes object member threads
// CHECK-DAG: totals.items {{(T0 r, )?}}T1 rw, T2 rw
// CHECK-DAG: totals.bytes T1 rw, T2 rw
// CHECK: suggestion: threads write the same bytes of global 'totals{{(.[01])?}}' while holding a lock (true sharing; padding cannot help): the line moves with the lock
// CHECK-NOT: private copy
// CHECK: SUMMARY: EfficiencySanitizer: cache-frag: 0 false sharing, 1 true sharing

// ATOMIC: true sharing on cache line
// ATOMIC-NOT: lock held
// ATOMIC: suggestion: threads write the same bytes of global 'totals{{(.[01])?}}' (true sharing; padding cannot help): give each thread a private copy
