//===-- efsan_cache_frag_lines.h - the line tables -------------*- C -*-===//
//
// Shared by the files of the cache-frag line state machine: the per-line
// states and the tables of entries they index (efsan_cache_frag_lines.c),
// records (efsan_cache_frag_records.c), solo and shared summaries
// (efsan_cache_frag_summaries.c), the sweep that gives entries back
// (efsan_cache_frag_sweep.c) and the first thread's samples, applied in
// batches (efsan_cache_frag_alone.c). The rest of the tool sees the line
// state machine through efsan_cache_frag_internal.h.
//
//===----------------------------------------------------------------------===//
#ifndef EFSAN_CACHE_FRAG_LINES_H
#define EFSAN_CACHE_FRAG_LINES_H

#include "efsan_cache_frag_internal.h"

// Set at start-up (cf_lines_init): the mean sampling period, the sampled
// writes that make a line a candidate (one thread: prediction; another
// thread reading: tracking) and the invalidations after which a summarized
// line gets a record.
extern u64 cf_lines_mean_period;
extern u32 cf_prediction_samples;
extern u32 cf_tracking_samples;
extern u32 cf_detail_invalidations;

//===-- Line states -------------------------------------------------------===//

// State of a line without a record: bits 0-15 the sampling thread's index + 1
// (CF_SEVERAL_READERS: more than one thread, all reading), bit 16 a write was
// sampled, bits 17-30 the single thread's sampled writes (saturating). Bit 31
// set: the low 29 bits index the line's record (CF_NO_RECORD: the table was
// full), or with bit 30 also set its solo summary (a line one thread writes
// often, alone so far), or with bit 29 its shared summary (threads that used
// the line at different times so far).
#define CF_RECORD_BIT 0x80000000u
#define CF_SOLO_BIT 0x40000000u
#define CF_SUMMARY_BIT 0x20000000u
#define CF_INDEX_KIND (CF_RECORD_BIT | CF_SOLO_BIT | CF_SUMMARY_BIT)
#define CF_NO_RECORD 0xffffffffu
#define CF_THREAD_MASK 0xffffu
#define CF_SEVERAL_READERS 0xffffu
#define CF_WRITTEN_BIT 0x10000u
#define CF_WRITE_COUNT_SHIFT 17
#define CF_WRITE_COUNT_MAX 0x3fffu

#define CF_CHUNK_SHIFT 22 /* application bytes per chunk: 4 MiB */
#define CF_LINES_PER_CHUNK (1u << (CF_CHUNK_SHIFT - EFSAN_CACHE_LINE_SHIFT))
#define CF_NUM_CHUNKS (EFSAN_APP_END >> CF_CHUNK_SHIFT)

extern u32 **cf_chunks; // CF_NUM_CHUNKS pointers, each to CF_LINES_PER_CHUNK states
// Per chunk, the pages of its states written since it was made (64 pages of
// 4 KiB, one bit each): see cf_line_state.
extern u64 *cf_chunk_pages;
#define CF_STATE_PAGE_SHIFT 12
// The tables below hand out entries in order (address space until used);
// each has a pool of entries given back (efsan_cache_frag_reclaim.c) that
// it takes first. *_count: entries handed out so far.
extern struct cf_line_record *cf_record_table;
extern u32 cf_record_capacity;
extern u32 cf_record_count;
extern struct cf_pool cf_record_pool;
extern u64 cf_retired_record_count;
// Entries made since the last sweep (records, parts, summaries).
extern u32 cf_new_entries;
// Sweeps so far and the CPU time they took (verbosity=1).
extern u32 cf_sweeps;
extern u64 cf_sweep_ns;

static inline bool cf_is_record(u32 value) {
  return (value & CF_INDEX_KIND) == CF_RECORD_BIT;
}
static inline bool cf_is_solo(u32 value) {
  return (value & CF_INDEX_KIND) == (CF_RECORD_BIT | CF_SOLO_BIT);
}
static inline bool cf_is_summary(u32 value) {
  return (value & CF_INDEX_KIND) == (CF_RECORD_BIT | CF_SUMMARY_BIT);
}

// One thread's samples of a line, summed: what a line costs before it needs
// a record (22 KB of address space, a few KB resident). Written by its
// thread only (plain stores), except the "other threads" entry of a shared
// summary (atomics).
struct cf_line_use {
  u32 thread_plus1;
  u32 reads, writes; // sampled
  u64 read_bytes, written_bytes;
  // The first sample, the first of the current burst (samples closer than
  // CF_BURST_GAP periods apart) and the last.
  u64 first_clock, burst_clock, last_clock;
  uptr pc; // the first access's code address
} __attribute__((aligned(64)));

// A line that one thread writes often and no other thread has touched yet
// (private data, most of the time) keeps its thread's samples in a solo
// summary until a second thread touches the line or a neighbouring line
// (latent sharing).
extern struct cf_line_use *cf_solo_table;
extern u32 cf_solo_capacity;
extern u32 cf_solo_count;
extern struct cf_pool cf_solo_pool;
extern uptr *cf_solo_lines; // the line of each solo summary in use; 0: free
extern u64 *cf_solo_marks;  // for sweeps (cf_done_with)

// A line several threads used, each at other times so far (a heap block
// freed by one thread and reused by the next, a buffer handed on at a
// barrier, in real programs most lines more than one thread touches), keeps
// a shared summary: per thread a cf_line_use, the line's history table and
// the invalidations it counted. Such a line costs what one transfer per
// hand-over costs, which no report could name; it gets a record as soon as
// its threads' bursts meet on the virtual clock (or a neighbouring line's
// other threads' do: latent sharing), or its history table counts
// as many invalidations as a finding needs (cache_frag_report_threshold;
// turns taken under a lock, each a hand-over). The record then starts with the
// summary's threads, so a thread that ran before the others arrived (one
// core, a loaded machine) still counts. With every access seen
// (cache_frag_sample_period=1: exact counts), lines get records at once.
#define CF_SUMMARY_THREADS 4
#define CF_BURST_GAP 64
struct cf_summary {
  cf_history history;
  u16 observed, observed_true; // saturating
  u8 detail;                   // CF_DETAIL_*
  // Invalidations each entry's thread caused by its writes, and of them
  // true sharing (saturating).
  u8 caused[CF_SUMMARY_THREADS + 1], caused_true[CF_SUMMARY_THREADS + 1];
  u64 held_bytes[CF_SUMMARY_THREADS + 1]; // as cf_thread_line.held_bytes
  // The last entry sums all further threads.
  struct cf_line_use uses[CF_SUMMARY_THREADS + 1];
};
#define CF_DETAIL_RECORD 1 // the line has a record now
#define CF_DETAIL_MISSED 2 // it needed one, but the table was full
extern struct cf_summary *cf_summary_table;
extern u32 cf_summary_capacity;
extern u32 cf_summary_count;
extern struct cf_pool cf_summary_pool;
extern uptr *cf_summary_lines; // the line of each summary in use; 0: free
extern u64 *cf_summary_marks;  // for sweeps (cf_done_with)
// Summarized lines several threads used in turn whose entries went back.
extern u64 cf_retired_handed_over;
extern u64 cf_untracked;

// The state of a line, its chunk made when create is set; null outside the
// application's memory (or, without create, in a chunk never made).
static inline u32 *cf_line_state(uptr line, bool create) {
  uptr chunk_index = line >> CF_CHUNK_SHIFT;
  if (chunk_index >= CF_NUM_CHUNKS)
    return 0;
  u32 *chunk = __atomic_load_n(&cf_chunks[chunk_index], __ATOMIC_ACQUIRE);
  if (!chunk) {
    if (!create)
      return 0;
    u32 *fresh = (u32 *)efsan_mmap_noreserve(CF_LINES_PER_CHUNK * sizeof(u32));
    u32 *expected = 0;
    if (__atomic_compare_exchange_n(&cf_chunks[chunk_index], &expected, fresh,
                                    false, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE)) {
      chunk = fresh;
    } else {
      efsan_munmap(fresh, CF_LINES_PER_CHUNK * sizeof(u32));
      chunk = expected;
    }
  }
  u32 index = (line >> EFSAN_CACHE_LINE_SHIFT) & (CF_LINES_PER_CHUNK - 1);
  u32 *state = &chunk[index];
  // A page of states is first read, then written: the read maps the zero
  // page, and the write replaces it, which flushes the TLB of every CPU the
  // process runs on (an interrupt each). A program streaming a mapped file
  // of 1 GiB (16,000 pages of states) spent a third of its time there, most
  // of it system time. So the first use of a page writes (a locked or of 0
  // changes no state; in assembly, as the compiler turns an atomic that
  // changes nothing into a load), and the page comes in writable at once.
  u64 page = 1ull << ((index * sizeof(u32)) >> CF_STATE_PAGE_SHIFT);
  u64 *pages = &cf_chunk_pages[chunk_index];
  if (create && !(__atomic_load_n(pages, __ATOMIC_RELAXED) & page)) {
    __asm__ volatile("lock orl $0, %0" : "+m"(*state));
    __atomic_fetch_or(pages, page, __ATOMIC_RELAXED);
  }
  return state;
}

static inline struct cf_line_use *cf_solo_of(u32 value) {
  return &cf_solo_table[value & ~CF_INDEX_KIND];
}
static inline struct cf_summary *cf_summary_of(u32 value) {
  return &cf_summary_table[value & ~CF_INDEX_KIND];
}

// The bytes [offset, offset + length) of a line.
static inline u64 cf_byte_mask(uptr offset, uptr length) {
  u64 bits = length >= 64 ? ~0ull : ((1ull << length) - 1);
  return bits << offset;
}


// The same for a byte mask several threads update.
static inline void cf_shared_bits(u64 *bytes, u64 mask) {
  if ((cf_load(bytes) & mask) != mask)
    __atomic_fetch_or(bytes, mask, __ATOMIC_RELAXED);
}

// A first (0: none yet) and a last clock several threads update.
static inline void cf_shared_first(u64 *first_clock, u64 clock) {
  u64 first = cf_load(first_clock);
  while ((!first || clock < first) && !cf_cas(first_clock, &first, clock)) {
  }
}
static inline void cf_shared_last(u64 *last_clock, u64 clock) {
  u64 last = cf_load(last_clock);
  while (clock > last && !cf_cas(last_clock, &last, clock)) {
  }
}

// Adds 1 to a small count that stays at its maximum.
#define cf_add_saturating(p)                                                   \
  do {                                                                         \
    __typeof__(*(p)) old_ = cf_load(p);                                        \
    if ((__typeof__(*(p)))(old_ + 1) > old_)                                   \
      cf_store((p), old_ + 1);                                                 \
  } while (0)

// Records (efsan_cache_frag_records.c).
// A fresh record's index; false when the table is full.
bool cf_new_record(u32 *index);
// A record no other thread could reach (it was never published), with its
// parts.
void cf_give_record(struct cf_line_record *record);
// Gives the line a record; *solo is the solo summary it replaces (null if
// none), for the caller to seed it with. Null when the table is full.
struct cf_line_record *cf_attach_record(u32 *state, uptr line, u32 value,
                                        struct cf_line_use **solo);
// A thread's part of the record (claim: taking a free slot when it has
// none), and the part of the threads beyond the slots.
struct cf_thread_line *cf_slot_of(struct cf_line_record *record,
                                  u32 thread_plus1, bool claim);
struct cf_thread_line *cf_others_of(struct cf_line_record *record);
// Counts an access among the thread's kinds of access to the line; its
// entry, or null when it went to the overflow counts.
struct cf_shape *cf_count_shape(struct cf_line_record *record,
                                struct cf_thread_line *slot, uptr line_offset,
                                uptr length, bool is_write, u64 mask,
                                u32 weight);
// Predator's history table: the threads an access invalidated (0 to 2).
int cf_history_access(cf_history *history, u32 thread_plus1, bool is_write,
                      u32 victims[2]);
// A sample of a line that has a record.
// weight: the samples it counts for (efsan_cache_frag.c).
void cf_record_sample(struct cf_line_record *record, uptr offset, uptr length,
                      bool is_write, bool locked_rmw, u32 loop_work,
                      u32 thread_plus1, u64 clock, uptr pc, u32 weight);

// Summaries (efsan_cache_frag_summaries.c).
// Where a thread's activity on the line began, as far as meeting other
// threads goes.
u64 cf_use_start_clock(const struct cf_line_use *use);
// Adds a sample of the entry's own thread, counting for weight samples.
void cf_use_sample(struct cf_line_use *use, u64 mask, bool is_write,
                   u64 clock, u32 weight);
// Whether another thread than thread_plus1 was active on a neighbouring line
// during [from, to].
bool cf_neighbour_meets(uptr line, u32 thread_plus1, u64 from, u64 to);
// The line's record, made now (seeded from its solo summary, if any).
void cf_record_now(u32 *state, uptr line, u32 value);
// A sample of a line with a shared summary; whether its threads' use meets
// now (the line needs a record).
bool cf_summary_sample(u32 *state, u32 value, uptr line, uptr offset,
                       uptr length, bool is_write, u32 thread_plus1,
                       u64 clock, uptr pc, u32 weight);
// The line's shared summary, made now if it has none; the line's state
// after.
u32 cf_track(u32 *state, uptr line, u32 value);
// Starts the solo summary of a line thread_plus1 has written often alone;
// false if the state changed meanwhile or the summaries are full.
bool cf_start_solo(u32 *state, u32 value, uptr line, u32 thread_plus1,
                   uptr offset, uptr length, u64 clock, uptr pc, u32 weight);

// The line state machine (efsan_cache_frag_lines.c): one sampled access
// applied to its line's state. weight: the samples it counts for; alone:
// the process had a single thread when it was sampled. Returns whether the
// line is one several threads use (a shared summary or a record).
bool cf_apply_sample(u32 *state, uptr line, uptr offset, uptr length,
                     bool is_write, bool locked_rmw, u32 loop_work,
                     u32 thread_plus1, u64 clock, uptr pc, u32 weight,
                     bool alone);

#endif // EFSAN_CACHE_FRAG_LINES_H
