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

// Number of samples the working-set sampler has taken so far (0 for the
// cache-frag tool and when record_snapshots=0).
unsigned int __efsan_get_sample_count(void);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // SANITIZER_EFSAN_INTERFACE_H
