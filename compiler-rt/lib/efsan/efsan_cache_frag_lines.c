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
// record: per thread sampled reads and writes, byte masks, the kinds of
// access with the heap object live at the time, the intervals of clock
// (bursts) in which it used the line, and Predator's two-entry history
// table over the accesses seen, classifying each invalidation byte by byte.
// All of that is written by the sampling thread into its own part of the
// record; nothing is aggregated on the fast path.
//
//===----------------------------------------------------------------------===//
#include "efsan_cache_frag_internal.h"

static u64 cf_mean_period;
static u32 cf_prediction_samples;
static u32 cf_tracking_samples;

//===-- Line states -------------------------------------------------------===//

// State of a line without a record: bits 0-15 the sampling thread's index + 1
// (CF_SEVERAL_READERS: more than one thread, all reading), bit 16 a write was
// sampled, bits 17-30 the single thread's sampled writes (saturating). Bit 31
// set: the low bits index the line's record (CF_NO_RECORD: the table was
// full), or with bit 30 also set, its solo summary (a line one thread writes
// often, alone so far).
#define CF_RECORD_BIT 0x80000000u
#define CF_SOLO_BIT 0x40000000u
#define CF_INDEX_KIND (CF_RECORD_BIT | CF_SOLO_BIT)
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
static struct cf_line_record *cf_record_table;
static u32 cf_record_capacity;
static u32 cf_record_count;

static bool cf_is_record(u32 value) {
  return (value & CF_INDEX_KIND) == CF_RECORD_BIT;
}
static bool cf_is_solo(u32 value) {
  return (value & CF_INDEX_KIND) == CF_INDEX_KIND && value != CF_NO_RECORD;
}

// A line that one thread writes often and no other thread has touched yet
// (private data, most of the time) is not worth a record (22 KB of address
// space, a few KB resident): its thread's samples are summed here, in 64
// bytes, until a second thread touches the line or a neighbouring line
// (latent sharing). Its record then starts with the summary as that
// thread's part, so a thread that ran before the others arrived (one core,
// a loaded machine) still counts. Only the owning thread writes a summary.
struct cf_solo {
  u32 thread_plus1;
  u32 reads, writes; // sampled
  u8 offset, length; // the first access's bytes in the line
  u64 read_bytes, written_bytes;
  u64 first_clock, last_clock;
  uptr pc; // the first access's code address
} __attribute__((aligned(64)));
static struct cf_solo *cf_solo_table;
static u32 cf_solo_capacity;
static u32 cf_solo_count;
static u64 cf_untracked;

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



static struct cf_solo *cf_solo_of(u32 value) {
  return &cf_solo_table[value & ~CF_INDEX_KIND];
}

// Gives the line a record (seeding its history table with the thread that
// held the line so far, so that the first access of another thread is an
// invalidation as it would have been). Returns the line's record, or null
// when the table is full. *solo is the summary the record replaces (null
// if none), for the caller to seed the record with: the one caller whose
// exchange succeeded gets it.
static struct cf_line_record *cf_attach_record(u32 *state, uptr line,
                                               u32 value,
                                               struct cf_solo **solo) {
  *solo = 0;
  for (;;) {
    if (value == CF_NO_RECORD)
      return 0;
    if (cf_is_record(value))
      return &cf_record_table[value & ~CF_RECORD_BIT];
    u32 index = cf_add(&cf_record_count, 1);
    if (index >= cf_record_capacity) {
      cf_store(&cf_record_count, cf_record_capacity);
      if (cf_cas(state, &value, CF_NO_RECORD))
        cf_add(&cf_untracked, 1);
      continue;
    }
    struct cf_line_record *record = &cf_record_table[index];
    struct cf_solo *replaced = cf_is_solo(value) ? cf_solo_of(value) : 0;
    u32 holder = replaced ? replaced->thread_plus1 : value & CF_THREAD_MASK;
    if (holder && holder != CF_SEVERAL_READERS)
      record->history = holder;
    record->line = line;
    if (cf_cas(state, &value, index | CF_RECORD_BIT)) {
      *solo = replaced;
      return record;
    }
    // Another thread changed the state first; this record was never
    // reachable and stays unused (the report skips records whose line is 0).
    cf_store(&record->line, 0);
  }
}

//===-- Records -----------------------------------------------------------===//

static u64 cf_byte_mask(uptr offset, uptr length) {
  u64 bits = length >= 64 ? ~0ull : ((1ull << length) - 1);
  return bits << offset;
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
      if (!cf_cas(&record->owners[i], &owner, thread_plus1) &&
          owner != thread_plus1)
        continue;
      return &record->threads[i];
    }
    if (owner == thread_plus1)
      return &record->threads[i];
  }
  return 0;
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

//===-- Activity intervals --------------------------------------------------===//

// Adds a sample of the thread at `clock` to its intervals of the line. The
// sample extends the last interval when the gap is ordinary for the thread
// on this line (at most 4 times its mean gap between samples of the line so
// far): a line used thinly but steadily is one interval, while bursts much
// further apart than the samples within them (turns taken under a lock)
// are intervals of their own. Beyond CF_INTERVALS, the two intervals with
// the smallest gap between them become one.
static void cf_note_activity(struct cf_thread_line *slot, u64 clock,
                             u64 samples) {
  u32 n = slot->interval_count;
  if (n) {
    struct cf_interval *last = &slot->intervals[n - 1];
    u64 first_clock = slot->intervals[0].first;
    bool ordinary = samples >= 2 ? (clock - last->last) * (samples - 1) <=
                                       4 * (last->last - first_clock)
                                 : clock - last->last <= 64 * cf_mean_period;
    if (ordinary || clock < last->last) {
      if (clock > last->last)
        cf_store(&last->last, clock);
      cf_store(&last->samples, last->samples + 1);
      return;
    }
  }
  if (n == CF_INTERVALS) {
    u32 best = 0;
    for (u32 i = 1; i + 1 < n; i++)
      if (slot->intervals[i + 1].first - slot->intervals[i].last <
          slot->intervals[best + 1].first - slot->intervals[best].last)
        best = i;
    struct cf_interval *a = &slot->intervals[best], *b = &slot->intervals[best + 1];
    cf_store(&a->last, b->last);
    cf_store(&a->samples, a->samples + b->samples);
    for (u32 i = best + 1; i + 1 < n; i++) {
      cf_store(&slot->intervals[i].first, slot->intervals[i + 1].first);
      cf_store(&slot->intervals[i].last, slot->intervals[i + 1].last);
      cf_store(&slot->intervals[i].samples, slot->intervals[i + 1].samples);
    }
    n--;
  }
  cf_store(&slot->intervals[n].first, clock);
  cf_store(&slot->intervals[n].last, clock);
  cf_store(&slot->intervals[n].samples, 1);
  __atomic_store_n(&slot->interval_count, n + 1, __ATOMIC_RELEASE);
}

static struct cf_shape *cf_count_shape(struct cf_line_record *record,
                           struct cf_thread_line *slot, uptr line_offset,
                           uptr length, bool is_write, u64 mask) {
  uptr addr = record->line + line_offset;
  for (int i = 0; i < CF_SHAPES; i++) {
    struct cf_shape *shape = &slot->shapes[i];
    if (!shape->length)
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
  for (int i = 0; i < CF_SHAPES; i++) {
    struct cf_shape *shape = &slot->shapes[i];
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
  if (is_write)
    slot->overflow_writes++;
  else
    slot->overflow_reads++;
  slot->overflow_bytes |= mask;
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
    u64 held = victim ? cf_load(&victim->held_bytes)
                      : cf_load(&record->others.read_bytes) |
                            cf_load(&record->others.written_bytes);
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

// Mutexes and spin locks the thread holds (unlocks of locks taken before
// the runtime started are not counted below 0).
static __thread int cf_locks_held __attribute__((tls_model("initial-exec")));

void efsan_cache_frag_lock_held(int delta) {
  int held = cf_locks_held + delta;
  cf_locks_held = held < 0 ? 0 : held;
}

// Counts a sample of the thread's at pc (only the thread writes its slot).
static void cf_count_site(struct cf_thread_line *slot, uptr pc, bool is_write,
                          u64 mask) {
  for (int i = 0; i < CF_SITES; i++) {
    struct cf_site *site = &slot->sites[i];
    if (site->pc && site->pc != pc)
      continue;
    if (is_write)
      cf_store(&site->writes, site->writes + 1);
    else
      cf_store(&site->reads, site->reads + 1);
    if ((site->bytes & mask) != mask)
      cf_store(&site->bytes, site->bytes | mask);
    if (cf_locks_held) {
      cf_store(&site->locked, site->locked + 1);
      if (is_write)
        cf_store(&site->locked_writes, site->locked_writes + 1);
    }
    // Published last: the report reads sites of running threads.
    if (!site->pc)
      __atomic_store_n(&site->pc, pc, __ATOMIC_RELEASE);
    return;
  }
  if (is_write) {
    cf_store(&slot->other_site_writes, slot->other_site_writes + 1);
    if (cf_locks_held)
      cf_store(&slot->other_site_locked_writes,
               slot->other_site_locked_writes + 1);
  } else
    cf_store(&slot->other_site_reads, slot->other_site_reads + 1);
}

static void cf_record_sample(struct cf_line_record *record, uptr offset,
                             uptr length, bool is_write, u32 thread_plus1,
                             u64 clock, uptr pc) {
  u64 mask = cf_byte_mask(offset, length);
  struct cf_thread_line *slot = cf_slot_of(record, thread_plus1, true);
  struct cf_shape *shape = 0;
  if (slot) {
    // Only this thread writes these fields: plain updates.
    if (is_write) {
      cf_store(&slot->writes, slot->writes + 1);
      if ((slot->written_bytes & mask) != mask)
        cf_store(&slot->written_bytes, slot->written_bytes | mask);
    } else {
      cf_store(&slot->reads, slot->reads + 1);
      if ((slot->read_bytes & mask) != mask)
        cf_store(&slot->read_bytes, slot->read_bytes | mask);
    }
    cf_note_activity(slot, clock, slot->reads + slot->writes - 1);
    if (!slot->first_clock)
      cf_store(&slot->first_clock, clock);
    cf_store(&slot->last_clock, clock);
    shape = cf_count_shape(record, slot, offset, length, is_write, mask);
    cf_count_site(slot, pc, is_write, mask);
  } else {
    struct cf_thread_line *others = &record->others;
    cf_add(is_write ? &others->writes : &others->reads, 1);
    u64 *bytes = is_write ? &others->written_bytes : &others->read_bytes;
    if ((cf_load(bytes) & mask) != mask)
      __atomic_fetch_or(bytes, mask, __ATOMIC_RELAXED);
    u64 first = cf_load(&others->first_clock);
    while ((!first || clock < first) &&
           !cf_cas(&others->first_clock, &first, clock)) {
    }
    u64 last = cf_load(&others->last_clock);
    while (clock > last && !cf_cas(&others->last_clock, &last, clock)) {
    }
  }
  cf_observe(record, thread_plus1, is_write, mask, shape);
  // After the history table, which may have just emptied it.
  if (slot && (cf_load(&slot->held_bytes) & mask) != mask)
    __atomic_fetch_or(&slot->held_bytes, mask, __ATOMIC_RELAXED);
}

//===-- Solo lines ------------------------------------------------------------===//

// The summary's thread becomes the record's first thread, as if the record
// had been there from its first sample: counts, bytes, one activity
// interval from its first to its last sample, its first site and access
// shape (all its samples count for them).
static void cf_seed_record(struct cf_line_record *record,
                           const struct cf_solo *solo) {
  struct cf_thread_line *slot = cf_slot_of(record, solo->thread_plus1, true);
  if (!slot)
    return;
  u64 bytes = solo->read_bytes | solo->written_bytes;
  cf_store(&slot->reads, solo->reads);
  cf_store(&slot->writes, solo->writes);
  cf_store(&slot->read_bytes, solo->read_bytes);
  cf_store(&slot->written_bytes, solo->written_bytes);
  cf_store(&slot->first_clock, solo->first_clock);
  cf_store(&slot->last_clock, solo->last_clock);
  cf_store(&slot->intervals[0].first, solo->first_clock);
  cf_store(&slot->intervals[0].last, solo->last_clock);
  cf_store(&slot->intervals[0].samples, (u64)solo->reads + solo->writes);
  __atomic_store_n(&slot->interval_count, 1, __ATOMIC_RELEASE);
  struct cf_site *site = &slot->sites[0];
  cf_store(&site->reads, solo->reads);
  cf_store(&site->writes, solo->writes);
  cf_store(&site->bytes, bytes);
  __atomic_store_n(&site->pc, solo->pc, __ATOMIC_RELEASE);
  struct cf_shape *shape = &slot->shapes[0];
  shape->offset = solo->offset;
  shape->object = cf_object_of(record, record->line + solo->offset);
  shape->reads = solo->reads;
  shape->writes = solo->writes;
  __atomic_store_n(&shape->length, solo->length, __ATOMIC_RELEASE);
  __atomic_fetch_or(&slot->held_bytes, bytes, __ATOMIC_RELAXED);
}

// The line's record, made now if it has none (from its summary, if any);
// null when the record table is full.
static struct cf_line_record *cf_track(u32 *state, uptr line, u32 value) {
  struct cf_solo *solo;
  struct cf_line_record *record = cf_attach_record(state, line, value, &solo);
  if (record && solo)
    cf_seed_record(record, solo);
  return record;
}

static void cf_solo_sample(struct cf_solo *solo, uptr offset, uptr length,
                           bool is_write, u64 clock) {
  u64 mask = cf_byte_mask(offset, length);
  if (is_write) {
    cf_store(&solo->writes, solo->writes + 1);
    if ((solo->written_bytes & mask) != mask)
      cf_store(&solo->written_bytes, solo->written_bytes | mask);
  } else {
    cf_store(&solo->reads, solo->reads + 1);
    if ((solo->read_bytes & mask) != mask)
      cf_store(&solo->read_bytes, solo->read_bytes | mask);
  }
  cf_store(&solo->last_clock, clock);
}

// Starts the summary of a line that thread_plus1 has written often alone,
// with this (written) sample; false if the line's state changed meanwhile or
// the summaries are full. The samples before it are not in it (they have no
// clock), as a record made at this point would not have them either: its
// activity interval must hold the samples it counts.
static bool cf_start_solo(u32 *state, u32 value, u32 thread_plus1,
                          uptr offset, uptr length, u64 clock, uptr pc) {
  u32 index = cf_add(&cf_solo_count, 1);
  if (index >= cf_solo_capacity) {
    cf_store(&cf_solo_count, cf_solo_capacity);
    return false;
  }
  struct cf_solo *solo = &cf_solo_table[index];
  solo->thread_plus1 = thread_plus1;
  solo->offset = (u8)offset;
  solo->length = (u8)length;
  solo->pc = pc;
  solo->first_clock = clock;
  cf_solo_sample(solo, offset, length, true, clock);
  // Published by the exchange; an entry lost to a race stays unused.
  return cf_cas(state, &value, index | CF_INDEX_KIND);
}

// Whether a thread other than thread_plus1 has sampled the line. Another
// thread's summary there becomes a record (its thread may be long done):
// latent sharing with this thread's line is compared with all of it.
static bool cf_line_has_other_thread(uptr line, u32 thread_plus1) {
  u32 *state = cf_line_state(line, false);
  if (!state)
    return false;
  u32 value = __atomic_load_n(state, __ATOMIC_ACQUIRE);
  if (value == CF_NO_RECORD)
    return true;
  if (cf_is_solo(value)) {
    if (cf_solo_of(value)->thread_plus1 == thread_plus1)
      return false;
    cf_track(state, line, value);
    return true;
  }
  if (!cf_is_record(value)) {
    u32 holder = value & CF_THREAD_MASK;
    return holder && holder != thread_plus1;
  }
  struct cf_line_record *record = &cf_record_table[value & ~CF_RECORD_BIT];
  for (int i = 0; i < CF_THREAD_SLOTS; i++) {
    u32 owner = cf_owner(record, i);
    if (!owner)
      break;
    if (owner != thread_plus1)
      return true;
  }
  return cf_load(&record->others.reads) + cf_load(&record->others.writes) > 0;
}

// Latent false sharing (128-byte lines, other object start offsets) needs
// another thread on a neighbouring line.
static bool cf_neighbour_has_other_thread(uptr line, u32 thread_plus1) {
  return (line >= EFSAN_CACHE_LINE_SIZE &&
          cf_line_has_other_thread(line - EFSAN_CACHE_LINE_SIZE,
                                   thread_plus1)) ||
         cf_line_has_other_thread(line + EFSAN_CACHE_LINE_SIZE, thread_plus1);
}

//===-- The line state machine ------------------------------------------------===//

// One sampled access to [line + offset, line + offset + length).
void cf_sample_line(uptr line, uptr offset, uptr length, bool is_write,
                           u32 thread_plus1, u64 clock, uptr pc) {
  u32 *state = cf_line_state(line, true);
  if (!state)
    return;
  u32 value = __atomic_load_n(state, __ATOMIC_ACQUIRE);
  struct cf_line_record *record = 0;
  while (!record) {
    if (value == CF_NO_RECORD)
      return;
    if (cf_is_record(value)) {
      record = &cf_record_table[value & ~CF_RECORD_BIT];
      break;
    }
    if (cf_is_solo(value)) {
      struct cf_solo *solo = cf_solo_of(value);
      // The summary's thread goes on alone until another thread uses this
      // line or the next one.
      if (solo->thread_plus1 == thread_plus1 &&
          !cf_neighbour_has_other_thread(line, thread_plus1)) {
        cf_solo_sample(solo, offset, length, is_write, clock);
        return;
      }
      record = cf_track(state, line, value);
      if (!record)
        return;
      break;
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
        if (efsan_thread_count() < 2)
          return;
        // One thread writes the line often: keep its samples, so that a
        // thread that comes later (in this run's schedule, or on a
        // neighbouring line: prediction) is compared with all of them. In a
        // summary while the line's neighbours are this thread's alone, else
        // (or when the summaries are full) in a record.
        if (!cf_neighbour_has_other_thread(line, thread_plus1) &&
            cf_start_solo(state, value, thread_plus1, offset, length, clock,
                          pc))
          return;
        value = __atomic_load_n(state, __ATOMIC_ACQUIRE);
        if (cf_is_solo(value) || holder != (value & CF_THREAD_MASK))
          continue; // changed meanwhile: look again
        record = cf_track(state, line, value);
        if (!record)
          return;
        break;
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
      record = cf_track(state, line, value);
      if (!record)
        return;
      break;
    }
    if (cf_cas(state, &value, updated))
      return;
  }
  cf_record_sample(record, offset, length, is_write, thread_plus1, clock, pc);
}

//===-- Set-up ---------------------------------------------------------------===//

void cf_lines_init(u32 record_capacity, u64 mean_period, u64 prediction_samples,
                   u64 tracking_samples) {
  cf_mean_period = mean_period;
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
  // Lines written often by one thread alone are common (private data):
  // room for 16 per record, 64 bytes each.
  cf_solo_capacity = cf_record_capacity * 16u;
  cf_solo_table = (struct cf_solo *)efsan_mmap_noreserve(
      (uptr)cf_solo_capacity * sizeof(struct cf_solo));
}

void cf_lines_fork_child(void) {
  // Only the locks that are held are reset: writing every record would copy
  // all of them into the child (copy-on-write), for each fork.
  for (u32 i = 0; i < cf_record_capacity && i < cf_load(&cf_record_count); i++)
    if (cf_record_table[i].objects_lock.opaque)
      cf_record_table[i].objects_lock.opaque = 0;
}
