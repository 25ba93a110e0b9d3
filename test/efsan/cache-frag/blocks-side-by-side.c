// Separate small heap blocks that the allocator placed on one line, each
// written by a thread of its own (Hoard's cache-scratch): the finding says
// so, names the blocks' sizes and sites, and puts the fix in the
// allocation, not in the blocks' types (it used to advise "_Alignas(64) on
// its type" for a char buffer). The heap is laid out as in the plain build
// (reliability/heap-layout.c), so the plain program shares this line too.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0 %run %t 2>&1 | FileCheck %s
// RUN: %if taskset %{ env ESAN_OPTIONS=cache_frag_min_share=0 taskset -c 0 %run %t 2>&1 | FileCheck %s %}
// CHECK: #1 false sharing on cache line
// CHECK: suggestion: each thread writes a heap block of its own, and the allocator placed them on one cache line (8 bytes at {{.*}}blocks-side-by-side.c:31 and 8 bytes at {{.*}}blocks-side-by-side.c:31): allocate each one 64-byte aligned and padded to 64 bytes
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { kBlocks = 4, kWrites = 50000000 };

static void *worker(void *arg) {
  volatile char *mine = arg;
  for (int i = 0; i < kWrites; i++)
    mine[i % 8] = (char)i;
  return 0;
}

int main(void) {
  // Blocks of 8 bytes one after the other take 32-byte chunks: two
  // neighbours share a line, wherever the heap starts.
  char *blocks[kBlocks];
  for (int i = 0; i < kBlocks; i++)
    blocks[i] = malloc(8);
  int first = 0;
  while ((uintptr_t)blocks[first] / 64 != (uintptr_t)blocks[first + 1] / 64)
    first++;
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], 0, worker, blocks[first + i]);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  printf("%d %d\n", blocks[first][0], blocks[first + 1][0]);
  return 0;
}
