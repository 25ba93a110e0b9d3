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

// Names the memory [addr, addr + size) `name` (copied) in both tools'
// reports: the working set lists its lines as a data structure of their own
// (`mapping 2048 lines (128.0 KiB)  "Buffer Blocks" in /dev/zero (deleted)`),
// and cache-frag names it where a shared line falls in it. For a program
// that carves one mapping (shared memory) into parts; heap and global
// memory can be named too. A later call for an overlapping range replaces
// the overlap; a null or empty name takes the names of the range away. The
// names stay after the memory is unmapped, and a forked child inherits
// them. Thread-safe; size 0 does nothing.
//
// Weak, behind a macro of the same name, so that a program calls it
// unconditionally and also builds, links and runs without the sanitizer,
// where the call does nothing (the arguments are not evaluated then).
__attribute__((weak)) void __efsan_name_range(const void *addr, size_t size,
                                              const char *name);
#define __efsan_name_range(addr, size, name)                                   \
  (__efsan_name_range ? __efsan_name_range((addr), (size), (name)) : (void)0)

// Number of samples the working-set sampler has taken so far (0 for the
// cache-frag tool and when record_snapshots=0).
unsigned int __efsan_get_sample_count(void);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // SANITIZER_EFSAN_INTERFACE_H
