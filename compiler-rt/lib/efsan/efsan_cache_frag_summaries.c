//===-- efsan_cache_frag_summaries.c - lines summarized before a record ---===//
//
// Most lines a thread writes often are private data, and most lines several
// threads use are used in turn (a block freed by one thread and reused by
// the next, a buffer handed on at a barrier): neither needs a record
// (efsan_cache_frag_records.c). A line one thread writes often keeps that
// thread's samples in a 64-byte solo summary; a line several threads used
// at other times keeps a shared summary of up to four threads' samples, its
// history table and the invalidations it counted. A summarized line gets its
// record, seeded from the summary, when its threads' activity meets on the
// virtual clock (or a neighbouring line's threads' does: latent sharing),
// or when its history table counted what a finding needs.
//
//===----------------------------------------------------------------------===//
#include "efsan_cache_frag_lines.h"

// Where a thread's activity on the line began, as far as meeting other
// threads goes: its first sample when its samples came at most CF_BURST_GAP
// periods apart on average (it used the line steadily all along, even if
// this run's scheduler ran it alone), else the start of its current burst
// (it came back to the line from time to time: turns, hand-overs).
u64 cf_use_start_clock(const struct cf_line_use *use) {
  u64 first = cf_load(&use->first_clock), last = cf_load(&use->last_clock);
  u64 samples = (u64)cf_load(&use->reads) + cf_load(&use->writes);
  if (last - first <= samples * CF_BURST_GAP * cf_lines_mean_period)
    return first;
  return cf_load(&use->burst_clock);
}

// The kind of access over the bytes of mask when they are one run of bytes;
// else the accesses go to the thread's overflow counts, which keep the
// bytes exactly (interleaved bytes stay apart from other threads' bytes).
static void cf_seed_shape(struct cf_line_record *record,
                          struct cf_thread_line *slot, u64 mask, u32 reads,
                          u32 writes, u32 invalidations,
                          u32 true_invalidations) {
  if (!mask || reads + writes == 0)
    return;
  uptr first = (uptr)__builtin_ctzll(mask);
  uptr length = 64 - (uptr)__builtin_clzll(mask) - first;
  if (mask != cf_byte_mask(first, length)) {
    struct cf_shape_block *more = cf_new_shape_block(slot);
    if (more) {
      more->overflow_reads += reads;
      more->overflow_writes += writes;
      more->overflow_bytes |= mask;
    }
    return;
  }
  // Counted as one access first (which names the heap object there).
  bool is_write = writes > 0;
  struct cf_shape *shape =
      cf_count_shape(record, slot, first, length, is_write, mask, 1);
  if (!shape)
    return;
  shape->reads += is_write ? reads : reads - 1;
  shape->writes += is_write ? writes - 1 : 0;
  shape->invalidations += invalidations;
  shape->true_invalidations += true_invalidations;
}

// A thread's summed samples become its part of the record: counts, bytes,
// its first site, and its reads and writes as one kind of access each, over
// the bytes they covered (the invalidations it caused go with its writes).
// Its activity is one interval, from cf_use_start_clock to its last sample:
// a thread that came back to the line in bursts has its earlier bursts,
// which met no other thread's (else the line would have had a record then),
// counted in its current one rather than as an interval spanning the other
// threads' turns. held_bytes: the bytes it used since it last got the line.
static void cf_seed_slot(struct cf_line_record *record,
                         const struct cf_line_use *use, u64 held_bytes,
                         u32 caused, u32 caused_true) {
  struct cf_thread_line *slot = cf_slot_of(record, use->thread_plus1, true);
  if (!slot || use->reads + use->writes == 0)
    return;
  u64 bytes = use->read_bytes | use->written_bytes;
  cf_store(&slot->reads, use->reads);
  cf_store(&slot->writes, use->writes);
  cf_store(&slot->read_bytes, use->read_bytes);
  cf_store(&slot->written_bytes, use->written_bytes);
  // A summary does not know the lifetimes of heap blocks its bytes were
  // in: on a line that holds heap memory, sharing is judged from the
  // record's own samples (cf_end_lifetime).
  if (!cf_line_has_heap(record->line)) {
    cf_shared_bits(&slot->life_used, bytes);
    cf_shared_bits(&slot->life_written, use->written_bytes);
  }
  cf_store(&slot->first_clock, use->first_clock);
  cf_store(&slot->last_clock, use->last_clock);
  cf_store(&slot->intervals[0].first, cf_use_start_clock(use));
  cf_store(&slot->intervals[0].last, use->last_clock);
  cf_store(&slot->intervals[0].samples, (u64)use->reads + use->writes);
  __atomic_store_n(&slot->interval_count, 1, __ATOMIC_RELEASE);
  struct cf_site *site = &slot->sites[0];
  cf_store(&site->reads, use->reads);
  cf_store(&site->writes, use->writes);
  cf_store(&site->bytes, bytes);
  __atomic_store_n(&site->pc, use->pc, __ATOMIC_RELEASE);
  if (use->read_bytes == use->written_bytes) {
    cf_seed_shape(record, slot, bytes, use->reads, use->writes, caused,
                  caused_true);
  } else {
    cf_seed_shape(record, slot, use->written_bytes, 0, use->writes, caused,
                  caused_true);
    cf_seed_shape(record, slot, use->read_bytes, use->reads, 0, 0, 0);
  }
  __atomic_fetch_or(&slot->held_bytes, held_bytes, __ATOMIC_RELAXED);
}

// The entry's first sample (its thread is already set).
static void cf_use_start(struct cf_line_use *use, u64 clock, uptr pc) {
  use->pc = pc;
  cf_store(&use->first_clock, clock);
  cf_store(&use->burst_clock, clock);
  // Published last: other threads compare clocks of entries that have one.
  __atomic_store_n(&use->last_clock, clock, __ATOMIC_RELEASE);
}

// Adds a sample of the entry's own thread that counts for `weight`. A burst
// starts after the same gap whatever the weight (cf_note_activity says why);
// a line its thread keeps using between such gaps is one burst anyway, as
// cf_use_start_clock compares the weighted samples with the span.
void cf_use_sample(struct cf_line_use *use, u64 mask, bool is_write,
                   u64 clock, u32 weight) {
  if (is_write) {
    cf_store(&use->writes, use->writes + weight);
    cf_own_bits(&use->written_bytes, mask);
  } else {
    cf_store(&use->reads, use->reads + weight);
    cf_own_bits(&use->read_bytes, mask);
  }
  if (clock > use->last_clock + CF_BURST_GAP * cf_lines_mean_period)
    cf_store(&use->burst_clock, clock);
  if (clock > use->last_clock)
    cf_store(&use->last_clock, clock);
}

// Adds a sample to the "other threads" entry, which they share.
static void cf_use_sample_shared(struct cf_line_use *use, u64 mask,
                                 bool is_write, u64 clock, u32 weight) {
  cf_add(is_write ? &use->writes : &use->reads, weight);
  cf_shared_bits(is_write ? &use->written_bytes : &use->read_bytes, mask);
  cf_shared_first(&use->first_clock, clock);
  // Their bursts as if one thread's: a sample long after the last starts one.
  u64 last = cf_load(&use->last_clock);
  if (!last || clock > last + CF_BURST_GAP * cf_lines_mean_period)
    cf_store(&use->burst_clock, clock);
  cf_shared_last(&use->last_clock, clock);
}

// Whether a burst [from, to] of one thread meets the activity [first, last]
// of another: closer than a burst's own gap (CF_BURST_GAP periods). A line
// each thread samples thinly (a shared counter bumped every 50th write) has
// bursts of a few samples; two threads using it at once are within that
// gap of each other, threads that take it in turn (a phase, a queue's hand-
// over, a block freed and reused) are much further apart.
static bool cf_spans_meet(u64 from, u64 to, u64 first, u64 last) {
  u64 gap = CF_BURST_GAP * cf_lines_mean_period;
  return first <= to + gap && from <= last + gap;
}

// Whether another thread than thread_plus1 was active on the line during
// [from, to] (its current burst, or for threads summed together, its span).
// Threads claim entries in order (cf_summary_use), the summed one last: the
// first unclaimed entry ends the search, and a line two threads share reads
// three of its five entries, each a cache miss on a line seldom sampled.
static bool cf_summary_meets(struct cf_summary *summary, u32 thread_plus1,
                             u64 from, u64 to) {
  for (int i = 0; i <= CF_SUMMARY_THREADS; i++) {
    struct cf_line_use *use = &summary->uses[i];
    u32 owner = cf_load(&use->thread_plus1);
    if (!owner)
      return false;
    u64 last = __atomic_load_n(&use->last_clock, __ATOMIC_ACQUIRE);
    if (owner != thread_plus1 && last &&
        cf_spans_meet(from, to, cf_use_start_clock(use), last))
      return true;
  }
  return false;
}

// The line's record, made now (seeded from its solo summary, if any): a
// line with latent sharing on a neighbouring line.
void cf_record_now(u32 *state, uptr line, u32 value) {
  struct cf_line_use *solo;
  struct cf_line_record *record = cf_attach_record(state, line, value, &solo);
  if (record && solo)
    cf_seed_slot(record, solo, solo->read_bytes | solo->written_bytes, 0, 0);
}

// Whether another thread than thread_plus1 was active on the line during
// [from, to]. A solo summary that meets it becomes a record (its thread may
// be long done): the latent sharing of the two lines is predicted from both
// lines' records.
static bool cf_line_meets(uptr line, u32 thread_plus1, u64 from, u64 to) {
  u32 *state = cf_line_state(line, false);
  if (!state)
    return false;
  u32 value = __atomic_load_n(state, __ATOMIC_ACQUIRE);
  if (cf_is_solo(value)) {
    struct cf_line_use *solo = cf_solo_of(value);
    if (solo->thread_plus1 == thread_plus1 ||
        !cf_spans_meet(from, to, cf_use_start_clock(solo),
                       cf_load(&solo->last_clock)))
      return false;
    cf_record_now(state, line, value);
    return true;
  }
  if (cf_is_summary(value))
    return cf_summary_meets(cf_summary_of(value), thread_plus1, from, to);
  if (!cf_is_record(value))
    return false; // no clocks: a thread that used the line little
  struct cf_line_record *record = &cf_record_table[value & ~CF_RECORD_BIT];
  for (int i = 0; i < CF_THREAD_SLOTS; i++) {
    u32 owner = cf_owner(record, i);
    if (!owner)
      break;
    struct cf_thread_line *slot = cf_thread_part(record, i);
    u32 n = slot ? __atomic_load_n(&slot->interval_count, __ATOMIC_ACQUIRE) : 0;
    if (owner != thread_plus1 && n &&
        cf_spans_meet(from, to, cf_load(&cf_interval_at(slot, n - 1)->first),
                      cf_load(&cf_interval_at(slot, n - 1)->last)))
      return true;
  }
  struct cf_thread_line *others = cf_others_part(record);
  return others && cf_load(&others->reads) + cf_load(&others->writes) &&
         cf_spans_meet(from, to, cf_load(&others->first_clock),
                       cf_load(&others->last_clock));
}

bool cf_neighbour_meets(uptr line, u32 thread_plus1, u64 from, u64 to) {
  return (line >= EFSAN_CACHE_LINE_SIZE &&
          cf_line_meets(line - EFSAN_CACHE_LINE_SIZE, thread_plus1, from, to)) ||
         cf_line_meets(line + EFSAN_CACHE_LINE_SIZE, thread_plus1, from, to);
}

// Makes the record a summarized line needs (the one caller whose exchange
// succeeds installs it); when the table is full, the line stays summarized
// and counts as untracked.
static void cf_detail(u32 *state, u32 value, uptr line,
                      struct cf_summary *summary) {
  if (cf_load(&summary->detail))
    return;
  u32 index;
  if (!cf_new_record(&index)) {
    u8 none = 0;
    if (cf_cas(&summary->detail, &none, CF_DETAIL_MISSED))
      cf_add(&cf_untracked, 1);
    return;
  }
  struct cf_line_record *record = &cf_record_table[index];
  record->line = line;
  record->history = cf_load(&summary->history);
  record->observed = cf_load(&summary->observed);
  record->observed_true = cf_load(&summary->observed_true);
  for (int i = 0; i < CF_SUMMARY_THREADS; i++) {
    struct cf_line_use *use = &summary->uses[i];
    if (__atomic_load_n(&use->thread_plus1, __ATOMIC_ACQUIRE))
      cf_seed_slot(record, use, cf_load(&summary->held_bytes[i]),
                   cf_load(&summary->caused[i]),
                   cf_load(&summary->caused_true[i]));
  }
  struct cf_line_use *summed = &summary->uses[CF_SUMMARY_THREADS];
  struct cf_thread_line *others;
  if (cf_load(&summed->thread_plus1) && (others = cf_others_of(record))) {
    others->reads = cf_load(&summed->reads);
    others->writes = cf_load(&summed->writes);
    others->read_bytes = cf_load(&summed->read_bytes);
    others->written_bytes = cf_load(&summed->written_bytes);
    others->first_clock = cf_load(&summed->first_clock);
    others->last_clock = cf_load(&summed->last_clock);
  }
  if (cf_cas(state, &value, index | CF_RECORD_BIT))
    cf_store(&summary->detail, CF_DETAIL_RECORD);
  else
    cf_give_record(record); // never reachable
}

// The summary entry of thread_plus1, claimed on its first sample; the
// shared last entry when the others are taken (*shared set).
static struct cf_line_use *cf_summary_use(struct cf_summary *summary,
                                          u32 thread_plus1, bool *shared) {
  *shared = false;
  for (int i = 0; i < CF_SUMMARY_THREADS; i++) {
    struct cf_line_use *use = &summary->uses[i];
    u32 owner = cf_load(&use->thread_plus1);
    if (!owner && (cf_cas(&use->thread_plus1, &owner, thread_plus1) ||
                   owner == thread_plus1))
      return use;
    if (owner == thread_plus1)
      return use;
  }
  *shared = true;
  return &summary->uses[CF_SUMMARY_THREADS];
}

// A sample of a summarized line: counted, run through the line's history
// table, and the line gets a record when its threads' use meets. Returns
// whether it does (or the history table counted what a record needs): a
// line its threads use in turn (a heap block reused by another thread, data
// handed on at a barrier) is not shared at this time, and its samples count
// as quiet ones (cf_adapt_period).
bool cf_summary_sample(u32 *state, u32 value, uptr line, uptr offset,
                       uptr length, bool is_write, u32 thread_plus1,
                       u64 clock, uptr pc, u32 weight) {
  struct cf_summary *summary = cf_summary_of(value);
  u64 mask = cf_byte_mask(offset, length);
  bool shared;
  struct cf_line_use *use = cf_summary_use(summary, thread_plus1, &shared);
  u32 index = (u32)(use - summary->uses);
  if (shared) {
    u32 none = 0;
    cf_cas(&use->thread_plus1, &none, CF_SEVERAL_READERS);
    cf_use_sample_shared(use, mask, is_write, clock, weight);
  } else {
    if (!use->last_clock)
      cf_use_start(use, clock, pc);
    cf_use_sample(use, mask, is_write, clock, weight);
  }
  u32 victims[2];
  int n = cf_history_access(&summary->history, thread_plus1, is_write, victims);
  if (n) {
    bool true_sharing = false;
    for (int v = 0; v < n; v++) {
      u32 k = CF_SUMMARY_THREADS;
      for (u32 i = 0; i < CF_SUMMARY_THREADS; i++)
        if (cf_load(&summary->uses[i].thread_plus1) == victims[v])
          k = i;
      if (cf_load(&summary->held_bytes[k]) & mask)
        true_sharing = true;
      if (k < CF_SUMMARY_THREADS)
        cf_store(&summary->held_bytes[k], 0);
    }
    cf_add_saturating(&summary->observed);
    cf_add_saturating(&summary->caused[index]);
    if (true_sharing) {
      cf_add_saturating(&summary->observed_true);
      cf_add_saturating(&summary->caused_true[index]);
    }
  }
  cf_shared_bits(&summary->held_bytes[index], mask);

  u64 from = cf_use_start_clock(use), to = clock;
  if (cf_load(&summary->observed) >= cf_detail_invalidations ||
      cf_summary_meets(summary, thread_plus1, from, to) ||
      cf_neighbour_meets(line, thread_plus1, from, to)) {
    cf_detail(state, value, line, summary);
    return true;
  }
  return false;
}

// The line's summary, made now if it has none, from its solo summary or
// with the thread that held the line so far in its history table (so that
// the first access of another thread is an invalidation as it would have
// been). Without room for summaries, the line gets a record right away.
// Returns the line's state after.
u32 cf_track(u32 *state, uptr line, u32 value) {
  if (value == CF_NO_RECORD || cf_is_record(value) || cf_is_summary(value))
    return value;
  u32 index;
  if (cf_lines_mean_period == 1 ||
      !cf_new_entry(&cf_summary_pool, &cf_summary_count, cf_summary_table,
                    sizeof(struct cf_summary), &index)) {
    cf_record_now(state, line, value);
    return __atomic_load_n(state, __ATOMIC_ACQUIRE);
  }
  struct cf_summary *summary = &cf_summary_table[index];
  if (cf_is_solo(value)) {
    struct cf_line_use *solo = cf_solo_of(value);
    summary->uses[0] = *solo;
    summary->held_bytes[0] = solo->read_bytes | solo->written_bytes;
    summary->history = solo->thread_plus1;
  } else {
    u32 holder = value & CF_THREAD_MASK;
    if (holder && holder != CF_SEVERAL_READERS)
      summary->history = holder;
  }
  // Published by the exchange; the sweep looks at it once its line is
  // known.
  if (cf_cas(state, &value, index | CF_RECORD_BIT | CF_SUMMARY_BIT))
    cf_store(&cf_summary_lines[index], line);
  else
    cf_pool_give(&cf_summary_pool, index);
  return __atomic_load_n(state, __ATOMIC_ACQUIRE);
}

// Starts the summary of a line that thread_plus1 has written often alone,
// with this (written) sample; false if the line's state changed meanwhile or
// the summaries are full. The samples before it are not in it (they have no
// clock), as a record made at this point would not have them either: its
// activity interval must hold the samples it counts.
bool cf_start_solo(u32 *state, u32 value, uptr line, u32 thread_plus1,
                   uptr offset, uptr length, u64 clock, uptr pc, u32 weight) {
  u32 index;
  if (!cf_new_entry(&cf_solo_pool, &cf_solo_count, cf_solo_table,
                    sizeof(struct cf_line_use), &index))
    return false;
  struct cf_line_use *solo = &cf_solo_table[index];
  solo->thread_plus1 = thread_plus1;
  cf_use_start(solo, clock, pc);
  cf_use_sample(solo, cf_byte_mask(offset, length), true, clock, weight);
  // Published by the exchange; the sweep looks at it once its line is
  // known.
  if (cf_cas(state, &value, index | CF_RECORD_BIT | CF_SOLO_BIT)) {
    cf_store(&cf_solo_lines[index], line);
    return true;
  }
  cf_pool_give(&cf_solo_pool, index);
  return false;
}

u64 cf_summarized_lines(void) {
  u32 n = cf_load(&cf_summary_count);
  if (n > cf_summary_capacity)
    n = cf_summary_capacity;
  u64 lines = cf_load(&cf_retired_handed_over);
  for (u32 i = 0; i < n; i++) {
    struct cf_summary *summary = &cf_summary_table[i];
    if (cf_load(&summary->detail) == CF_DETAIL_RECORD ||
        !cf_load(&cf_summary_lines[i]))
      continue;
    u32 threads = 0;
    for (int k = 0; k <= CF_SUMMARY_THREADS; k++)
      threads += cf_load(&summary->uses[k].thread_plus1) != 0;
    lines += threads >= 2;
  }
  return lines;
}
