//===-- efsan_ws_scan.h - the working-set sampler's scan of the shadow ----===//
//
// Shared by the sampler (efsan_working_set.c) and its scan of one shadow
// page (efsan_ws_scan.c): the levels, the selection of lines of estimated
// snapshots ("Estimated snapshots" in efsan_working_set.c) and what a scan
// is asked to do and counts.
//
//===----------------------------------------------------------------------===//
#ifndef EFSAN_WS_SCAN_H
#define EFSAN_WS_SCAN_H

#include "efsan_working_set.h"

#define NUM_LEVELS 7 // level 0 (bit 0) and levels 1..6 (bits 1..6)
#define ONES 0x0101010101010101ULL

static inline u64 line_hash(const u64 *word) {
  u64 z = ((uptr)word >> 3) + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Bit 0 of each byte whose line is selected at `shift`: those whose byte of
// the hash has its top `shift` bits clear (an exact zero-byte test).
static inline u64 selected_lines(u64 hash, int shift) {
  if (shift == 0)
    return ONES;
  u64 top = hash & (ONES * (u8)(0xff00 >> shift));
  u64 low7 = 0x7f7f7f7f7f7f7f7fULL;
  u64 zero = ~(((top & low7) + low7) | top | low7);
  return zero >> 7;
}

struct sample_scan {
  u64 due_bits; // bits 1..6 of every byte, for the levels due now
  u8 due_mask;  // the same bits of one byte
  u64 counts[NUM_LEVELS];
  int top_due;  // levels 1..top_due are due now (0: none)
  int count_shift; // level 0 counts the lines selected at this shift
  int clear_shift; // bit 0 is cleared in the lines selected at this shift
  bool estimating; // a shift above, or of a due level, is not 0
  int timeline_period_level; // the timeline's period ends now: its level
  bool timeline_history_ends; // the top level is due (bits 1..6 cleared)
  bool touched; // sample_words saw a bit 0 of a line counted now
  bool stuck;   // and left one set in a line not selected at clear_shift
};

// The largest shift in force in each level's period.
extern u8 efsan_ws_level_shift[NUM_LEVELS];

// Visits one shadow page that changed or holds bits of a due level
// (efsan_shadow_for_each_changed's visitor; arg: the struct sample_scan).
u8 efsan_ws_sample_page(u64 *words, uptr count, u8 pending, void *arg);

#endif // EFSAN_WS_SCAN_H
