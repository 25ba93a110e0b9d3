//===-- efsan_cache_frag_lines.c - what the sampled accesses did per line ---===//
//
// The cache-frag tool's per-line state machine (the sampling that feeds it
// is in efsan_cache_frag.c). Per line, a 32-bit state in a lazily mapped
// two-level table (4 MiB of application memory per chunk): the one thread
// that sampled it so far and its sampled writes, until a second thread
// writes it, or reads it after cache_frag_tracking_threshold writes. A line
// one thread writes often (in a process with threads) gets a 64-byte summary
// of that thread's samples, until another thread uses it or a neighbouring
// line (latent sharing): private data stays cheap. Then the line gets a
// record: per thread sampled reads and writes (and how many of the writes
// were locked read-modify-writes), byte masks, the kinds of
// access with the heap object live at the time, the intervals of clock
// (bursts) in which it used the line, and Predator's two-entry history
// table over the accesses seen, classifying each invalidation byte by byte.
// All of that is written by the sampling thread into its own part of the
// record; nothing is aggregated on the fast path.
//
// This file holds the line states, the tables of entries they index and
// the state machine; records are in efsan_cache_frag_records.c, solo and
// shared summaries in efsan_cache_frag_summaries.c. While the process has a
// single thread, its samples are logged and applied in batches
// (efsan_cache_frag_alone.c: they can only change plain states, which only
// this machine reads). When a line's threads are done with it and it has
// nothing to report, a sweep at a thread's exit gives its entries back
// (efsan_cache_frag_sweep.c; efsan_cache_frag_reclaim.c reuses them).
//
//===----------------------------------------------------------------------===//
#include "efsan_cache_frag_lines.h"

u64 cf_lines_mean_period;
u32 cf_prediction_samples;
u32 cf_tracking_samples;
u32 cf_detail_invalidations;

//===-- Line states and their tables ----------------------------------------===//

u32 **cf_chunks; // CF_NUM_CHUNKS pointers, each to CF_LINES_PER_CHUNK states
u64 *cf_chunk_pages;
// The tables below hand out entries in order (address space until used);
// each has a pool of entries given back (efsan_cache_frag_reclaim.c) that
// it takes first. *_count: entries handed out so far.
struct cf_line_record *cf_record_table;
u32 cf_record_capacity;
u32 cf_record_count;
struct cf_pool cf_record_pool;
u64 cf_retired_record_count;
// Entries made since the last sweep (records, parts, summaries).
u32 cf_new_entries;
// Sweeps so far and the CPU time they took (verbosity=1).
u32 cf_sweeps;
u64 cf_sweep_ns;

struct cf_line_use *cf_solo_table;
u32 cf_solo_capacity;
u32 cf_solo_count;
struct cf_pool cf_solo_pool;
uptr *cf_solo_lines; // the line of each solo summary in use; 0: free
u64 *cf_solo_marks;  // for sweeps (cf_done_with)

struct cf_summary *cf_summary_table;
u32 cf_summary_capacity;
u32 cf_summary_count;
struct cf_pool cf_summary_pool;
uptr *cf_summary_lines; // the line of each summary in use; 0: free
u64 *cf_summary_marks;  // for sweeps (cf_done_with)
// Summarized lines several threads used in turn whose entries went back.
u64 cf_retired_handed_over;
u64 cf_untracked;

// An entry of a table: one its pool has free (zeroed here), else a fresh
// one; false when the table is full.
bool cf_new_entry(struct cf_pool *pool, u32 *handed_out, void *table,
                         uptr entry_size, u32 *index) {
  if (cf_pool_take(pool, index)) {
    efsan_internal_memset((char *)table + (uptr)*index * entry_size, 0,
                          entry_size);
  } else {
    *index = cf_add(handed_out, 1);
    if (*index >= pool->capacity) {
      cf_store(handed_out, pool->capacity);
      return false;
    }
  }
  cf_add(&cf_new_entries, 1);
  return true;
}

struct cf_line_record *cf_find_record(uptr line) {
  u32 *state = cf_line_state(line, false);
  if (!state)
    return 0;
  u32 value = __atomic_load_n(state, __ATOMIC_ACQUIRE);
  if (!cf_is_record(value))
    return 0;
  return &cf_record_table[value & ~CF_RECORD_BIT];
}

struct cf_line_record *cf_records(u32 *count) {
  u32 n = cf_load(&cf_record_count);
  *count = n < cf_record_capacity ? n : cf_record_capacity;
  return cf_record_table;
}

u64 cf_untracked_lines(void) { return cf_load(&cf_untracked); }

//===-- The line state machine ------------------------------------------------===//

// The count of sampled writes of a line after a written sample of its
// thread that counts for `weight` samples: that many more, up to the most
// the count holds, and while the thread is alone, up to where the count
// stops then (one short of a solo summary). So a thread that comes later
// finds the count it would have found with every sample taken, on average.
static u32 cf_writes_after(u32 writes, u32 weight, bool alone) {
  u32 stop = !alone                    ? CF_WRITE_COUNT_MAX
             : cf_prediction_samples > 1 ? cf_prediction_samples - 1
                                         : 1;
  return writes + weight < stop ? writes + weight : stop;
}

// One sampled access to [line + offset, line + offset + length), applied to
// the line's state, counting for `weight` samples; alone: the process had a
// single thread when it was sampled. Returns whether the line is one several
// threads use at this time: it has a record, or its summary's threads' use
// meets (threads that use it in turn do not).
bool cf_apply_sample(u32 *state, uptr line, uptr offset, uptr length,
                     bool is_write, bool locked_rmw, u32 loop_work,
                     u32 thread_plus1, u64 clock, uptr pc, u32 weight,
                     bool alone) {
  u32 value = __atomic_load_n(state, __ATOMIC_ACQUIRE);
  for (;;) {
    if (value == CF_NO_RECORD)
      return false;
    if (cf_is_record(value)) {
      cf_record_sample(&cf_record_table[value & ~CF_RECORD_BIT], offset,
                       length, is_write, locked_rmw, loop_work, thread_plus1,
                       clock, pc, weight);
      return true;
    }
    if (cf_is_summary(value)) {
      return cf_summary_sample(state, value, line, offset, length, is_write,
                               thread_plus1, clock, pc, weight);
    }
    if (cf_is_solo(value)) {
      struct cf_line_use *solo = cf_solo_of(value);
      // The summary's thread goes on alone until another thread uses this
      // line, or its burst meets another thread's on a neighbouring line
      // (latent sharing: the line gets a record at once).
      if (solo->thread_plus1 == thread_plus1) {
        cf_use_sample(solo, cf_byte_mask(offset, length), is_write, clock,
                      weight);
        if (!cf_neighbour_meets(line, thread_plus1, cf_use_start_clock(solo),
                                clock))
          return false;
        cf_record_now(state, line, value);
        return true;
      }
      value = cf_track(state, line, value);
      continue;
    }
    u32 holder = value & CF_THREAD_MASK;
    u32 updated;
    // Lines only read cannot be shared at a cost: a line's state starts at
    // its first sampled write, and the reads after it count. A program
    // streaming a file of 1 GiB through reads took a state for each of its
    // lines before (64 MiB).
    if (!value && !is_write)
      return false;
    if (!holder) {
      updated = thread_plus1 |
                (is_write ? CF_WRITTEN_BIT | (cf_writes_after(0, weight, alone)
                                              << CF_WRITE_COUNT_SHIFT)
                          : 0);
    } else if (holder == thread_plus1) {
      if (!is_write)
        return false;
      u32 writes = (value >> CF_WRITE_COUNT_SHIFT) & CF_WRITE_COUNT_MAX;
      if (writes + (alone ? 1 : weight) >= cf_prediction_samples) {
        // While the process has a single thread, nothing can share the line
        // yet; the count stays where it is.
        if (alone)
          return false;
        // One thread writes the line often: keep its samples, so that a
        // thread that comes later (in this run's schedule, or on a
        // neighbouring line: prediction) is compared with all of them. In a
        // solo summary, or when those are full in a shared one.
        if (cf_start_solo(state, value, line, thread_plus1, offset, length,
                          clock, pc, weight))
          return false;
        u32 now = __atomic_load_n(state, __ATOMIC_ACQUIRE);
        value = now == value ? cf_track(state, line, value) : now;
        continue;
      }
      updated = (value & ~(CF_WRITE_COUNT_MAX << CF_WRITE_COUNT_SHIFT)) |
                CF_WRITTEN_BIT |
                (cf_writes_after(writes, weight, alone) << CF_WRITE_COUNT_SHIFT);
    } else if (!is_write && !(value & CF_WRITTEN_BIT)) {
      // Threads that only read share the line harmlessly so far.
      if (holder == CF_SEVERAL_READERS)
        return false;
      updated = CF_SEVERAL_READERS;
    } else if (!is_write && ((value >> CF_WRITE_COUNT_SHIFT) &
                             CF_WRITE_COUNT_MAX) < cf_tracking_samples) {
      // Another thread reads what one thread wrote, but rarely so far
      // (data written once and then read, Predator's tracking threshold):
      // not a candidate yet.
      return false;
    } else {
      value = cf_track(state, line, value);
      continue;
    }
    if (cf_cas(state, &value, updated))
      return false;
  }
}

void cf_lines_print_stats(void) {
  struct cf_parts_stats parts;
  cf_parts_stats(&parts);
  u32 records = cf_load(&cf_record_count),
      summaries = cf_load(&cf_summary_count), solos = cf_load(&cf_solo_count);
  efsan_report_line(
      "cache-frag lines: %u records, %u thread parts (%u, %u, %u needed more "
      "than %d shapes, sites, bursts), %u shared summaries, %u solo summaries (%llu KiB if all "
      "resident); in use at the end: %u, %u, %u, %u; given back after their "
      "threads were done with the lines: %llu, %llu, %llu, %llu, in %u sweeps "
      "(%llu us)\n",
      records, parts.made, parts.shape_blocks, parts.site_blocks,
      parts.interval_blocks, CF_INLINE_SHAPES,
      summaries, solos,
      ((u64)records * sizeof(struct cf_line_record) +
       parts.bytes +
       (u64)summaries * sizeof(struct cf_summary) +
       (u64)solos * sizeof(struct cf_line_use)) >> 10,
      cf_pool_in_use(&cf_record_pool, records),
      parts.in_use,
      cf_pool_in_use(&cf_summary_pool, summaries),
      cf_pool_in_use(&cf_solo_pool, solos), cf_record_pool.retired,
      parts.retired, cf_summary_pool.retired,
      cf_solo_pool.retired, cf_sweeps, cf_sweep_ns / 1000);
}

//===-- Set-up ---------------------------------------------------------------===//

void cf_lines_init(u32 record_capacity, u64 mean_period, u64 prediction_samples,
                   u64 tracking_samples, u32 report_threshold) {
  cf_lines_mean_period = mean_period;
  // Summaries count invalidations in 16 bits.
  cf_detail_invalidations = report_threshold < 1        ? 1
                            : report_threshold > 0xffff ? 0xffff
                                                        : report_threshold;
  cf_prediction_samples = prediction_samples > CF_WRITE_COUNT_MAX
                              ? CF_WRITE_COUNT_MAX
                              : (u32)prediction_samples;
  cf_tracking_samples = tracking_samples > CF_WRITE_COUNT_MAX
                            ? CF_WRITE_COUNT_MAX
                            : (u32)tracking_samples;
  // Address space only: chunks and records become resident when used.
  cf_chunks = (u32 **)efsan_mmap_noreserve(CF_NUM_CHUNKS * sizeof(u32 *));
  cf_chunk_pages = (u64 *)efsan_mmap_noreserve(CF_NUM_CHUNKS * sizeof(u64));
  cf_record_capacity = record_capacity;
  cf_record_table = (struct cf_line_record *)efsan_mmap_noreserve(
      (uptr)cf_record_capacity * sizeof(struct cf_line_record));
  cf_pool_init(&cf_record_pool, cf_record_capacity);
  // Lines written often by one thread alone are common (private data):
  // room for 16 per record, 64 bytes each.
  cf_solo_capacity = cf_record_capacity * 16u;
  cf_solo_table = (struct cf_line_use *)efsan_mmap_noreserve(
      (uptr)cf_solo_capacity * sizeof(struct cf_line_use));
  cf_solo_lines = (uptr *)efsan_mmap_noreserve((uptr)cf_solo_capacity * sizeof(uptr));
  cf_solo_marks = (u64 *)efsan_mmap_noreserve((uptr)cf_solo_capacity * sizeof(u64));
  cf_pool_init(&cf_solo_pool, cf_solo_capacity);
  // Most lines several threads use are used in turn: room for 4 per
  // record, 384 bytes each.
  cf_summary_capacity = cf_record_capacity * 4u;
  cf_summary_table = (struct cf_summary *)efsan_mmap_noreserve(
      (uptr)cf_summary_capacity * sizeof(struct cf_summary));
  cf_summary_lines =
      (uptr *)efsan_mmap_noreserve((uptr)cf_summary_capacity * sizeof(uptr));
  cf_summary_marks =
      (u64 *)efsan_mmap_noreserve((uptr)cf_summary_capacity * sizeof(u64));
  cf_pool_init(&cf_summary_pool, cf_summary_capacity);
  cf_parts_init(cf_record_capacity * (CF_THREAD_SLOTS + 1), mean_period);
  cf_reclaim_init();
}

void cf_lines_fork_child(void) {
  // Only the locks that are held are reset: writing every record would copy
  // all of them into the child (copy-on-write), for each fork.
  for (u32 i = 0; i < cf_record_capacity && i < cf_load(&cf_record_count); i++)
    if (cf_record_table[i].objects_lock.opaque)
      cf_record_table[i].objects_lock.opaque = 0;
  cf_reclaim_fork_child();
}
