// What a contended line costs two threads, by kind of write: the
// measurement behind CF_CONTENDED_SHARE and CF_CONTENDED_RMW_SHARE
// (compiler-rt/lib/efsan/efsan_cache_frag_findings.h). Each of two threads
// makes N updates with WORK xorshift steps of private work before each:
//
//   contended_rmw KIND WORK LAYOUT
//     KIND    plain: `*p += v` on a volatile word (a load and a store)
//             rmw:   a locked fetch-add (lock add on x86)
//             none:  the update into a register (no memory write: the fix
//                    of a shared atomic total, local sums)
//     LAYOUT  shared: both threads on one line (plain: each its own word of
//                     it, false sharing; rmw: the same word, true sharing)
//             apart:  each thread on a line of its own
//
// and prints the process CPU time. The share a fix saves is
// (shared - fixed) / shared, fixed being `plain WORK apart` for false
// sharing and `none WORK apart` for an atomic total. utils/bench/contention/
// run.sh runs the grid under SCHED_FIFO (both threads at once on a loaded
// machine) and prints medians; docs/performance.md, "Contended lines by kind
// of write", has the figures of the 2-core VM.
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N 20000000L

enum kind { PLAIN, RMW, NONE };
static enum kind kind;
static int work, apart;

struct apart_word { _Alignas(128) volatile uint64_t value; };
static struct apart_word apart_words[2];
static _Alignas(128) volatile uint64_t shared_words[2];

static void *thread(void *arg) {
  long me = (long)arg;
  uint64_t x = (uint64_t)me + 3, local = 0;
  volatile uint64_t *p = apart          ? &apart_words[me].value
                         : kind == RMW ? &shared_words[0]
                                       : &shared_words[me];
  for (long i = 0; i < N; i++) {
    for (int k = 0; k < work; k++) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
    }
    if (kind == RMW)
      __atomic_fetch_add(p, x >> 60, __ATOMIC_SEQ_CST);
    else if (kind == PLAIN)
      *p += x >> 60;
    else
      local += x >> 60;
  }
  *p += local;
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: contended_rmw plain|rmw|none WORK shared|apart\n");
    return 1;
  }
  kind = !strcmp(argv[1], "rmw") ? RMW : !strcmp(argv[1], "none") ? NONE : PLAIN;
  work = atoi(argv[2]);
  apart = !strcmp(argv[3], "apart");
  pthread_t t[2];
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], 0, thread, (void *)i);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  printf("%.3f\n", (double)ts.tv_sec + (double)ts.tv_nsec / 1e9);
  return 0;
}
