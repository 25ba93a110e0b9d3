//===-- efsan_cache_frag_sweep.c - giving back the entries of done lines ---===//
//
// A line whose threads are done with it (exited, or no longer sampling it)
// and that no report could name gives its entries back: its record (with
// its threads' parts), shared summary or solo summary. A sweep at a
// thread's exit, now and then, decides which; efsan_cache_frag_reclaim.c
// reuses them once no thread can still be using them.
//
//===----------------------------------------------------------------------===//
#include "efsan_cache_frag_lines.h"

// Whether the threads of a line are done with it: each has exited, or the
// live ones have not sampled it for CF_DONE_MS (*mark: the live threads'
// samples + 1 in the low half, the sweep's clock in ms when they last
// changed in the high half; 0 before the first look). A live thread that
// comes back to the line later starts it afresh, as after a hand-over: what
// it did there before met the exited threads only, and met too little to be
// reported. A second, not a sweep: a line each thread samples once in a
// while must not be given back between two of its samples and made again.
#define CF_DONE_MS 1000
static u32 cf_sweep_ms; // monotonic clock in ms at the current sweep's start

static bool cf_done_with(u64 *mark, bool live, u64 live_samples) {
  if (!live)
    return true;
  u32 samples = (u32)live_samples + 1;
  u64 seen = cf_load(mark);
  if ((u32)seen == samples)
    return cf_sweep_ms - (u32)(seen >> 32) >= CF_DONE_MS;
  cf_store(mark, ((u64)cf_sweep_ms << 32) | samples);
  return false;
}

static bool cf_live(u32 thread_plus1) {
  return thread_plus1 == CF_SEVERAL_READERS ||
         (thread_plus1 && !cf_thread_exited(thread_plus1 - 1));
}

// Takes the entry off its line (state from its value to "nobody yet");
// false if the line changed meanwhile.
static bool cf_unlink(uptr line, u32 value) {
  u32 *state = cf_line_state(line, false);
  return state && cf_cas(state, &value, 0);
}

// A record whose threads are done with it and that no report could name
// (efsan_cache_frag_findings.c) goes back with its parts.
static bool cf_sweep_record(u32 index) {
  struct cf_line_record *record = &cf_record_table[index];
  uptr line = cf_load(&record->line);
  if (!line)
    return false;
  u32 *state = cf_line_state(line, false);
  if (!state || cf_load(state) != (index | CF_RECORD_BIT))
    return false; // unreachable (a lost race): given back by its maker
  bool live = false;
  u64 live_samples = 0;
  for (int i = 0; i < CF_THREAD_SLOTS; i++) {
    struct cf_thread_line *part;
    if (cf_live(cf_owner(record, i)) && (part = cf_thread_part(record, i))) {
      live = true;
      live_samples += cf_load(&part->reads) + cf_load(&part->writes);
    }
  }
  struct cf_thread_line *others = cf_others_part(record);
  if (others) {
    live = true;
    live_samples += cf_load(&others->reads) + cf_load(&others->writes);
  }
  if (!cf_done_with(&record->sweep_mark, live, live_samples))
    return false;
  struct cf_line_record *before =
      line >= EFSAN_CACHE_LINE_SIZE ? cf_find_record(line - EFSAN_CACHE_LINE_SIZE) : 0;
  if (cf_record_may_report(record, before,
                           cf_find_record(line + EFSAN_CACHE_LINE_SIZE)) ||
      !cf_unlink(line, index | CF_RECORD_BIT))
    return false;
  for (int i = 0; i < CF_THREAD_SLOTS; i++) {
    struct cf_thread_line *part = cf_thread_part(record, i);
    if (part)
      cf_retire_thread_line(part);
  }
  if (others)
    cf_retire_thread_line(others);
  cf_store(&record->line, 0);
  cf_pool_retire(&cf_record_pool, index);
  cf_add(&cf_retired_record_count, 1);
  return true;
}

// A summary goes back when its line has a record now, or when its threads
// are done with it (the line was used in turn: counted).
static bool cf_sweep_summary(u32 index) {
  struct cf_summary *summary = &cf_summary_table[index];
  uptr line = cf_load(&cf_summary_lines[index]);
  if (!line)
    return false;
  u8 detail = cf_load(&summary->detail);
  if (detail != CF_DETAIL_RECORD) {
    bool live = false;
    u64 live_samples = 0;
    u32 threads = 0;
    for (int k = 0; k <= CF_SUMMARY_THREADS; k++) {
      struct cf_line_use *use = &summary->uses[k];
      u32 owner = cf_load(&use->thread_plus1);
      threads += owner != 0;
      if (cf_live(owner)) {
        live = true;
        live_samples += (u64)cf_load(&use->reads) + cf_load(&use->writes);
      }
    }
    if (!cf_done_with(&cf_summary_marks[index], live, live_samples) ||
        !cf_unlink(line, index | CF_RECORD_BIT | CF_SUMMARY_BIT))
      return false;
    if (threads >= 2 && detail != CF_DETAIL_MISSED)
      cf_add(&cf_retired_handed_over, 1);
  }
  cf_store(&cf_summary_lines[index], 0);
  cf_store(&cf_summary_marks[index], 0);
  cf_pool_retire(&cf_summary_pool, index);
  return true;
}

// A solo summary goes back when its line moved on (a shared summary or a
// record has its samples) or its thread is done with it.
static bool cf_sweep_solo(u32 index) {
  uptr line = cf_load(&cf_solo_lines[index]);
  if (!line)
    return false;
  u32 value = index | CF_RECORD_BIT | CF_SOLO_BIT;
  u32 *state = cf_line_state(line, false);
  if (state && cf_load(state) == value) {
    struct cf_line_use *solo = &cf_solo_table[index];
    if (!cf_done_with(&cf_solo_marks[index],
                      cf_live(cf_load(&solo->thread_plus1)),
                      (u64)cf_load(&solo->reads) + cf_load(&solo->writes)) ||
        !cf_unlink(line, value))
      return false;
  }
  cf_store(&cf_solo_lines[index], 0);
  cf_store(&cf_solo_marks[index], 0);
  cf_pool_retire(&cf_solo_pool, index);
  return true;
}

void cf_lines_thread_exited(void) {
  // Now and then: when the entries made since the last sweep are half of
  // those in use (and at least 1024), so that sweeping costs a constant
  // share of making them (a sweep reads every entry in use).
  u32 records = cf_load(&cf_record_count), summaries = cf_load(&cf_summary_count),
      solos = cf_load(&cf_solo_count);
  u32 in_use = cf_pool_in_use(&cf_record_pool, records) +
               cf_pool_in_use(&cf_summary_pool, summaries) +
               cf_pool_in_use(&cf_solo_pool, solos);
  u32 made = cf_load(&cf_new_entries);
  if (made < 1024 || made < in_use / 2 || !cf_reclaim_begin())
    return;
  cf_store(&cf_new_entries, 0);
  u64 start = efsan_thread_cpu_ns();
  cf_sweep_ms = (u32)(efsan_monotonic_ns() / 1000000);
  bool retired = false;
  for (u32 i = 0; i < records && i < cf_record_capacity; i++)
    retired |= cf_sweep_record(i);
  for (u32 i = 0; i < summaries && i < cf_summary_capacity; i++)
    retired |= cf_sweep_summary(i);
  for (u32 i = 0; i < solos && i < cf_solo_capacity; i++)
    retired |= cf_sweep_solo(i);
  cf_sweeps++;
  cf_sweep_ns += efsan_thread_cpu_ns() - start;
  cf_reclaim_end(retired);
}

void cf_lines_stop_reclaiming(void) { cf_reclaim_stop(); }

u64 cf_retired_records(void) { return cf_load(&cf_retired_record_count); }
