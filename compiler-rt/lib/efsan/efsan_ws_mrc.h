//===-- efsan_ws_mrc.h - the working set's miss-ratio curves -----*- C -*-===//
//
// Declarations of efsan_ws_mrc.c (see its header comment): which lines are
// observed, what the marking of the shadow calls for them, and the hooks
// the sampler, the phases and the report call.
//
//===----------------------------------------------------------------------===//
#ifndef EFSAN_WS_MRC_H
#define EFSAN_WS_MRC_H

#include "efsan_working_set.h"

// A line is observed when (its shadow byte's address * EFSAN_MRC_HASH),
// modulo 2^64, is at most this threshold: 2^(64 - s) - 1 observes 1/2^s of
// the lines, 0 none (the curves are off, or the runtime has not started).
// Instrumented code reads it in the cold block of its inline check
// (docs/InstrumentationABI.md, "Miss-ratio curves").
#define EFSAN_MRC_HASH 0x9e3779b97f4a7c15ULL
extern u64 __efsan_mrc_threshold[8]; // [0]; the line is its own

static inline bool efsan_ws_mrc_observed(const u8 *shadow) {
  return (u64)(uptr)shadow * EFSAN_MRC_HASH <=
         __atomic_load_n(&__efsan_mrc_threshold[0], __ATOMIC_RELAXED);
}
// An access to an observed line (its shadow byte lacks bit 0): logged by
// the calling thread; when recorded, its line gets bit 7 and, the first
// time in a sample period, the changed-page byte. Bit 0 stays clear, so the
// next access comes here too.
void efsan_ws_mrc_access(u8 *shadow);
// The calling thread ends: its log is recorded and given up.
void efsan_ws_mrc_thread_exit(void);

void efsan_ws_mrc_init(void);
void efsan_ws_mrc_fork_child(void);
// Around each sample's scan (sampler lock held): before, the observed lines
// touched in the period are taken (in address order); around the visit of
// each shadow page, bit 0 is set in those of the page, so that the scan
// counts them like any other line, and cleared again.
void efsan_ws_mrc_before_scan(void);
void efsan_ws_mrc_page_begin(const u64 *words, uptr count);
void efsan_ws_mrc_page_end(void);
void efsan_ws_mrc_after_scan(void);
// Around the report's count of the shadow (sampler lock held): bit 0 is set
// in the observed lines touched since the last sample, then cleared again.
void efsan_ws_mrc_report_begin(void);
void efsan_ws_mrc_report_end(void);
// Phases (sampler lock held): a phase opens; the phase `index` ends (or, with
// `open`, a report is made while it runs) and its curve is kept.
void efsan_ws_mrc_phase_open(void);
void efsan_ws_mrc_phase_count(u32 index, bool ends, const char *name);
void efsan_ws_mrc_print_phase_json(u32 index); // `"miss_ratio_curve": {..}, `
// The report (sampler lock held): attributes the observed lines to the
// listed structures of `top`, then prints.
void efsan_ws_mrc_attribute(const struct efsan_ws_top *top);
// The text: the program's curve and each phase's.
void efsan_ws_mrc_print_text(void);
void efsan_ws_mrc_print_json(void); // `"miss_ratio_curve": {...}`
// Under each listed structure of the attributed top, one line (nothing
// under the structures of a phase's top).
void efsan_ws_mrc_print_object_text(const struct efsan_ws_top *top, u32 i,
                                    const char *indent);
// In each listed structure's JSON entry of the attributed top (nothing for
// the structures of a phase's top).
void efsan_ws_mrc_print_object_json(const struct efsan_ws_top *top, u32 i);
// The end of a report (the open phase's curve is dropped).
void efsan_ws_mrc_report_done(void);

#endif // EFSAN_WS_MRC_H
