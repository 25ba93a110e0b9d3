// The documented pattern for programs that also build without the
// sanitizer: weak declarations, called only when the runtime is there.
// Built without -fsanitize it links and runs; built with it, the phase is
// reported.
// RUN: %clang -O2 %s -o %t.plain && %run %t.plain | FileCheck --check-prefix=PLAIN %s
// PLAIN: no efsan
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t && %run %t 2>&1 | FileCheck --check-prefix=EFSAN %s
// EFSAN: efsan present
// EFSAN: phase "work", {{[0-9]+\.[0-9]+-[0-9]+\.[0-9]+}} s: {{[0-9]+}} lines
#include <stdio.h>

__attribute__((weak)) void __efsan_mark_phase(const char *name);
__attribute__((weak)) void __efsan_report(void);

static char buffer[100 * 64];

int main(void) {
  printf(__efsan_mark_phase ? "efsan present\n" : "no efsan\n");
  fflush(stdout);
  if (__efsan_mark_phase)
    __efsan_mark_phase("work");
  for (int i = 0; i < 100; i++)
    ((volatile char *)buffer)[i * 64]++;
  if (__efsan_mark_phase)
    __efsan_mark_phase(0);
  return 0;
}
