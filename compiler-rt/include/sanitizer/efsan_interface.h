//===-- sanitizer/efsan_interface.h -----------------------------*- C -*-===//
//
// Public interface of EfficiencySanitizer (efsan) for programs that want to
// ask for a report or read counters while they run. Works for both tools
// (-fsanitize=efficiency-working-set and -fsanitize=efficiency-cache-frag).
//
//===----------------------------------------------------------------------===//
#ifndef SANITIZER_EFSAN_INTERFACE_H
#define SANITIZER_EFSAN_INTERFACE_H

#include <sanitizer/common_interface_defs.h>

#ifdef __cplusplus
extern "C" {
#endif

// Prints the current report of the active tool now, to the same place and in
// the same format (text or JSON) as the report at exit. The report at exit is
// still written.
void __efsan_report(void);

// Working set: ends the open phase (taking a sample at once) and opens one
// named `name` (copied); NULL ends the open phase and opens none. The report
// lists every phase in order with its working set (the lines touched from
// its start to its end) and its largest data structures. No effect with the
// cache-frag tool.
//
// A program that must also build and link without the sanitizer declares
// the calls weak itself (without this header) and calls them only when the
// runtime is linked in (docs/WorkingSet.md, "Phases"):
//   __attribute__((weak)) void __efsan_mark_phase(const char *name);
//   if (__efsan_mark_phase) __efsan_mark_phase("load");
void __efsan_mark_phase(const char *name);

// Number of samples the working-set sampler has taken so far (0 for the
// cache-frag tool and when record_snapshots=0).
unsigned int __efsan_get_sample_count(void);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // SANITIZER_EFSAN_INTERFACE_H
