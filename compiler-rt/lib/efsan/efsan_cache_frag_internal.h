//===-- efsan_cache_frag_internal.h - cache-frag tool internals --*- C -*-===//
//
// Shared between the files of the cache-frag tool: the false-sharing state
// machine (efsan_cache_frag.c), the live-allocation map
// (efsan_cache_frag_heap.c) and the report (efsan_cache_frag_report.c).
// docs/CacheFrag.md explains the algorithm and every number it produces.
//
//===----------------------------------------------------------------------===//
#ifndef EFSAN_CACHE_FRAG_INTERNAL_H
#define EFSAN_CACHE_FRAG_INTERNAL_H

#include "efsan_cache_frag.h"
#include "efsan_internal.h"

// Non-zero while a tracking window is open (defined in efsan.c, read by the
// instrumented fast path; only the window code here writes it).
extern u8 __efsan_cache_frag_tracking;

#define CF_WORD_SIZE 8
#define CF_WORDS_PER_LINE (EFSAN_CACHE_LINE_SIZE / CF_WORD_SIZE)
// Threads recorded by name per tracked line; accesses by further threads are
// summed per word into the "other threads" counters.
#define CF_THREAD_SLOTS 8

#define cf_load(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define cf_store(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define cf_add(p, v) __atomic_fetch_add((p), (v), __ATOMIC_RELAXED)
#define cf_cas(p, expected, desired)                                           \
  __atomic_compare_exchange_n((p), (expected), (desired), false,               \
                              __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)

// Accesses of one thread to a tracked line, per 8-byte word. Only that
// thread writes it, and it fills whole cache lines, so threads updating their
// counters do not falsely share the runtime's own metadata.
struct cf_thread_counters {
  u64 reads[CF_WORDS_PER_LINE];
  u64 writes[CF_WORDS_PER_LINE];
  // The line's invalidation count + 1 at this thread's last access to the
  // word: equal to the current count + 1 iff the thread used the word since
  // the line was last invalidated, i.e. the word is part of the copy it holds.
  u64 last_epoch[CF_WORDS_PER_LINE];
};

// A two-entry cache history table (Predator): each half holds a thread index
// + 1, 0 for an empty entry; the high half is only set when the low one is.
typedef u64 cf_history;

// Invalidation counts of one (real or virtual) line.
struct cf_sharing {
  cf_history history;
  u64 invalidations;       // every invalidation the history table saw
  u64 false_invalidations; // those where the invalidated thread never
                           // touched the word being written
};

enum cf_object_kind {
  CF_OBJECT_UNKNOWN = 0,
  CF_OBJECT_HEAP,
  CF_OBJECT_GLOBAL,
  CF_OBJECT_STACK,
};

// Detailed state of one tracked 64-byte line. Read-mostly fields first,
// then the history tables (written by every thread that invalidates), then
// one block of counters per thread.
struct cf_line_record {
  uptr line; // line address; 0 while the record is unused
  // Threads (index + 1) that own counters[i], in the order they first
  // accessed the line; 0 = free. Written once per slot.
  u32 owners[CF_THREAD_SLOTS];
  u8 neighbours_tracked;
  // The heap object live when tracking started (heap attribution must be
  // taken while the object is live: it may be freed before the report).
  u8 heap_found;
  u32 heap_stack;
  uptr heap_start, heap_size;

  _Alignas(64) struct cf_sharing real;
  // Virtual lines (prediction). vline128 is the 128-byte line made of this
  // line and the next one (kept only in records of 128-byte aligned lines).
  // shifted[k] is the 64-byte line that starts k words into this line and
  // ends k words into the next one (k = 1..7; index 0 unused).
  struct cf_sharing vline128;
  struct cf_sharing shifted[CF_WORDS_PER_LINE];
  // Invalidations of the real line by the word whose write caused them:
  // the words that are really contended, which name the objects to fix.
  u64 false_by_word[CF_WORDS_PER_LINE];
  u64 true_by_word[CF_WORDS_PER_LINE];

  _Alignas(64) struct cf_thread_counters counters[CF_THREAD_SLOTS];
  // Threads beyond CF_THREAD_SLOTS, summed.
  u64 other_reads[CF_WORDS_PER_LINE];
  u64 other_writes[CF_WORDS_PER_LINE];
};

// The counters of a thread (index + 1) on a record, or null if it has none.
static inline struct cf_thread_counters *
cf_counters_of(struct cf_line_record *record, u32 thread_plus1) {
  for (int i = 0; i < CF_THREAD_SLOTS; i++) {
    u32 owner = cf_load(&record->owners[i]);
    if (owner == thread_plus1)
      return &record->counters[i];
    if (!owner)
      return 0;
  }
  return 0;
}

// Tracked-line records in creation order (efsan_cache_frag.c).
struct cf_line_record *cf_records(u32 *count);
// The record of a line, or null.
struct cf_line_record *cf_find_record(uptr line);
// Lines that passed the tracking threshold but found the record table full.
u64 cf_untracked_lines(void);
// How long after a thread creation the window period is back at
// cache_frag_period_ms.
int cf_adaptive_span_ms(void);

// Window accounting: duty cycle in parts per million of the run so far, and
// whether the window was sampled (not always open).
u64 cf_duty_cycle_ppm(void);
bool cf_is_sampled(void);
// Counts seen in windows scaled to the whole run.
static inline u64 cf_estimate(u64 observed, u64 duty_ppm) {
  if (duty_ppm >= 1000000 || duty_ppm == 0)
    return observed;
  return (observed * 1000000 + duty_ppm / 2) / duty_ppm;
}

// Live heap allocations (efsan_cache_frag_heap.c).
void cf_heap_init(void);
void cf_heap_insert(uptr start, uptr size, u32 stack_id);
void cf_heap_remove(uptr start);
bool cf_heap_lookup(uptr addr, uptr *start, uptr *size, u32 *stack_id);
void cf_heap_fork_child(void);

// Struct field counters of the instrumented modules
// (efsan_cache_frag_structs.c), merged by type for the report.
void cf_structs_module_init(void *module_info);
void cf_structs_module_exit(void *module_info);
struct cf_struct_usage {
  const char *name;
  u32 size;
  u32 num_fields;
  const u32 *field_offsets;
  const u32 *field_sizes;
  const char *const *field_type_names;
  u64 *counts; // summed over modules, as seen in windows
  u64 total;
};
// Returns the number of distinct struct types; *usages has room for
// *capacity entries (pass both back to cf_structs_release).
uptr cf_structs_collect(struct cf_struct_usage **usages, uptr *capacity);
void cf_structs_release(struct cf_struct_usage *usages, uptr count,
                        uptr capacity);
u32 cf_structs_modules_dropped(void);

#endif // EFSAN_CACHE_FRAG_INTERNAL_H
