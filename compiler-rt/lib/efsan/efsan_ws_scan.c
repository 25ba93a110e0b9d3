//===-- efsan_ws_scan.c - the working-set sampler's scan of a shadow page -===//
//
// For each shadow word of a page that changed: count the lines touched in
// the period, move bit 0 into bits 1..6, count and clear the bits of the
// levels due, and hand the timeline and the open phase what they need (the
// lines the miss-ratio curves observe get their bit 0 for the page's visit
// only: efsan_ws_mrc.c). See
// efsan_working_set.c for the bits, the races with the program and the
// estimated snapshots.
//
//===----------------------------------------------------------------------===//
#include "efsan_ws_scan.h"
#include "efsan_ws_mrc.h"

#define ACCESS_BITS_ALL 0x8181818181818181ULL


// The number of bytes with bit 0 set in a word whose other bits are clear:
// the product adds all eight bytes into the top one (at most 8, no carry).
// The runtime is built for any x86-64, where __builtin_popcountll is a
// dozen instructions; this is one multiply.
static inline u64 count_bit0(u64 bits) { return (bits * ONES) >> 56; }

// What the timeline needs of a word (efsan_ws_timeline.c): the lines counted
// now, those of them touched in an earlier sample period (a level's bit: the
// shadow's own history since the top level's last snapshot), at the end of
// the timeline's period that level's lines, and at the top level's
// snapshot, where bits 1..6 are cleared, every line they hold. Most words of
// most samples need none of it: a line touched in this sample period only.
static inline __attribute__((always_inline)) void
note_timeline(const struct sample_scan *scan, const u64 *word, u64 old,
              u64 moved, u64 fresh, bool phase_open) {
  u64 earlier = efsan_ws_any_level_bit(old);
  int period_level = scan->timeline_period_level;
  u64 period = period_level < 0   ? 0
               : period_level == 0 ? fresh
                                   : (moved >> period_level) & ONES;
  if (!(fresh & earlier) && !period &&
      !(scan->timeline_history_ends && (fresh | earlier)) &&
      !(fresh && (phase_open || efsan_ws_timeline_seen_before)))
    return;
  efsan_ws_timeline_note(word, fresh, earlier, period,
                         scan->timeline_history_ends);
}

// For each shadow word that may have changed: the word with bit 0 moved
// into bits 1..6 and the bits of the due levels (1..top_due: a sample where
// level k is due is one where every lower level is) counted and cleared.
// See the top of efsan_working_set.c for why a plain store is safe when every line of
// the word has bits 0 and 7; any other word changes by compare-and-swap.
// Inlined twice: with top_due = 0 (three samples in four with the default
// snapshot_step) only words with a bit 0 change and the loop is short
// enough for every line of 1 GiB changed to cost a few milliseconds.
static inline __attribute__((always_inline)) void
sample_words(struct sample_scan *scan, u64 *words, uptr count, int top_due,
             bool estimating) {
  u64 due_bits = scan->due_bits;
  u64 interesting = ONES | due_bits;
  u64 counts[NUM_LEVELS] = {0};
  u64 any_touched = 0, any_stuck = 0;
  bool phase_open = efsan_ws_phase_bits != 0;
  bool timeline = efsan_ws_timeline_bits != 0;
  for (uptr i = 0; i < count; i++) {
    u64 old = __atomic_load_n(&words[i], __ATOMIC_RELAXED);
    if (!(old & interesting))
      continue;
    u64 counted = ONES, cleared = ONES, hash = 0;
    if (estimating) {
      hash = line_hash(&words[i]);
      counted = selected_lines(hash, scan->count_shift);
      cleared = scan->clear_shift == scan->count_shift
                    ? counted
                    : selected_lines(hash, scan->clear_shift);
    }
    u64 touched, fresh, moved;
    for (;;) {
      touched = old & ONES;
      // Bit 0 of the lines counted now says "touched in this period"; in the
      // others it is stale (stuck since an earlier sample) and is not copied:
      // no level counts them, and so a page that holds only stuck lines is
      // not visited again for the levels.
      fresh = touched & counted;
      // Each byte of `fresh` is 0 or 1, so the product sets bits 1..6 in
      // exactly those bytes, without carries between bytes.
      moved = (old & ~(touched & cleared)) | (fresh * 0x7e);
      u64 next = moved & ~due_bits;
      if (estimating && next == old)
        break; // stuck lines only: nothing to write
      if ((old & ACCESS_BITS_ALL) == ACCESS_BITS_ALL) {
        __atomic_store_n(&words[i], next, __ATOMIC_RELAXED);
        break;
      }
      if (__atomic_compare_exchange_n(&words[i], &old, next, false,
                                      __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        break;
      // The program set bits meanwhile: redo the word with its new value.
    }
    counts[0] += count_bit0(fresh);
    for (int level = 1; level <= top_due; level++) {
      u64 level_lines = ONES;
      if (estimating)
        level_lines = efsan_ws_level_shift[level] == scan->count_shift
                          ? counted
                          : selected_lines(hash, efsan_ws_level_shift[level]);
      counts[level] += count_bit0((moved >> level) & level_lines);
    }
    any_touched |= fresh;
    if (estimating)
      any_stuck |= touched & ~cleared;
    // Before the phase's note: the timeline reads the phase's bitmap.
    if (EFSAN_UNLIKELY(timeline))
      note_timeline(scan, &words[i], old, moved, fresh, phase_open);
    if (EFSAN_UNLIKELY(phase_open) && touched)
      efsan_ws_phase_note(&words[i], touched);
  }
  for (int level = 0; level <= top_due; level++)
    scan->counts[level] += counts[level];
  scan->touched = any_touched != 0;
  scan->stuck = any_stuck != 0;
}

static void sample_words_level0(struct sample_scan *scan, u64 *words,
                                uptr count) {
  sample_words(scan, words, count, 0, false);
}

static void sample_words_due(struct sample_scan *scan, u64 *words,
                             uptr count) {
  sample_words(scan, words, count, scan->top_due, false);
}

static void sample_words_estimating(struct sample_scan *scan, u64 *words,
                                    uptr count) {
  sample_words(scan, words, count, scan->top_due, true);
}

// One shadow page that changed or holds bits of a due level. Its pending
// byte says which levels' bits it may hold: after the visit, those not due
// now, plus all of them if a line had bit 0.
u8 efsan_ws_sample_page(u64 *words, uptr count, u8 pending, void *arg) {
  struct sample_scan *scan = arg;
  scan->touched = false;
  scan->stuck = false;
  efsan_ws_mrc_page_begin(words, count);
  if (scan->estimating)
    sample_words_estimating(scan, words, count);
  else if (scan->top_due == 0)
    sample_words_level0(scan, words, count);
  else
    sample_words_due(scan, words, count);
  efsan_ws_mrc_page_end();
  pending &= (u8)~(scan->due_mask | 1);
  if (scan->touched)
    pending |= 0x7e;
  if (scan->stuck)
    pending |= 1;
  return pending;
}
