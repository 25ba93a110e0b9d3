//===-- efsan_cache_frag_reclaim.c - reusing the entries of finished lines -===//
//
// The line tables (efsan_cache_frag_lines.c: records, threads' parts,
// shared and solo summaries) hand out entries by index. A line whose threads
// are done with it (exited, or no longer sampling it) gives its entries
// back (the sweep, efsan_cache_frag_sweep.c, decides which; a line that
// may still be reported keeps them), so that cache-frag's memory follows
// the lines in use, not every line any thread of the run ever shared
// (sqlite's threadtest3 runs 15 tests of up to 10 threads each, one after
// the other).
//
// An entry taken off its line may still be in use by a thread that read
// the line's state just before: a new thread sampling that line, which
// would write into it. Such an entry waits (in limbo) until the threads
// that were in the line state machine when the sweep ended have left it:
// each thread's line_ops counter (efsan_cache_frag.c) is odd while it is in
// there, a plain store on its sampled path; the sweep's membarrier makes
// those stores visible before it reads them (the scheme of user-space RCU).
// Without membarrier (old kernels, seccomp), nothing is reused.
//
//===----------------------------------------------------------------------===//
#include "efsan_cache_frag_internal.h"

#define CF_MAX_POOLS 8
static struct cf_pool *cf_pools[CF_MAX_POOLS];
static u32 cf_pool_count;

// Sweeps run one at a time; reclaiming stops for good when the report
// starts (it reads every record).
static efsan_mutex cf_sweep_lock;
static bool cf_reclaim_enabled;
static bool cf_reclaim_stopped;
// Each thread's line_ops when the last batch went to limbo (odd: it was in
// the line state machine), for the first cf_snapshot_count thread indices.
static u64 *cf_snapshot;
static u32 cf_snapshot_count;
static bool cf_limbo_waiting;

void cf_pool_init(struct cf_pool *pool, u32 capacity) {
  pool->capacity = capacity;
  pool->free = (u32 *)efsan_mmap_noreserve((uptr)capacity * sizeof(u32));
  pool->limbo = (u32 *)efsan_mmap_noreserve((uptr)capacity * sizeof(u32));
  if (cf_pool_count < CF_MAX_POOLS)
    cf_pools[cf_pool_count++] = pool;
}

bool cf_pool_take(struct cf_pool *pool, u32 *index) {
  if (!cf_load(&pool->free_count))
    return false;
  bool taken = false;
  efsan_mutex_lock(&pool->lock);
  if (pool->free_count) {
    *index = pool->free[--pool->free_count];
    taken = true;
  }
  efsan_mutex_unlock(&pool->lock);
  return taken;
}

void cf_pool_give(struct cf_pool *pool, u32 index) {
  efsan_mutex_lock(&pool->lock);
  if (pool->free_count < pool->capacity)
    pool->free[pool->free_count++] = index;
  efsan_mutex_unlock(&pool->lock);
}

void cf_pool_retire(struct cf_pool *pool, u32 index) {
  efsan_mutex_lock(&pool->lock);
  if (pool->limbo_count < pool->capacity)
    pool->limbo[pool->limbo_count++] = index;
  pool->retired++;
  efsan_mutex_unlock(&pool->lock);
}

u32 cf_pool_in_use(const struct cf_pool *pool, u32 handed_out) {
  u32 idle = cf_load(&pool->free_count) + cf_load(&pool->limbo_count);
  return handed_out > idle ? handed_out - idle : 0;
}

// Whether every thread that was in the line state machine when the limbo
// batch was made has left it since (or exited).
static bool cf_limbo_readers_gone(void) {
  for (u32 t = 0; t < cf_snapshot_count; t++)
    if ((cf_snapshot[t] & 1) && cf_thread_line_ops(t) == cf_snapshot[t])
      return false;
  return true;
}

static void cf_release_limbo(void) {
  for (u32 p = 0; p < cf_pool_count; p++) {
    struct cf_pool *pool = cf_pools[p];
    efsan_mutex_lock(&pool->lock);
    for (u32 i = 0; i < pool->limbo_count; i++)
      if (pool->free_count < pool->capacity)
        pool->free[pool->free_count++] = pool->limbo[i];
    pool->limbo_count = 0;
    efsan_mutex_unlock(&pool->lock);
  }
  cf_limbo_waiting = false;
}

void cf_reclaim_init(void) {
  cf_reclaim_enabled = efsan_membarrier_register();
  cf_snapshot = (u64 *)efsan_mmap_noreserve((uptr)CF_MAX_THREAD_INFOS * sizeof(u64));
}

bool cf_reclaim_begin(void) {
  if (!cf_reclaim_enabled || cf_load(&cf_reclaim_stopped) ||
      !efsan_mutex_trylock(&cf_sweep_lock))
    return false;
  if (cf_reclaim_stopped) {
    efsan_mutex_unlock(&cf_sweep_lock);
    return false;
  }
  // The last batch first: until it is reusable, nothing more goes to limbo.
  if (cf_limbo_waiting) {
    if (!cf_limbo_readers_gone()) {
      efsan_mutex_unlock(&cf_sweep_lock);
      return false;
    }
    cf_release_limbo();
  }
  return true;
}

void cf_reclaim_end(bool retired) {
  if (retired) {
    if (!efsan_membarrier()) {
      // Nobody can tell when the batch is safe: it is never reused.
      cf_reclaim_enabled = false;
    } else {
      u32 threads = efsan_thread_count();
      if (threads > CF_MAX_THREAD_INFOS)
        threads = CF_MAX_THREAD_INFOS;
      for (u32 t = 0; t < threads; t++)
        cf_snapshot[t] = cf_thread_line_ops(t);
      cf_snapshot_count = threads;
      cf_limbo_waiting = true;
      if (cf_limbo_readers_gone())
        cf_release_limbo();
    }
  }
  efsan_mutex_unlock(&cf_sweep_lock);
}

void cf_reclaim_stop(void) {
  efsan_mutex_lock(&cf_sweep_lock);
  cf_store(&cf_reclaim_stopped, true);
  efsan_mutex_unlock(&cf_sweep_lock);
}

void cf_reclaim_fork_child(void) {
  // The child's only thread is the forking one, which was in no sweep and
  // no line: the locks start free, the limbo is reusable, and membarrier
  // wants the new process registered.
  cf_sweep_lock.opaque = 0;
  for (u32 p = 0; p < cf_pool_count; p++)
    cf_pools[p]->lock.opaque = 0;
  if (cf_limbo_waiting)
    cf_release_limbo();
  if (cf_reclaim_enabled)
    cf_reclaim_enabled = efsan_membarrier_register();
}
