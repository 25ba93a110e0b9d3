// The runtime's own memory is never the program's: struct copies and
// clears in the runtime's C code, which the compiler makes calls of
// memcpy and memset, go to sanitizer_common's internal versions, not to
// the interceptors. Through them (the working-set timeline's copies on the
// sampler thread, with the default 20 ms period), the sampler's own stack
// and the runtime's tables counted as 15 lines of the program's "anonymous
// memory" here, and phase marks a few lines of the main thread's stack.
// This program touches only its heap buffer, a global and its own stack:
// the report's "other" must be 0.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: %run %t 2>&1 | FileCheck %s
// CHECK: heap     65536 lines
// CHECK: other    0 lines
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

__attribute__((weak)) void __efsan_mark_phase(const char *name);

static volatile unsigned long sink;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(void) {
  size_t bytes = 4 << 20; // 65536 lines: more than a snapshot's budget
  volatile unsigned char *buf = malloc(bytes);
  if (!buf)
    return 1;
  static const char *names[] = {"first", "second", "third", "fourth"};
  for (int phase = 0; phase < 4; phase++) {
    __efsan_mark_phase(names[phase]);
    double end = now() + 0.15;
    while (now() < end)
      for (size_t i = 0; i < bytes; i += 64)
        sink += buf[i]++;
  }
  __efsan_mark_phase(NULL);
  free((void *)buf);
  return 0;
}
