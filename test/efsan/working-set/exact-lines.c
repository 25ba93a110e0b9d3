// A program that touches exactly N distinct lines of heap reports N heap
// lines; the whole working set is at most 4 lines more (the format string
// printf reads and the stack of printf's arguments, see docs/WorkingSet.md).
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -f %t.a.* %t.b.* %t.c.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.a %run %t 1000 1
// RUN: %python %S/Inputs/check_report.py %t.a --count 1 \
// RUN:   "tool == 'working-set' and cache_line_size == 64" \
// RUN:   "heap == 1000 and 1000 <= total_lines <= 1000 + 4" \
// RUN:   "total_lines == heap + globals + stack + other" \
// RUN:   "total_bytes == 64 * total_lines and pid == filename_pid"
// Every byte of each line, and unaligned 8-byte accesses that straddle two
// lines: still one count per line.
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.b %run %t 37 64
// RUN: %python %S/Inputs/check_report.py %t.b "heap == 37"
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.c %run %t 4096 3
// RUN: %python %S/Inputs/check_report.py %t.c "heap == 4096"
// Text form.
// RUN: %run %t 1000 1 2>&1 | FileCheck %s
// CHECK: ==[[PID:[0-9]+]]==EfficiencySanitizer: the total working set size: {{100[0-4]}} cache lines ({{62\.[5-8]}} KiB)
// CHECK-NEXT: ==[[PID]]==  heap     1000 lines (62.5 KiB)
// CHECK: SUMMARY: EfficiencySanitizer: working set of {{100[0-4]}} cache lines ({{.*}}) in process [[PID]]
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  int lines = atoi(argv[1]);
  int stride = atoi(argv[2]); // bytes between accesses inside a line
  char *buffer = aligned_alloc(64, (size_t)lines * 64 + 64);
  volatile char *p = buffer;
  long sum = 0;
  for (int i = 0; i < lines; i++)
    for (int offset = 0; offset < 64; offset += stride)
      sum += p[i * 64 + offset]++;
  if (stride == 3) {
    // 8-byte loads at offset 60 of each line straddle into the next one;
    // stop one line early so the last one stays inside the N lines.
    for (int i = 0; i + 1 < lines; i++) {
      uint64_t v;
      memcpy(&v, buffer + i * 64 + 60, sizeof(v));
      sum += (long)v;
    }
  }
  printf("%ld\n", sum);
  return 0;
}
