// Not a pair: prints the one-way cost, in ns, of moving a line between the
// first two CPUs of the affinity mask (two threads pass it back and forth;
// the fastest of 200 batches of 64 round trips, halved), so that
// calibrate.py can say which state this VM's two vCPUs were in beside each
// measured gain (about 40 ns when they share a core complex, 150-190 ns
// when they do not). Prints 0 when fewer than two CPUs are available.
// Bounded: the partner stops on a flag, and each wait gives up after 2^28
// polls.
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#define BATCHES 200
#define ROUNDS 64
#define STOP (~0ull)
static _Alignas(64) volatile uint64_t line[8];
static int cpus[2];

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static void pin(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static void *partner(void *arg) {
  (void)arg;
  pin(cpus[1]);
  for (uint64_t polls = 0; polls < (1ull << 28); polls++) {
    uint64_t v = line[0];
    if (v == STOP)
      break;
    if (v & 1)
      line[0] = v + 1;
  }
  return 0;
}

int main(void) {
  cpu_set_t mask;
  int found = 0;
  if (sched_getaffinity(0, sizeof(mask), &mask) == 0)
    for (int c = 0; c < CPU_SETSIZE && found < 2; c++)
      if (CPU_ISSET(c, &mask))
        cpus[found++] = c;
  if (found < 2) {
    printf("0\n");
    return 0;
  }
  pthread_t t;
  pthread_create(&t, 0, partner, 0);
  pin(cpus[0]);
  uint64_t best = ~0ull, v = 0;
  for (int b = 0; b < BATCHES; b++) {
    uint64_t start = now_ns();
    int answered = 1;
    for (int r = 0; r < ROUNDS && answered; r++) {
      line[0] = ++v;
      uint64_t polls = 0;
      while (line[0] != v + 1 && ++polls < (1ull << 28))
        ;
      answered = polls < (1ull << 28);
      v++;
    }
    uint64_t took = now_ns() - start;
    if (answered && took < best)
      best = took;
  }
  line[0] = STOP;
  pthread_join(t, 0);
  printf("%llu\n", best == ~0ull ? 0ull : (unsigned long long)(best / ROUNDS / 2));
  return 0;
}
