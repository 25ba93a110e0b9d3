// fork while other threads allocate (each allocation puts its stack into
// sanitizer_common's stack depot, locking a bucket of its hash table for a
// moment): a bucket locked at fork is unlocked at the child's first stack
// capture, not at fork, so that a child that only execs never reads the
// 4 MiB table; a child that allocates must neither deadlock nor lose its
// allocation sites. (A hang is killed by the timeout.)
// RUN: %clang -O1 -g -fsanitize=efficiency-working-set -pthread %s -o %t
// RUN: env ESAN_OPTIONS=tree_reports=0:report_forked_child__exit=1 timeout -s KILL 120 %run %t > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=STATUS < %t.out
// RUN: grep -c "child_allocation .*fork-while-allocating.c:[0-9]" %t.err | FileCheck %s --check-prefix=SITES
// STATUS: 40 children exited with status 0
// SITES: {{^}}40{{$}}
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { kChildren = 40, kAllocators = 2 };

static volatile int done;

// Every allocation a stack the depot has not seen (a path of 20 calls, each
// to one of two functions), so that the allocators keep inserting and
// locking buckets.
static void *grow(unsigned path, int depth);
__attribute__((noinline)) static void *left(unsigned path, int depth) {
  void *p = grow(path >> 1, depth - 1);
  __asm__ volatile("" ::: "memory"); // not a tail call: a frame of its own
  return p;
}
__attribute__((noinline)) static void *right(unsigned path, int depth) {
  void *p = grow(path >> 1, depth - 1);
  __asm__ volatile("" ::: "memory");
  return p;
}
__attribute__((noinline)) static void *grow(unsigned path, int depth) {
  if (!depth)
    return malloc(32);
  return path & 1 ? right(path, depth) : left(path, depth);
}

static void *allocate_forever(void *arg) {
  unsigned path = (unsigned)(size_t)arg << 19;
  while (!done)
    free(grow(path++, 20));
  return 0;
}

__attribute__((noinline)) static char *child_allocation(int i) {
  char *p = malloc(((size_t)i + 1) << 16);
  memset(p, 1, ((size_t)i + 1) << 16);
  return p;
}

int main(void) {
  pthread_t threads[kAllocators];
  for (int i = 0; i < kAllocators; i++)
    pthread_create(&threads[i], 0, allocate_forever, (void *)(size_t)i);
  int good = 0;
  for (int i = 0; i < kChildren; i++) {
    pid_t pid = fork();
    if (pid == 0)
      _exit(child_allocation(i)[7] - 1);
    int status;
    if (waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
        WEXITSTATUS(status) == 0)
      good++;
  }
  done = 1;
  for (int i = 0; i < kAllocators; i++)
    pthread_join(threads[i], 0);
  printf("%d children exited with status 0\n", good);
  return 0;
}
