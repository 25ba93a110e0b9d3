// Threads that take turns on shared data under a mutex and a condition
// variable (zstd's checksum state: each job updates it in job order) write
// the same bytes, but never at the same time: one handoff per turn, not a
// line bouncing at every write. Locks carry a thread's clock to the next
// owner, so each turn starts on the virtual clock where the previous one
// ended, and the model, which sees each thread's bursts on the line, finds
// them apart: nothing is reported (zstd -T2 was reported as 42% true
// sharing before). Without the lock and the turns, the same updates are
// concurrent: true sharing. (The turns' handoffs are estimated at 0-2700
// invalidations in most runs: a burst's last sample stands for the period
// after it, which can reach into the next turn; 10003 and 10188 in 2 of
// 150 runs pinned to one CPU. The concurrent updates are 88000-700000. The
// check is on the invalidations, at 30000, whatever a handoff costs of a
// run this short.)
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread -DNO_TURNS %s -o %t.free
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_report_threshold=30000:report_format=json %run %t 2> %t.default.json
// RUN: %python %S/Inputs/check_findings.py --none %t.default.json
// RUN: %if taskset %{ env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_report_threshold=30000:report_format=json taskset -c 0 %run %t 2> %t.pinned.json %}
// RUN: %if taskset %{ %python %S/Inputs/check_findings.py --none %t.pinned.json %}
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json %run %t.free 2> %t.free.json
// RUN: %python %S/Inputs/check_findings.py --only --expect true-sharing:global=state %t.free.json
#include "Inputs/workers.h"

#define TURNS 40
#define WORK 200000
#ifndef UPDATES
#define UPDATES 20000 // the shared update of one turn
#endif

static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t turn_changed = PTHREAD_COND_INITIALIZER;
static int next_turn;
_Alignas(64) static volatile unsigned long state[4]; // a running checksum
// Each thread's own data, 2 x 128 bytes or more from the other's.
_Alignas(128) static volatile unsigned long private_work[2][64 * 8 + 32];

static void *worker(void *arg) {
  long me = (long)arg;
  for (int turn = (int)me; turn < TURNS; turn += 2) {
    for (int i = 0; i < WORK; i++) // this turn's own work, private
      private_work[me][(i & 63) * 8] += (unsigned long)i;
#ifndef NO_TURNS
    pthread_mutex_lock(&mutex);
    while (next_turn != turn)
      pthread_cond_wait(&turn_changed, &mutex);
#endif
    for (int i = 0; i < UPDATES; i++) // the shared update, in turn order
      state[i & 3] = state[i & 3] * 31 + (unsigned long)i;
#ifndef NO_TURNS
    next_turn++;
    pthread_cond_broadcast(&turn_changed);
    pthread_mutex_unlock(&mutex);
#endif
  }
  return 0;
}

int main(void) {
  run_workers(worker, 2);
  printf("%lu\n", state[0] + private_work[1][8]);
  return 0;
}
