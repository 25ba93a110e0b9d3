//===-- efsan_cache_frag_records.c - the record of a tracked line ---------===//
//
// A line several threads use at the same time (or that a neighbour's
// latent sharing needs) gets a record: per thread, in a part only that
// thread writes (efsan_cache_frag_parts.c), its sampled reads and writes
// (and how many of the writes were locked read-modify-writes), byte masks,
// the kinds of access with the heap object live at the time and the
// intervals of clock in which it used the line; per line, Predator's
// two-entry history table over the accesses seen, classifying each
// invalidation byte by byte. The line states that index records are in
// efsan_cache_frag_lines.c.
//
//===----------------------------------------------------------------------===//
#include "efsan_cache_frag_lines.h"

bool cf_new_record(u32 *index) {
  return cf_new_entry(&cf_record_pool, &cf_record_count, cf_record_table,
                      sizeof(struct cf_line_record), index);
}

// Gives the line a record (seeding its history table with the thread that
// held the line so far, so that the first access of another thread is an
// invalidation as it would have been). Returns the line's record, or null
// when the table is full. *solo is the summary the record replaces (null
// if none), for the caller to seed the record with: the one caller whose
// exchange succeeded gets it.
struct cf_line_record *cf_attach_record(u32 *state, uptr line, u32 value,
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

// A record no other thread could reach (it was never published), with its
// parts. The report skips records whose line is 0.
void cf_give_record(struct cf_line_record *record) {
  for (int i = 0; i < CF_THREAD_SLOTS; i++)
    if (record->threads[i])
      cf_give_thread_line(record->threads[i]);
  if (record->others)
    cf_give_thread_line(record->others);
  cf_store(&record->line, 0);
  cf_pool_give(&cf_record_pool, (u32)(record - cf_record_table));
}

// The part of slot i, owned by the thread whose sample this is. One
// thread's samples can be applied on two threads at once (its own, and its
// creator applying the samples it took while alone): the other may have
// claimed the slot a moment ago and be about to store the part. Returning
// null there put the sample in "others", a thread that does not exist: a
// reader that turned a private line into true sharing.
static struct cf_thread_line *cf_part_once_stored(struct cf_line_record *record,
                                                  int i) {
  for (int spin = 0; spin < (1 << 20); spin++) {
    struct cf_thread_line *part = cf_thread_part(record, i);
    if (part)
      return part;
    __builtin_ia32_pause();
  }
  return 0;
}

// A thread's part of the record, or null when it has none (when all slots
// belong to other threads). With claim, a thread without one takes a free
// slot (its first sample of the line). A slot is claimed only with its part
// in hand, so an owned slot's part is null only for an instant.
struct cf_thread_line *cf_slot_of(struct cf_line_record *record,
                                  u32 thread_plus1, bool claim) {
  for (int i = 0; i < CF_THREAD_SLOTS; i++) {
    u32 owner = cf_load(&record->owners[i]);
    if (owner == 0) {
      if (!claim)
        return 0;
      struct cf_thread_line *part = cf_new_thread_line();
      if (!part)
        return 0;
      if (!cf_cas(&record->owners[i], &owner, thread_plus1)) {
        cf_give_thread_line(part);
        if (owner == thread_plus1)
          return cf_part_once_stored(record, i);
        continue;
      }
      __atomic_store_n(&record->threads[i], part, __ATOMIC_RELEASE);
      return part;
    }
    if (owner == thread_plus1)
      return cf_part_once_stored(record, i);
  }
  return 0;
}

// The record's part for threads beyond its slots, made on first use (null
// when the runtime ran out of parts).
struct cf_thread_line *cf_others_of(struct cf_line_record *record) {
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
  // A block allocated again where a freed one of the same site and size
  // was (a buffer malloc'ed anew each round): the same object in a new
  // lifetime, one entry, so that its rows stay one and the line's entries
  // do not run out (its lifetimes are told apart by cf_end_lifetime).
  for (u32 i = 0; i < n && !found; i++) {
    struct cf_line_object *o = &record->objects[i];
    if (!o->live && o->start == block.start && o->size == block.size &&
        o->stack_id == block.stack_id) {
      o->serial = block.serial;
      cf_store(&o->allocations, o->allocations + 1);
      cf_store(&o->live, 1);
      found = (u8)(i + 1);
    }
  }
  if (!found && n < CF_LINE_OBJECTS) {
    struct cf_line_object *o = &record->objects[n];
    o->start = block.start;
    o->size = block.size;
    o->stack_id = block.stack_id;
    o->serial = block.serial;
    o->allocations = 1;
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
    uptr from = start > line ? start - line : 0;
    uptr to = end - line < EFSAN_CACHE_LINE_SIZE ? end - line
                                                 : EFSAN_CACHE_LINE_SIZE;
    cf_end_lifetime(record, cf_byte_mask(from, to - from));
  }
}

bool cf_line_has_heap(uptr line) {
  // Heap blocks start 16-byte aligned: a block on the line holds one of
  // these bytes.
  struct efsan_heap_block block;
  for (uptr offset = 0; offset < EFSAN_CACHE_LINE_SIZE; offset += 16)
    if (efsan_heap_lookup(line + offset, &block))
      return true;
  return false;
}

// The record's parts: its threads' and the other threads' (null when
// absent), CF_THREAD_SLOTS + 1 in all.
static u32 cf_parts_of(struct cf_line_record *record,
                       struct cf_thread_line *parts[CF_THREAD_SLOTS + 1]) {
  u32 n = 0;
  for (int i = 0; i < CF_THREAD_SLOTS; i++) {
    if (!cf_owner(record, i))
      break;
    parts[n++] = cf_thread_part(record, i);
  }
  parts[n++] = cf_others_part(record);
  return n;
}

// What part k wrote within the lifetime whose masks are used/written that
// another part used or wrote too.
static void cf_shared_within(const u64 *used, const u64 *written, u32 n,
                             u32 k, u64 *true_written, u64 *co_written) {
  u64 others_used = 0, others_written = 0;
  for (u32 j = 0; j < n; j++)
    if (j != k) {
      others_used |= used[j];
      others_written |= written[j];
    }
  *true_written = written[k] & others_used;
  *co_written = written[k] & others_written;
}

void cf_end_lifetime(struct cf_line_record *record, u64 mask) {
  struct cf_thread_line *parts[CF_THREAD_SLOTS + 1];
  u32 n = cf_parts_of(record, parts);
  u64 used[CF_THREAD_SLOTS + 1], written[CF_THREAD_SLOTS + 1];
  for (u32 k = 0; k < n; k++) {
    used[k] = parts[k] ? cf_load(&parts[k]->life_used) & mask : 0;
    written[k] = parts[k] ? cf_load(&parts[k]->life_written) & mask : 0;
  }
  for (u32 k = 0; k < n; k++) {
    if (!parts[k])
      continue;
    u64 true_written, co_written;
    cf_shared_within(used, written, n, k, &true_written, &co_written);
    cf_shared_bits(&parts[k]->true_written, true_written);
    cf_shared_bits(&parts[k]->co_written, co_written);
    // Check before store: most freed blocks were never on this line's
    // threads' masks.
    if (used[k])
      __atomic_fetch_and(&parts[k]->life_used, ~mask, __ATOMIC_RELAXED);
    if (written[k])
      __atomic_fetch_and(&parts[k]->life_written, ~mask, __ATOMIC_RELAXED);
    if (cf_load(&parts[k]->held_bytes) & mask)
      __atomic_fetch_and(&parts[k]->held_bytes, ~mask, __ATOMIC_RELAXED);
  }
}

void cf_lifetime_sharing(struct cf_line_record *record,
                         struct cf_thread_line *part, u64 *true_written,
                         u64 *co_written) {
  struct cf_thread_line *parts[CF_THREAD_SLOTS + 1];
  u32 n = cf_parts_of(record, parts);
  u64 used[CF_THREAD_SLOTS + 1], written[CF_THREAD_SLOTS + 1];
  u32 me = n;
  for (u32 k = 0; k < n; k++) {
    used[k] = parts[k] ? cf_load(&parts[k]->life_used) : 0;
    written[k] = parts[k] ? cf_load(&parts[k]->life_written) : 0;
    if (parts[k] == part)
      me = k;
  }
  *true_written = *co_written = 0;
  if (me == n)
    return;
  cf_shared_within(used, written, n, me, true_written, co_written);
  *true_written |= cf_load(&part->true_written);
  *co_written |= cf_load(&part->co_written);
}

struct cf_shape *cf_count_shape(struct cf_line_record *record,
                           struct cf_thread_line *slot, uptr line_offset,
                           uptr length, bool is_write, u64 mask, u32 weight) {
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
      shape->writes += weight;
    else
      shape->reads += weight;
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
    shape->reads = is_write ? 0 : weight;
    shape->writes = is_write ? weight : 0;
    // Published last: the report reads shapes of running threads.
    __atomic_store_n(&shape->length, (u8)length, __ATOMIC_RELEASE);
    return shape;
  }
  // All shapes taken: the block exists.
  struct cf_shape_block *more = cf_shape_block_of(slot);
  if (!more)
    return 0;
  // The heap object is still noted (once per lifetime of a block: a live
  // entry answers at once), so that its free ends the lifetime of its
  // bytes on this line (cf_forget_heap_object).
  cf_object_of(record, addr);
  if (is_write)
    more->overflow_writes += weight;
  else
    more->overflow_reads += weight;
  more->overflow_bytes |= mask;
  return 0;
}

// Predator's history table. Returns the number of invalidated threads
// (0, 1 or 2) and stores them in victims. The shared table is only written
// when its content changes.
int cf_history_access(cf_history *history, u32 thread_plus1, bool is_write,
                      u32 victims[2]) {
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


void cf_record_sample(struct cf_line_record *record, uptr offset, uptr length,
                      bool is_write, bool locked_rmw, u32 loop_work,
                      u32 thread_plus1, u64 clock, uptr pc, u32 weight) {
  u64 mask = cf_byte_mask(offset, length);
  struct cf_thread_line *slot = cf_slot_of(record, thread_plus1, true);
  struct cf_shape *shape = 0;
  struct cf_thread_line *others;
  if (slot) {
    // Only this thread writes these fields: plain updates.
    if (is_write) {
      cf_store(&slot->writes, slot->writes + weight);
      if (locked_rmw)
        cf_store(&slot->locked_rmw_writes, slot->locked_rmw_writes + weight);
      cf_store(&slot->record_writes, slot->record_writes + weight);
      if (loop_work) {
        cf_store(&slot->loop_writes, slot->loop_writes + weight);
        cf_store(&slot->loop_work,
                 slot->loop_work + (u64)cf_loop_work(loop_work) * weight);
        cf_store(&slot->loop_accesses,
                 slot->loop_accesses +
                     (u64)cf_loop_accesses(loop_work) * weight);
      }
      cf_own_bits(&slot->written_bytes, mask);
    } else {
      cf_store(&slot->reads, slot->reads + weight);
      cf_own_bits(&slot->read_bytes, mask);
    }
    cf_note_activity(slot, clock, slot->reads + slot->writes - weight, weight);
    if (!slot->first_clock)
      cf_store(&slot->first_clock, clock);
    cf_store(&slot->last_clock, clock);
    shape =
        cf_count_shape(record, slot, offset, length, is_write, mask, weight);
    cf_count_site(slot, pc, is_write, mask, weight);
  } else if ((others = cf_others_of(record))) {
    cf_add(is_write ? &others->writes : &others->reads, weight);
    if (is_write && locked_rmw)
      cf_add(&others->locked_rmw_writes, weight);
    if (is_write)
      cf_add(&others->record_writes, weight);
    if (is_write && loop_work) {
      cf_add(&others->loop_writes, weight);
      cf_add(&others->loop_work, (u64)cf_loop_work(loop_work) * weight);
      cf_add(&others->loop_accesses,
             (u64)cf_loop_accesses(loop_work) * weight);
    }
    cf_shared_bits(is_write ? &others->written_bytes : &others->read_bytes,
                   mask);
    cf_shared_first(&others->first_clock, clock);
    cf_shared_last(&others->last_clock, clock);
  }
  struct cf_thread_line *part = slot ? slot : cf_others_part(record);
  if (part) {
    cf_shared_bits(&part->life_used, mask);
    if (is_write)
      cf_shared_bits(&part->life_written, mask);
  }
  cf_observe(record, thread_plus1, is_write, mask, shape);
  // After the history table, which may have just emptied it.
  if (slot)
    cf_shared_bits(&slot->held_bytes, mask);
}

// Whether a line without a record was written by another thread and never
// by thread_plus1 in the bytes of `mask`, as its shared summary says. A
// ring's line stays a summary until its threads' activity meets on the
// virtual clock; when only records answered, a consumer's polls of the head
// counted as work meanwhile and ran its clock so far ahead of the
// producer's that they met late (waits-new-values.c: 4-11 times the
// producer's clock in 4 runs of 60 beside the lit suite, where 1.3 is
// right). A solo summary has become a shared one by the time its second
// thread's sample asks, and a plain state is a line written too rarely to
// be a candidate (data written once, a setting): a thread that rereads it
// is not waiting for anything.
static bool cf_summary_others_bytes(u32 value, u64 mask, u32 thread_plus1) {
  if (!cf_is_summary(value))
    return false;
  struct cf_summary *summary = cf_summary_of(value);
  bool others_write = false;
  for (int i = 0; i <= CF_SUMMARY_THREADS; i++) {
    struct cf_line_use *use = &summary->uses[i];
    u32 owner = cf_load(&use->thread_plus1);
    bool wrote = cf_load(&use->written_bytes) & mask;
    // The last entry sums the threads beyond the first four: it may hold
    // the poller's own writes.
    if (wrote && (owner == thread_plus1 || i == CF_SUMMARY_THREADS))
      return false;
    others_write |= wrote && owner;
  }
  return others_write;
}

bool cf_reads_others_bytes(uptr addr, uptr size, u32 thread_plus1) {
  uptr line = addr & ~(uptr)(EFSAN_CACHE_LINE_SIZE - 1);
  if (addr + size > line + EFSAN_CACHE_LINE_SIZE)
    return false;
  u32 *state = cf_line_state(line, false);
  if (!state)
    return false;
  u32 value = __atomic_load_n(state, __ATOMIC_ACQUIRE);
  u64 mask = cf_byte_mask(addr - line, size);
  if (!cf_is_record(value))
    return cf_summary_others_bytes(value, mask, thread_plus1);
  struct cf_line_record *record = &cf_record_table[value & ~CF_RECORD_BIT];
  bool others_write = false;
  for (int i = 0; i < CF_THREAD_SLOTS; i++) {
    u32 owner = cf_owner(record, i);
    if (!owner)
      break;
    struct cf_thread_line *part = cf_thread_part(record, i);
    if (!part)
      continue;
    bool wrote = cf_load(&part->written_bytes) & mask;
    if (owner == thread_plus1 && wrote)
      return false;
    if (owner != thread_plus1)
      others_write |= wrote;
  }
  struct cf_thread_line *others = cf_others_part(record);
  if (others)
    others_write |= (cf_load(&others->written_bytes) & mask) != 0;
  return others_write;
}
