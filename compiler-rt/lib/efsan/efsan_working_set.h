//===-- efsan_working_set.h - the working-set tool's declarations -*- C -*-===//
//
// Shared by the working-set tool's files (efsan_working_set.c, efsan_ws_*.c):
// the sampler, objects, phases and the timeline. The core never includes it.
//
//===----------------------------------------------------------------------===//
#ifndef EFSAN_WORKING_SET_H
#define EFSAN_WORKING_SET_H

#include "efsan_internal.h"

extern const struct efsan_tool_hooks efsan_working_set_tool;

//===-- Marking (efsan_ws_mark.c) ------------------------------------------===//
// Working-set marking of the lines of [addr, addr+size) for ranges (libc's
// reads and writes, __efsan_memcpy and friends, the pass's per-loop marks):
// every shadow byte that lacks bit 0 gets bits 0 and 7, and each shadow page
// written gets its changed-page byte, stored after that page's shadow bytes.
// Bit 0 alone tells a marked line (bit 0 is only ever set together with bit
// 7: docs/InstrumentationABI.md). Inline because it runs for every range:
// a range of at most 16 lines that is all marked already this period (most
// strings and small copies) costs a load or two and a test, without a call.
// The loads read exactly the range's shadow bytes (overlapping when the
// count is not a power of two), so no shadow page outside it is faulted in.
#define EFSAN_WS_ACCESS_BITS 0x81
// The marking itself for the shadow bytes [first, last], in efsan_ws_mark.c:
// skips marked lines 32 at a time, stores only into bytes without bit 0.
void efsan_ws_mark_shadow(u8 *first, u8 *last);
// Ranges that are empty or reach past the end of the application's address
// space (marked up to that end).
void efsan_ws_mark_range_clipped(uptr addr, uptr size);

static inline bool efsan_ws_few_lines_marked(const u8 *first, const u8 *last,
                                             uptr span /* lines - 1 */) {
  if (span == 0)
    return *first & 1;
  if (span < 4) {
    u16 head, tail;
    __builtin_memcpy(&head, first, 2);
    __builtin_memcpy(&tail, last - 1, 2);
    return (head & tail & 0x0101) == 0x0101;
  }
  if (span < 8) {
    u32 head, tail;
    __builtin_memcpy(&head, first, 4);
    __builtin_memcpy(&tail, last - 3, 4);
    return (head & tail & 0x01010101u) == 0x01010101u;
  }
  u64 head, tail;
  __builtin_memcpy(&head, first, 8);
  __builtin_memcpy(&tail, last - 7, 8);
  return (head & tail & 0x0101010101010101ULL) == 0x0101010101010101ULL;
}

static inline void efsan_ws_mark_range(uptr addr, uptr size) {
  // An empty range or one that wraps around ends before it starts; one
  // past the application's space has a bit at or above bit 47.
  uptr end = addr + size - 1;
  if (__builtin_expect(end < addr || (addr | end) >= EFSAN_APP_END, 0)) {
    efsan_ws_mark_range_clipped(addr, size);
    return;
  }
  u8 *first = efsan_shadow_of(addr), *last = efsan_shadow_of(end);
  uptr span = (uptr)(last - first);
  if (span < 16 && efsan_ws_few_lines_marked(first, last, span))
    return;
  efsan_ws_mark_shadow(first, last);
}

//===-- Working set (efsan_working_set.c) ----------------------------------===//
void efsan_ws_init(void);
void efsan_ws_report(bool at_exit);
void efsan_ws_stop_sampler(void);
void efsan_ws_fork_child(void);
u32 efsan_ws_sample_count(void);
// "12.3 KiB": lines * 64 bytes with one decimal in the largest fitting unit.
void efsan_format_lines(char *buffer, uptr length, u64 lines);
// Takes a sample now that clears every line's "touched since the last
// sample" bit, even where estimated snapshots leave it set (a phase
// boundary: phases stay exact), then calls with_lock(arg) with the sampler
// lock still held (no other sample can start in between).
void efsan_ws_sample_now(void (*with_lock)(void *arg), void *arg);
// The time since the run started (since fork in a child) on the sampler's
// clock (sample_clock: wall-clock or the program's CPU time), in ns. Called
// with the sampler lock held (within efsan_ws_sample_now or a report).
u64 efsan_ws_elapsed_ns(void);
// The time of the last sample on that clock (the end of the snapshots it
// took; 0 before the first): a phase ends at its boundary's sample.
u64 efsan_ws_last_sample_ns(void);
// Set by the phase tracker while a phase is open: the sampler ORs each
// shadow word's "touched since the last sample" bits into the byte of this
// bitmap at the word's index (efsan_ws_phase_note).
extern u8 *efsan_ws_phase_bits;
void efsan_ws_phase_note(u64 *shadow_word, u64 touched);

//===-- Working set by object (efsan_ws_objects.c) -------------------------===//
enum efsan_ws_object_kind {
  EFSAN_WS_OBJECT_HEAP = 1,
  EFSAN_WS_OBJECT_GLOBAL,
  EFSAN_WS_OBJECT_STACK,
  EFSAN_WS_OBJECT_MAPPING,
  EFSAN_WS_OBJECT_KINDS
};
extern const char *const efsan_ws_object_kind_names[EFSAN_WS_OBJECT_KINDS];
bool efsan_ws_objects_enabled(void);
void efsan_ws_objects_init(void);
void efsan_ws_objects_thread_start(u32 thread, uptr lo, uptr hi,
                                   uptr start_routine);
// A tally of lines by object: begin builds the lookup tables (heap blocks,
// mappings, the region registry), add counts lines, top lists the largest.
// Tallies are made with the sampler lock held (the heap table is kept from
// one to the next while the heap does not change).
struct efsan_ws_objects;
struct efsan_ws_objects *efsan_ws_objects_begin(void);
void efsan_ws_objects_fork_child(void);
// Counts the lines app + 64 * i for each bit i of `lines` (app is the start
// of the 512 bytes one shadow word covers).
void efsan_ws_objects_add(struct efsan_ws_objects *tally, uptr app, u8 lines);
// The same, each line counting `scale` lines (an estimate from a sample of
// the lines), as lines of the object / as reused lines of it.
void efsan_ws_objects_add_scaled(struct efsan_ws_objects *tally, uptr app,
                                 u8 lines, u64 scale);
// The reuse split's sample (efsan_ws_timeline.c): lines counted in it, and
// of them those touched in several sample periods (unscaled).
void efsan_ws_objects_add_sampled(struct efsan_ws_objects *tally, uptr app,
                                  u8 lines);
void efsan_ws_objects_add_reused(struct efsan_ws_objects *tally, uptr app,
                                 u8 lines);
// Calls visit(id, lines, arg) for every object with lines. An id names the
// same object in every tally of the process (efsan_ws_object_name).
void efsan_ws_objects_for_each_count(struct efsan_ws_objects *tally,
                                     void (*visit)(u64 id, u64 lines, void *arg),
                                     void *arg);
const char *efsan_ws_object_name(u64 id, int *kind, u32 *stack_id);
// The object name of the part of a mapping named `name` (efsan_names.c).
const char *efsan_ws_mapping_part_name(u32 name);
// The name the program gave the object's range (__efsan_name_range), or
// null; and its JSON key after the object's name (nothing for null).
const char *efsan_ws_object_range_name(u64 id);
void efsan_ws_json_range_name(const char *name);
void efsan_ws_objects_end(struct efsan_ws_objects *tally);
// The object of the line at addr, and the entry of a top list it is listed
// as (or -1): the miss-ratio curves' structures (efsan_ws_mrc.c).
u64 efsan_ws_objects_id_of(struct efsan_ws_objects *tally, uptr addr);
struct efsan_ws_top;
int efsan_ws_objects_top_index(const struct efsan_ws_top *top, u64 id);
#define EFSAN_WS_MAX_TOP 100
struct efsan_ws_object {
  int kind;
  const char *name; // valid for the life of the process
  const char *range_name; // given by the program (a named range), or null
  u32 stack_id;     // heap: the allocation site's stack, 0 if none
  u64 lines;
  // Of the lines, those the reuse split counted (the lines selected for
  // estimated snapshots; all of them when exact), and of those the ones
  // touched in several sample periods: efsan_ws_reuse_of estimates.
  u64 sampled, reused;
};
// A reuse estimate: `reused` lines, between `low` and `high` (an interval of
// about 95% confidence; low == high == reused when exact).
struct efsan_ws_reuse {
  u64 lines, reused, low, high;
  bool estimated;
};
struct efsan_ws_top {
  u32 count;
  struct efsan_ws_object objects[EFSAN_WS_MAX_TOP];
  u64 total_objects, rest_objects, rest_lines;
  bool reuse_known;  // the timeline counted reused lines into the tally
  u64 reused_lines;  // of all objects (reuse.reused)
  struct efsan_ws_reuse reuse; // of all objects
  u64 sampled_lines, sampled_reused; // of all objects
};
// The `max` objects with the most lines, and what the others add up to
// (consumes the tally's counts).
void efsan_ws_objects_top(struct efsan_ws_objects *tally, u32 max,
                          struct efsan_ws_top *top);
void efsan_ws_objects_print_text(const struct efsan_ws_top *top,
                                 const char *indent);
// Prints the JSON list of objects.
void efsan_ws_objects_print_json(const struct efsan_ws_top *top);

//===-- Phases (efsan_ws_phases.c) -----------------------------------------===//
// Called with the sampler lock held by the report: takes the open phase's
// sample when a phase is open (at_exit: the phase ends there).
void efsan_ws_phases_before_report(bool at_exit);
void efsan_ws_phases_print_text(void);
// Prints "phases": [...].
void efsan_ws_phases_print_json(void);
void efsan_ws_phases_fork_child(void);

//===-- Shared mappings (efsan_ws_shared.c) -------------------------------===//
// Prints "shared_mappings": [...]: the lines of each shared mapping this
// process touched, by the mapping's device, inode and offset (no separator
// around it).
void efsan_ws_shared_print_json(void);

//===-- The timeline (efsan_ws_timeline.c) ---------------------------------===//
// Working set by object per period of the first level of >= 100 ms, and
// lines reused across sample periods. Set while the timeline is on: the
// sampler passes each shadow word's lines touched in the period it ends
// (those it counts) to efsan_ws_timeline_note.
extern u8 *efsan_ws_timeline_bits;
// Set once lines of a sample period before the top level's last snapshot
// are kept (the shadow's bits 1..6 no longer hold all of the history): from
// then on every word with lines counted is noted.
extern bool efsan_ws_timeline_seen_before;
bool efsan_ws_timeline_on(void);
void efsan_ws_timeline_init(void);
// Before a sample's scan, given the highest level due with it (levels
// 1..top_due snapshot now; 0: level 0 only): the level whose period (the
// timeline's) ends with it, or -1.
int efsan_ws_timeline_period_ends(int top_due);
// For a shadow word (bit 0 of each line's byte): `fresh`, its lines counted
// in the sample period that ends; `earlier`, its lines touched in an
// earlier one since the top level's last snapshot; `period`, its lines of
// the timeline period that ends now (0 if none does); `history_ends`: the
// top level's snapshot is taken now, and its bits 1..6 cleared.
void efsan_ws_timeline_note(const u64 *shadow_word, u64 fresh, u64 earlier,
                            u64 period, bool history_ends);
// After each sample (sampler lock held), taken at now_ns on the sampler's
// clock: the sample counted the lines selected at 1/2^count_shift and
// cleared bit 0 in those at clear_shift; period_ended: the timeline's
// level snapshot was taken with it (its period ends at now_ns).
void efsan_ws_timeline_sampled(bool period_ended, u64 now_ns, int count_shift,
                               int clear_shift);
// The report (sampler lock held): before_report, then count_word for every
// resident shadow word with a line ever touched (adds its reused lines to
// the report's tally), then after_count (at exit: ends the last period).
void efsan_ws_timeline_before_report(bool at_exit);
void efsan_ws_timeline_count_word(struct efsan_ws_objects *tally,
                                  const u64 *shadow_word, u64 value);
void efsan_ws_timeline_after_count(u64 now_ns);
// Phases: the lines of the open phase touched in several of its sample
// periods, counted into the phase's tally; dropped at a phase boundary.
void efsan_ws_timeline_count_phase_reused(struct efsan_ws_objects *tally);
void efsan_ws_timeline_phase_boundary(void);
void efsan_ws_timeline_fork_child(void);
// The reuse line of the total (per object and per phase: JSON only).
// Reuse estimates (efsan_ws_timeline.c). A structure's: from its lines and
// its sample (the ratio of reused lines in the sample, applied to all its
// lines; one no sampled line fell in takes the ratio of all structures').
void efsan_ws_reuse_of(const struct efsan_ws_top *top,
                       const struct efsan_ws_object *o,
                       struct efsan_ws_reuse *out);
// A total's: the sum of its structures' estimates (add each count entry).
struct efsan_ws_reuse_sum {
  u64 sampled, reused; // pooled, set before the first add
  u64 lines, estimate, known_reused, known_streamed;
  double variance;
  bool estimated;
};
void efsan_ws_reuse_add(struct efsan_ws_reuse_sum *sum, u64 lines, u64 sampled,
                        u64 reused);
void efsan_ws_reuse_total(const struct efsan_ws_reuse_sum *sum,
                          struct efsan_ws_reuse *out);
// "reused_lines": ..., "reused_lines_low": ..., "reused_lines_high": ...
void efsan_ws_reuse_print_json(const struct efsan_ws_reuse *r);
// Bit i: line i of the shadow word at `index` (of the bitmaps) is in the
// reuse split's sample (0xff when it counts every line).
u8 efsan_ws_timeline_sampled_lines(uptr index);
void efsan_ws_timeline_print_text(const char *indent,
                                  const struct efsan_ws_reuse *r);
// A listed structure's reuse, in one short line under it.
void efsan_ws_timeline_print_object_reuse(const char *indent,
                                          const struct efsan_ws_top *top,
                                          const struct efsan_ws_object *o);
// Prints "reused_lines": ..., "timeline": {...} (no separator around it).
void efsan_ws_timeline_print_json(const struct efsan_ws_reuse *r);
// Bit 0 of each byte of a shadow word whose level bits (1..6) are not all
// clear: the lines touched in an earlier sample period since the top
// level's last snapshot. (Each byte of `bits` has bits 0 and 7 clear, so
// adding 0x7f carries into bit 7 of that byte only, when it is not 0.)
static inline u64 efsan_ws_any_level_bit(u64 shadow_word) {
  u64 bits = shadow_word & 0x7e7e7e7e7e7e7e7eULL;
  return ((bits + 0x7f7f7f7f7f7f7f7fULL) >> 7) & 0x0101010101010101ULL;
}
// The sampler's selection of lines at 1/2^shift in a shadow word (bit 0 of
// each selected line's byte; estimated snapshots).
u64 efsan_ws_selected_lines(const u64 *shadow_word, int shift);
// "1", "0.5", ... "0.00390625": 1/2^shift exactly, for JSON.
const char *efsan_ws_fraction_text(int shift);

#endif // EFSAN_WORKING_SET_H
