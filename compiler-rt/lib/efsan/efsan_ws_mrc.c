//===-- efsan_ws_mrc.c - the working set's miss-ratio curves --------------===//
//
// The miss ratio of a fully associative LRU cache of 64-byte lines at sizes
// 16 KiB .. 4 GiB, for the whole run, each phase and each listed data
// structure, by spatially hashed sampling (SHARDS, Waldspurger et al.,
// FAST'15): a line is observed when a hash of its address falls below a
// threshold (1/2^s of the lines, the same lines in every thread and run),
// every access to an observed line is recorded, and the LRU stack distance
// of each recorded access among the observed lines, scaled by 2^s, is the
// distance the whole program would have seen.
//
// How every access to an observed line gets here: the working set's inline
// check takes its cold block only when the line's shadow byte lacks bit 0;
// the cold block tests the line's hash against __efsan_mrc_threshold and
// calls the runtime (efsan_ws_mark.c) for an observed line instead of
// setting bit 0. This file keeps bit 0 of observed lines clear, so every
// access to them comes back; lines that are not observed pay nothing more
// on the fast path (docs/InstrumentationABI.md). For the working set's own
// counts, the lines observed and touched in a sample period get bit 0 just
// before the sampler's scan visits their shadow page and lose it just after
// (efsan_ws_mrc_page_begin and _end): the scan counts them like every other
// line. An access in that window (one page's scan) is not recorded.
//
// Accesses are logged, then recorded in batches: the program's thread
// appends the line and a time-stamp counter reading to a log of its own (no
// lock, no shared line written); a full log, the sampler before each scan,
// phase marks, reports and the thread's exit take every log's entries in
// time-stamp order and record them. Recording one at a time, under a lock
// shared by all threads, cost 130-260 ns an access (its tables' lines went
// back and forth between the cores and out of the caches of a program that
// streams); in batches the tables stay in the cache of one core.
//
// Distances: each observed line keeps the time (a count of recorded
// accesses) of its last access; a Fenwick tree over the times counts the
// observed lines accessed since (the distance). Times are renumbered when
// they run out. Bounded memory: when more than mrc_max_lines lines are
// observed the rate halves (s + 1) and the lines no longer selected are
// dropped (SHARDS' fixed-size variant; the histograms are halved so that old
// and new accesses weigh alike).
//
// Errors: each observed line belongs to one of 8 groups by a second hash;
// the curve's standard error at each size is that of a ratio estimated from
// 8 independent clusters.
//
// Not here: the shadow's bits and the sampler (efsan_working_set.c), the
// structures (efsan_ws_objects.c), the phases (efsan_ws_phases.c), which
// call the hooks of efsan_ws_mrc.h.
//
//===----------------------------------------------------------------------===//
#include "efsan_ws_mrc.h"

#define SIZES 19     // 2^8 .. 2^26 lines: 16 KiB .. 4 GiB
#define FIRST_LOG 8
#define BUCKETS (SIZES + 1) // [0]: hits at every size; [k + 1]: misses up
                            // to size k; [SIZES]: first accesses too
#define GROUPS 8
#define MAX_PHASES 4096

// Exported (the pass's code in a shared library reads it); a whole line of
// its own, read by every cold block and written only when the share halves.
EFSAN_INTERFACE __attribute__((aligned(64))) u64 __efsan_mrc_threshold[8];

struct line {
  u64 shadow;
  u32 time;    // of its last access
  u32 period;  // the sample period of its last access
  u32 hist[BUCKETS];
};

struct curve {
  u64 refs;     // recorded accesses
  u32 lines;    // observed lines
  u32 shift;    // observed at 1/2^shift
  float ratio[SIZES], error[SIZES];
};

static efsan_mutex lock;
// Set while this thread holds `lock`: what the runtime does then (naming a
// structure runs the demangler, whose memcpy is the program's) may touch
// an observed line, and recording that access would wait for the lock this
// thread holds. Such accesses are not recorded.
static __thread bool holding_lock __attribute__((tls_model("initial-exec")));

static void mrc_lock(void) {
  efsan_mutex_lock(&lock);
  holding_lock = true;
}

static void mrc_unlock(void) {
  holding_lock = false;
  efsan_mutex_unlock(&lock);
}
static bool enabled;
static u32 shift;             // observed at 1/2^shift
static u32 max_lines, num_lines;
static struct line *lines;    // num_lines of them
static u32 *index_table;      // line index + 1, open addressing
static u32 index_mask;         // grows with the lines, up to index_limit
static u32 index_limit;
static u32 *fenwick;          // over times 1..max_time
static u32 *owner;            // time -> line index + 1
static u32 max_time, now;     // max_time: 4 times the lines, at most
static u32 time_limit;        // time_limit (the tables stay small, and in
                              // the cache, while few lines are observed)
#define MIN_TABLE 1024
static u32 period;
static u64 *touched, *restored; // shadow bytes touched in the period
static u32 num_touched, num_restored;
static double global_hist[GROUPS][BUCKETS], phase_hist[GROUPS][BUCKETS];
static u64 global_refs, phase_refs;
static struct curve *phase_curves; // MAX_PHASES + 1 (the open phase)
static const char **phase_names;   // the same
static u32 phases_known;           // curves 0..phases_known - 1 kept
static bool open_phase_known;      // curve MAX_PHASES: the open phase's

static u64 threshold_of(u32 s) { return s >= 64 ? 0 : ~0ULL >> s; }

static u32 group_of(u64 shadow) {
  return (u32)((shadow * 0xbf58476d1ce4e5b9ULL) >> 61);
}

static u32 slot_of(u64 shadow) {
  u64 h = shadow * 0x94d049bb133111ebULL;
  return (u32)(h >> 32) & index_mask;
}

static void fenwick_add(u32 t, int delta) {
  for (; t <= max_time; t += t & -t)
    fenwick[t] += (u32)delta;
}

static u32 fenwick_prefix(u32 t) {
  u32 sum = 0;
  for (; t; t -= t & -t)
    sum += fenwick[t];
  return sum;
}

static void rebuild_index(void) {
  efsan_internal_memset(index_table, 0, (index_mask + 1) * sizeof(u32));
  for (u32 i = 0; i < num_lines; i++) {
    u32 slot = slot_of(lines[i].shadow);
    while (index_table[slot])
      slot = (slot + 1) & index_mask;
    index_table[slot] = i + 1;
  }
}

static void rebuild_fenwick(void) {
  efsan_internal_memset(fenwick, 0, (max_time + 1) * sizeof(u32));
  for (u32 t = 1; t <= max_time; t++)
    if (owner[t])
      fenwick_add(t, 1);
}

// Times ran out: renumber the lines' last accesses 1..num_lines in order.
static void renumber(void) {
  u32 next = 0;
  for (u32 t = 1; t <= max_time; t++) {
    u32 who = owner[t];
    if (!who)
      continue;
    owner[t] = 0;
    lines[who - 1].time = ++next;
    owner[next] = who;
  }
  now = next;
  max_time = 4 * num_lines;
  if (max_time < MIN_TABLE)
    max_time = MIN_TABLE;
  if (max_time > time_limit)
    max_time = time_limit;
  rebuild_fenwick();
}

// The rate halves until at most 3/4 of max_lines lines stay observed.
static void lower_rate(void) {
  while (num_lines > max_lines * 3 / 4 && shift < 27) {
    shift++;
    u64 threshold = threshold_of(shift);
    __atomic_store_n(&__efsan_mrc_threshold[0], threshold, __ATOMIC_RELAXED);
    u32 kept = 0;
    for (u32 i = 0; i < num_lines; i++) {
      struct line *l = &lines[i];
      if (l->shadow * EFSAN_MRC_HASH <= threshold) {
        if (kept != i) {
          lines[kept] = *l;
          owner[lines[kept].time] = kept + 1;
        }
        kept++;
        continue;
      }
      owner[l->time] = 0;
      // Now an ordinary line: touched in this period, it keeps bit 0.
      u8 *s = (u8 *)(uptr)l->shadow;
      if (l->period == period) {
        __atomic_fetch_or(s, EFSAN_WS_ACCESS_BITS, __ATOMIC_RELAXED);
        __atomic_store_n(efsan_dirty_byte_of(s), 1, __ATOMIC_RELEASE);
      }
    }
    num_lines = kept;
    // The lines touched in the period that are still observed (each is
    // listed once, so the list stays within max_lines).
    u32 still = 0;
    for (u32 i = 0; i < num_touched; i++)
      if (touched[i] * EFSAN_MRC_HASH <= threshold)
        touched[still++] = touched[i];
    num_touched = still;
    for (int g = 0; g < GROUPS; g++)
      for (int b = 0; b < BUCKETS; b++) {
        global_hist[g][b] *= 0.5;
        phase_hist[g][b] *= 0.5;
      }
  }
  rebuild_index();
  rebuild_fenwick();
}

static int bucket_of(u64 distance) {
  if (distance < (1ULL << FIRST_LOG))
    return 0;
  int log = 63 - __builtin_clzll(distance);
  return log - FIRST_LOG + 1 < SIZES ? log - FIRST_LOG + 1 : SIZES;
}

// The line of the last recorded access (index + 1), if still observed: a
// run of accesses to one line (a loop over its elements, each checked) is
// at distance 0, a hit at every size, and needs neither the lookup nor the
// tree.
static u32 last_line;

// n accesses to the line of the last recorded access, at distance 0.
static void record_hits(u64 key, u32 n) {
  lines[last_line - 1].hist[0] += n;
  u32 g = group_of(key);
  global_hist[g][0] += n;
  phase_hist[g][0] += n;
  global_refs += n;
  phase_refs += n;
}

static void record(u64 key) {
  u8 *shadow = (u8 *)(uptr)key;
  if (last_line && lines[last_line - 1].shadow == key &&
      lines[last_line - 1].period == period) {
    record_hits(key, 1);
    return;
  }
  // The rate may have gone down since the access was logged.
  if (!enabled || key * EFSAN_MRC_HASH > threshold_of(shift)) {
    efsan_ws_mark_shadow(shadow, shadow);
    return;
  }
  u32 slot = slot_of(key), who;
  while ((who = index_table[slot]) && lines[who - 1].shadow != key)
    slot = (slot + 1) & index_mask;
  if (now == max_time)
    renumber();
  int bucket;
  struct line *l;
  if (!who) {
    l = &lines[num_lines];
    efsan_internal_memset(l, 0, sizeof(*l));
    l->shadow = key;
    l->period = period - 1;
    index_table[slot] = ++num_lines;
    who = num_lines;
    bucket = SIZES;
    if (num_lines * 2 > index_mask + 1 && index_mask < index_limit) {
      index_mask = index_mask * 2 + 1;
      rebuild_index();
    }
  } else {
    l = &lines[who - 1];
    u32 since = num_lines - fenwick_prefix(l->time);
    fenwick_add(l->time, -1);
    owner[l->time] = 0;
    bucket = bucket_of((u64)since << shift);
  }
  l->time = ++now;
  owner[now] = who;
  fenwick_add(now, 1);
  l->hist[bucket]++;
  u32 g = group_of(key);
  global_hist[g][bucket] += 1;
  phase_hist[g][bucket] += 1;
  global_refs++;
  phase_refs++;
  if (l->period != period) {
    l->period = period;
    touched[num_touched++] = key;
    if (!(*shadow & 0x80))
      __atomic_fetch_or(shadow, 0x80, __ATOMIC_RELAXED);
    __atomic_store_n(efsan_dirty_byte_of(shadow), 1, __ATOMIC_RELEASE);
  }
  last_line = who;
  if (num_lines > max_lines) {
    lower_rate();
    last_line = 0;
  }
}

//===-- Per-thread logs ----------------------------------------------------===//

#define LOG_ENTRIES 512 // 8 KiB a thread; full every ~500,000 accesses
                        // at the default rate

// The line's shadow byte in the low 48 bits; in the high 16, how many
// accesses to it followed this one with no other logged between (each a
// hit at distance 0, as far as this thread goes): a loop over a line's
// elements takes one entry and one time stamp.
struct log_entry {
  u64 shadow;
  u64 ticks;
};
#define REPEAT_SHIFT 48
#define REPEAT_ONE (1ULL << REPEAT_SHIFT)
#define SHADOW_BITS (REPEAT_ONE - 1)

struct access_log {
  u64 head;            // written by the owner (release)
  u64 tail;            // written by the drain, under `lock` (release)
  u64 drained_to;      // the drain's position and end (under `lock`)
  u64 drain_end;
  struct access_log *next;
  bool in_use;         // a thread owns it
  struct log_entry entries[LOG_ENTRIES];
};

static struct access_log *logs; // every log, under `lock`
static __thread struct access_log *my_log
    __attribute__((tls_model("initial-exec")));

// Every log's entries, merged by time stamp (the order the threads made the
// accesses in, within the accuracy of the counter), recorded (lock held).
static void drain_locked(void) {
  // The entries logged until now; later ones wait for the next drain (a
  // thread that keeps logging cannot hold the drain).
  for (struct access_log *l = logs; l; l = l->next) {
    l->drained_to = l->tail;
    l->drain_end = __atomic_load_n(&l->head, __ATOMIC_ACQUIRE);
  }
  struct access_log *active[64];
  for (;;) {
    // At most 64 logs merged at a time; a program with more threads gets
    // several rounds, each in time order.
    u32 n = 0;
    for (struct access_log *l = logs; l && n < 64; l = l->next)
      if (l->drained_to != l->drain_end)
        active[n++] = l;
    if (!n)
      break;
    for (;;) {
      struct access_log *best = 0;
      u64 best_ticks = 0;
      for (u32 i = 0; i < n; i++) {
        struct access_log *l = active[i];
        if (l->drained_to == l->drain_end)
          continue;
        u64 t = l->entries[l->drained_to % LOG_ENTRIES].ticks;
        if (!best || t < best_ticks) {
          best = l;
          best_ticks = t;
        }
      }
      if (!best)
        break;
      u64 word = __atomic_load_n(
          &best->entries[best->drained_to++ % LOG_ENTRIES].shadow,
          __ATOMIC_RELAXED);
      u64 key = word & SHADOW_BITS;
      record(key);
      u32 repeats = (u32)(word >> REPEAT_SHIFT);
      if (repeats && last_line && lines[last_line - 1].shadow == key)
        record_hits(key, repeats);
    }
    for (u32 i = 0; i < n; i++)
      __atomic_store_n(&active[i]->tail, active[i]->drained_to,
                       __ATOMIC_RELEASE);
  }
}

static void drain(void) {
  mrc_lock();
  drain_locked();
  mrc_unlock();
}

static struct access_log *attach_log(void) {
  mrc_lock();
  struct access_log *l = logs;
  while (l && l->in_use)
    l = l->next;
  if (!l) {
    l = efsan_mmap(sizeof(struct access_log));
    l->next = logs;
    logs = l;
  }
  l->in_use = true;
  mrc_unlock();
  my_log = l;
  return l;
}

// Up to n repeats of the thread's last entry, still in its log, counted in
// it (as many as its count has room for; 0 if the entry is of another line).
// The drain may be reading that entry at this moment: the count is then
// lost, a few hits of one line among the thousands between two drains.
static inline u64 log_repeats(struct access_log *l, u64 h, u64 tail,
                              u8 *shadow, u64 n) {
  if (h == tail)
    return 0;
  u64 *word = &l->entries[(h - 1) % LOG_ENTRIES].shadow;
  u64 old = __atomic_load_n(word, __ATOMIC_RELAXED);
  u64 room = 0xffff - (old >> REPEAT_SHIFT);
  if ((old & SHADOW_BITS) != (u64)(uptr)shadow || !room)
    return 0;
  u64 taken = n < room ? n : room;
  __atomic_store_n(word, old + taken * REPEAT_ONE, __ATOMIC_RELAXED);
  return taken;
}

static inline void log_append(struct access_log *l, u64 h, u8 *shadow) {
  struct log_entry *e = &l->entries[h % LOG_ENTRIES];
  e->shadow = (u64)(uptr)shadow;
  e->ticks = __builtin_ia32_rdtsc();
  __atomic_store_n(&l->head, h + 1, __ATOMIC_RELEASE);
}


// n accesses to the observed line of `shadow`, logged by the calling thread:
// the first as an entry (or a repeat of its last), the others as repeats.
static void log_accesses(u8 *shadow, u64 n) {
  if (holding_lock)
    return;
  struct access_log *l = my_log;
  if (EFSAN_UNLIKELY(!l))
    l = attach_log();
  while (n) {
    u64 h = l->head;
    u64 tail = __atomic_load_n(&l->tail, __ATOMIC_ACQUIRE);
    u64 taken = log_repeats(l, h, tail, shadow, n);
    if (!taken) {
      if (EFSAN_UNLIKELY(h - tail >= LOG_ENTRIES))
        drain();
      log_append(l, h, shadow);
      taken = 1;
    }
    n -= taken;
  }
}

void efsan_ws_mrc_access(u8 *shadow) { log_accesses(shadow, 1); }

// A loop's counting copy (docs/Pass.md, "Tables with an observed line")
// counted n accesses to the observed line at `line`, the only line of its
// tables lacking bit 0, in a chunk of its iterations (or a run of a loop
// marked whole): the first is logged at its distance, the others as hits
// (no other logged line came between them in this thread but those of the
// loop's other accesses). preserve_all, as __efsan_ws_mark_lines: the call
// sits at a chunk's marks, in the loop.
EFSAN_INTERFACE __attribute__((preserve_all)) void
__efsan_ws_mrc_table_hits(uptr line, u64 n) {
  log_accesses(efsan_shadow_of(line), n);
}

// A loop's tables, not all marked, at a chunk's marks (docs/Pass.md,
// "Tables"): of the shadow bytes [first, end), 0 if each has bit 0, 1 if two
// or more lack it, else the address of the only one lacking it. Out of line
// (preserve_all): inline, the scan's registers made the register allocator
// spill the hot loop's values.
EFSAN_INTERFACE __attribute__((preserve_all)) uptr
__efsan_ws_table_unmarked(uptr first, uptr end) {
  uptr found = 0;
  for (uptr at = first; at < end; at++)
    if (!(*(volatile u8 *)at & 1)) {
      if (found)
        return 1;
      found = at;
    }
  return found;
}

// The thread's log is drained and left for the next thread.
void efsan_ws_mrc_thread_exit(void) {
  struct access_log *l = my_log;
  if (!l)
    return;
  mrc_lock();
  drain_locked();
  l->in_use = false;
  mrc_unlock();
  my_log = 0;
}

static void start_small(void) {
  index_mask = MIN_TABLE - 1 < index_limit ? MIN_TABLE - 1 : index_limit;
  max_time = MIN_TABLE < time_limit ? MIN_TABLE : time_limit;
}

void efsan_ws_mrc_init(void) {
  if (!efsan_flags.miss_ratio_curve)
    return;
  max_lines = (u32)efsan_flags.mrc_max_lines;
  shift = (u32)efsan_flags.mrc_sample_shift;
  u32 capacity = max_lines + 2;
  lines = efsan_mmap_noreserve(capacity * sizeof(struct line));
  index_limit = 1;
  while (index_limit + 1 < 2 * capacity)
    index_limit = index_limit * 2 + 1;
  index_table = efsan_mmap_noreserve((index_limit + 1) * sizeof(u32));
  time_limit = 4 * capacity;
  fenwick = efsan_mmap_noreserve((time_limit + 1) * sizeof(u32));
  owner = efsan_mmap_noreserve((time_limit + 1) * sizeof(u32));
  start_small();
  touched = efsan_mmap_noreserve(capacity * sizeof(u64));
  restored = efsan_mmap_noreserve(capacity * sizeof(u64));
  period = 1;
  enabled = true;
  __atomic_store_n(&__efsan_mrc_threshold[0], threshold_of(shift),
                   __ATOMIC_RELEASE);
}

// The child's curves start at fork, as its working set does (its shadow
// starts empty).
void efsan_ws_mrc_fork_child(void) {
  if (!enabled)
    return;
  efsan_internal_memset(&lock, 0, sizeof(lock));
  holding_lock = false;
  efsan_internal_memset(index_table, 0, (index_mask + 1) * sizeof(u32));
  efsan_internal_memset(owner, 0, (max_time + 1) * sizeof(u32));
  efsan_internal_memset(fenwick, 0, (max_time + 1) * sizeof(u32));
  start_small();
  efsan_internal_memset(global_hist, 0, sizeof(global_hist));
  efsan_internal_memset(phase_hist, 0, sizeof(phase_hist));
  num_lines = num_touched = num_restored = 0;
  last_line = 0;
  // The parent's accesses are not the child's; only this thread survives.
  for (struct access_log *l = logs; l; l = l->next) {
    l->tail = l->head;
    l->in_use = l == my_log;
  }
  phases_known = 0;
  open_phase_known = false;
  now = 0;
  global_refs = phase_refs = 0;
}

// The observed lines touched in the period, in address order, for the
// scan's pages (sampler-owned while a scan runs).
static void sort_addresses(u64 *a, u32 n) {
  // Heap sort: no allocation, no recursion, n log n for any input.
  for (u32 start = n / 2; start-- > 0;) {
    for (u32 root = start;;) {
      u32 child = 2 * root + 1;
      if (child >= n)
        break;
      if (child + 1 < n && a[child + 1] > a[child])
        child++;
      if (a[root] >= a[child])
        break;
      u64 t = a[root];
      a[root] = a[child];
      a[child] = t;
      root = child;
    }
  }
  for (u32 end = n; end-- > 1;) {
    u64 t = a[0];
    a[0] = a[end];
    a[end] = t;
    for (u32 root = 0;;) {
      u32 child = 2 * root + 1;
      if (child >= end)
        break;
      if (child + 1 < end && a[child + 1] > a[child])
        child++;
      if (a[root] >= a[child])
        break;
      t = a[root];
      a[root] = a[child];
      a[child] = t;
      root = child;
    }
  }
}

void efsan_ws_mrc_before_scan(void) {
  if (!enabled)
    return;
  mrc_lock();
  drain_locked();
  u64 *swap = restored;
  restored = touched;
  touched = swap;
  num_restored = num_touched;
  num_touched = 0;
  period++;
  mrc_unlock();
  // Only the sampler reads `restored` from here to after_scan.
  sort_addresses(restored, num_restored);
}

// The lines of the page being scanned whose bit 0 was set for it.
static u32 page_first, page_end;

void efsan_ws_mrc_page_begin(const u64 *words, uptr count) {
  page_first = page_end = 0;
  if (!num_restored)
    return;
  u64 lo = (u64)(uptr)words, hi = lo + count * 8;
  u32 left = 0, right = num_restored; // the first entry >= lo
  while (left < right) {
    u32 mid = left + (right - left) / 2;
    if (restored[mid] < lo)
      left = mid + 1;
    else
      right = mid;
  }
  u32 i = left;
  for (; i < num_restored && restored[i] < hi; i++)
    __atomic_fetch_or((u8 *)(uptr)restored[i], EFSAN_WS_ACCESS_BITS,
                      __ATOMIC_RELAXED);
  page_first = left;
  page_end = i;
}

void efsan_ws_mrc_page_end(void) {
  u64 threshold = __atomic_load_n(&__efsan_mrc_threshold[0], __ATOMIC_RELAXED);
  for (u32 i = page_first; i < page_end; i++)
    if (restored[i] * EFSAN_MRC_HASH <= threshold)
      __atomic_fetch_and((u8 *)(uptr)restored[i], (u8)~1, __ATOMIC_RELAXED);
  page_first = page_end = 0;
}

void efsan_ws_mrc_after_scan(void) {
  if (!enabled)
    return;
  mrc_lock();
  num_restored = 0;
  // Lines first touched in the new period while the scan ran: their page's
  // changed byte may have been taken by this scan; the next one must visit
  // them.
  for (u32 i = 0; i < num_touched; i++)
    __atomic_store_n(efsan_dirty_byte_of((u8 *)(uptr)touched[i]), 1,
                     __ATOMIC_RELEASE);
  mrc_unlock();
}

void efsan_ws_mrc_report_begin(void) {
  if (!enabled)
    return;
  mrc_lock();
  drain_locked();
  for (u32 i = 0; i < num_touched; i++)
    __atomic_fetch_or((u8 *)(uptr)touched[i], EFSAN_WS_ACCESS_BITS,
                      __ATOMIC_RELAXED);
  mrc_unlock();
}

void efsan_ws_mrc_report_end(void) {
  if (!enabled)
    return;
  mrc_lock();
  u64 threshold = threshold_of(shift);
  for (u32 i = 0; i < num_touched; i++)
    if (touched[i] * EFSAN_MRC_HASH <= threshold)
      __atomic_fetch_and((u8 *)(uptr)touched[i], (u8)~1, __ATOMIC_RELAXED);
  mrc_unlock();
}

//===-- Curves -------------------------------------------------------------===//

static double square_root(double x) {
  if (x <= 0)
    return 0;
  double r = x > 1 ? x : 1;
  for (int i = 0; i < 60; i++)
    r = 0.5 * (r + x / r);
  return r;
}

// The curve of the accesses counted in hist[group][bucket]: at size k, the
// misses are the accesses of buckets k + 1 .. SIZES; the standard error is
// the cluster (group) estimate of a ratio's.
static void make_curve(double (*hist)[BUCKETS], u64 refs, u32 num,
                       struct curve *c) {
  double n[GROUPS], total = 0;
  for (int g = 0; g < GROUPS; g++) {
    n[g] = 0;
    for (int b = 0; b < BUCKETS; b++)
      n[g] += hist[g][b];
    total += n[g];
  }
  c->refs = refs;
  c->lines = num;
  c->shift = shift;
  for (int k = 0; k < SIZES; k++) {
    double m[GROUPS], misses = 0;
    for (int g = 0; g < GROUPS; g++) {
      m[g] = 0;
      for (int b = k + 1; b < BUCKETS; b++)
        m[g] += hist[g][b];
      misses += m[g];
    }
    double r = total > 0 ? misses / total : 0;
    double var = 0;
    for (int g = 0; g < GROUPS; g++)
      var += (m[g] - r * n[g]) * (m[g] - r * n[g]);
    var *= (double)GROUPS / (GROUPS - 1);
    c->ratio[k] = (float)r;
    // Unknown (-1) where the estimate rests on too little: accesses in
    // fewer than 4 of the groups, or fewer than 16 observed lines' worth of
    // distance in a cache of this size (distances are counted in steps of
    // 2^shift lines).
    int groups = 0;
    for (int g = 0; g < GROUPS; g++)
      groups += n[g] > 0;
    bool known = groups >= 4 && (1ULL << (FIRST_LOG + k)) >> shift >= 16;
    // Every line observed (shift 0): nothing is estimated.
    c->error[k] = !known     ? -1.0f
                  : shift == 0 ? 0.0f
                             : (float)(square_root(var) / total);
  }
}

static u32 lines_in_groups(void) { return num_lines; }

static void global_curve(struct curve *c) {
  make_curve(global_hist, global_refs, lines_in_groups(), c);
}

void efsan_ws_mrc_phase_open(void) {
  if (!enabled)
    return;
  mrc_lock();
  drain_locked();
  efsan_internal_memset(phase_hist, 0, sizeof(phase_hist));
  phase_refs = 0;
  mrc_unlock();
}

void efsan_ws_mrc_phase_count(u32 index, bool ends, const char *name) {
  if (!enabled || index > MAX_PHASES)
    return;
  if (!phase_curves) {
    phase_curves = efsan_mmap_noreserve((MAX_PHASES + 1) * sizeof(struct curve));
    phase_names = efsan_mmap_noreserve((MAX_PHASES + 1) * sizeof(char *));
  }
  phase_names[index] = name;
  if (index == MAX_PHASES)
    open_phase_known = true;
  else if (index + 1 > phases_known)
    phases_known = index + 1;
  mrc_lock();
  drain_locked();
  // The observed lines touched in the phase: those whose last access is in
  // it are a lower bound; the curve's own count is its accesses.
  make_curve(phase_hist, phase_refs, num_lines, &phase_curves[index]);
  if (ends) {
    efsan_internal_memset(phase_hist, 0, sizeof(phase_hist));
    phase_refs = 0;
  }
  mrc_unlock();
}

//===-- Structures ------------------------------------------------------===//

static const struct efsan_ws_top *attributed;
static double (*object_hist)[GROUPS][BUCKETS]; // EFSAN_WS_MAX_TOP of them
static u64 *object_refs;
static u32 *object_lines;

void efsan_ws_mrc_attribute(const struct efsan_ws_top *top) {
  attributed = 0;
  if (!enabled || !top || !efsan_ws_objects_enabled())
    return;
  if (!object_hist) {
    object_hist = efsan_mmap(EFSAN_WS_MAX_TOP * sizeof(*object_hist));
    object_refs = efsan_mmap(EFSAN_WS_MAX_TOP * sizeof(u64));
    object_lines = efsan_mmap(EFSAN_WS_MAX_TOP * sizeof(u32));
  } else {
    // Only the listed structures' entries were written (a short process's
    // report would otherwise fault in all 128 KiB).
    efsan_internal_memset(object_hist, 0, top->count * sizeof(*object_hist));
    efsan_internal_memset(object_refs, 0, top->count * sizeof(u64));
    efsan_internal_memset(object_lines, 0, top->count * sizeof(u32));
  }
  attributed = top;
  // No observed line: every structure's curve is empty, and the objects'
  // second pass (their table, the mappings) is not needed.
  if (!__atomic_load_n(&num_lines, __ATOMIC_RELAXED))
    return;
  attributed = 0;
  struct efsan_ws_objects *tally = efsan_ws_objects_begin();
  mrc_lock();
  // An object's index in the top, once per object: naming it symbolizes
  // its allocation stack, and an object has many observed lines.
  static struct {
    u64 id;
    int index;
  } known[1024];
  efsan_internal_memset(known, 0, sizeof(known));
  for (u32 i = 0; i < num_lines; i++) {
    const struct line *l = &lines[i];
    uptr app = efsan_app_of_shadow((const u8 *)(uptr)l->shadow);
    u64 id = efsan_ws_objects_id_of(tally, app);
    u32 slot = (u32)((id * 0x9e3779b97f4a7c15ULL) >> 54);
    int j;
    if (id && known[slot].id == id) {
      j = known[slot].index;
    } else {
      j = efsan_ws_objects_top_index(top, id);
      known[slot].id = id;
      known[slot].index = j;
    }
    if (j < 0)
      continue;
    u32 g = group_of(l->shadow);
    object_lines[j]++;
    for (int b = 0; b < BUCKETS; b++) {
      object_hist[j][g][b] += l->hist[b];
      object_refs[j] += l->hist[b];
    }
  }
  mrc_unlock();
  efsan_ws_objects_end(tally);
  attributed = top;
}

//===-- Printing -------------------------------------------------------------===//

static const char *size_text(int k) {
  static const char *const names[SIZES] = {
      "16K", "32K", "64K", "128K", "256K", "512K", "1M",   "2M",   "4M",  "8M",
      "16M", "32M", "64M", "128M", "256M", "512M", "1G", "2G", "4G"};
  return names[k];
}

static const char *size_text_long(int k) {
  static const char *const names[SIZES] = {
      "16 KiB", "32 KiB", "64 KiB", "128 KiB", "256 KiB", "512 KiB", "1 MiB",
      "2 MiB",  "4 MiB",  "8 MiB",  "16 MiB",  "32 MiB",  "64 MiB",  "128 MiB",
      "256 MiB", "512 MiB", "1 GiB", "2 GiB", "4 GiB"};
  return names[k];
}

static u64 size_bytes(int k) { return 64ULL << (FIRST_LOG + k); }

// "0.123" (three decimals, rounded).
static void fixed3(char *buffer, uptr length, double x) {
  if (x < 0)
    x = 0;
  u64 milli = (u64)(x * 1000 + 0.5);
  efsan_snprintf(buffer, length, "%llu.%03llu", milli / 1000, milli % 1000);
}

// JSON: up to six decimals.
static void fixed6(char *buffer, uptr length, double x) {
  if (x < 0)
    x = 0;
  u64 micro = (u64)(x * 1000000 + 0.5);
  efsan_snprintf(buffer, length, "%llu.%06llu", micro / 1000000,
                 micro % 1000000);
}

// 1/2^s exactly as a decimal (2^-s = 5^s / 10^s; s <= 27 so that 5^s fits
// in 64 bits, and the rate never goes lower than 2^-27 with mrc_max_lines
// >= 256 lines in a 47-bit address space).
static void fraction_text(char *buffer, uptr length, u32 s) {
  if (s == 0) {
    efsan_snprintf(buffer, length, "1");
    return;
  }
  if (s > 27)
    s = 27;
  u64 five = 1;
  for (u32 i = 0; i < s; i++)
    five *= 5;
  char digits[32];
  int n = efsan_snprintf(digits, sizeof(digits), "%llu", five);
  uptr used = efsan_snprintf(buffer, length, "0.");
  for (int i = n; i < (int)s && used + 1 < length; i++)
    buffer[used++] = '0';
  efsan_snprintf(buffer + used, length - used, "%s", digits);
}

// The first size whose miss ratio is below 10%, or -1.
static int stops_missing_at(const struct curve *c) {
  for (int k = 0; k < SIZES; k++)
    if (c->ratio[k] < 0.1f)
      return k;
  return -1;
}

static void print_row(const char *indent, const char *label, const float *v) {
  char line[SIZES * 8 + 64], value[16];
  uptr used = efsan_snprintf(line, sizeof(line), "%s%-6s", indent, label);
  for (int k = 0; k < SIZES; k++) {
    if (v[k] < 0)
      efsan_snprintf(value, sizeof(value), "?");
    else
      fixed3(value, sizeof(value), v[k]);
    used += efsan_snprintf(line + used, sizeof(line) - used, " %-5s", value);
  }
  efsan_report_line("%s\n", line);
}

static void print_curve_text(const struct curve *c, const char *indent) {
  char line[SIZES * 8 + 64];
  uptr used = efsan_snprintf(line, sizeof(line), "%s%-6s", indent, "cache");
  for (int k = 0; k < SIZES; k++)
    used += efsan_snprintf(line + used, sizeof(line) - used, " %-5s",
                           size_text(k));
  efsan_report_line("%s\n", line);
  // This machine's data caches, under the largest size they hold.
  const struct efsan_cache *caches;
  u32 n = efsan_caches(&caches);
  char marks[SIZES][8];
  bool any = false;
  efsan_internal_memset(marks, 0, sizeof(marks));
  for (u32 i = 0; i < n; i++) {
    if (!efsan_internal_strcmp(caches[i].type, "Instruction"))
      continue;
    for (int k = SIZES - 1; k >= 0; k--)
      if (size_bytes(k) <= caches[i].size_bytes) {
        efsan_snprintf(marks[k], sizeof(marks[k]), "L%d%s", caches[i].level,
                       caches[i].level == 1 ? "d" : "");
        any = true;
        break;
      }
  }
  if (any) {
    used = efsan_snprintf(line, sizeof(line), "%s%-6s", indent, "");
    for (int k = 0; k < SIZES; k++)
      used += efsan_snprintf(line + used, sizeof(line) - used, " %-5s",
                             marks[k]);
    efsan_report_line("%s\n", line);
  }
  print_row(indent, "miss", c->ratio);
  print_row(indent, "+-", c->error);
}

static void print_curve_json(const struct curve *c) {
  char value[32];
  efsan_printf("\"miss_ratio_curve\": {\"cache_bytes\": [");
  for (int k = 0; k < SIZES; k++)
    efsan_printf("%s%llu", k ? ", " : "", size_bytes(k));
  efsan_printf("], \"miss_ratio\": [");
  for (int k = 0; k < SIZES; k++) {
    fixed6(value, sizeof(value), c->ratio[k]);
    efsan_printf("%s%s", k ? ", " : "", value);
  }
  efsan_printf("], \"std_error\": [");
  for (int k = 0; k < SIZES; k++) {
    if (c->error[k] < 0)
      efsan_snprintf(value, sizeof(value), "null");
    else
      fixed6(value, sizeof(value), c->error[k]);
    efsan_printf("%s%s", k ? ", " : "", value);
  }
  int stop = stops_missing_at(c);
  fraction_text(value, sizeof(value), c->shift);
  efsan_printf("], \"sampled_fraction\": %s, \"sampled_lines\": %u, "
               "\"sampled_accesses\": %llu, \"below_10_percent_bytes\": ",
               value, c->lines, c->refs);
  if (stop < 0)
    efsan_printf("null}");
  else
    efsan_printf("%llu}", size_bytes(stop));
}

void efsan_ws_mrc_print_json(void) {
  if (!enabled) {
    efsan_printf("\"miss_ratio_curve\": null");
    return;
  }
  struct curve c;
  mrc_lock();
  global_curve(&c);
  mrc_unlock();
  print_curve_json(&c);
}

void efsan_ws_mrc_print_phase_json(u32 index) {
  if (!enabled || !phase_curves || index > MAX_PHASES) {
    efsan_printf("\"miss_ratio_curve\": null, ");
    return;
  }
  print_curve_json(&phase_curves[index]);
  efsan_printf(", ");
}

static void object_curve(u32 i, struct curve *c) {
  make_curve(object_hist[i], object_refs[i], object_lines[i], c);
}

void efsan_ws_mrc_print_object_json(const struct efsan_ws_top *top, u32 i) {
  if (!enabled || !attributed) {
    efsan_printf("\"miss_ratio_curve\": null, ");
    return;
  }
  if (top != attributed || i >= EFSAN_WS_MAX_TOP)
    return;
  struct curve c;
  object_curve(i, &c);
  if (c.refs)
    print_curve_json(&c);
  else
    efsan_printf("\"miss_ratio_curve\": null");
  efsan_printf(", ");
}

// The cold block of the pass's inline checks calls this for an observed
// line (one or two shadow bytes), and its loop range marks for a range with
// a line lacking bit 0. preserve_all: the caller's registers, vector ones
// included, stay live across the call, so the hot path around a cold block
// keeps them in registers.
// One observed line whose thread's log has room, the common case, is
// logged here without a call: a function that calls C code must save every
// register the C convention lets its callee clobber, sixteen vector ones
// included, and that is the slow path's price only.
static __attribute__((preserve_all, noinline)) void
mark_lines_slow(uptr first_shadow, uptr last_shadow) {
  efsan_ws_mark_shadow((u8 *)first_shadow, (u8 *)last_shadow);
}

EFSAN_INTERFACE __attribute__((preserve_all)) void
__efsan_ws_mark_lines(uptr first_shadow, uptr last_shadow) {
  struct access_log *l = my_log;
  u8 *shadow = (u8 *)first_shadow;
  if (first_shadow == last_shadow && l && !(*(volatile u8 *)shadow & 1) &&
      efsan_ws_mrc_observed(shadow)) {
    u64 h = l->head;
    u64 tail = __atomic_load_n(&l->tail, __ATOMIC_ACQUIRE);
    if (log_repeats(l, h, tail, shadow, 1))
      return;
    if (h - tail < LOG_ENTRIES) {
      log_append(l, h, shadow);
      return;
    }
  }
  mark_lines_slow(first_shadow, last_shadow);
}

void efsan_ws_mrc_report_done(void) { open_phase_known = false; }

// Under a listed structure: the size from which its miss ratio is below
// 10%, or that it misses at every size.
void efsan_ws_mrc_print_object_text(const struct efsan_ws_top *top, u32 i,
                                    const char *indent) {
  if (!enabled || top != attributed || i >= EFSAN_WS_MAX_TOP)
    return;
  struct curve c;
  object_curve(i, &c);
  if (!c.refs) {
    efsan_report_line("%smiss ratio: no observed line\n", indent);
    return;
  }
  char first[16], last[16];
  fixed3(first, sizeof(first), c.ratio[0]);
  fixed3(last, sizeof(last), c.ratio[SIZES - 1]);
  int stop = stops_missing_at(&c);
  if (stop >= 0)
    efsan_report_line("%smiss ratio %s at %s; would stop missing (below 10%%) "
                      "at %s (%u observed lines, %llu accesses)\n",
                      indent, first, size_text_long(0), size_text_long(stop),
                      c.lines, c.refs);
  else
    efsan_report_line("%smiss ratio %s at %s, %s at %s: misses at every size "
                      "(%u observed lines, %llu accesses)\n",
                      indent, first, size_text_long(0), last,
                      size_text_long(SIZES - 1), c.lines, c.refs);
}

void efsan_ws_mrc_print_text(void) {
  if (!enabled)
    return;
  struct curve c;
  mrc_lock();
  global_curve(&c);
  mrc_unlock();
  efsan_report_line("  miss ratio of a fully associative LRU cache of 64-byte "
                    "lines, by size (every access to 1/%llu of the lines: %u "
                    "lines, %llu accesses; +- is the standard error among lines "
                    "like the observed ones, which a few lines taking most of "
                    "the accesses, caught or missed, can exceed at every size "
                    "(docs/WorkingSet.md); ? where too few observed lines fit; "
                    "the machine's caches are "
                    "marked under the largest size they hold):\n",
                    1ULL << c.shift, c.lines, c.refs);
  print_curve_text(&c, "    ");
  // Each phase's curve, a row under the program's.
  for (u32 i = 0; phase_curves && i <= MAX_PHASES; i++) {
    if (i == phases_known)
      i = MAX_PHASES;
    if (i == MAX_PHASES && !open_phase_known)
      break;
    char label[48];
    efsan_snprintf(label, sizeof(label), "phase \"%s\"%s", phase_names[i],
                   i == MAX_PHASES ? " (so far)" : "");
    efsan_report_line("    %s, %llu accesses:\n", label,
                      phase_curves[i].refs);
    print_row("    ", "miss", phase_curves[i].ratio);
  }
}
