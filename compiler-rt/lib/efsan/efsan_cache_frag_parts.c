//===-- efsan_cache_frag_parts.c - the threads' parts of line records ------===//
//
// A record (efsan_cache_frag_records.c) keeps each thread's sampled use of its
// line in a part of its own, which only that thread writes: counts, bytes,
// the code addresses that made the accesses and the intervals of clock in
// which it used the line. The parts come from one table, handed out in
// order and given back through a pool (efsan_cache_frag_reclaim.c).
//
//===----------------------------------------------------------------------===//
#include "efsan_cache_frag_internal.h"

static u64 cf_mean_period;
static struct cf_thread_line *cf_thread_line_pool;
static u32 cf_thread_line_capacity;
static u32 cf_thread_line_count;
static struct cf_pool cf_thread_line_free;
// The blocks of further shapes, sites and intervals, each kind a table of
// its own with a pool, as the parts (never more blocks of a kind than parts).
struct cf_block_table {
  void *entries;
  u32 entry_size;
  u32 count; // handed out
  struct cf_pool pool;
};
static struct cf_block_table cf_shape_table, cf_site_table, cf_interval_table;
struct cf_shape_block *cf_shape_blocks;
struct cf_site_block *cf_site_blocks;
struct cf_interval_block *cf_interval_blocks;

static void *cf_block_table_init(struct cf_block_table *table, u32 capacity,
                                 u32 entry_size) {
  table->entry_size = entry_size;
  table->entries = efsan_mmap_noreserve((uptr)capacity * entry_size);
  cf_pool_init(&table->pool, capacity);
  return table->entries;
}

// A block's index + 1 (published in the part's *more by the caller), or 0
// when the table is full.
static u32 cf_new_block(struct cf_block_table *table) {
  u32 index;
  if (!cf_new_entry(&table->pool, &table->count, table->entries,
                    table->entry_size, &index))
    return 0;
  return index + 1;
}

// The part's block in *more (if any) goes back with the part: given (never
// published) or retired (taken off its line by a sweep).
static void cf_release_block(struct cf_block_table *table, u32 more,
                             bool retire) {
  if (!more)
    return;
  if (retire)
    cf_pool_retire(&table->pool, more - 1);
  else
    cf_pool_give(&table->pool, more - 1);
}

static void cf_release_thread_line(struct cf_thread_line *part, bool retire) {
  cf_release_block(&cf_shape_table, cf_load(&part->more_shapes), retire);
  cf_release_block(&cf_site_table, cf_load(&part->more_sites), retire);
  cf_release_block(&cf_interval_table, cf_load(&part->more_intervals), retire);
  u32 index = (u32)(part - cf_thread_line_pool);
  if (retire)
    cf_pool_retire(&cf_thread_line_free, index);
  else
    cf_pool_give(&cf_thread_line_free, index);
}

// A thread's part of a record; null when they run out.
struct cf_thread_line *cf_new_thread_line(void) {
  u32 index;
  if (!cf_new_entry(&cf_thread_line_free, &cf_thread_line_count,
                    cf_thread_line_pool, sizeof(struct cf_thread_line), &index))
    return 0;
  return &cf_thread_line_pool[index];
}

// A part no other thread could reach.
void cf_give_thread_line(struct cf_thread_line *part) {
  cf_release_thread_line(part, false);
}

// A part a sweep took off its line.
void cf_retire_thread_line(struct cf_thread_line *part) {
  cf_release_thread_line(part, true);
}

// Makes the part's block in *more when it has none; false when the table is
// full.
static bool cf_grow(struct cf_block_table *table, u32 *more) {
  if (*more)
    return true;
  u32 block = cf_new_block(table);
  if (!block)
    return false;
  __atomic_store_n(more, block, __ATOMIC_RELEASE);
  return true;
}

struct cf_shape_block *cf_new_shape_block(struct cf_thread_line *t) {
  return cf_grow(&cf_shape_table, &t->more_shapes) ? cf_shape_block_of(t) : 0;
}

struct cf_shape *cf_new_shape_at(struct cf_thread_line *t, u32 k) {
  if (k >= CF_INLINE_SHAPES && !cf_grow(&cf_shape_table, &t->more_shapes))
    return 0;
  return cf_shape_at(t, k);
}

struct cf_site *cf_new_site_at(struct cf_thread_line *t, u32 k) {
  if (k >= CF_INLINE_SITES && !cf_grow(&cf_site_table, &t->more_sites))
    return 0;
  return cf_site_at(t, k);
}

//===-- Activity intervals --------------------------------------------------===//

// Adds a sample of the thread at `clock` to its intervals of the line. The
// sample extends the last interval when the gap is ordinary for the thread
// on this line (at most 4 times its mean gap between samples of the line so
// far): a line used thinly but steadily is one interval, while bursts much
// further apart than the samples within them (turns taken under a lock)
// are intervals of their own. Beyond CF_INTERVALS, the two intervals with
// the smallest gap between them become one. A sample that counts for more
// than one (weight) is counted so, but its gap is not stretched: a thread
// samples at more than the default period only after many samples that
// found no shared line, so a long gap before it is a real pause in its use
// of this one (turns under a lock, apart on the virtual clock).
void cf_note_activity(struct cf_thread_line *slot, u64 clock, u64 samples,
                      u32 weight) {
  u32 n = slot->interval_count;
  if (n) {
    struct cf_interval *last = cf_interval_at(slot, n - 1);
    u64 first_clock = slot->intervals[0].first;
    bool ordinary = samples >= 2 ? (clock - last->last) * (samples - 1) <=
                                       4 * (last->last - first_clock)
                                 : clock - last->last <= 64 * cf_mean_period;
    if (ordinary || clock < last->last) {
      if (clock > last->last)
        cf_store(&last->last, clock);
      cf_store(&last->samples, last->samples + weight);
      return;
    }
  }
  // Without a block (the table is full), the inline intervals merge.
  if (n == CF_INLINE_INTERVALS)
    cf_grow(&cf_interval_table, &slot->more_intervals);
  if (n == (slot->more_intervals ? CF_INTERVALS : CF_INLINE_INTERVALS)) {
    u32 best = 0;
    for (u32 i = 1; i + 1 < n; i++)
      if (cf_interval_at(slot, i + 1)->first - cf_interval_at(slot, i)->last <
          cf_interval_at(slot, best + 1)->first - cf_interval_at(slot, best)->last)
        best = i;
    struct cf_interval *a = cf_interval_at(slot, best);
    struct cf_interval *b = cf_interval_at(slot, best + 1);
    cf_store(&a->last, b->last);
    cf_store(&a->samples, a->samples + b->samples);
    for (u32 i = best + 1; i + 1 < n; i++) {
      struct cf_interval *to = cf_interval_at(slot, i);
      struct cf_interval *from = cf_interval_at(slot, i + 1);
      cf_store(&to->first, from->first);
      cf_store(&to->last, from->last);
      cf_store(&to->samples, from->samples);
    }
    n--;
  }
  struct cf_interval *fresh = cf_interval_at(slot, n);
  cf_store(&fresh->first, clock);
  cf_store(&fresh->last, clock);
  cf_store(&fresh->samples, weight);
  __atomic_store_n(&slot->interval_count, n + 1, __ATOMIC_RELEASE);
}

// Mutexes and spin locks the thread holds (unlocks of locks taken before
// the runtime started are not counted below 0).
static __thread int cf_locks_held __attribute__((tls_model("initial-exec")));

void efsan_cache_frag_lock_held(int delta) {
  int held = cf_locks_held + delta;
  cf_locks_held = held < 0 ? 0 : held;
}

// Counts a sample of the thread's at pc (only the thread writes its slot).
void cf_count_site(struct cf_thread_line *slot, uptr pc, bool is_write,
                          u64 mask, u32 weight) {
  for (u32 i = 0; i < CF_SITES; i++) {
    // Reached past the inline sites only when other code took them all.
    struct cf_site *site = cf_new_site_at(slot, i);
    if (!site)
      break;
    if (site->pc && site->pc != pc)
      continue;
    if (is_write)
      cf_store(&site->writes, site->writes + weight);
    else
      cf_store(&site->reads, site->reads + weight);
    cf_own_bits(&site->bytes, mask);
    if (cf_locks_held) {
      cf_store(&site->locked, site->locked + weight);
      if (is_write)
        cf_store(&site->locked_writes, site->locked_writes + weight);
    }
    // Published last: the report reads sites of running threads.
    if (!site->pc)
      __atomic_store_n(&site->pc, pc, __ATOMIC_RELEASE);
    return;
  }
  // All sites taken: the block exists.
  struct cf_site_block *more = cf_site_block_of(slot);
  if (!more)
    return;
  if (is_write) {
    cf_store(&more->other_site_writes, more->other_site_writes + weight);
    if (cf_locks_held)
      cf_store(&more->other_site_locked_writes,
               more->other_site_locked_writes + weight);
  } else
    cf_store(&more->other_site_reads, more->other_site_reads + weight);
}

void cf_parts_init(u32 capacity, u64 mean_period) {
  cf_mean_period = mean_period;
  // Room for every slot of every record and its other threads.
  cf_thread_line_capacity = capacity;
  cf_thread_line_pool = (struct cf_thread_line *)efsan_mmap_noreserve(
      (uptr)cf_thread_line_capacity * sizeof(struct cf_thread_line));
  cf_pool_init(&cf_thread_line_free, cf_thread_line_capacity);
  cf_shape_blocks = (struct cf_shape_block *)cf_block_table_init(
      &cf_shape_table, capacity, sizeof(struct cf_shape_block));
  cf_site_blocks = (struct cf_site_block *)cf_block_table_init(
      &cf_site_table, capacity, sizeof(struct cf_site_block));
  cf_interval_blocks = (struct cf_interval_block *)cf_block_table_init(
      &cf_interval_table, capacity, sizeof(struct cf_interval_block));
}

void cf_parts_stats(struct cf_parts_stats *stats) {
  stats->made = cf_load(&cf_thread_line_count);
  stats->shape_blocks = cf_load(&cf_shape_table.count);
  stats->site_blocks = cf_load(&cf_site_table.count);
  stats->interval_blocks = cf_load(&cf_interval_table.count);
  stats->in_use = cf_pool_in_use(&cf_thread_line_free, stats->made);
  stats->retired = cf_thread_line_free.retired;
  stats->bytes = (u64)stats->made * sizeof(struct cf_thread_line) +
                 (u64)stats->shape_blocks * sizeof(struct cf_shape_block) +
                 (u64)stats->site_blocks * sizeof(struct cf_site_block) +
                 (u64)stats->interval_blocks * sizeof(struct cf_interval_block);
}
