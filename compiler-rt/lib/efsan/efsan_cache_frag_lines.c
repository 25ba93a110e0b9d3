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
// record; nothing is aggregated on the fast path. While the process has a
// single thread, its samples are logged and applied in batches (they can
// only change plain states, which only this machine reads). When a line's
// threads are done with it and it has nothing to report, a sweep at a
// thread's exit gives its entries back (efsan_cache_frag_reclaim.c reuses
// them).
//
//===----------------------------------------------------------------------===//
#include "efsan_cache_frag_internal.h"

static u64 cf_mean_period;
static u32 cf_prediction_samples;
static u32 cf_tracking_samples;
static u32 cf_detail_invalidations;

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

static u32 **cf_chunks; // CF_NUM_CHUNKS pointers, each to CF_LINES_PER_CHUNK states
// The tables below hand out entries in order (address space until used);
// each has a pool of entries given back (efsan_cache_frag_reclaim.c) that
// it takes first. *_count: entries handed out so far.
static struct cf_line_record *cf_record_table;
static u32 cf_record_capacity;
static u32 cf_record_count;
static struct cf_pool cf_record_pool;
static u64 cf_retired_record_count;
// Entries made since the last sweep (records, parts, summaries).
static u32 cf_new_entries;
// Sweeps so far and the CPU time they took (verbosity=1).
static u32 cf_sweeps;
static u64 cf_sweep_ns;

static bool cf_is_record(u32 value) {
  return (value & CF_INDEX_KIND) == CF_RECORD_BIT;
}
static bool cf_is_solo(u32 value) {
  return (value & CF_INDEX_KIND) == (CF_RECORD_BIT | CF_SOLO_BIT);
}
static bool cf_is_summary(u32 value) {
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
static struct cf_line_use *cf_solo_table;
static u32 cf_solo_capacity;
static u32 cf_solo_count;
static struct cf_pool cf_solo_pool;
static uptr *cf_solo_lines; // the line of each solo summary in use; 0: free
static u64 *cf_solo_marks;  // for sweeps (cf_done_with)

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
static struct cf_summary *cf_summary_table;
static u32 cf_summary_capacity;
static u32 cf_summary_count;
static struct cf_pool cf_summary_pool;
static uptr *cf_summary_lines; // the line of each summary in use; 0: free
static u64 *cf_summary_marks;  // for sweeps (cf_done_with)
// Summarized lines several threads used in turn whose entries went back.
static u64 cf_retired_handed_over;
static u64 cf_untracked;

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

static void cf_give_record(struct cf_line_record *record);

static bool cf_new_record(u32 *index) {
  return cf_new_entry(&cf_record_pool, &cf_record_count, cf_record_table,
                      sizeof(struct cf_line_record), index);
}

static u32 *cf_line_state(uptr line, bool create) {
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
  return &chunk[(line >> EFSAN_CACHE_LINE_SHIFT) & (CF_LINES_PER_CHUNK - 1)];
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



static struct cf_line_use *cf_solo_of(u32 value) {
  return &cf_solo_table[value & ~CF_INDEX_KIND];
}
static struct cf_summary *cf_summary_of(u32 value) {
  return &cf_summary_table[value & ~CF_INDEX_KIND];
}

// Gives the line a record (seeding its history table with the thread that
// held the line so far, so that the first access of another thread is an
// invalidation as it would have been). Returns the line's record, or null
// when the table is full. *solo is the summary the record replaces (null
// if none), for the caller to seed the record with: the one caller whose
// exchange succeeded gets it.
static struct cf_line_record *cf_attach_record(u32 *state, uptr line,
                                               u32 value,
                                               struct cf_line_use **solo) {
  *solo = 0;
  for (;;) {
    if (value == CF_NO_RECORD)
      return 0;
    if (cf_is_record(value))
      return &cf_record_table[value & ~CF_RECORD_BIT];
    u32 index;
    if (!cf_new_record(&index)) {
      if (cf_cas(state, &value, CF_NO_RECORD))
        cf_add(&cf_untracked, 1);
      continue;
    }
    struct cf_line_record *record = &cf_record_table[index];
    struct cf_line_use *replaced = cf_is_solo(value) ? cf_solo_of(value) : 0;
    u32 holder = replaced ? replaced->thread_plus1 : value & CF_THREAD_MASK;
    if (holder && holder != CF_SEVERAL_READERS)
      record->history = holder;
    record->line = line;
    if (cf_cas(state, &value, index | CF_RECORD_BIT)) {
      *solo = replaced;
      return record;
    }
    // Another thread changed the state first.
    cf_give_record(record);
  }
}

//===-- Records -----------------------------------------------------------===//

static u64 cf_byte_mask(uptr offset, uptr length) {
  u64 bits = length >= 64 ? ~0ull : ((1ull << length) - 1);
  return bits << offset;
}


// The same for a byte mask several threads update.
static void cf_shared_bits(u64 *bytes, u64 mask) {
  if ((cf_load(bytes) & mask) != mask)
    __atomic_fetch_or(bytes, mask, __ATOMIC_RELAXED);
}

// A first (0: none yet) and a last clock several threads update.
static void cf_shared_first(u64 *first_clock, u64 clock) {
  u64 first = cf_load(first_clock);
  while ((!first || clock < first) && !cf_cas(first_clock, &first, clock)) {
  }
}
static void cf_shared_last(u64 *last_clock, u64 clock) {
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


// A record no other thread could reach (it was never published), with its
// parts. The report skips records whose line is 0.
static void cf_give_record(struct cf_line_record *record) {
  for (int i = 0; i < CF_THREAD_SLOTS; i++)
    if (record->threads[i])
      cf_give_thread_line(record->threads[i]);
  if (record->others)
    cf_give_thread_line(record->others);
  cf_store(&record->line, 0);
  cf_pool_give(&cf_record_pool, (u32)(record - cf_record_table));
}

// A thread's part of the record, or null when it has none (when all slots
// belong to other threads). With claim, a thread without one takes a free
// slot (its first sample of the line).
static struct cf_thread_line *cf_slot_of(struct cf_line_record *record,
                                         u32 thread_plus1, bool claim) {
  for (int i = 0; i < CF_THREAD_SLOTS; i++) {
    u32 owner = cf_load(&record->owners[i]);
    if (owner == 0) {
      if (!claim)
        return 0;
      if (!cf_cas(&record->owners[i], &owner, thread_plus1))
        continue;
      struct cf_thread_line *part = cf_new_thread_line();
      __atomic_store_n(&record->threads[i], part, __ATOMIC_RELEASE);
      return part;
    }
    if (owner == thread_plus1)
      return cf_thread_part(record, i);
  }
  return 0;
}

// The record's part for threads beyond its slots, made on first use (null
// when the runtime ran out of parts).
static struct cf_thread_line *cf_others_of(struct cf_line_record *record) {
  struct cf_thread_line *others = cf_others_part(record);
  if (others)
    return others;
  struct cf_thread_line *fresh = cf_new_thread_line();
  if (fresh && !__atomic_compare_exchange_n(&record->others, &others, fresh,
                                            false, __ATOMIC_ACQ_REL,
                                            __ATOMIC_ACQUIRE)) {
    cf_give_thread_line(fresh); // another thread's won
    return others;
  }
  return fresh;
}

// The record's entry for the live heap object holding addr (index + 1), or
// 0 when addr is in no heap object. A block freed since is never returned.
static u8 cf_object_of(struct cf_line_record *record, uptr addr) {
  u32 n = cf_load(&record->object_count);
  for (u32 i = 0; i < n; i++) {
    struct cf_line_object *o = &record->objects[i];
    if (cf_load(&o->live) && addr - o->start < o->size)
      return (u8)(i + 1);
  }
  struct efsan_heap_block block;
  if (!efsan_heap_lookup(addr, &block))
    return 0;
  u8 found = 0;
  efsan_mutex_lock(&record->objects_lock);
  n = record->object_count;
  for (u32 i = 0; i < n && !found; i++)
    if (record->objects[i].serial == block.serial && record->objects[i].live)
      found = (u8)(i + 1);
  if (!found && n < CF_LINE_OBJECTS) {
    struct cf_line_object *o = &record->objects[n];
    o->start = block.start;
    o->size = block.size;
    o->stack_id = block.stack_id;
    o->serial = block.serial;
    cf_store(&o->live, 1);
    cf_store(&record->object_count, n + 1);
    found = (u8)(n + 1);
  }
  efsan_mutex_unlock(&record->objects_lock);
  return found;
}

void cf_forget_heap_object(uptr start, uptr size, u32 serial) {
  // Records of the block's lines; a huge block is only looked at in its
  // first 64 KiB (where contended headers live), which bounds free's cost.
  uptr end = start + (size < 65536 ? size : 65536);
  for (uptr line = start & ~(uptr)(EFSAN_CACHE_LINE_SIZE - 1); line < end;
       line += EFSAN_CACHE_LINE_SIZE) {
    struct cf_line_record *record = cf_find_record(line);
    if (!record)
      continue;
    u32 n = cf_load(&record->object_count);
    for (u32 i = 0; i < n; i++)
      if (record->objects[i].serial == serial)
        cf_store(&record->objects[i].live, 0);
  }
}


static struct cf_shape *cf_count_shape(struct cf_line_record *record,
                           struct cf_thread_line *slot, uptr line_offset,
                           uptr length, bool is_write, u64 mask) {
  uptr addr = record->line + line_offset;
  for (u32 i = 0; i < CF_SHAPES; i++) {
    struct cf_shape *shape = cf_shape_at(slot, i);
    if (!shape || !shape->length)
      break;
    if (shape->offset != line_offset || shape->length != length)
      continue;
    if (shape->object &&
        !cf_load(&record->objects[shape->object - 1].live))
      continue; // that block was freed: this access is to another one
    if (is_write)
      shape->writes++;
    else
      shape->reads++;
    return shape;
  }
  for (u32 i = 0; i < CF_SHAPES; i++) {
    // Reached past the inline shapes only when other accesses took them all.
    struct cf_shape *shape = cf_new_shape_at(slot, i);
    if (!shape)
      break;
    if (shape->length)
      continue;
    shape->offset = (u8)line_offset;
    shape->object = cf_object_of(record, addr);
    shape->reads = !is_write;
    shape->writes = is_write;
    // Published last: the report reads shapes of running threads.
    __atomic_store_n(&shape->length, (u8)length, __ATOMIC_RELEASE);
    return shape;
  }
  // All shapes taken: the block exists.
  struct cf_shape_block *more = cf_shape_block_of(slot);
  if (!more)
    return 0;
  if (is_write)
    more->overflow_writes++;
  else
    more->overflow_reads++;
  more->overflow_bytes |= mask;
  return 0;
}

// Predator's history table. Returns the number of invalidated threads
// (0, 1 or 2) and stores them in victims. The shared table is only written
// when its content changes.
static int cf_history_access(cf_history *history, u32 thread_plus1,
                             bool is_write, u32 victims[2]) {
  cf_history old = cf_load(history);
  for (;;) {
    u32 first = (u32)old, second = (u32)(old >> 32);
    cf_history updated;
    int invalidated = 0;
    if (!is_write) {
      if (second || first == thread_plus1)
        return 0; // full, or this thread already holds a copy
      updated = first ? (old | ((u64)thread_plus1 << 32)) : thread_plus1;
    } else {
      if (first == thread_plus1 && !second)
        return 0; // the only copy is this thread's own
      // Every other holder loses its copy: one invalidation.
      if (first && first != thread_plus1)
        victims[invalidated++] = first;
      if (second && second != thread_plus1)
        victims[invalidated++] = second;
      updated = thread_plus1;
    }
    if (cf_cas(history, &old, updated))
      return invalidated;
  }
}

// Runs a seen access through the history table. An invalidation is true
// sharing when the written bytes meet bytes a victim used since it last got
// the line; the victims' copies are gone, so their byte sets restart. The
// writer's kind of access (its own, so plain updates) keeps the count: the
// bytes whose writes invalidate name the objects to fix.
static void cf_observe(struct cf_line_record *record, u32 thread_plus1,
                       bool is_write, u64 mask, struct cf_shape *shape) {
  u32 victims[2];
  int n = cf_history_access(&record->history, thread_plus1, is_write, victims);
  if (!n)
    return;
  bool true_sharing = false;
  for (int i = 0; i < n; i++) {
    struct cf_thread_line *victim = cf_slot_of(record, victims[i], false);
    struct cf_thread_line *others = cf_others_part(record);
    u64 held = victim   ? cf_load(&victim->held_bytes)
               : others ? cf_load(&others->read_bytes) |
                              cf_load(&others->written_bytes)
                        : 0;
    if (held & mask)
      true_sharing = true;
    if (victim && held)
      cf_store(&victim->held_bytes, 0);
  }
  cf_add(&record->observed, 1);
  if (true_sharing)
    cf_add(&record->observed_true, 1);
  if (shape) {
    cf_store(&shape->invalidations, shape->invalidations + 1);
    if (true_sharing)
      cf_store(&shape->true_invalidations, shape->true_invalidations + 1);
  }
}


static void cf_record_sample(struct cf_line_record *record, uptr offset,
                             uptr length, bool is_write, bool locked_rmw,
                             u32 thread_plus1, u64 clock, uptr pc) {
  u64 mask = cf_byte_mask(offset, length);
  struct cf_thread_line *slot = cf_slot_of(record, thread_plus1, true);
  struct cf_shape *shape = 0;
  struct cf_thread_line *others;
  if (slot) {
    // Only this thread writes these fields: plain updates.
    if (is_write) {
      cf_store(&slot->writes, slot->writes + 1);
      if (locked_rmw)
        cf_store(&slot->locked_rmw_writes, slot->locked_rmw_writes + 1);
      cf_own_bits(&slot->written_bytes, mask);
    } else {
      cf_store(&slot->reads, slot->reads + 1);
      cf_own_bits(&slot->read_bytes, mask);
    }
    cf_note_activity(slot, clock, slot->reads + slot->writes - 1);
    if (!slot->first_clock)
      cf_store(&slot->first_clock, clock);
    cf_store(&slot->last_clock, clock);
    shape = cf_count_shape(record, slot, offset, length, is_write, mask);
    cf_count_site(slot, pc, is_write, mask);
  } else if ((others = cf_others_of(record))) {
    cf_add(is_write ? &others->writes : &others->reads, 1);
    if (is_write && locked_rmw)
      cf_add(&others->locked_rmw_writes, 1);
    cf_shared_bits(is_write ? &others->written_bytes : &others->read_bytes,
                   mask);
    cf_shared_first(&others->first_clock, clock);
    cf_shared_last(&others->last_clock, clock);
  }
  cf_observe(record, thread_plus1, is_write, mask, shape);
  // After the history table, which may have just emptied it.
  if (slot)
    cf_shared_bits(&slot->held_bytes, mask);
}

//===-- Summaries -------------------------------------------------------------===//

// Where a thread's activity on the line began, as far as meeting other
// threads goes: its first sample when its samples came at most CF_BURST_GAP
// periods apart on average (it used the line steadily all along, even if
// this run's scheduler ran it alone), else the start of its current burst
// (it came back to the line from time to time: turns, hand-overs).
static u64 cf_use_start_clock(const struct cf_line_use *use) {
  u64 first = cf_load(&use->first_clock), last = cf_load(&use->last_clock);
  u64 samples = (u64)cf_load(&use->reads) + cf_load(&use->writes);
  if (last - first <= samples * CF_BURST_GAP * cf_mean_period)
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
      cf_count_shape(record, slot, first, length, is_write, mask);
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

// Adds a sample of the entry's own thread.
static void cf_use_sample(struct cf_line_use *use, u64 mask, bool is_write,
                          u64 clock) {
  if (is_write) {
    cf_store(&use->writes, use->writes + 1);
    cf_own_bits(&use->written_bytes, mask);
  } else {
    cf_store(&use->reads, use->reads + 1);
    cf_own_bits(&use->read_bytes, mask);
  }
  if (clock > use->last_clock + CF_BURST_GAP * cf_mean_period)
    cf_store(&use->burst_clock, clock);
  if (clock > use->last_clock)
    cf_store(&use->last_clock, clock);
}

// Adds a sample to the "other threads" entry, which they share.
static void cf_use_sample_shared(struct cf_line_use *use, u64 mask,
                                 bool is_write, u64 clock) {
  cf_add(is_write ? &use->writes : &use->reads, 1);
  cf_shared_bits(is_write ? &use->written_bytes : &use->read_bytes, mask);
  cf_shared_first(&use->first_clock, clock);
  // Their bursts as if one thread's: a sample long after the last starts one.
  u64 last = cf_load(&use->last_clock);
  if (!last || clock > last + CF_BURST_GAP * cf_mean_period)
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
  u64 gap = CF_BURST_GAP * cf_mean_period;
  return first <= to + gap && from <= last + gap;
}

// Whether another thread than thread_plus1 was active on the line during
// [from, to] (its current burst, or for threads summed together, its span).
static bool cf_summary_meets(struct cf_summary *summary, u32 thread_plus1,
                             u64 from, u64 to) {
  for (int i = 0; i <= CF_SUMMARY_THREADS; i++) {
    struct cf_line_use *use = &summary->uses[i];
    u32 owner = cf_load(&use->thread_plus1);
    u64 last = __atomic_load_n(&use->last_clock, __ATOMIC_ACQUIRE);
    if (owner && owner != thread_plus1 && last &&
        cf_spans_meet(from, to, cf_use_start_clock(use), last))
      return true;
  }
  return false;
}

// The line's record, made now (seeded from its solo summary, if any): a
// line with latent sharing on a neighbouring line.
static void cf_record_now(u32 *state, uptr line, u32 value) {
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

static bool cf_neighbour_meets(uptr line, u32 thread_plus1, u64 from, u64 to) {
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
// table, and the line gets a record when its threads' use meets.
static void cf_summary_sample(u32 *state, u32 value, uptr line, uptr offset,
                              uptr length, bool is_write, u32 thread_plus1,
                              u64 clock, uptr pc) {
  struct cf_summary *summary = cf_summary_of(value);
  u64 mask = cf_byte_mask(offset, length);
  bool shared;
  struct cf_line_use *use = cf_summary_use(summary, thread_plus1, &shared);
  u32 index = (u32)(use - summary->uses);
  if (shared) {
    u32 none = 0;
    cf_cas(&use->thread_plus1, &none, CF_SEVERAL_READERS);
    cf_use_sample_shared(use, mask, is_write, clock);
  } else {
    if (!use->last_clock)
      cf_use_start(use, clock, pc);
    cf_use_sample(use, mask, is_write, clock);
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
      cf_neighbour_meets(line, thread_plus1, from, to))
    cf_detail(state, value, line, summary);
}

// The line's summary, made now if it has none, from its solo summary or
// with the thread that held the line so far in its history table (so that
// the first access of another thread is an invalidation as it would have
// been). Without room for summaries, the line gets a record right away.
// Returns the line's state after.
static u32 cf_track(u32 *state, uptr line, u32 value) {
  if (value == CF_NO_RECORD || cf_is_record(value) || cf_is_summary(value))
    return value;
  u32 index;
  if (cf_mean_period == 1 ||
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
static bool cf_start_solo(u32 *state, u32 value, uptr line, u32 thread_plus1,
                          uptr offset, uptr length, u64 clock, uptr pc) {
  u32 index;
  if (!cf_new_entry(&cf_solo_pool, &cf_solo_count, cf_solo_table,
                    sizeof(struct cf_line_use), &index))
    return false;
  struct cf_line_use *solo = &cf_solo_table[index];
  solo->thread_plus1 = thread_plus1;
  cf_use_start(solo, clock, pc);
  cf_use_sample(solo, cf_byte_mask(offset, length), true, clock);
  // Published by the exchange; the sweep looks at it once its line is
  // known.
  if (cf_cas(state, &value, index | CF_RECORD_BIT | CF_SOLO_BIT)) {
    cf_store(&cf_solo_lines[index], line);
    return true;
  }
  cf_pool_give(&cf_solo_pool, index);
  return false;
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

u64 cf_retired_records(void) { return cf_load(&cf_retired_record_count); }

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

//===-- Giving entries back ------------------------------------------------===//

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

//===-- The line state machine ------------------------------------------------===//

// One sampled access to [line + offset, line + offset + length), applied to
// the line's state. alone: the process had a single thread when the access
// was sampled.
static void cf_apply_sample(u32 *state, uptr line, uptr offset, uptr length,
                            bool is_write, bool locked_rmw, u32 thread_plus1,
                            u64 clock, uptr pc, bool alone) {
  u32 value = __atomic_load_n(state, __ATOMIC_ACQUIRE);
  for (;;) {
    if (value == CF_NO_RECORD)
      return;
    if (cf_is_record(value)) {
      cf_record_sample(&cf_record_table[value & ~CF_RECORD_BIT], offset,
                       length, is_write, locked_rmw, thread_plus1, clock, pc);
      return;
    }
    if (cf_is_summary(value)) {
      cf_summary_sample(state, value, line, offset, length, is_write,
                        thread_plus1, clock, pc);
      return;
    }
    if (cf_is_solo(value)) {
      struct cf_line_use *solo = cf_solo_of(value);
      // The summary's thread goes on alone until another thread uses this
      // line, or its burst meets another thread's on a neighbouring line
      // (latent sharing: the line gets a record at once).
      if (solo->thread_plus1 == thread_plus1) {
        cf_use_sample(solo, cf_byte_mask(offset, length), is_write, clock);
        if (cf_neighbour_meets(line, thread_plus1, cf_use_start_clock(solo),
                               clock))
          cf_record_now(state, line, value);
        return;
      }
      value = cf_track(state, line, value);
      continue;
    }
    u32 holder = value & CF_THREAD_MASK;
    u32 updated;
    if (!holder) {
      updated = thread_plus1 |
                (is_write ? CF_WRITTEN_BIT | (1u << CF_WRITE_COUNT_SHIFT) : 0);
    } else if (holder == thread_plus1) {
      if (!is_write)
        return;
      u32 writes = (value >> CF_WRITE_COUNT_SHIFT) & CF_WRITE_COUNT_MAX;
      if (writes + 1 >= cf_prediction_samples) {
        // While the process has a single thread, nothing can share the line
        // yet; the count stays where it is.
        if (alone)
          return;
        // One thread writes the line often: keep its samples, so that a
        // thread that comes later (in this run's schedule, or on a
        // neighbouring line: prediction) is compared with all of them. In a
        // solo summary, or when those are full in a shared one.
        if (cf_start_solo(state, value, line, thread_plus1, offset, length,
                          clock, pc))
          return;
        u32 now = __atomic_load_n(state, __ATOMIC_ACQUIRE);
        value = now == value ? cf_track(state, line, value) : now;
        continue;
      }
      updated = (value & ~(CF_WRITE_COUNT_MAX << CF_WRITE_COUNT_SHIFT)) |
                CF_WRITTEN_BIT | ((writes + 1) << CF_WRITE_COUNT_SHIFT);
    } else if (!is_write && !(value & CF_WRITTEN_BIT)) {
      // Threads that only read share the line harmlessly so far.
      if (holder == CF_SEVERAL_READERS)
        return;
      updated = CF_SEVERAL_READERS;
    } else if (!is_write && ((value >> CF_WRITE_COUNT_SHIFT) &
                             CF_WRITE_COUNT_MAX) < cf_tracking_samples) {
      // Another thread reads what one thread wrote, but rarely so far
      // (data written once and then read, Predator's tracking threshold):
      // not a candidate yet.
      return;
    } else {
      value = cf_track(state, line, value);
      continue;
    }
    if (cf_cas(state, &value, updated))
      return;
  }
}

//===-- The first thread's samples, applied in batches ----------------------===//

// While the process has a single thread, a sample can only change the plain
// state of its line (its thread, written, its sampled writes), and nothing
// reads a plain state but this state machine when it applies a later
// sample. The line states of a loop streaming through memory are seldom in
// any cache, and one miss per sample was a third of stream_triad's CPU time
// (docs/performance.md, issue 24). So the samples of a thread that is alone
// are logged and applied in batches, their states prefetched first so that
// the misses overlap; in sampling order, and before any sample of a second
// thread (the creating thread applies its log when it creates one): every
// state ends as it would have, sample by sample.
#define CF_ALONE_BATCH 256
struct cf_alone_sample {
  uptr line;
  u64 clock;
  uptr pc;
  u32 thread_plus1;
  u8 offset, length;
  bool is_write, locked_rmw;
};
struct cf_alone_log {
  u32 count;
  struct cf_alone_sample samples[CF_ALONE_BATCH];
};
// Mapped at the thread's first sample while alone: in practice only the
// main thread, and only until it creates a thread.
static __thread struct cf_alone_log *cf_alone_log
    __attribute__((tls_model("initial-exec")));

// What cf_apply_sample would find for most samples of a thread alone: a
// line it already holds, read again, or written again with its count of
// sampled writes already where it stops while the thread is alone.
static bool cf_alone_sample_changes_nothing(u32 value,
                                            const struct cf_alone_sample *s) {
  if ((value & CF_RECORD_BIT) || (value & CF_THREAD_MASK) != s->thread_plus1)
    return false;
  if (!s->is_write)
    return true;
  u32 writes = (value >> CF_WRITE_COUNT_SHIFT) & CF_WRITE_COUNT_MAX;
  return writes + 1 >= cf_prediction_samples;
}

void cf_lines_apply_alone_samples(void) {
  struct cf_alone_log *log = cf_alone_log;
  if (!log || !log->count)
    return;
  u32 n = log->count;
  u32 *states[CF_ALONE_BATCH];
  for (u32 i = 0; i < n; i++) {
    states[i] = cf_line_state(log->samples[i].line, true);
    if (states[i])
      __builtin_prefetch(states[i], 1, 3);
  }
  for (u32 i = 0; i < n; i++) {
    struct cf_alone_sample *s = &log->samples[i];
    if (!states[i] || cf_alone_sample_changes_nothing(*states[i], s))
      continue;
    cf_apply_sample(states[i], s->line, s->offset, s->length, s->is_write,
                    s->locked_rmw, s->thread_plus1, s->clock, s->pc, true);
  }
  log->count = 0;
}

void cf_sample_line(uptr line, uptr offset, uptr length, bool is_write,
                    bool locked_rmw, u32 thread_plus1, u64 clock, uptr pc) {
  if (efsan_thread_count() < 2) {
    struct cf_alone_log *log = cf_alone_log;
    if (EFSAN_UNLIKELY(!log))
      log = cf_alone_log = (struct cf_alone_log *)efsan_mmap_noreserve(
          sizeof(struct cf_alone_log));
    struct cf_alone_sample *s = &log->samples[log->count];
    s->line = line;
    s->clock = clock;
    s->pc = pc;
    s->thread_plus1 = thread_plus1;
    s->offset = (u8)offset;
    s->length = (u8)length;
    s->is_write = is_write;
    s->locked_rmw = locked_rmw;
    if (++log->count == CF_ALONE_BATCH)
      cf_lines_apply_alone_samples();
    return;
  }
  cf_lines_apply_alone_samples();
  u32 *state = cf_line_state(line, true);
  if (state)
    cf_apply_sample(state, line, offset, length, is_write, locked_rmw,
                    thread_plus1, clock, pc, false);
}

//===-- Set-up ---------------------------------------------------------------===//

void cf_lines_init(u32 record_capacity, u64 mean_period, u64 prediction_samples,
                   u64 tracking_samples, u32 report_threshold) {
  cf_mean_period = mean_period;
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
