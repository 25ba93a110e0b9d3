// The program's data lies where the plain build puts it, so that what
// cache-frag sees on a line is what the plain program has there: its globals
// at the plain build's offsets within their pages (efsan-ld: the runtime's
// data and the pass's counters kept apart, the plain build's .got.plt), main
// and each thread starting on the plain build's stack (the runtime's start
// code adds no frame), heap blocks at the plain build's offsets, also after
// a thread starts (its DTV). Before, every global here sat 16 or 48 bytes
// further into its line, main's frame 32 bytes lower, a thread's 32 bytes
// higher, the main thread's blocks 16 bytes further once a thread had
// started. (A thread's stack is not at the plain build's offset within its
// page: the runtime's thread-locals take room at its top.)
//
// Two objects, each with globals in .data and .bss and a struct whose fields
// cache-frag counts (its counters come after the first object's .bss). The
// plain build keeps frame pointers, as instrumented code does; the stack is
// measured from argv (the top of main's stack, wherever ASLR puts it), so the
// binaries' names have one length.
// RUN: %stock_clang -O1 -fno-omit-frame-pointer -pthread -DPART2 -c %s -o %t.2.pl.o
// RUN: %stock_clang -O1 -fno-omit-frame-pointer -pthread %s %t.2.pl.o -o %t.pl
// RUN: %clang -O1 -pthread -fsanitize=efficiency-working-set -DPART2 -c %s -o %t.2.ws.o
// RUN: %clang -O1 -pthread -fsanitize=efficiency-working-set %s %t.2.ws.o -o %t.ws
// RUN: %clang -O1 -pthread -fsanitize=efficiency-cache-frag -DPART2 -c %s -o %t.2.cf.o
// RUN: %clang -O1 -pthread -fsanitize=efficiency-cache-frag %s %t.2.cf.o -o %t.cf
// RUN: %run %t.pl > %t.pl.out
// RUN: %run %t.ws > %t.ws.out 2>/dev/null
// RUN: %run %t.cf > %t.cf.out 2>/dev/null
// RUN: FileCheck %s < %t.pl.out
// RUN: diff %t.pl.out %t.ws.out
// RUN: diff %t.pl.out %t.cf.out
// $TMPDIR unusable: efsan-ld's files go to /tmp.
// RUN: %clang -O1 -pthread -fsanitize=efficiency-working-set -c %s -o %t.1.ws.o
// RUN: env TMPDIR=%t.none %clang -pthread -fsanitize=efficiency-working-set %t.1.ws.o %t.2.ws.o -o %t.tm
// RUN: %run %t.tm > %t.tm.out 2>/dev/null
// RUN: diff %t.pl.out %t.tm.out
// A link through -fuse-ld is the user's: the runtime's data comes first.
// RUN: %clang -O1 -pthread -fsanitize=efficiency-working-set -fuse-ld=bfd %s %t.2.ws.o -o %t.bf
// RUN: %run %t.bf > %t.bf.out 2>/dev/null
// RUN: not diff %t.pl.out %t.bf.out > /dev/null
// CHECK: part 1 globals: {{([0-9]+ )+}}
// CHECK: part 2 globals: {{([0-9]+ )+}}
// CHECK: main's frame: argv - {{[0-9]+}}
// CHECK: thread's frame: {{[0-9]+}}
// CHECK: heap: {{([0-9]+ )+}}
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define PAGE_OFFSET(p) ((unsigned)((uintptr_t)(p) % 4096))

#ifdef PART2
int data_a2 = 2;
char data_b2[5] = {1};
long data_c2[3] = {2};
short bss_a2;
char bss_b2[11];
long bss_c2[2];
static struct { char x; int y; } bss_s2;

void part2_globals(char *out, size_t size) {
  bss_s2.y++;
  snprintf(out, size, "part 2 globals: %u %u %u %u %u %u %u ",
           PAGE_OFFSET(&data_a2), PAGE_OFFSET(data_b2), PAGE_OFFSET(data_c2),
           PAGE_OFFSET(&bss_a2), PAGE_OFFSET(bss_b2), PAGE_OFFSET(bss_c2),
           PAGE_OFFSET(&bss_s2));
}
#else
int data_a = 1;
char data_b[3] = {1, 2, 3};
long data_c[5] = {1};
int bss_a;
char bss_b[7];
long bss_c[9];
static struct { int x; char y[13]; } bss_s;

void part2_globals(char *out, size_t size);

static char thread_line[64];

static void *worker(void *arg) {
  snprintf(thread_line, sizeof(thread_line), "thread's frame: %u",
           (unsigned)((uintptr_t)__builtin_frame_address(0) % 64));
  return arg;
}

int main(int argc, char **argv) {
  bss_s.x++;
  printf("part 1 globals: %u %u %u %u %u %u %u \n", PAGE_OFFSET(&data_a),
         PAGE_OFFSET(data_b), PAGE_OFFSET(data_c), PAGE_OFFSET(&bss_a),
         PAGE_OFFSET(bss_b), PAGE_OFFSET(bss_c), PAGE_OFFSET(&bss_s));
  char line[128];
  part2_globals(line, sizeof(line));
  printf("%s\n", line);
  printf("main's frame: argv - %lu\n",
         (unsigned long)((uintptr_t)argv - (uintptr_t)__builtin_frame_address(0)));
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  printf("%s\n", thread_line);
  printf("heap: ");
  for (int i = 0; i < 4; i++)
    printf("%u ", (unsigned)((uintptr_t)malloc(8 + 24 * i) % 64));
  printf("\n");
  return argc - 1;
}
#endif
