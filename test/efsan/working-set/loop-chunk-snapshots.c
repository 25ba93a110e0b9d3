// A loop marked in chunks keeps the snapshots' resolution: no line is marked
// more than a chunk ahead of the iteration that touches it. sweep() stores
// one byte per line of a 2 MiB array (stride 64: chunks of 262144 / 64 = 4096
// iterations, 4096 lines), and every 1024 iterations it reads a gate page
// that is not readable yet: the fault handler waits for two samples before
// it opens the page, so the loop stands still across a whole sample period
// at each of those points. The lines of a chunk, marked as the chunk starts,
// are therefore counted in one snapshot and never with those of the next
// chunk: no level-0 snapshot holds more than 4096 lines of the array (plus a
// few of the handler's stack and the gates, 64 is ample).
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -f %t.log.*
// RUN: env ESAN_OPTIONS=sample_freq=1:snapshot_history=65536:report_format=json:log_path=%t.log %run %t
// RUN: %python %S/Inputs/check_report.py %t.log --count 1 \
// RUN:   "heap == 32768" "samples >= 64" "max(level0) <= 4096 + 64"
// The check can fail: with a limit above 2 MiB the loop's copy marked before
// it runs instead, and its snapshot holds the whole array (if a sample fell
// in the middle of that mark, one of the two parts still exceeds a chunk).
// RUN: %clang -O2 -fsanitize=efficiency-working-set -mllvm -efsan-loop-range-limit=4194304 %s -o %t.whole
// RUN: rm -f %t.whole.log.*
// RUN: env ESAN_OPTIONS=sample_freq=1:snapshot_history=65536:report_format=json:log_path=%t.whole.log %run %t.whole
// RUN: %python %S/Inputs/check_report.py %t.whole.log --count 1 \
// RUN:   "heap == 32768" "max(level0) > 4096 + 64"
// sweep's loop is marked in chunks (with the default limit).
// RUN: %clang -O2 -fsanitize=efficiency-working-set -fno-discard-value-names -S -emit-llvm %s -o - | FileCheck %s
// CHECK-LABEL: define {{.*}} @sweep(
// CHECK: efsan.chunk.mark:
#include <sanitizer/efsan_interface.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

enum { LINES = 32768, GATE_EVERY = 1024, GATES = LINES / GATE_EVERY };

static long page_size;

static void open_gate(int sig, siginfo_t *info, void *context) {
  char *page = (char *)((uintptr_t)info->si_addr & ~(uintptr_t)(page_size - 1));
  unsigned start = __efsan_get_sample_count();
  while (__efsan_get_sample_count() < start + 2) {
    struct timespec pause = {0, 100 * 1000};
    nanosleep(&pause, NULL);
  }
  mprotect(page, page_size, PROT_READ);
}

// The gate's address depends on i >> 10, so its load keeps its own check;
// volatile, so that it stays in the loop. Neither unrolled (which would
// double the stride past a line) nor vectorised.
__attribute__((noinline)) long sweep(char *a, const volatile char *gates,
                                     long page, long n) {
  long s = 0;
#pragma clang loop unroll(disable) vectorize(disable)
  for (long i = 0; i < n; i++) {
    a[i * 64] = 1;
    s += gates[(i / GATE_EVERY) * page];
  }
  return s;
}

int main(void) {
  page_size = sysconf(_SC_PAGESIZE);
  char *gates = mmap(NULL, GATES * page_size, PROT_NONE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  char *a = aligned_alloc(64, LINES * 64);
  if (gates == MAP_FAILED || !a)
    return 1;
  struct sigaction action = {0};
  action.sa_sigaction = open_gate;
  action.sa_flags = SA_SIGINFO;
  sigaction(SIGSEGV, &action, NULL);
  printf("%ld\n", sweep(a, gates, page_size, LINES));
  return 0;
}
