//===-- efsan_ws_timeline.c - which data structure makes the working set when ===//
//
// Two questions the totals cannot answer: which data structure makes the
// working set at each moment, and whether its lines are reused from one
// period to the next (a cache helps) or touched once (streamed: no cache
// size helps).
//
// What a line's history needs is mostly in the shadow already: bits 1..6
// of a line's byte say it was touched in an earlier sample period since
// the top level's last snapshot, and bit k that it was touched in level
// k's open period. The sampler passes a shadow word here only when that is
// not enough (efsan_ws_timeline_note; most words of most samples: none):
//   - period: at the end of the timeline's period (that of the first
//     snapshot level of at least 100 ms, 320 ms with the defaults, which a
//     phase boundary ends early), the lines of that level's bit; they are split by object (the same
//     attribution as the report's, efsan_ws_objects.c) and the largest
//     objects kept: a series of the working set by object;
//   - reused: lines counted in a sample period and touched in an earlier
//     one (in several sample periods);
//   - seen: at the top level's snapshot, which clears bits 1..6, the lines
//     touched so far: from then on a line's earlier periods are its level
//     bits or this bitmap (and every word with counted lines is passed);
//   - phase reused: lines counted in a sample period of the open phase that
//     the phase's own bitmap already holds (touched in an earlier one).
// Each is a bitmap of one bit per line (1/8 of the shadow's reservation,
// NORESERVE; what is resident is 1/512 of the memory noted), as the
// phases' bitmap. The cost: per sample, a few ALU operations per shadow
// word with a counted line and a bitmap byte read for those with a reused
// one; once per period, the period's lines and the attribution. The
// sampler counts at most about 2 x snapshot_budget lines per sample
// (estimated snapshots), so the notes are bounded by the budget, not by
// the working set; the timeline's CPU time is the sampler's and counts
// against sampler_max_cpu like the scan's.
//
// Estimated snapshots: beyond snapshot_budget lines per period the sampler
// counts only a fixed selection of 1/2^s of the lines, so only those are
// noted. The selection at s + 1 is part of the one at s, so the lines
// selected at the largest s ever used were noted in every period: reuse is
// known for those only (all lines when s = 0), and each structure's reused
// lines are estimated as the share of its sampled lines that were reused
// times its exact lines, with an interval ("Reuse estimates" below); a
// period's objects are counted on the lines selected at the largest s of
// its samples.
//
// The series stays bounded: at most max(snapshot_history, 4) entries. When
// they are all used, pairs of neighbours become one entry that covers both
// spans and holds the busier of their periods (a real period's objects, so
// an entry's objects still add up to that period's lines); later periods
// are merged as many into one entry as the older ones.
//
// Everything here runs with the sampler lock held.
//
//===----------------------------------------------------------------------===//
#include "efsan_working_set.h"

#define BITMAP_SIZE ((EFSAN_SHADOW_END - EFSAN_SHADOW_OFFSET) / 8)
#define ONES 0x0101010101010101ULL
// Objects kept per period (more than are shown, so that a shown object is
// rarely left out of a period where it was small).
#define PERIOD_TOP 16
// Objects in the series of the report (the others count as "rest").
#define SHOWN_MAX 10
#define FIRST_LEVEL_MS 100

// The bytes written since the last clear are in a few ranges: one byte of
// bitmap covers 512 bytes of the program, so the heap's bytes and a
// thread stack's are some 10^11 bytes apart, and one range over both would
// make every pass (mincore over the range) cost milliseconds.
#define BITMAP_RANGES 8
#define RANGE_GAP (64 << 10) // bytes of bitmap (32 MiB of the program)
struct bitmap {
  u8 *bits;
  u32 ranges, last;
  uptr lo[BITMAP_RANGES], hi[BITMAP_RANGES]; // bytes [lo, hi] written
};

struct entry {
  u64 start_ns, end_ns; // the span it covers
  u64 lines;            // of its period (estimated if shift)
  u32 periods;          // periods in the span
  u8 shift;             // counted on 1/2^shift of the lines
  u8 count;
  u64 ids[PERIOD_TOP];
  u64 id_lines[PERIOD_TOP];
};

u8 *efsan_ws_timeline_bits; // the period bitmap, null while off
bool efsan_ws_timeline_seen_before;
static struct bitmap period_map, seen_map, reused_map, phase_reused_map;
static struct entry *entries;
static u32 num_entries, max_entries;
static u32 span = 1;    // periods per entry
static u64 closed;      // periods closed
static int level;       // the level whose period the timeline uses
static u64 period_samples;
static u64 period_start_ns;
static int period_shift;   // largest share counted in the open period
static int run_shift;      // largest share counted or left in force ever

bool efsan_ws_timeline_on(void) { return efsan_ws_timeline_bits != 0; }

static u64 period_ms(void) {
  return (u64)efsan_flags.sample_freq * period_samples;
}

void efsan_ws_timeline_init(void) {
  if (!efsan_flags.record_snapshots || !efsan_flags.record_timeline ||
      !efsan_ws_objects_enabled())
    return;
  level = 0;
  period_samples = 1;
  while (level < 6 && (u64)efsan_flags.sample_freq * period_samples <
                          FIRST_LEVEL_MS) {
    level++;
    period_samples <<= efsan_flags.snapshot_step;
  }
  max_entries = (u32)efsan_flags.snapshot_history & ~1u;
  if (max_entries < 4)
    max_entries = 4;
  entries = efsan_mmap_noreserve(max_entries * sizeof(struct entry));
  struct bitmap *maps[] = {&period_map, &seen_map, &reused_map,
                           &phase_reused_map};
  for (int i = 0; i < 4; i++) {
    maps[i]->bits = efsan_mmap_noreserve(BITMAP_SIZE);
    efsan_regions_exclude((uptr)maps[i]->bits,
                          (uptr)maps[i]->bits + BITMAP_SIZE);
  }
  efsan_ws_timeline_bits = period_map.bits;
}

// Bit i of the result: byte i of a word of shadow bytes has bit 0 (bytes
// of 0 or 1 gathered into the top byte by the product, without carries).
static inline u8 gather(u64 bit0s) {
  return (u8)(((bit0s & ONES) * 0x0102040810204080ULL) >> 56);
}

static uptr gap_to(const struct bitmap *b, u32 r, uptr index) {
  return index < b->lo[r] ? b->lo[r] - index
         : index > b->hi[r] ? index - b->hi[r]
                            : 0;
}

// Index joins the nearest range within RANGE_GAP, else a new one; with
// all ranges used, the nearest one grows (the two nearest would be better,
// but programs have few distant areas).
static void bitmap_extend(struct bitmap *b, uptr index) {
  u32 best = 0;
  uptr best_gap = ~(uptr)0;
  for (u32 r = 0; r < b->ranges; r++) {
    uptr gap = gap_to(b, r, index);
    if (gap < best_gap) {
      best_gap = gap;
      best = r;
    }
  }
  if (best_gap > RANGE_GAP && b->ranges < BITMAP_RANGES) {
    best = b->ranges++;
    b->lo[best] = b->hi[best] = index;
  }
  if (index < b->lo[best])
    b->lo[best] = index;
  if (index > b->hi[best])
    b->hi[best] = index;
  b->last = best;
}

static inline void bitmap_or(struct bitmap *b, uptr index, u8 lines) {
  u8 old = b->bits[index];
  if ((u8)(old | lines) == old)
    return;
  b->bits[index] = old | lines;
  if (EFSAN_UNLIKELY(!b->ranges || index < b->lo[b->last] ||
                     index > b->hi[b->last]))
    bitmap_extend(b, index);
}

// Calls visit over the resident words of the written ranges.
static void bitmap_for_each(struct bitmap *b, efsan_shadow_visitor visit,
                            void *arg) {
  for (u32 r = 0; r < b->ranges; r++)
    efsan_for_each_resident((uptr)b->bits + (b->lo[r] & ~(uptr)7),
                            (uptr)b->bits + ((b->hi[r] + 8) & ~(uptr)7),
                            visit, arg, 0);
}

static void bitmap_clear(struct bitmap *b) {
  uptr page = efsan_page_size();
  for (u32 r = 0; r < b->ranges; r++) {
    uptr lo = ((uptr)b->bits + b->lo[r]) & ~(page - 1);
    uptr hi = ((uptr)b->bits + b->hi[r] + page) & ~(page - 1);
    efsan_madvise_dontneed(lo, hi - lo);
  }
  b->ranges = 0;
  b->last = 0;
}

static uptr index_of(const u64 *shadow_word) {
  return ((uptr)shadow_word - EFSAN_SHADOW_OFFSET) / 8;
}

static const u64 *shadow_word_of(uptr index) {
  return (const u64 *)(EFSAN_SHADOW_OFFSET + index * 8);
}

// The lines of the shadow word at `index` selected at 1/2^shift.
static u8 selected(uptr index, int shift) {
  return shift ? gather(efsan_ws_selected_lines(shadow_word_of(index), shift))
               : 0xff;
}

int efsan_ws_timeline_period_ends(int top_due) {
  if (!efsan_ws_timeline_bits || top_due < level)
    return -1;
  return level;
}

static bool bitmap_holds(const struct bitmap *b, uptr index) {
  for (u32 r = 0; r < b->ranges; r++)
    if (index >= b->lo[r] && index <= b->hi[r])
      return true;
  return false;
}

void efsan_ws_timeline_note(const u64 *shadow_word, u64 fresh, u64 earlier,
                            u64 period, bool history_ends) {
  u8 lines = gather(fresh);
  u8 before = gather(earlier);
  uptr index = index_of(shadow_word);
  if (lines && efsan_ws_timeline_seen_before && bitmap_holds(&seen_map, index))
    before |= seen_map.bits[index];
  if (before & lines)
    bitmap_or(&reused_map, index, before & lines);
  if (period)
    bitmap_or(&period_map, index, gather(period));
  if (history_ends && (before | lines)) {
    bitmap_or(&seen_map, index, before | lines);
    efsan_ws_timeline_seen_before = true;
  }
  // Before the phase's bitmap takes this period's lines: what it holds was
  // touched in an earlier sample period of the phase.
  if (efsan_ws_phase_bits && lines) {
    u8 again = efsan_ws_phase_bits[index] & lines;
    if (again)
      bitmap_or(&phase_reused_map, index, again);
  }
}

//===-- Periods ---------------------------------------------------------------===//

static void keep_top(u64 id, u64 lines, void *arg) {
  struct entry *e = arg;
  e->lines += lines;
  u32 at = e->count;
  while (at > 0 && (e->id_lines[at - 1] < lines ||
                    (e->id_lines[at - 1] == lines && e->ids[at - 1] > id)))
    at--;
  if (at >= PERIOD_TOP)
    return;
  u32 last = e->count < PERIOD_TOP ? e->count : PERIOD_TOP - 1;
  for (u32 i = last; i > at; i--) {
    e->ids[i] = e->ids[i - 1];
    e->id_lines[i] = e->id_lines[i - 1];
  }
  e->ids[at] = id;
  e->id_lines[at] = lines;
  if (e->count < PERIOD_TOP)
    e->count++;
}

// Counts a bitmap's lines selected at 1/2^shift into a tally, each for
// 2^shift lines: as lines of their objects, or as reused lines.
struct bitmap_count {
  struct efsan_ws_objects *tally;
  const u8 *bits;
  int shift;
  bool reused;
};

static void count_bitmap_words(u64 *words, uptr count, void *arg) {
  struct bitmap_count *c = arg;
  for (uptr i = 0; i < count; i++) {
    u64 word = words[i];
    if (!word)
      continue;
    // Byte b of the word is shadow word (index + b): 512 bytes of app each.
    uptr index = (uptr)&words[i] - (uptr)c->bits;
    for (int b = 0; b < 8; b++) {
      u8 lines = (u8)(word >> (8 * b)) & selected(index + (uptr)b, c->shift);
      if (!lines)
        continue;
      uptr app = (index + (uptr)b) * 512;
      if (c->reused)
        efsan_ws_objects_add_reused(c->tally, app, lines);
      else
        efsan_ws_objects_add_scaled(c->tally, app, lines, 1ULL << c->shift);
    }
  }
}

// Entry `into` takes `from`'s span too, and the busier period of the two.
static void merge(struct entry *into, const struct entry *from) {
  u64 start = into->start_ns;
  u32 periods = into->periods + from->periods;
  if (from->lines > into->lines)
    *into = *from;
  into->start_ns = start;
  into->end_ns = from->end_ns;
  into->periods = periods;
}

static void append(const struct entry *e) {
  if (num_entries && entries[num_entries - 1].periods < span) {
    merge(&entries[num_entries - 1], e);
    return;
  }
  if (num_entries == max_entries) {
    u32 kept = 0;
    for (u32 i = 0; i < num_entries; i += 2) {
      entries[kept] = entries[i];
      if (i + 1 < num_entries)
        merge(&entries[kept], &entries[i + 1]);
      kept++;
    }
    num_entries = kept;
    span *= 2;
    if (entries[num_entries - 1].periods < span) {
      merge(&entries[num_entries - 1], e);
      return;
    }
  }
  entries[num_entries++] = *e;
}

static void close_period(u64 now_ns) {
  struct entry e;
  efsan_internal_memset(&e, 0, sizeof(e));
  e.start_ns = period_start_ns;
  e.end_ns = now_ns;
  e.periods = 1;
  e.shift = (u8)period_shift;
  if (period_map.ranges) {
    u64 started = efsan_thread_cpu_ns();
    struct bitmap_count c = {efsan_ws_objects_begin(), period_map.bits,
                             period_shift, false};
    bitmap_for_each(&period_map, count_bitmap_words, &c);
    efsan_ws_objects_for_each_count(c.tally, keep_top, &e);
    efsan_ws_objects_end(c.tally);
    efsan_vreport(3, "timeline: period %llu split by object in %llu us of CPU\n",
                  closed + 1, (efsan_thread_cpu_ns() - started) / 1000);
    bitmap_clear(&period_map);
  }
  append(&e);
  closed++;
  period_start_ns = now_ns;
  period_shift = 0;
}

void efsan_ws_timeline_sampled(bool period_ended, u64 now_ns, int count_shift,
                               int clear_shift) {
  if (!efsan_ws_timeline_bits)
    return;
  if (count_shift > period_shift)
    period_shift = count_shift;
  if (count_shift > run_shift)
    run_shift = count_shift;
  // Lines selected at a larger share than the one cleared now may keep a
  // stale bit 0: the report counts on the selection at run_shift.
  if (clear_shift > run_shift)
    run_shift = clear_shift;
  if (period_ended)
    close_period(now_ns);
}

//===-- Reports ---------------------------------------------------------------===//

// The report's pass over the resident shadow: each word's reused lines,
// with those touched since the last sample (bit 0; on the selection at
// run_shift bit 0 is never stale) counted as a sample period of their own.
// At exit they also end the last period.
static bool closing_at_exit;
void efsan_ws_timeline_count_word(struct efsan_ws_objects *tally,
                                  const u64 *shadow_word, u64 value) {
  uptr index = index_of(shadow_word);
  u8 sel = selected(index, run_shift);
  u8 now = gather(value) & sel;
  u8 before = gather(efsan_ws_any_level_bit(value));
  if (efsan_ws_timeline_seen_before && bitmap_holds(&seen_map, index))
    before |= seen_map.bits[index];
  u8 reused = (reused_map.bits[index] | (before & now)) & sel;
  uptr app = efsan_app_of_shadow((const u8 *)shadow_word);
  u8 sampled = gather(value >> 7) & sel;
  if (sampled)
    efsan_ws_objects_add_sampled(tally, app, sampled);
  if (reused)
    efsan_ws_objects_add_reused(tally, app, reused);
  // The open period's lines: those of the earlier samples of the period
  // (its level's bit) and those touched since the last sample.
  u8 open = level ? gather(value >> level) & sel : 0;
  if (closing_at_exit && (now | open))
    bitmap_or(&period_map, index, now | open);
}

void efsan_ws_timeline_before_report(bool at_exit) {
  closing_at_exit = at_exit && efsan_ws_timeline_bits;
  if (closing_at_exit && run_shift > period_shift)
    period_shift = run_shift;
}

void efsan_ws_timeline_after_count(u64 now) {
  if (!closing_at_exit)
    return;
  closing_at_exit = false;
  // The last partial period, unless it is empty and took no time.
  if (period_map.ranges || now > period_start_ns)
    close_period(now);
}

u8 efsan_ws_timeline_sampled_lines(uptr index) {
  return efsan_ws_timeline_bits ? selected(index, run_shift) : 0xff;
}

void efsan_ws_timeline_count_phase_reused(struct efsan_ws_objects *tally) {
  struct bitmap_count c = {tally, phase_reused_map.bits, run_shift, true};
  if (efsan_ws_timeline_bits)
    bitmap_for_each(&phase_reused_map, count_bitmap_words, &c);
}

void efsan_ws_timeline_phase_boundary(void) {
  if (efsan_ws_timeline_bits)
    bitmap_clear(&phase_reused_map);
}

void efsan_ws_timeline_fork_child(void) {
  if (!efsan_ws_timeline_bits)
    return;
  // The child's working set starts at fork: so do its periods.
  struct bitmap *maps[] = {&period_map, &seen_map, &reused_map,
                           &phase_reused_map};
  for (int i = 0; i < 4; i++) {
    maps[i]->ranges = 1;
    maps[i]->lo[0] = 0;
    maps[i]->hi[0] = BITMAP_SIZE - 1;
    bitmap_clear(maps[i]);
  }
  efsan_ws_timeline_seen_before = false;
  num_entries = 0;
  span = 1;
  closed = 0;
  period_start_ns = 0;
  period_shift = 0;
  run_shift = 0;
}

//===-- Printing --------------------------------------------------------------===//

static u64 min_u64(u64 a, u64 b) { return a < b ? a : b; }

//===-- Reuse estimates --------------------------------------------------------===//
//
// With estimated snapshots the reuse split knows the history of the lines
// selected at run_shift only (the others keep a stale bit 0: their later
// touches are not seen). Scaling those up by 2^s (what the snapshots do)
// put the estimate's sampling error on every structure: a 64 KiB table read
// in every period came out "reused about 896 lines (87%)", then 960 the
// next run, for 1025 (100%) exact. Each structure's lines are exact, so the
// estimate is the ratio of reused lines in its sample applied to its lines:
// a structure that is all reused (or all streamed) in the sample is
// reported so, and the sampling error is that of a proportion. The interval
// is Wilson's score interval at two standard errors (about 95%), narrowed
// by the finite-population factor sqrt((N - n) / (N - 1)) (a structure
// whose every line is in the sample is exact), and never beyond what the
// sample knows: at least its reused lines, at most its lines less its
// streamed ones.

static double sqrt_of(double x) {
  if (x <= 0)
    return 0;
  double r = x < 1 ? 1 : x;
  for (int i = 0; i < 64; i++) {
    double next = 0.5 * (r + x / r);
    if (next >= r)
      break;
    r = next;
  }
  return r;
}

static u64 round_of(double x) { return x <= 0 ? 0 : (u64)(x + 0.5); }

// Estimate of one structure (or count entry). `pool_*`: the ratio taken
// when no line of it is in the sample.
static void estimate(u64 lines, u64 sampled, u64 reused, u64 pool_sampled,
                     u64 pool_reused, struct efsan_ws_reuse *r) {
  efsan_internal_memset(r, 0, sizeof(*r));
  r->lines = lines;
  sampled = min_u64(sampled, lines);
  reused = min_u64(reused, sampled);
  if (sampled == lines) {
    r->reused = r->low = r->high = reused;
    return;
  }
  r->estimated = true;
  if (!sampled) {
    double p = pool_sampled ? (double)pool_reused / (double)pool_sampled : 0;
    r->reused = round_of(p * (double)lines);
    r->low = 0;
    r->high = lines;
    return;
  }
  double n = (double)sampled, p = (double)reused / n, z = 2;
  double denom = 1 + z * z / n;
  double center = (p + z * z / (2 * n)) / denom;
  double half = z * sqrt_of(p * (1 - p) / n + z * z / (4 * n * n)) / denom;
  double fpc = sqrt_of((double)(lines - sampled) / (double)(lines - 1));
  double lo = p - (p - (center - half)) * fpc;
  double hi = p + (center + half - p) * fpc;
  double known_low = (double)reused;
  double known_high = (double)(lines - (sampled - reused));
  double low = lo * (double)lines, high = hi * (double)lines;
  r->reused = round_of(p * (double)lines);
  r->low = low < known_low ? reused : (u64)low; // rounded outwards
  r->high = high > known_high ? lines - (sampled - reused) : (u64)(high + 0.999);
  if (r->reused < r->low)
    r->reused = r->low;
  if (r->reused > r->high)
    r->reused = r->high;
}

void efsan_ws_reuse_of(const struct efsan_ws_top *top,
                       const struct efsan_ws_object *o,
                       struct efsan_ws_reuse *out) {
  estimate(o->lines, o->sampled, o->reused, top->sampled_lines,
           top->sampled_reused, out);
}

void efsan_ws_reuse_add(struct efsan_ws_reuse_sum *sum, u64 lines, u64 sampled,
                        u64 reused) {
  struct efsan_ws_reuse r;
  estimate(lines, sampled, reused, sum->sampled, sum->reused, &r);
  sampled = min_u64(sampled, lines);
  reused = min_u64(reused, sampled);
  sum->lines += lines;
  sum->estimate += r.reused;
  sum->known_reused += reused;
  sum->known_streamed += sampled - reused;
  // Each interval as two standard errors of an independent estimate.
  double half = (double)(r.high - r.low) / 4;
  sum->variance += half * half;
  sum->estimated |= r.estimated;
}

void efsan_ws_reuse_total(const struct efsan_ws_reuse_sum *sum,
                          struct efsan_ws_reuse *out) {
  efsan_internal_memset(out, 0, sizeof(*out));
  out->lines = sum->lines;
  out->reused = min_u64(sum->estimate, sum->lines);
  out->estimated = sum->estimated;
  double margin = 2 * sqrt_of(sum->variance);
  double low = (double)out->reused - margin, high = (double)out->reused + margin;
  double known_high = (double)(sum->lines - sum->known_streamed);
  out->low = low < (double)sum->known_reused ? sum->known_reused : (u64)low;
  out->high = high > known_high ? sum->lines - sum->known_streamed
                                : (u64)(high + 0.999);
  if (!out->estimated)
    out->low = out->high = out->reused;
  if (out->reused < out->low)
    out->low = out->reused;
  if (out->reused > out->high)
    out->high = out->reused;
}

void efsan_ws_reuse_print_json(const struct efsan_ws_reuse *r) {
  efsan_printf("\"reused_lines\": %llu, \"reused_lines_low\": %llu, "
               "\"reused_lines_high\": %llu",
               r->reused, r->low, r->high);
}

//===-- Printing --------------------------------------------------------------===//

// " (95% confidence: 993-1024)" for an estimate, "" when exact.
static void format_interval(char *buffer, uptr length,
                            const struct efsan_ws_reuse *r) {
  buffer[0] = 0;
  if (r->estimated)
    efsan_snprintf(buffer, length, ", between %llu and %llu at 95%% "
                   "confidence", r->low, r->high);
}

// The reuse line of the total or of a phase: the cache verdict that matters
// for caching is the reused part's.
void efsan_ws_timeline_print_text(const char *indent,
                                  const struct efsan_ws_reuse *r) {
  char size[32], streamed[32], fit[64], interval[96];
  u64 total = r->lines, reused = min_u64(r->reused, total);
  efsan_format_lines(size, sizeof(size), reused);
  efsan_format_lines(streamed, sizeof(streamed), total - reused);
  efsan_cache_fit_text(fit, sizeof(fit), reused);
  format_interval(interval, sizeof(interval), r);
  efsan_report_line("%sreused (touched in several sample periods): %s%llu "
                    "lines (%s%s), %s; streamed (in one period only): %s%llu "
                    "lines (%s)\n",
                    indent, r->estimated ? "about " : "", reused, size,
                    interval, fit, r->estimated ? "about " : "",
                    total - reused, streamed);
}

// The fit verdict is the total's and the phases' concern; under a structure
// the split is enough, and the percentage rounds down so that 100% means
// nothing of it was streamed (of its sample, when estimated).
void efsan_ws_timeline_print_object_reuse(const char *indent,
                                          const struct efsan_ws_top *top,
                                          const struct efsan_ws_object *o) {
  struct efsan_ws_reuse r;
  char interval[96];
  efsan_ws_reuse_of(top, o, &r);
  format_interval(interval, sizeof(interval), &r);
  efsan_report_line("%sreused %s%llu lines (%llu%%%s), streamed %s%llu lines\n",
                    indent, r.estimated ? "about " : "", r.reused,
                    r.lines ? r.reused * 100 / r.lines : 0, interval,
                    r.estimated ? "about " : "", r.lines - r.reused);
}

// The objects of the series: those with the most lines x time over all
// entries, at most SHOWN_MAX (and report_objects).
struct shown {
  u32 count;
  u64 ids[SHOWN_MAX];
};

static void choose_shown(struct shown *shown) {
  u32 max = (u32)efsan_flags.report_objects;
  if (max > SHOWN_MAX)
    max = SHOWN_MAX;
  shown->count = 0;
  u64 best_weight[SHOWN_MAX];
  // Candidates: every id of an entry. Few entries x PERIOD_TOP: quadratic
  // is fine at report time.
  for (u32 i = 0; i < num_entries; i++)
    for (u32 k = 0; k < entries[i].count; k++) {
      u64 id = entries[i].ids[k];
      bool known = false;
      for (u32 s = 0; s < shown->count && !known; s++)
        known = shown->ids[s] == id;
      for (u32 j = 0; j < i && !known; j++)
        for (u32 m = 0; m < entries[j].count && !known; m++)
          known = entries[j].ids[m] == id;
      if (known)
        continue;
      u64 weight = 0;
      for (u32 j = i; j < num_entries; j++)
        for (u32 m = 0; m < entries[j].count; m++)
          if (entries[j].ids[m] == id)
            weight += entries[j].id_lines[m] *
                      ((entries[j].end_ns - entries[j].start_ns) / 1000 + 1);
      u32 at = shown->count;
      while (at > 0 && best_weight[at - 1] < weight)
        at--;
      if (at >= max)
        continue;
      u32 last = shown->count < max ? shown->count : max - 1;
      for (u32 s = last; s > at; s--) {
        shown->ids[s] = shown->ids[s - 1];
        best_weight[s] = best_weight[s - 1];
      }
      shown->ids[at] = id;
      best_weight[at] = weight;
      if (shown->count < max)
        shown->count++;
    }
}

static u64 entry_lines_of(const struct entry *e, u64 id) {
  for (u32 k = 0; k < e->count; k++)
    if (e->ids[k] == id)
      return e->id_lines[k];
  return 0;
}

// Prints [value(0), ... value(num_entries - 1)], 16 values per line.
static void print_values(u64 (*value)(u32 i, void *arg), void *arg) {
  efsan_printf("[");
  char line[16 * 24 + 8];
  uptr used = 0;
  for (u32 i = 0; i < num_entries; i++) {
    used += efsan_snprintf(line + used, sizeof(line) - used, "%s%llu",
                           i ? ", " : "", value(i, arg));
    if ((i + 1) % 16 == 0 || i + 1 == num_entries) {
      efsan_printf("%s", line);
      used = 0;
    }
  }
  efsan_printf("]");
}

static void print_array(const char *indent, const char *key,
                        u64 (*value)(u32 i, void *arg), void *arg) {
  efsan_printf("%s\"%s\": ", indent, key);
  print_values(value, arg);
}

static u64 start_us(u32 i, void *arg) { (void)arg; return entries[i].start_ns / 1000; }
static u64 end_us(u32 i, void *arg) { (void)arg; return entries[i].end_ns / 1000; }
static u64 periods_of(u32 i, void *arg) { (void)arg; return entries[i].periods; }
static u64 lines_of(u32 i, void *arg) { (void)arg; return entries[i].lines; }
static u64 id_lines_of(u32 i, void *arg) {
  return entry_lines_of(&entries[i], *(const u64 *)arg);
}
static u64 rest_of(u32 i, void *arg) {
  const struct shown *shown = arg;
  u64 listed = 0;
  for (u32 s = 0; s < shown->count; s++)
    listed += entry_lines_of(&entries[i], shown->ids[s]);
  return entries[i].lines - listed;
}

void efsan_ws_timeline_print_json(const struct efsan_ws_reuse *r) {
  if (!efsan_ws_timeline_bits) {
    efsan_printf("\"reused_lines\": null, \"timeline\": null");
    return;
  }
  efsan_ws_reuse_print_json(r);
  efsan_printf(", \"reused_fits_level\": %d, "
               "\"reused_sampled_fraction\": %s,\n \"timeline\": "
               "{\"level\": %d, \"period_ms\": %llu, \"periods\": %llu, "
               "\"periods_per_entry\": %u,\n  \"structures\": [",
               efsan_cache_fit_level(r->reused),
               efsan_ws_fraction_text(run_shift), level,
               period_ms(), closed, span);
  struct shown shown;
  choose_shown(&shown);
  for (u32 s = 0; s < shown.count; s++) {
    int kind;
    u32 stack_id;
    const char *name = efsan_ws_object_name(shown.ids[s], &kind, &stack_id);
    efsan_printf("%s\n   {\"kind\": \"%s\", \"name\": ", s ? "," : "",
                 efsan_ws_object_kind_names[kind]);
    efsan_json_string(name);
    efsan_ws_json_range_name(efsan_ws_object_range_name(shown.ids[s]));
    efsan_printf(", \"alloc_stack\": ");
    if (kind == EFSAN_WS_OBJECT_HEAP && stack_id)
      efsan_json_stack(stack_id);
    else
      efsan_printf("null");
    efsan_printf("}");
  }
  efsan_printf("],\n");
  print_array("  ", "start_us", start_us, 0);
  print_array(",\n  ", "end_us", end_us, 0);
  print_array(",\n  ", "entry_periods", periods_of, 0);
  print_array(",\n  ", "lines", lines_of, 0);
  efsan_printf(",\n  \"sampled_fraction\": [");
  for (u32 i = 0; i < num_entries; i++)
    efsan_printf("%s%s", i ? ", " : "", efsan_ws_fraction_text(entries[i].shift));
  efsan_printf("]");
  efsan_printf(",\n  \"by_structure\": [");
  for (u32 s = 0; s < shown.count; s++) {
    efsan_printf("%s\n   ", s ? "," : "");
    print_values(id_lines_of, &shown.ids[s]);
  }
  efsan_printf("],\n");
  print_array("  ", "rest", rest_of, &shown);
  efsan_printf("}");
}
