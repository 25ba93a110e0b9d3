// __efsan_mark_phase: three named phases whose working sets are known. Each
// phase touches whole buffers; a line touched in two phases counts in both.
// The phase list is in order, each with its times (on the sampler's clock,
// one after the other), its lines and its top objects.
// RUN: %clang -O2 -g -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -f %t.log.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.log %run %t
// RUN: %python %S/Inputs/check_report.py %t.log --count 1 \
// RUN:   "[p['name'] for p in phases] == ['fill', 'mix', 'tail'] and not any(p['open'] for p in phases)" \
// RUN:   "1200 <= phases[0]['lines'] <= 1200 + 2" \
// RUN:   "700 <= phases[1]['lines'] <= 700 + 2" \
// RUN:   "50 <= phases[2]['lines'] <= 50 + 2" \
// RUN:   "phases[0]['objects'][0]['lines'] == 1200 and phases[0]['objects'][0]['alloc_stack'][0]['function'] == 'alloc_a'" \
// RUN:   "sorted((o['alloc_stack'][0]['function'], o['lines']) for o in phases[1]['objects'] if o['kind'] == 'heap') == [('alloc_a', 200), ('alloc_b', 500)]" \
// RUN:   "phases[2]['objects'][0]['lines'] == 50 and phases[2]['objects'][0]['alloc_stack'][0]['function'] == 'alloc_b'" \
// RUN:   "heap == 1700" \
// RUN:   "all(p['start_ms'] <= p['end_ms'] for p in phases)" \
// RUN:   "all(a['end_ms'] <= b['start_ms'] for a, b in zip(phases, phases[1:]))"
// With the sampler off (record_snapshots=0) the phase boundaries still
// sample, so the phases are the same.
// RUN: rm -f %t.off.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.off:record_snapshots=0 %run %t
// RUN: %python %S/Inputs/check_report.py %t.off --count 1 \
// RUN:   "[(p['name'], p['lines'] - p['lines'] % 50) for p in phases] == [('fill', 1200), ('mix', 700), ('tail', 50)]"
// A report while a phase runs lists it as open, with its lines so far; the
// phase ends at exit. (The strcmp of argv in the last phase reads up to 4
// more lines: the argument on the stack and the string literal, each of
// which may straddle two lines.)
// RUN: %run %t report-in-tail 2>&1 | FileCheck --check-prefix=NOW %s
// NOW: phase "fill", {{[0-9]+\.[0-9]+-[0-9]+\.[0-9]+}} s: {{120[0-2]}} lines
// NOW: phase "mix", {{[0-9]+\.[0-9]+-[0-9]+\.[0-9]+}} s: {{70[0-2]}} lines
// NOW: phase "tail" (still running, so far), {{[0-9]+\.[0-9]+-[0-9]+\.[0-9]+}} s: {{5[0-4]}} lines
// NOW: SUMMARY: EfficiencySanitizer
// NOW: phase "tail", {{[0-9]+\.[0-9]+-[0-9]+\.[0-9]+}} s: {{5[0-4]}} lines
// NOW: SUMMARY: EfficiencySanitizer
// Text form.
// RUN: %run %t 2>&1 | FileCheck %s
// CHECK: phases (__efsan_mark_phase), in order, each with the lines touched from its start to its end:
// CHECK-NEXT: phase "fill", {{[0-9]+\.[0-9]+-[0-9]+\.[0-9]+}} s: {{120[0-2]}} lines ({{.*}}), {{fits L[0-9]|exceeds L[0-9]|cache sizes unknown}}
// CHECK-NEXT: heap    1200 lines (75.0 KiB)  alloc_a {{.*}}named-phases.c
// CHECK: phase "mix", {{[0-9]+\.[0-9]+-[0-9]+\.[0-9]+}} s: {{70[0-2]}} lines
// CHECK-NEXT: heap    500 lines (31.3 KiB)  alloc_b
// CHECK: heap    200 lines (12.5 KiB)  alloc_a
// CHECK: phase "tail", {{[0-9]+\.[0-9]+-[0-9]+\.[0-9]+}} s: {{5[0-2]}} lines
// CHECK-NEXT: heap    50 lines (3.1 KiB)  alloc_b
#include <sanitizer/efsan_interface.h>
#include <stdlib.h>
#include <string.h>

#define SITE __attribute__((noinline, disable_tail_calls))
SITE char *alloc_a(void) { return aligned_alloc(64, 1200 * 64); }
SITE char *alloc_b(void) { return aligned_alloc(64, 500 * 64); }

__attribute__((noinline)) static void touch(volatile char *p, int lines) {
  for (int i = 0; i < lines; i++)
    p[i * 64]++;
}

int main(int argc, char **argv) {
  char *a = alloc_a(), *b = alloc_b();
  __efsan_mark_phase("fill");
  touch(a, 1200);
  __efsan_mark_phase("mix");
  touch(a, 200);
  touch(b, 500);
  __efsan_mark_phase("tail");
  touch(b + 100 * 64, 50);
  if (argc > 1 && !strcmp(argv[1], "report-in-tail"))
    __efsan_report();
  // The last phase stays open: the report at exit ends it.
  return 0;
}
