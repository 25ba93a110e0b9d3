// A build's own -fomit-frame-pointer (x264's configure puts it in CFLAGS)
// does not cost allocation stacks their callers: instrumented code keeps
// its frame pointers whatever the command line says, before or after the
// sanitizer flag, since the runtime unwinds along them. Here an allocation
// wrapper in x264's shape (x264_malloc: memalign, then a check) is named
// as a wrapper, and each block by its caller.
// RUN: %clang -O2 -g -fomit-frame-pointer -momit-leaf-frame-pointer -fsanitize=efficiency-working-set %s -o %t
// RUN: %run %t 2>&1 | FileCheck %s
// RUN: %clang -O2 -g -fsanitize=efficiency-working-set -fomit-frame-pointer %s -o %t.after
// RUN: %run %t.after 2>&1 | FileCheck %s
// CHECK: data structures, most lines first
// CHECK-NEXT: heap    {{10[01]}} lines ({{.*}})  frame_new {{.*}}omit-frame-pointer.c
// CHECK-NEXT: through wrapper x264_malloc {{.*}}omit-frame-pointer.c
// CHECK-NEXT: called from main
// CHECK-NEXT: reused {{(about )?[0-9]+}} lines ({{[0-9]+}}%), streamed {{[0-9]+}} lines
// CHECK-NEXT: miss ratio
// CHECK-NEXT: heap    {{4[01]}} lines ({{.*}})  lookahead_new {{.*}}omit-frame-pointer.c
// CHECK-NEXT: through wrapper x264_malloc {{.*}}omit-frame-pointer.c
// CHECK-NEXT: called from main
// CHECK: SUMMARY
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) void *x264_malloc(size_t size) {
  void *p = memalign(64, size);
  if (!p)
    fprintf(stderr, "malloc of size %zu failed\n", size);
  return p;
}

#define FRAME __attribute__((noinline, disable_tail_calls)) static

FRAME char *frame_new(void) { return x264_malloc(100 * 64); }
FRAME char *lookahead_new(void) { return x264_malloc(40 * 64); }

static void touch(volatile char *p, int lines) {
  for (int i = 0; i < lines; i++)
    p[i * 64] = 1;
}

int main(void) {
  char *frame = frame_new();
  char *lookahead = lookahead_new();
  touch(frame, 100);
  touch(lookahead, 40);
  free(frame);
  free(lookahead);
  return 0;
}
