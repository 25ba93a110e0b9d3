//===-- efsan_cache_frag_parts.c - the threads' parts of line records ------===//
//
// A record (efsan_cache_frag_lines.c) keeps each thread's sampled use of its
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
// Part i's intervals beyond the inline ones, when it needs them.
#define CF_INTERVAL_BLOCK (CF_INTERVALS - CF_INLINE_INTERVALS)
static struct cf_interval *cf_interval_blocks;
static u32 cf_interval_block_count; // parts that needed one (statistics)

// The block of further activity intervals of a thread's part.
static struct cf_interval *cf_new_intervals(struct cf_thread_line *part) {
  cf_add(&cf_interval_block_count, 1);
  return &cf_interval_blocks[(uptr)(part - cf_thread_line_pool) *
                             CF_INTERVAL_BLOCK];
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
  cf_pool_give(&cf_thread_line_free, (u32)(part - cf_thread_line_pool));
}

// A part a sweep took off its line.
void cf_retire_thread_line(struct cf_thread_line *part) {
  cf_pool_retire(&cf_thread_line_free, (u32)(part - cf_thread_line_pool));
}

//===-- Activity intervals --------------------------------------------------===//

// Adds a sample of the thread at `clock` to its intervals of the line. The
// sample extends the last interval when the gap is ordinary for the thread
// on this line (at most 4 times its mean gap between samples of the line so
// far): a line used thinly but steadily is one interval, while bursts much
// further apart than the samples within them (turns taken under a lock)
// are intervals of their own. Beyond CF_INTERVALS, the two intervals with
// the smallest gap between them become one.
void cf_note_activity(struct cf_thread_line *slot, u64 clock,
                             u64 samples) {
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
      cf_store(&last->samples, last->samples + 1);
      return;
    }
  }
  if (n == CF_INLINE_INTERVALS && !slot->more)
    __atomic_store_n(&slot->more, cf_new_intervals(slot), __ATOMIC_RELEASE);
  if (n == (slot->more ? CF_INTERVALS : CF_INLINE_INTERVALS)) {
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
  cf_store(&fresh->samples, 1);
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
                          u64 mask) {
  for (int i = 0; i < CF_SITES; i++) {
    struct cf_site *site = &slot->sites[i];
    if (site->pc && site->pc != pc)
      continue;
    if (is_write)
      cf_store(&site->writes, site->writes + 1);
    else
      cf_store(&site->reads, site->reads + 1);
    cf_own_bits(&site->bytes, mask);
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

void cf_parts_init(u32 capacity, u64 mean_period) {
  cf_mean_period = mean_period;
  // Room for every slot of every record and its other threads.
  cf_thread_line_capacity = capacity;
  cf_thread_line_pool = (struct cf_thread_line *)efsan_mmap_noreserve(
      (uptr)cf_thread_line_capacity * sizeof(struct cf_thread_line));
  cf_pool_init(&cf_thread_line_free, cf_thread_line_capacity);
  cf_interval_blocks = (struct cf_interval *)efsan_mmap_noreserve(
      (uptr)cf_thread_line_capacity * CF_INTERVAL_BLOCK *
      sizeof(struct cf_interval));
}

void cf_parts_stats(struct cf_parts_stats *stats) {
  stats->made = cf_load(&cf_thread_line_count);
  stats->grown = cf_load(&cf_interval_block_count);
  stats->in_use = cf_pool_in_use(&cf_thread_line_free, stats->made);
  stats->retired = cf_thread_line_free.retired;
  stats->bytes = (u64)stats->made * (sizeof(struct cf_thread_line) +
                                     CF_INTERVAL_BLOCK * sizeof(struct cf_interval));
}
