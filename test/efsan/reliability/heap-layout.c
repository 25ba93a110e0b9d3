// The program's heap is laid out as in the plain build: the runtime's own
// calls into libc (dlsym while the interceptors are installed, its threads'
// TLS, a new thread's attributes) allocate outside it. Before, 58 dlsym
// error messages and a sideline thread's TLS came from the program's heap:
// its first block lay 16 bytes into a line where the plain build has it 32
// bytes in, and two threads' small blocks (Hoard's cache-scratch) could
// share a line that they do not share in the plain build, a false finding.
// RUN: %stock_clang -O2 -pthread %s -o %t.plain
// RUN: %clang -O2 -pthread -fsanitize=efficiency-working-set %s -o %t.ws
// RUN: %clang -O2 -pthread -fsanitize=efficiency-cache-frag %s -o %t.cf
// RUN: %run %t.plain > %t.plain.out
// RUN: %run %t.ws > %t.ws.out
// RUN: %run %t.cf > %t.cf.out
// RUN: FileCheck %s < %t.plain.out
// RUN: diff %t.plain.out %t.ws.out
// RUN: diff %t.plain.out %t.cf.out
// CHECK: main thread: {{([0-9]+ )+}}
// CHECK: worker 0: {{([0-9]+ )+}}
// CHECK: worker 1: {{([0-9]+ )+}}
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { kBlocks = 8 };

// Each block's offset within its 64-byte line.
static void offsets(char *out, size_t size) {
  size_t used = 0;
  for (int i = 0; i < kBlocks; i++) {
    char *p = malloc(8 + 8 * i);
    used += snprintf(out + used, size - used, "%u ",
                     (unsigned)((uintptr_t)p % 64));
  }
}

static char lines[2][256];

static void *worker(void *arg) {
  offsets(lines[(long)arg], sizeof(lines[0]));
  return 0;
}

int main(void) {
  char mine[256];
  offsets(mine, sizeof(mine));
  // One after the other: each thread's arena is made in a known order.
  for (long i = 0; i < 2; i++) {
    pthread_t t;
    pthread_create(&t, 0, worker, (void *)i);
    pthread_join(t, 0);
  }
  printf("main thread: %s\nworker 0: %s\nworker 1: %s\n", mine, lines[0],
         lines[1]);
  return 0;
}
