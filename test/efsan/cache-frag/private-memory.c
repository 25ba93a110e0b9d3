// cache-frag's memory follows the lines that are really shared, not the
// program's private data. Four threads each write their own 1 MiB array
// (no line touched by two threads): each hot line was tracked in detail
// (22 KB of address space, a few KB resident), 260 MiB in all for 4 MiB of
// data; now a line written by one thread alone keeps a 64-byte summary
// until another thread comes near, and the run stays within 32 MiB of the
// plain run's peak (the program checks its own peak RSS).
// A fork used to write every record (to reset its lock), copying all of
// them into each child; the child now writes only locks that were held,
// so its page faults do not grow with the records (counted by the child).
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: %run %t private 2>&1 | FileCheck %s --check-prefix=PRIVATE
// RUN: %if taskset %{ env ESAN_OPTIONS=cache_frag_min_share=0 taskset -c 0 %run %t private 2>&1 | FileCheck %s --check-prefix=PRIVATE %}
// PRIVATE: private arrays: peak RSS within 32 MiB of the data
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t shared 2>&1 | FileCheck %s --check-prefix=SHARED
// SHARED: forked child: few page faults
// SHARED: Cache lines tracked in detail: {{[0-9][0-9][0-9][0-9]}}
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define THREADS 4
#define ARRAY (1 << 20)
#define SHARED_LINES 8000

static long peak_rss_kib(void) {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

static void *private_worker(void *arg) {
  char *a = malloc(ARRAY);
  long sum = 0;
  for (int round = 0; round < 100; round++)
    for (int i = 0; i < ARRAY; i++) {
      a[i] = (char)(i + round + (long)arg);
      sum += a[i ^ 64];
    }
  free(a);
  return (void *)sum;
}

// Two threads write alternate 8-byte words of the same lines.
static long *shared;
static void *shared_worker(void *arg) {
  long me = (long)arg;
  for (int round = 0; round < 20; round++)
    for (long i = me; i < SHARED_LINES * 8; i += 2)
      shared[i] += round;
  return 0;
}

static void run(void *(*worker)(void *), int threads) {
  pthread_t t[THREADS];
  for (long i = 0; i < threads; i++)
    pthread_create(&t[i], 0, worker, (void *)i);
  for (int i = 0; i < threads; i++)
    pthread_join(t[i], 0);
}

int main(int argc, char **argv) {
  if (!strcmp(argv[1], "private")) {
    long before = peak_rss_kib();
    run(private_worker, THREADS);
    long grown = peak_rss_kib() - before;
    long limit = (THREADS * ARRAY >> 10) + 32 * 1024;
    if (grown <= limit)
      printf("private arrays: peak RSS within 32 MiB of the data\n");
    else
      printf("private arrays: peak RSS grew by %ld KiB (limit %ld)\n", grown, limit);
    return 0;
  }
  shared = aligned_alloc(64, SHARED_LINES * 64);
  memset(shared, 0, SHARED_LINES * 64);
  run(shared_worker, 2);
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    // One fault per record meant a copy of every record page.
    if (usage.ru_minflt < SHARED_LINES / 4)
      printf("forked child: few page faults\n");
    else
      printf("forked child: %ld page faults\n", usage.ru_minflt);
    fflush(stdout);
    _exit(0);
  }
  waitpid(pid, 0, 0);
  return 0;
}
