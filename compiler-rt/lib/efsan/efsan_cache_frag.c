//===-- efsan_cache_frag.c - sampled per-thread access records -----------===//
//
// The cache-frag tool's access path. Instrumented code keeps a per-thread
// countdown of accesses (in a register, synced with __efsan_cache_frag_countdown
// at calls) and calls __efsan_cache_frag_access for the accesses of a run
// only when it runs out. The runtime then samples the access at which the
// countdown reaches zero and draws the next period at random (mean
// cache_frag_sample_period): every access of a thread is sampled with the
// same probability, whatever the run it belongs to and however slowly the
// sampled path runs, so sampled counts times the mean period estimate the
// real ones without bias. cache_frag_sample_period=1 samples every access.
//
// A sample carries the thread's virtual clock: the accesses it has made, on
// top of its creator's clock when it was created, of the clock of every
// thread it joined and of every lock release it acquired after. The
// contention model (efsan_cache_frag_model.c) compares threads on that
// clock, as if each had run on its own core, so estimates do not depend on
// how this run's scheduler interleaved them.
//
// Per line, a 32-bit state in a lazily mapped two-level table (4 MiB of
// application memory per chunk): the one thread that sampled it so far and
// its sampled writes, until a second thread writes it, or reads it after
// cache_frag_tracking_threshold writes. A line one thread writes often (in a
// process with threads) gets a 64-byte summary of that thread's samples,
// until another thread uses it or a neighbouring line (latent sharing):
// private data stays cheap. Then the line gets a record: per
// thread sampled reads and writes, byte masks, the kinds of access with the
// heap object live at the time, the intervals of clock (bursts) in which it
// used the line, and Predator's two-entry
// history table over the accesses seen, classifying each invalidation byte
// by byte. All of that is written by the sampling thread into its own part
// of the record; nothing is aggregated on the fast path.
//
//===----------------------------------------------------------------------===//
#include "efsan_cache_frag_internal.h"

// The countdown instrumented code keeps (docs/InstrumentationABI.md).
EFSAN_INTERFACE __thread long long __efsan_cache_frag_countdown
    __attribute__((tls_model("initial-exec")));

// Per-thread sampling state. A thread's clock at its n-th access is
// clock_base + n; accesses_done counts the accesses of the periods finished.
struct cf_sampler {
  u64 period;        // length of the current period
  u64 accesses_done; // accesses of the finished periods
  u64 clock_base;
  u64 random;
  bool started;
};
static __thread struct cf_sampler cf_self
    __attribute__((tls_model("initial-exec")));

static u64 cf_mean_period;
static u32 cf_prediction_samples;
static u32 cf_tracking_samples;

// What the report needs of each program thread, indexed by thread index;
// each entry on its own line, written by its thread (accesses) or by its
// creator before it runs (clock_base).
struct cf_thread_info {
  u64 accesses;
  u64 clock_base;
  u64 final_clock; // clock at exit, for threads joining it
  uptr handle;     // pthread_t
  uptr stack_lo, stack_hi;
  uptr start_routine;
  u32 creator_plus1;  // index + 1 of the thread that created it; 0: unknown
  u32 creation_stack; // where it was created
  u32 tid;            // kernel thread id, for its CPU clock while it runs
  u64 cpu_ns;         // CPU time at exit
  u8 exited;
} __attribute__((aligned(64)));
#define CF_MAX_THREAD_INFOS (1u << 20)
static struct cf_thread_info *cf_thread_infos;

// pthread_t -> thread index, direct-mapped: a handle is reused only after
// its thread was joined or detached, and a lost entry only costs the join's
// clock merge.
#define CF_HANDLE_SLOTS 16384
static u32 *cf_handle_index; // thread index + 1

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

u64 cf_sample_period(void) { return cf_mean_period; }

u64 cf_thread_accesses(u32 thread) {
  if (thread >= CF_MAX_THREAD_INFOS)
    return 0;
  return cf_load(&cf_thread_infos[thread].accesses);
}

u64 cf_thread_final_clock(u32 thread) {
  if (thread >= CF_MAX_THREAD_INFOS)
    return 0;
  return cf_load(&cf_thread_infos[thread].final_clock);
}

u64 cf_thread_cpu_ns(u32 thread) {
  if (thread >= CF_MAX_THREAD_INFOS)
    return 0;
  struct cf_thread_info *info = &cf_thread_infos[thread];
  if (__atomic_load_n(&info->exited, __ATOMIC_ACQUIRE))
    return cf_load(&info->cpu_ns);
  if (thread == efsan_thread_index)
    return efsan_thread_cpu_ns();
  return efsan_thread_cpu_ns_of(cf_load(&info->tid));
}

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

//===-- Sync clocks ---------------------------------------------------------===//

// The clock each lock was last released at, so that the next owner's clock
// moves past it: threads that take turns under a lock are in turn order on
// the virtual clock, as they would be on separate cores. Open addressing by
// address; a table that is full forgets (clocks then only move at thread
// creation and join, as without it).
#define CF_SYNC_SLOTS (1u << 16)
struct cf_sync_clock {
  uptr addr;
  u64 clock;
};
static struct cf_sync_clock *cf_sync_clocks;

static struct cf_sync_clock *cf_sync_slot(uptr addr, bool create) {
  u32 h = (u32)((addr * 0x9e3779b97f4a7c15ull) >> 48) & (CF_SYNC_SLOTS - 1);
  for (u32 probe = 0; probe < 64; probe++) {
    struct cf_sync_clock *slot = &cf_sync_clocks[(h + probe) & (CF_SYNC_SLOTS - 1)];
    uptr key = __atomic_load_n(&slot->addr, __ATOMIC_ACQUIRE);
    if (key == addr)
      return slot;
    if (!key) {
      if (!create)
        return 0;
      if (cf_cas(&slot->addr, &key, addr) || key == addr)
        return slot;
    }
  }
  return 0;
}

// Counts the access among the thread's kinds of access to the line; returns
// its entry (null when it went to the overflow counts).
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
static void cf_sample_line(uptr line, uptr offset, uptr length, bool is_write,
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

//===-- Sampling ----------------------------------------------------------===//

static u64 cf_next_random(void) {
  // xorshift64*: per thread, cheap, good enough to break aliasing with loops.
  u64 x = cf_self.random;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  cf_self.random = x;
  return x * 0x2545f4914f6cdd1dull;
}

// Uniform in [1, 2 * mean - 1]: mean period `mean`, never a fixed stride
// that a loop could alias with.
static u64 cf_next_period(void) {
  if (cf_mean_period <= 1)
    return 1;
  return 1 + (cf_next_random() >> 11) % (2 * cf_mean_period - 1);
}

static void cf_start_thread_sampler(u32 thread, u64 clock_base) {
  cf_self.random = 0x9e3779b97f4a7c15ull * (thread + 1) ^ efsan_monotonic_ns();
  if (!cf_self.random)
    cf_self.random = 1;
  cf_self.clock_base = clock_base;
  cf_self.accesses_done = 0;
  cf_self.period = cf_next_period();
  __efsan_cache_frag_countdown = (long long)cf_self.period;
  cf_self.started = true;
}

// The clock of the current thread now (accesses so far + its base).
static u64 cf_current_clock(void) {
  long long left = __efsan_cache_frag_countdown;
  u64 into_period =
      left <= 0 ? cf_self.period
                : (u64)left >= cf_self.period ? 0 : cf_self.period - (u64)left;
  return cf_self.clock_base + cf_self.accesses_done + into_period;
}

// The period just ended at an access of this thread: returns the thread
// index + 1 and the access's clock, and starts the next period. 0 for the
// runtime's own threads.
static u32 cf_end_period(u64 *clock) {
  u32 thread = efsan_thread_index;
  if (thread == EFSAN_INTERNAL_THREAD) {
    __efsan_cache_frag_countdown = 1ll << 62;
    return 0;
  }
  if (!cf_self.started)
    cf_start_thread_sampler(thread, 0);
  cf_self.accesses_done += cf_self.period;
  *clock = cf_self.clock_base + cf_self.accesses_done;
  if (thread < CF_MAX_THREAD_INFOS)
    cf_store(&cf_thread_infos[thread].accesses, cf_self.accesses_done);
  cf_self.period = cf_next_period();
  __efsan_cache_frag_countdown = (long long)cf_self.period;
  return thread + 1;
}

static void cf_sample_range(uptr addr, uptr size, bool is_write,
                            u32 thread_plus1, u64 clock, uptr pc) {
  uptr end = addr + size;
  if (end < addr || end > EFSAN_APP_END)
    return;
  for (uptr line = addr & ~(uptr)(EFSAN_CACHE_LINE_SIZE - 1); line < end;
       line += EFSAN_CACHE_LINE_SIZE) {
    uptr lo = addr > line ? addr : line;
    uptr hi = end < line + EFSAN_CACHE_LINE_SIZE ? end
                                                  : line + EFSAN_CACHE_LINE_SIZE;
    cf_sample_line(line, lo - line, hi - lo, is_write, thread_plus1, clock,
                   pc);
  }
}

EFSAN_INTERFACE void __efsan_cache_frag_access(void *addr, uptr size,
                                               u32 flags, u64 *field_counter) {
  if (!size || --__efsan_cache_frag_countdown > 0)
    return;
  u64 clock;
  u32 thread_plus1 = cf_end_period(&clock);
  if (!thread_plus1)
    return;
  if (field_counter) {
    // A vectorised access to adjacent members counts for each of them.
    u32 fields = ((flags >> 8) & 0xff) + 1;
    for (u32 i = 0; i < fields; i++)
      cf_add(&field_counter[i], 1);
  }
  // The pass gives the call the access's debug location.
  cf_sample_range((uptr)addr, size, flags & 1, thread_plus1, clock,
                  (uptr)__builtin_return_address(0));
}

// Each range a libc interceptor reports counts as one access: whether it is
// sampled is decided before the interceptor sizes it (often a strlen), so
// that an unsampled range costs a decrement. A sampled range is sampled at
// one of its lines, chosen at random.
static __thread u32 cf_libc_thread_plus1
    __attribute__((tls_model("initial-exec")));
static __thread u64 cf_libc_clock __attribute__((tls_model("initial-exec")));

bool efsan_cache_frag_libc_range_sampled(void) {
  if (--__efsan_cache_frag_countdown > 0) {
    cf_libc_thread_plus1 = 0;
    return false;
  }
  cf_libc_thread_plus1 = cf_end_period(&cf_libc_clock);
  return cf_libc_thread_plus1 != 0;
}

void efsan_cache_frag_libc_range(uptr addr, uptr size, int is_write,
                                 uptr pc) {
  uptr end = addr + size;
  if (!cf_libc_thread_plus1 || !size || end < addr)
    return;
  uptr first_line = addr & ~(uptr)(EFSAN_CACHE_LINE_SIZE - 1);
  u64 lines = (end - first_line + EFSAN_CACHE_LINE_SIZE - 1) >>
              EFSAN_CACHE_LINE_SHIFT;
  uptr line = first_line + (cf_next_random() % lines) * EFSAN_CACHE_LINE_SIZE;
  uptr lo = addr > line ? addr : line;
  uptr hi = end < line + EFSAN_CACHE_LINE_SIZE ? end : line + EFSAN_CACHE_LINE_SIZE;
  cf_sample_range(lo, hi - lo, is_write != 0, cf_libc_thread_plus1,
                  cf_libc_clock, pc);
}

void efsan_cache_frag_access(uptr addr, uptr size, int is_write, uptr pc) {
  // A range a mem* call of instrumented code touched: one access per line
  // it covers, so a large copy is sampled where the countdown runs out.
  if (!size)
    return;
  uptr end = addr + size;
  if (end < addr)
    return;
  uptr first_line = addr & ~(uptr)(EFSAN_CACHE_LINE_SIZE - 1);
  u64 lines = (end - first_line + EFSAN_CACHE_LINE_SIZE - 1) >>
              EFSAN_CACHE_LINE_SHIFT;
  long long left = __efsan_cache_frag_countdown;
  if (left > 0 && (u64)left > lines) {
    __efsan_cache_frag_countdown = left - (long long)lines;
    return;
  }
  u64 done = 0;
  for (;;) {
    u64 step = left > 0 ? (u64)left : 1;
    if (step > lines - done) {
      __efsan_cache_frag_countdown = (long long)(step - (lines - done));
      return;
    }
    done += step;
    __efsan_cache_frag_countdown = 0;
    u64 clock;
    u32 thread_plus1 = cf_end_period(&clock);
    if (!thread_plus1)
      return;
    uptr line = first_line + (done - 1) * EFSAN_CACHE_LINE_SIZE;
    uptr lo = addr > line ? addr : line;
    uptr hi = end < line + EFSAN_CACHE_LINE_SIZE ? end
                                                  : line + EFSAN_CACHE_LINE_SIZE;
    cf_sample_range(lo, hi - lo, is_write != 0, thread_plus1, clock, pc);
    left = __efsan_cache_frag_countdown;
  }
}

//===-- Threads -----------------------------------------------------------===//

static u32 cf_handle_slot(uptr handle) {
  return (u32)((handle * 0x9e3779b97f4a7c15ull) >> 50) & (CF_HANDLE_SLOTS - 1);
}

void efsan_cache_frag_thread_created(u32 thread, u32 creation_stack) {
  // On the creating thread, before the new one runs: the new thread's clock
  // starts where its creator's is, as if both went on in parallel.
  if (thread >= CF_MAX_THREAD_INFOS)
    return;
  bool internal = efsan_thread_index == EFSAN_INTERNAL_THREAD;
  u64 base = internal ? 0 : cf_current_clock();
  struct cf_thread_info *info = &cf_thread_infos[thread];
  cf_store(&info->clock_base, base);
  cf_store(&info->creator_plus1, internal ? 0 : efsan_thread_index + 1);
  cf_store(&info->creation_stack, creation_stack);
}

u32 efsan_cache_frag_thread_creator(u32 thread, u32 *creation_stack) {
  *creation_stack = 0;
  if (thread >= CF_MAX_THREAD_INFOS)
    return EFSAN_INTERNAL_THREAD;
  u32 creator_plus1 = cf_load(&cf_thread_infos[thread].creator_plus1);
  if (!creator_plus1)
    return EFSAN_INTERNAL_THREAD;
  *creation_stack = cf_load(&cf_thread_infos[thread].creation_stack);
  return creator_plus1 - 1;
}

void efsan_cache_frag_thread_start(uptr handle, uptr stack_lo,
                                   uptr stack_hi, uptr start_routine) {
  u32 thread = efsan_thread_index;
  if (thread == EFSAN_INTERNAL_THREAD)
    return;
  u64 base = 0;
  if (thread < CF_MAX_THREAD_INFOS) {
    base = cf_load(&cf_thread_infos[thread].clock_base);
    cf_store(&cf_thread_infos[thread].stack_lo, stack_lo);
    cf_store(&cf_thread_infos[thread].stack_hi, stack_hi);
    cf_store(&cf_thread_infos[thread].start_routine, start_routine);
    cf_store(&cf_thread_infos[thread].handle, handle);
    cf_store(&cf_thread_infos[thread].tid, efsan_gettid());
    cf_store(&cf_handle_index[cf_handle_slot(handle)], thread + 1);
  }
  cf_start_thread_sampler(thread, base);
}

uptr efsan_cache_frag_thread_start_routine(u32 thread) {
  return thread < CF_MAX_THREAD_INFOS
             ? cf_load(&cf_thread_infos[thread].start_routine)
             : 0;
}

bool efsan_cache_frag_thread_stack(u32 thread, uptr *lo, uptr *hi) {
  if (thread >= CF_MAX_THREAD_INFOS)
    return false;
  *lo = cf_load(&cf_thread_infos[thread].stack_lo);
  *hi = cf_load(&cf_thread_infos[thread].stack_hi);
  return *lo < *hi;
}

void efsan_cache_frag_thread_exit(void) {
  u32 thread = efsan_thread_index;
  if (thread >= CF_MAX_THREAD_INFOS || !cf_self.started)
    return;
  struct cf_thread_info *info = &cf_thread_infos[thread];
  cf_store(&info->accesses, cf_current_clock() - cf_self.clock_base);
  cf_store(&info->final_clock, cf_current_clock());
  cf_store(&info->cpu_ns, efsan_thread_cpu_ns());
  __atomic_store_n(&info->exited, 1, __ATOMIC_RELEASE);
}

void efsan_cache_frag_sync_release(uptr addr) {
  if (!cf_self.started || efsan_thread_index == EFSAN_INTERNAL_THREAD)
    return;
  struct cf_sync_clock *slot = cf_sync_slot(addr, true);
  if (!slot)
    return;
  u64 now = cf_current_clock(), released = cf_load(&slot->clock);
  while (now > released && !cf_cas(&slot->clock, &released, now)) {
  }
}

void efsan_cache_frag_sync_acquire(uptr addr) {
  if (!cf_self.started || efsan_thread_index == EFSAN_INTERNAL_THREAD)
    return;
  struct cf_sync_clock *slot = cf_sync_slot(addr, false);
  if (!slot)
    return;
  u64 released = cf_load(&slot->clock), now = cf_current_clock();
  if (released > now)
    cf_self.clock_base += released - now;
}

void efsan_cache_frag_thread_joined(uptr handle) {
  // The joiner goes on after the joined thread ended: its clock moves there.
  u32 thread_plus1 = cf_load(&cf_handle_index[cf_handle_slot(handle)]);
  if (!thread_plus1 || !cf_self.started)
    return;
  struct cf_thread_info *info = &cf_thread_infos[thread_plus1 - 1];
  if (cf_load(&info->handle) != handle ||
      !__atomic_load_n(&info->exited, __ATOMIC_ACQUIRE))
    return;
  u64 joined = cf_load(&info->final_clock), now = cf_current_clock();
  if (joined > now)
    cf_self.clock_base += joined - now;
}

//===-- Hooks called by the shared runtime ---------------------------------===//

static void cf_check_flags(void) {
  struct efsan_flags *f = &efsan_flags;
  if (f->cache_frag_sample_period < 1)
    efsan_fatal("cache_frag_sample_period must be >= 1 (got %d)",
                f->cache_frag_sample_period);
  if (f->cache_frag_period_ms < 0)
    efsan_fatal("cache_frag_period_ms must be >= 0 (got %d)",
                f->cache_frag_period_ms);
  if (f->cache_frag_window_ms <= 0)
    efsan_fatal("cache_frag_window_ms must be > 0 (got %d)",
                f->cache_frag_window_ms);
  if (f->cache_frag_tracking_threshold < 1 ||
      f->cache_frag_tracking_threshold > (1 << 30))
    efsan_fatal("cache_frag_tracking_threshold must be 1..1073741824 (got %d)",
                f->cache_frag_tracking_threshold);
  if (f->cache_frag_prediction_threshold < 1)
    efsan_fatal("cache_frag_prediction_threshold must be >= 1 (got %d)",
                f->cache_frag_prediction_threshold);
  if (f->cache_frag_report_threshold < 1)
    efsan_fatal("cache_frag_report_threshold must be >= 1 (got %d)",
                f->cache_frag_report_threshold);
  if (f->cache_frag_transfer_ns < 0 || f->cache_frag_transfer_ns > 100000)
    efsan_fatal("cache_frag_transfer_ns must be 1..100000, or 0 to measure "
                "(got %d)",
                f->cache_frag_transfer_ns);
  if (efsan_internal_strcmp(f->cache_frag_line_pairs, "auto") &&
      efsan_internal_strcmp(f->cache_frag_line_pairs, "yes") &&
      efsan_internal_strcmp(f->cache_frag_line_pairs, "no"))
    efsan_fatal("cache_frag_line_pairs must be auto, yes or no (got '%s')",
                f->cache_frag_line_pairs);
  if (efsan_cache_frag_min_share_ppm() < 0)
    efsan_fatal("cache_frag_min_share must be a percentage from 0 to 100 with "
                "at most 4 decimals, e.g. 1 or 0.5 (got '%s')",
                f->cache_frag_min_share);
  if (f->cache_frag_max_tracked_lines < 1 ||
      f->cache_frag_max_tracked_lines > (1 << 24))
    efsan_fatal("cache_frag_max_tracked_lines must be 1..16777216 (got %d)",
                f->cache_frag_max_tracked_lines);
  if (f->cache_frag_max_findings < 0)
    efsan_fatal("cache_frag_max_findings must be >= 0 (got %d)",
                f->cache_frag_max_findings);
  if (f->cache_frag_max_structs < 0)
    efsan_fatal("cache_frag_max_structs must be >= 0 (got %d)",
                f->cache_frag_max_structs);
}

int efsan_cache_frag_min_share_ppm(void) {
  // "1", "0.5", "12.25": a percentage, parsed without libc.
  const char *s = efsan_flags.cache_frag_min_share;
  long long ppm = 0;
  int digits = 0, decimals = -1;
  for (; *s; s++) {
    if (*s == '.' && decimals < 0) {
      decimals = 0;
      continue;
    }
    if (*s < '0' || *s > '9')
      return -1;
    if (decimals >= 0 && ++decimals > 4)
      return -1;
    ppm = ppm * 10 + (*s - '0');
    digits++;
    if (ppm > 100000000)
      return -1;
  }
  if (!digits)
    return -1;
  // ppm now holds the percentage times 10^decimals.
  for (int d = decimals < 0 ? 0 : decimals; d < 4; d++)
    ppm *= 10;
  // The percentage times 10^4 is parts per million.
  return ppm > 1000000 ? -1 : (int)ppm;
}

void efsan_cache_frag_check_flags(void) { cf_check_flags(); }

void efsan_cache_frag_init(void) {
  cf_check_flags();
  // cache_frag_period_ms=0 was the spelling of "see every access" when the
  // tool sampled time windows; it still means that.
  cf_mean_period = efsan_flags.cache_frag_period_ms == 0
                       ? 1
                       : (u64)efsan_flags.cache_frag_sample_period;
  u64 samples = ((u64)efsan_flags.cache_frag_prediction_threshold +
                 cf_mean_period - 1) / cf_mean_period;
  if (cf_mean_period > 1 && samples < 4)
    samples = 4; // a single sampled write is no evidence of a hot line
  cf_prediction_samples =
      samples > CF_WRITE_COUNT_MAX ? CF_WRITE_COUNT_MAX : (u32)samples;
  samples = ((u64)efsan_flags.cache_frag_tracking_threshold + cf_mean_period -
             1) / cf_mean_period;
  if (cf_mean_period > 1 && samples < 2)
    samples = 2;
  cf_tracking_samples =
      samples > CF_WRITE_COUNT_MAX ? CF_WRITE_COUNT_MAX : (u32)samples;
  // Address space only: chunks, records and thread entries become resident
  // when used.
  cf_chunks = (u32 **)efsan_mmap_noreserve(CF_NUM_CHUNKS * sizeof(u32 *));
  cf_record_capacity = (u32)efsan_flags.cache_frag_max_tracked_lines;
  cf_record_table = (struct cf_line_record *)efsan_mmap_noreserve(
      (uptr)cf_record_capacity * sizeof(struct cf_line_record));
  // Lines written often by one thread alone are common (private data):
  // room for 16 per record, 64 bytes each.
  cf_solo_capacity = cf_record_capacity * 16u;
  cf_solo_table = (struct cf_solo *)efsan_mmap_noreserve(
      (uptr)cf_solo_capacity * sizeof(struct cf_solo));
  cf_thread_infos = (struct cf_thread_info *)efsan_mmap_noreserve(
      CF_MAX_THREAD_INFOS * sizeof(struct cf_thread_info));
  cf_handle_index = (u32 *)efsan_mmap_noreserve(CF_HANDLE_SLOTS * sizeof(u32));
  cf_sync_clocks = (struct cf_sync_clock *)efsan_mmap_noreserve(
      CF_SYNC_SLOTS * sizeof(struct cf_sync_clock));

  efsan_heap_init();
  cf_members_init();
  cf_store(&cf_thread_infos[0].tid, efsan_gettid());
  cf_start_thread_sampler(0, 0);
  cf_machine_init();
}

void efsan_cache_frag_module_init(void *module_info) {
  cf_structs_module_init(module_info);
}

void efsan_cache_frag_module_exit(void *module_info) {
  cf_structs_module_exit(module_info);
}

void efsan_cache_frag_alloc(uptr addr, uptr size, u32 alloc_stack_id) {
  if (addr) {
    efsan_heap_insert(addr, size, alloc_stack_id);
    cf_members_note_alloc(addr, alloc_stack_id);
  }
}

void efsan_cache_frag_free(uptr addr) {
  struct efsan_heap_block forgotten;
  if (addr && efsan_heap_remove(addr, &forgotten))
    cf_forget_heap_object(forgotten.start, forgotten.size, forgotten.serial);
}

void efsan_cache_frag_fork_child(void) {
  // The child keeps the parent's records (its report covers the parent's
  // run up to the fork as well) but has lost the other threads' locks.
  efsan_heap_fork_child();
  // Only the locks that are held are reset: writing every record would copy
  // all of them into the child (copy-on-write), for each fork.
  u32 n;
  struct cf_line_record *records = cf_records(&n);
  for (u32 i = 0; i < n; i++)
    if (records[i].objects_lock.opaque)
      records[i].objects_lock.opaque = 0;
}
