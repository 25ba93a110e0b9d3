//===-- efsan_cache_frag.c - false sharing state machine -----------------===//
//
// The cache-frag tool's access path: Predator's per-line state machine, run
// only while a tracking window is open. Per 64-byte line a write counter;
// once it reaches cache_frag_tracking_threshold the line gets a record with
// the two-entry history table that counts invalidations, per-thread word
// counters, and the history tables of the virtual lines used to predict
// latent false sharing (the 128-byte line and the seven 64-byte lines that
// start at another word of the line). The window thread opens and closes
// windows and measures the duty cycle the report scales counts by.
//
// Metadata: a two-level table of 32-bit line states (one lazily mapped chunk
// per 4 MiB of application memory that was written in a window), and an
// array of records. A line state below CF_RECORD_BIT is the line's write
// count; with the bit set the low bits index its record.
//
//===----------------------------------------------------------------------===//
#include "efsan_cache_frag_internal.h"

#define CF_RECORD_BIT 0x80000000u
#define CF_CHUNK_SHIFT 22 /* application bytes per chunk: 4 MiB */
#define CF_LINES_PER_CHUNK (1u << (CF_CHUNK_SHIFT - EFSAN_CACHE_LINE_SHIFT))
#define CF_NUM_CHUNKS (EFSAN_APP_END >> CF_CHUNK_SHIFT)

static u32 **cf_chunks; // CF_NUM_CHUNKS pointers, each to CF_LINES_PER_CHUNK states
static struct cf_line_record *cf_record_table;
static u32 cf_record_capacity;
static u32 cf_record_count;
static u64 cf_untracked;
static u32 cf_tracking_threshold;
static u64 cf_prediction_threshold;
static u64 cf_report_threshold;

// Window accounting (written by the window thread only).
static bool cf_always_open;
static u64 cf_start_ns;
static u64 cf_open_ns;      // closed windows, summed
static u64 cf_window_start; // start of the open window, 0 if closed

//===-- Line states -------------------------------------------------------===//

static u32 *cf_line_state(uptr line, bool create) {
  uptr chunk_index = line >> CF_CHUNK_SHIFT;
  if (chunk_index >= CF_NUM_CHUNKS)
    return 0;
  u32 *chunk = __atomic_load_n(&cf_chunks[chunk_index], __ATOMIC_ACQUIRE);
  if (!chunk) {
    if (!create)
      return 0;
    u32 *fresh = (u32 *)efsan_mmap(CF_LINES_PER_CHUNK * sizeof(u32));
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
  return (value & CF_RECORD_BIT) ? &cf_record_table[value & ~CF_RECORD_BIT]
                                 : 0;
}

// Gives the line a record unless it has one. Returns the line's record, or
// null when the record table is full (the line state then saturates at the
// threshold so that later writes stop trying).
static struct cf_line_record *cf_attach_record(u32 *state, uptr line,
                                               uptr accessed) {
  u32 value = __atomic_load_n(state, __ATOMIC_ACQUIRE);
  if (value & CF_RECORD_BIT)
    return &cf_record_table[value & ~CF_RECORD_BIT];
  u32 index = cf_add(&cf_record_count, 1);
  if (index >= cf_record_capacity) {
    cf_store(&cf_record_count, cf_record_capacity);
    cf_add(&cf_untracked, 1);
    while (!(value & CF_RECORD_BIT) && value < cf_tracking_threshold &&
           !cf_cas(state, &value, cf_tracking_threshold)) {
    }
    return 0;
  }
  struct cf_line_record *record = &cf_record_table[index];
  // The heap object is looked up now, while it is certainly live.
  uptr start, size;
  u32 stack;
  if (cf_heap_lookup(accessed, &start, &size, &stack)) {
    record->heap_found = 1;
    record->heap_start = start;
    record->heap_size = size;
    record->heap_stack = stack;
  }
  record->line = line;
  while (!(value & CF_RECORD_BIT)) {
    if (__atomic_compare_exchange_n(state, &value, index | CF_RECORD_BIT,
                                    false, __ATOMIC_RELEASE,
                                    __ATOMIC_ACQUIRE))
      return record;
  }
  // Another thread attached a record first; this one was never reachable and
  // stays unused (the report skips records whose line is 0).
  cf_store(&record->line, 0);
  return &cf_record_table[value & ~CF_RECORD_BIT];
}

//===-- Records -----------------------------------------------------------===//

struct cf_line_record *cf_records(u32 *count) {
  u32 n = cf_load(&cf_record_count);
  *count = n < cf_record_capacity ? n : cf_record_capacity;
  return cf_record_table;
}

u64 cf_untracked_lines(void) { return cf_load(&cf_untracked); }

// This thread's counters on the record, claiming a slot on its first access;
// null when all slots belong to other threads.
static struct cf_thread_counters *cf_claim_counters(struct cf_line_record *record,
                                                   u32 thread_plus1) {
  for (int i = 0; i < CF_THREAD_SLOTS; i++) {
    u32 owner = cf_load(&record->owners[i]);
    if (owner == thread_plus1)
      return &record->counters[i];
    if (owner == 0) {
      if (cf_cas(&record->owners[i], &owner, thread_plus1) ||
          owner == thread_plus1)
        return &record->counters[i];
    }
  }
  return 0;
}

// Did the thread use the word? For the real line: since the line's last
// invalidation (so the copy the thread loses holds a word it uses: true
// sharing), or in the epoch before, because concurrent accesses read the
// epoch racily and an access can be stamped one epoch late: the doubt goes to
// true sharing. For virtual lines, whose invalidations happen at other times:
// ever (a thread that initialised the word once makes sharing count as true,
// never the other way round).
static bool cf_thread_used_word(struct cf_line_record *record, uptr word,
                                u32 thread_plus1, u64 since_epoch) {
  struct cf_thread_counters *counters = cf_counters_of(record, thread_plus1);
  if (counters) {
    u64 last = cf_load(&counters->last_epoch[word]);
    return last && last + 1 >= since_epoch;
  }
  if (!cf_load(&record->owners[CF_THREAD_SLOTS - 1]))
    return false; // the thread never accessed the line
  // The thread may hide among the "other threads": assume it used the word,
  // so that sharing is never called false without evidence.
  return cf_load(&record->other_reads[word]) ||
         cf_load(&record->other_writes[word]);
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

enum cf_invalidation { CF_NO_INVALIDATION, CF_TRUE_INVALIDATION, CF_FALSE_INVALIDATION };

// Runs one access through a (real or virtual) line's history. word_record
// holds the word that was accessed, to tell true from false sharing.
static enum cf_invalidation
cf_sharing_access(struct cf_sharing *sharing, u32 thread_plus1, bool is_write,
                  struct cf_line_record *word_record, uptr word,
                  u64 since_epoch) {
  u32 victims[2];
  int n = cf_history_access(&sharing->history, thread_plus1, is_write, victims);
  if (!n)
    return CF_NO_INVALIDATION;
  cf_add(&sharing->invalidations, 1);
  for (int i = 0; i < n; i++)
    if (cf_thread_used_word(word_record, word, victims[i], since_epoch))
      return CF_TRUE_INVALIDATION;
  cf_add(&sharing->false_invalidations, 1);
  return CF_FALSE_INVALIDATION;
}

static void cf_track_neighbours(struct cf_line_record *record) {
  u8 expected = 0;
  if (!cf_cas(&record->neighbours_tracked, &expected, 1))
    return;
  uptr line = record->line;
  if (line >= EFSAN_CACHE_LINE_SIZE) {
    u32 *state = cf_line_state(line - EFSAN_CACHE_LINE_SIZE, true);
    if (state)
      cf_attach_record(state, line - EFSAN_CACHE_LINE_SIZE,
                       line - EFSAN_CACHE_LINE_SIZE);
  }
  u32 *state = cf_line_state(line + EFSAN_CACHE_LINE_SIZE, true);
  if (state)
    cf_attach_record(state, line + EFSAN_CACHE_LINE_SIZE,
                     line + EFSAN_CACHE_LINE_SIZE);
}

static void cf_record_access(struct cf_line_record *record, uptr offset,
                             uptr length, bool is_write, u32 thread_plus1) {
  uptr first_word = offset / CF_WORD_SIZE;
  uptr last_word = (offset + length - 1) / CF_WORD_SIZE;
  // Epochs: a victim's use of the word counts only if it happened since the
  // last invalidation; this access itself belongs to the epoch it leaves.
  u64 epoch = cf_load(&record->real.invalidations) + 1;
  enum cf_invalidation invalidation = cf_sharing_access(
      &record->real, thread_plus1, is_write, record, first_word, epoch);
  if (invalidation == CF_FALSE_INVALIDATION)
    cf_add(&record->false_by_word[first_word], 1);
  else if (invalidation == CF_TRUE_INVALIDATION)
    cf_add(&record->true_by_word[first_word], 1);
  epoch = cf_load(&record->real.invalidations) + 1;
  struct cf_thread_counters *counters = cf_claim_counters(record, thread_plus1);
  for (uptr word = first_word; word <= last_word; word++) {
    if (!counters) {
      cf_add(is_write ? &record->other_writes[word] : &record->other_reads[word],
             1);
      continue;
    }
    if (cf_load(&counters->last_epoch[word]) != epoch)
      cf_store(&counters->last_epoch[word], epoch);
    // Only the owning thread writes its counters: no atomic read-modify-write.
    if (is_write) {
      u64 writes = cf_load(&counters->writes[word]) + 1;
      cf_store(&counters->writes[word], writes);
      if (writes == cf_prediction_threshold)
        cf_track_neighbours(record);
    } else {
      cf_store(&counters->reads[word], cf_load(&counters->reads[word]) + 1);
    }
  }

  // Virtual lines for prediction. Once the line itself shows false sharing
  // above the report threshold, no prediction that covers it will be
  // reported (the report shows the real sharing instead), so its accesses
  // stop paying for them.
  if (cf_load(&record->real.false_invalidations) >= cf_report_threshold)
    return;
  // The previous line's record holds the virtual lines that start in it and
  // end in this one.
  uptr line = record->line;
  struct cf_line_record *previous =
      line >= EFSAN_CACHE_LINE_SIZE ? cf_find_record(line - EFSAN_CACHE_LINE_SIZE)
                                    : 0;
  struct cf_line_record *pair_base =
      (line & EFSAN_CACHE_LINE_SIZE) ? previous : record;
  if (pair_base)
    cf_sharing_access(&pair_base->vline128, thread_plus1, is_write, record,
                      first_word, 1);
  for (uptr k = 1; k < CF_WORDS_PER_LINE; k++) {
    struct cf_line_record *owner = first_word >= k ? record : previous;
    if (owner)
      cf_sharing_access(&owner->shifted[k], thread_plus1, is_write, record,
                        first_word, 1);
  }
}

static void cf_line_access(uptr line, uptr offset, uptr length, bool is_write,
                           u32 thread_plus1) {
  u32 *state = cf_line_state(line, is_write);
  if (!state)
    return;
  u32 value = __atomic_load_n(state, __ATOMIC_ACQUIRE);
  struct cf_line_record *record;
  if (value & CF_RECORD_BIT) {
    record = &cf_record_table[value & ~CF_RECORD_BIT];
  } else {
    // Below the threshold only writes count (Predator): reads cost a load.
    if (!is_write || value >= cf_tracking_threshold)
      return;
    for (;;) {
      if (value + 1 >= cf_tracking_threshold) {
        record = cf_attach_record(state, line, line + offset);
        if (!record)
          return;
        break;
      }
      if (cf_cas(state, &value, value + 1))
        return;
      if (value & CF_RECORD_BIT) {
        record = &cf_record_table[value & ~CF_RECORD_BIT];
        break;
      }
    }
  }
  cf_record_access(record, offset, length, is_write, thread_plus1);
}

void efsan_cache_frag_access(uptr addr, uptr size, int is_write) {
  if (!__atomic_load_n(&__efsan_cache_frag_tracking, __ATOMIC_RELAXED) ||
      size == 0)
    return;
  u32 thread = efsan_thread_index;
  if (thread == EFSAN_INTERNAL_THREAD)
    return;
  u32 thread_plus1 = thread + 1;
  uptr end = addr + size;
  if (end < addr || end > EFSAN_APP_END)
    return;
  for (uptr line = addr & ~(uptr)(EFSAN_CACHE_LINE_SIZE - 1); line < end;
       line += EFSAN_CACHE_LINE_SIZE) {
    uptr lo = addr > line ? addr : line;
    uptr hi = end < line + EFSAN_CACHE_LINE_SIZE ? end
                                                  : line + EFSAN_CACHE_LINE_SIZE;
    cf_line_access(line, lo - line, hi - lo, is_write != 0, thread_plus1);
  }
}

//===-- Windows -----------------------------------------------------------===//

static void cf_open_window(u64 now) {
  cf_window_start = now;
  __atomic_store_n(&__efsan_cache_frag_tracking, 1, __ATOMIC_RELAXED);
}

static void cf_close_window(u64 now) {
  __atomic_store_n(&__efsan_cache_frag_tracking, 0, __ATOMIC_RELAXED);
  if (cf_window_start) {
    cf_open_ns += now - cf_window_start;
    cf_window_start = 0;
  }
}

// The period adapts to the run. False sharing needs threads, and a parallel
// phase may be much shorter than the period (a whole program can run a few
// ms): when a thread is created, a *phase* starts. Its first
// CF_PHASE_OPEN_WINDOWS x window are one continuous window (opened within
// CF_CLOSED_SLICE_MS), then windows open every 2 x window (duty cycle 50%),
// and the period then
// grows with the phase's age (age / CF_PHASE_BACKOFF) back to
// cache_frag_period_ms, reached CF_PHASE_BACKOFF periods after the thread
// creation. Another thread creation restarts the phase only once that has
// happened, so thread creation in a loop costs at most about 4 times the
// duty cycle of window/period. The duty cycle is measured, not assumed, so
// estimates stay right whatever the schedule.
#define CF_PHASE_BACKOFF 4
#define CF_PHASE_OPEN_WINDOWS 4
static u64 cf_phase_start; // monotonic ns of the last phase start; 0: none
// The closed phase is slept in 1 ms slices, to notice a phase start.
#define CF_CLOSED_SLICE_MS 1

// Is the window to stay open (the start of a phase)?
static bool cf_in_open_span(u64 now) {
  u64 phase = cf_load(&cf_phase_start);
  u64 span = (u64)CF_PHASE_OPEN_WINDOWS *
             (u64)efsan_flags.cache_frag_window_ms * 1000000;
  return phase && now >= phase && now - phase < span;
}

static u64 cf_current_period_ns(u64 now) {
  u64 window_ns = (u64)efsan_flags.cache_frag_window_ms * 1000000;
  u64 period_ns = (u64)efsan_flags.cache_frag_period_ms * 1000000;
  u64 phase = cf_load(&cf_phase_start);
  if (!phase)
    return period_ns;
  if (cf_in_open_span(now))
    return 0;
  u64 adaptive = (now > phase ? now - phase : 0) / CF_PHASE_BACKOFF;
  if (adaptive < 2 * window_ns)
    adaptive = 2 * window_ns;
  return adaptive < period_ns ? adaptive : period_ns;
}

int cf_adaptive_span_ms(void) {
  return efsan_flags.cache_frag_period_ms * CF_PHASE_BACKOFF;
}

static void cf_window_thread(void *arg) {
  (void)arg;
  u64 window = (u64)efsan_flags.cache_frag_window_ms;
  for (;;) {
    u64 opened = cf_window_start;
    efsan_sleep_ms((u32)window);
    while (cf_in_open_span(efsan_monotonic_ns()))
      efsan_sleep_ms(CF_CLOSED_SLICE_MS);
    cf_close_window(efsan_monotonic_ns());
    for (;;) {
      u64 now = efsan_monotonic_ns();
      if (now - opened >= cf_current_period_ns(now))
        break;
      efsan_sleep_ms(CF_CLOSED_SLICE_MS);
    }
    cf_open_window(efsan_monotonic_ns());
  }
}

u64 cf_duty_cycle_ppm(void) {
  if (cf_always_open)
    return 1000000;
  u64 now = efsan_monotonic_ns();
  u64 open = cf_open_ns;
  u64 window_start = cf_window_start;
  if (window_start && now > window_start)
    open += now - window_start;
  u64 elapsed = now - cf_start_ns;
  if (elapsed == 0 || open >= elapsed)
    return 1000000;
  u64 ppm = (u64)(((unsigned __int128)open * 1000000) / elapsed);
  return ppm ? ppm : 1;
}

bool cf_is_sampled(void) { return !cf_always_open; }

static void cf_start_windows(void) {
  cf_start_ns = efsan_monotonic_ns();
  int period = efsan_flags.cache_frag_period_ms;
  int window = efsan_flags.cache_frag_window_ms;
  cf_always_open = period == 0 || window >= period;
  cf_open_window(cf_start_ns);
  if (cf_always_open)
    return;
  if (!efsan_start_sideline_thread(cf_window_thread, 0)) {
    efsan_vreport(1, "cache-frag: no window thread; the window stays open\n");
    cf_always_open = true;
  }
}

//===-- Hooks called by the shared runtime ---------------------------------===//

static void cf_check_flags(void) {
  struct efsan_flags *f = &efsan_flags;
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

void efsan_cache_frag_init(void) {
  cf_check_flags();
  cf_tracking_threshold = (u32)efsan_flags.cache_frag_tracking_threshold;
  cf_prediction_threshold = (u64)efsan_flags.cache_frag_prediction_threshold;
  cf_report_threshold = (u64)efsan_flags.cache_frag_report_threshold;
  // Address space only: chunks and records become resident when used.
  cf_chunks = (u32 **)efsan_mmap(CF_NUM_CHUNKS * sizeof(u32 *));
  cf_record_capacity = (u32)efsan_flags.cache_frag_max_tracked_lines;
  cf_record_table = (struct cf_line_record *)efsan_mmap(
      (uptr)cf_record_capacity * sizeof(struct cf_line_record));
  cf_heap_init();
  cf_start_windows();
}

void efsan_cache_frag_module_init(void *module_info) {
  cf_structs_module_init(module_info);
}

void efsan_cache_frag_module_exit(void *module_info) {
  cf_structs_module_exit(module_info);
}

void efsan_cache_frag_alloc(uptr addr, uptr size, u32 alloc_stack_id) {
  if (addr)
    cf_heap_insert(addr, size, alloc_stack_id);
}

void efsan_cache_frag_free(uptr addr) {
  if (addr)
    cf_heap_remove(addr);
}

void efsan_cache_frag_thread_start(void) {
  // (Thread stacks are recorded by the shared region registry, which the
  // report uses to attribute lines to "stack" objects.)
  if (cf_always_open)
    return;
  u64 now = efsan_monotonic_ns();
  u64 phase = cf_load(&cf_phase_start);
  u64 backed_off = (u64)CF_PHASE_BACKOFF *
                   (u64)efsan_flags.cache_frag_period_ms * 1000000;
  if (!phase || now - phase >= backed_off)
    cf_cas(&cf_phase_start, &phase, now);
}

void efsan_cache_frag_thread_exit(void) {
  // Counts are kept by thread index, which is never reused: nothing to undo.
}

void efsan_cache_frag_fork_child(void) {
  // The child keeps the parent's counts (its report covers the parent's run
  // up to the fork as well) but has lost the window thread and the locks.
  cf_heap_fork_child();
  if (cf_always_open)
    return;
  cf_store(&cf_phase_start, 0); // the child has only the forking thread
  cf_close_window(efsan_monotonic_ns());
  cf_open_window(efsan_monotonic_ns());
  if (!efsan_start_sideline_thread(cf_window_thread, 0))
    cf_always_open = true;
}
