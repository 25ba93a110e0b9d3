//===-- efsan_internal.h - declarations shared inside the C core -*- C -*-===//
//
// Shadow scanning, the region registry, the working-set tool and what both
// tools' JSON reports share, as seen by the other files of the core. The glue
// does not include this header; its door is efsan.h.
//
//===----------------------------------------------------------------------===//
#ifndef EFSAN_INTERNAL_H
#define EFSAN_INTERNAL_H

#include "efsan.h"

#define EFSAN_INTERFACE __attribute__((visibility("default")))
#define EFSAN_LIKELY(x) __builtin_expect(!!(x), 1)
#define EFSAN_UNLIKELY(x) __builtin_expect(!!(x), 0)

//===-- Shadow (efsan_shadow.c) --------------------------------------------===//
void efsan_shadow_reserve(void);
// Drops every shadow page (a forked child starts with an empty working set).
void efsan_shadow_forget_all(void);
// Calls visit(words, count, arg) for every run of resident shadow words that
// covers application range [app_lo, app_hi). Pages of shadow that were never
// touched are skipped with mincore, so the cost follows the populated shadow.
// Returns false, having stopped early, as soon as *stop (if given) is set.
typedef void (*efsan_shadow_visitor)(u64 *words, uptr count, void *arg);
bool efsan_shadow_for_each_resident(uptr app_lo, uptr app_hi,
                                    efsan_shadow_visitor visit, void *arg,
                                    const bool *stop);
// The same for any NORESERVE table: runs of resident words of [lo, hi)
// (8-byte aligned), found with mincore.
bool efsan_for_each_resident(uptr lo, uptr hi, efsan_shadow_visitor visit,
                             void *arg, const bool *stop);

// Calls visit(words, count, pending, arg) for every page of shadow under the
// given regions (sorted, as efsan_regions_snapshot returns them) that gained
// a bit 0 since the last call (its changed-page byte is cleared first) or
// whose pending byte has a bit of `wanted`; the page's pending byte becomes
// what visit returns. Pending bytes belong to the caller (the sampler, under
// its lock) and start at 0. Cost: one mincore call per region (per 16 TiB)
// on the changed-page map, whose pages each cover 1 GiB of application
// memory, a word read per 8 shadow pages under the map pages written so
// far, and the pages visited. Returns false, having stopped early, as soon
// as *stop (if given) is set.
struct efsan_region;
typedef u8 (*efsan_shadow_page_visitor)(u64 *words, uptr count, u8 pending,
                                        void *arg);
bool efsan_shadow_for_each_changed(const struct efsan_region *regions, uptr n,
                                   u8 wanted, efsan_shadow_page_visitor visit,
                                   void *arg, const bool *stop);

// Working-set marking: efsan_ws_mark_range in efsan.h.

//===-- Regions (efsan_regions.c) ------------------------------------------===//
enum efsan_region_kind {
  EFSAN_REGION_HEAP,
  EFSAN_REGION_GLOBALS,
  EFSAN_REGION_STACK,
  EFSAN_REGION_OTHER,
  EFSAN_REGION_KINDS
};
// [lo, hi) is the runtime's own reservation (a bitmap of one bit per
// line): never a region, though readable and writable.
void efsan_regions_exclude(uptr lo, uptr hi);
struct efsan_region {
  uptr lo, hi; // application addresses, page aligned
  u32 kind;
};
extern const char *const efsan_region_kind_names[EFSAN_REGION_KINDS];
void efsan_regions_init(void);
// Re-reads /proc/self/maps and adds every mapping not known yet. Known
// ranges keep their kind; ranges are never removed (lines of memory that was
// unmapped stay in the working set).
void efsan_regions_refresh(void);
// Records [lo, hi) as the given kind, overriding what was known (malloc and
// thread-start hints are more precise than the maps heuristics).
void efsan_regions_set(uptr lo, uptr hi, u32 kind);
// Bumped whenever a range is re-marked as something other than heap, so that
// heap ranges cached per thread can be dropped.
extern u32 efsan_regions_generation;
// Records the pages [lo, hi) of a malloc'ed block as heap and returns the
// whole heap range that now contains them.
void efsan_regions_set_heap(uptr lo, uptr hi, uptr *heap_lo, uptr *heap_hi);
// Cheap check used by the malloc interceptor: true if [lo, hi) is inside a
// range known to be heap, returned in *heap_lo/*heap_hi. Racy by design (a
// stale answer only misattributes the block's lines).
bool efsan_regions_find_known_heap(uptr lo, uptr hi, uptr *heap_lo,
                                   uptr *heap_hi);
// Copies the registry into *out (reallocated as needed, efsan_mmap memory);
// returns the number of regions.
uptr efsan_regions_snapshot(struct efsan_region **out, uptr *capacity);
void efsan_regions_lock(void);
void efsan_regions_unlock(void);

//===-- Heap blocks (efsan_heap.c) -----------------------------------------===//
struct efsan_heap_block {
  uptr start, size;
  u32 stack_id; // allocation stack (stack depot), 0 if not captured
  u32 serial;   // allocation number: addresses are reused, serials are not
};
void efsan_heap_init(void);
void efsan_heap_insert(uptr start, uptr size, u32 stack_id);
// Forgets the live block at start (keeps it as freed with
// efsan_heap_keep_freed). Returns true, with the block in *attributed, if an
// efsan_heap_lookup had found it.
bool efsan_heap_remove(uptr start, struct efsan_heap_block *attributed);
// Finds the live block holding addr and marks it as looked up.
bool efsan_heap_lookup(uptr addr, struct efsan_heap_block *block);
// Calls visit for every block, live or kept after free, in no order, with
// the table's stripe locks held one at a time (visit must not allocate).
typedef void (*efsan_heap_visitor)(const struct efsan_heap_block *block,
                                   bool freed, void *arg);
void efsan_heap_for_each(efsan_heap_visitor visit, void *arg);
// Changes whenever the blocks efsan_heap_for_each would list change (not
// when a block is freed and kept): a copy of the list made after reading
// an equal version is still current.
u64 efsan_heap_version(void);
void efsan_heap_fork_child(void);
// Set once at start-up by the working-set tool's object attribution.
extern bool efsan_heap_keep_freed;

//===-- Reports (efsan.c) ---------------------------------------------------===//
// "function file:line" ("function file" when the line is unknown, "function"
// without a file) in buffer; a function name too long for it is cut with
// "...", so the place always shows.
#define kEfsanMaxPlace 1024
void efsan_format_frame(char *buffer, uptr size, const struct efsan_frame *frame);
// Frames at the same source line of the same function.
bool efsan_same_place(const struct efsan_frame *a, const struct efsan_frame *b);
// The site of a symbolized stack: the index of its first frame outside the
// program's allocation wrappers (0 if there is none).
uptr efsan_site_index(const struct efsan_frame *frames, uptr count);
// The site frame of the depot stack stack_id; false if it has no frames.
bool efsan_symbolize_site(u32 stack_id, struct efsan_frame *site);
// Whether two depot stacks name the same places in their symbolized frames
// up to `callers` frames past their sites (the wrapper frames and the site
// included; at most EFSAN_MAX_COMPARED_FRAMES in all): stacks a report would
// print alike (an unrolled loop of calls has several return addresses for
// one line; frames below the printed ones differ).
#define EFSAN_MAX_COMPARED_FRAMES 16
bool efsan_stacks_alike(u32 a, u32 b, uptr callers);

//===-- JSON reports (efsan_json.c) ----------------------------------------===//
// The version of the JSON report schema (docs/JSONSchema.md): bumped when a
// key is renamed or removed or its meaning changes, not when one is added.
#define EFSAN_JSON_SCHEMA_VERSION 4
// Prints s as a JSON string: quoted, with '"', '\\' and control characters
// escaped. A null s prints "".
void efsan_json_string(const char *s);
// Prints the keys every JSON report starts with: "tool", "schema_version",
// "pid" and "executable", separated by `separator` (", " or ",\n  ", to
// fit the report's layout); no separator after the last.
void efsan_json_print_identity(const char *tool, const char *separator);
// Prints an allocation stack as a list of {"function", "file", "line"},
// program frames first, at most EFSAN_JSON_STACK_FRAMES; [] for stack 0.
#define EFSAN_JSON_STACK_FRAMES 16
void efsan_json_stack(u32 stack_id);

//===-- Working set (efsan_working_set.c) ----------------------------------===//
void efsan_ws_init(void);
void efsan_ws_report(bool at_exit);
void efsan_ws_stop_sampler(void);
void efsan_ws_fork_prepare(void);
void efsan_ws_fork_parent(void);
void efsan_ws_fork_child(void);
u32 efsan_ws_sample_count(void);
// "12.3 KiB": lines * 64 bytes with one decimal in the largest fitting unit.
void efsan_format_lines(char *buffer, uptr length, u64 lines);
// Takes a sample now that clears every line's "touched since the last
// sample" bit, even where estimated snapshots leave it set (a phase
// boundary: phases stay exact), then calls with_lock(arg) with the sampler
// lock still held (no other sample can start in between).
void efsan_ws_sample_now(void (*with_lock)(void *arg), void *arg);
// The time since the run started (since fork in a child) on the sampler's
// clock (sample_clock: wall-clock or the program's CPU time), in ns. Called
// with the sampler lock held (within efsan_ws_sample_now or a report).
u64 efsan_ws_elapsed_ns(void);
// Set by the phase tracker while a phase is open: the sampler ORs each
// shadow word's "touched since the last sample" bits into the byte of this
// bitmap at the word's index (efsan_ws_phase_note).
extern u8 *efsan_ws_phase_bits;
void efsan_ws_phase_note(u64 *shadow_word, u64 touched);

//===-- Caches (efsan_caches.c) --------------------------------------------===//
#define EFSAN_MAX_CACHES 16
struct efsan_cache {
  int level;
  char type[16]; // "Data", "Instruction", "Unified"
  u64 size_bytes;
  u32 shared_by_cpus;
};
void efsan_caches_init(void);
u32 efsan_caches(const struct efsan_cache **caches);
// The smallest data or unified cache that holds `lines` lines, or null.
const struct efsan_cache *efsan_cache_fit(u64 lines);
// Its level, or 0 if no cache holds them.
int efsan_cache_fit_level(u64 lines);
// "fits L2 (1024 KiB)" / "exceeds L3 (32768 KiB)".
void efsan_cache_fit_text(char *buffer, uptr length, u64 lines);
void efsan_caches_print_text(void);
// Prints "caches": [...] (no separator around it).
void efsan_caches_print_json(void);

//===-- Working set by object (efsan_ws_objects.c) -------------------------===//
enum efsan_ws_object_kind {
  EFSAN_WS_OBJECT_HEAP = 1,
  EFSAN_WS_OBJECT_GLOBAL,
  EFSAN_WS_OBJECT_STACK,
  EFSAN_WS_OBJECT_MAPPING,
  EFSAN_WS_OBJECT_KINDS
};
extern const char *const efsan_ws_object_kind_names[EFSAN_WS_OBJECT_KINDS];
bool efsan_ws_objects_enabled(void);
void efsan_ws_objects_init(void);
void efsan_ws_objects_thread_start(u32 thread, uptr lo, uptr hi,
                                   uptr start_routine);
// A tally of lines by object: begin builds the lookup tables (heap blocks,
// mappings, the region registry), add counts lines, top lists the largest.
// Tallies are made with the sampler lock held (the heap table is kept from
// one to the next while the heap does not change).
struct efsan_ws_objects;
struct efsan_ws_objects *efsan_ws_objects_begin(void);
void efsan_ws_objects_fork_child(void);
// Counts the lines app + 64 * i for each bit i of `lines` (app is the start
// of the 512 bytes one shadow word covers).
void efsan_ws_objects_add(struct efsan_ws_objects *tally, uptr app, u8 lines);
// The same, each line counting `scale` lines (an estimate from a sample of
// the lines), as lines of the object / as reused lines of it.
void efsan_ws_objects_add_scaled(struct efsan_ws_objects *tally, uptr app,
                                 u8 lines, u64 scale);
void efsan_ws_objects_add_reused(struct efsan_ws_objects *tally, uptr app,
                                 u8 lines, u64 scale);
// Calls visit(id, lines, arg) for every object with lines. An id names the
// same object in every tally of the process (efsan_ws_object_name).
void efsan_ws_objects_for_each_count(struct efsan_ws_objects *tally,
                                     void (*visit)(u64 id, u64 lines, void *arg),
                                     void *arg);
const char *efsan_ws_object_name(u64 id, int *kind, u32 *stack_id);
void efsan_ws_objects_end(struct efsan_ws_objects *tally);
#define EFSAN_WS_MAX_TOP 100
struct efsan_ws_object {
  int kind;
  const char *name; // valid for the life of the process
  u32 stack_id;     // heap: the allocation site's stack, 0 if none
  u64 lines;
  u64 reused;       // of them, touched in several sample periods
};
struct efsan_ws_top {
  u32 count;
  struct efsan_ws_object objects[EFSAN_WS_MAX_TOP];
  u64 total_objects, rest_objects, rest_lines;
  bool reuse_known;  // the timeline counted reused lines into the tally
  u64 reused_lines;  // of all objects
};
// The `max` objects with the most lines, and what the others add up to
// (consumes the tally's counts).
void efsan_ws_objects_top(struct efsan_ws_objects *tally, u32 max,
                          struct efsan_ws_top *top);
void efsan_ws_objects_print_text(const struct efsan_ws_top *top,
                                 const char *indent);
// Prints the JSON list of objects.
void efsan_ws_objects_print_json(const struct efsan_ws_top *top);

//===-- Phases (efsan_ws_phases.c) -----------------------------------------===//
// Called with the sampler lock held by the report: takes the open phase's
// sample when a phase is open (at_exit: the phase ends there).
void efsan_ws_phases_before_report(bool at_exit);
void efsan_ws_phases_print_text(void);
// Prints "phases": [...].
void efsan_ws_phases_print_json(void);
void efsan_ws_phases_fork_child(void);

//===-- The timeline (efsan_ws_timeline.c) ---------------------------------===//
// Working set by object per period of the first level of >= 100 ms, and
// lines reused across sample periods. Set while the timeline is on: the
// sampler passes each shadow word's lines touched in the period it ends
// (those it counts) to efsan_ws_timeline_note.
extern u8 *efsan_ws_timeline_bits;
// Set once lines of a sample period before the top level's last snapshot
// are kept (the shadow's bits 1..6 no longer hold all of the history): from
// then on every word with lines counted is noted.
extern bool efsan_ws_timeline_seen_before;
bool efsan_ws_timeline_on(void);
void efsan_ws_timeline_init(void);
// Before sample `sample`'s scan: the level whose period (the timeline's)
// ends with it, or -1.
int efsan_ws_timeline_period_ends(u32 sample);
// For a shadow word (bit 0 of each line's byte): `fresh`, its lines counted
// in the sample period that ends; `earlier`, its lines touched in an
// earlier one since the top level's last snapshot; `period`, its lines of
// the timeline period that ends now (0 if none does); `history_ends`: the
// top level's snapshot is taken now, and its bits 1..6 cleared.
void efsan_ws_timeline_note(const u64 *shadow_word, u64 fresh, u64 earlier,
                            u64 period, bool history_ends);
// After each sample (sampler lock held): the sample counted the lines
// selected at 1/2^count_shift and cleared bit 0 in those at clear_shift.
void efsan_ws_timeline_sampled(u32 sample, int count_shift, int clear_shift);
// The report (sampler lock held): before_report, then count_word for every
// resident shadow word with a line ever touched (adds its reused lines to
// the report's tally), then after_count (at exit: ends the last period).
void efsan_ws_timeline_before_report(bool at_exit);
void efsan_ws_timeline_count_word(struct efsan_ws_objects *tally,
                                  const u64 *shadow_word, u64 value);
void efsan_ws_timeline_after_count(void);
// Phases: the lines of the open phase touched in several of its sample
// periods, counted into the phase's tally; dropped at a phase boundary.
void efsan_ws_timeline_count_phase_reused(struct efsan_ws_objects *tally);
void efsan_ws_timeline_phase_boundary(void);
void efsan_ws_timeline_fork_child(void);
// The reuse line of the total (per object and per phase: JSON only).
void efsan_ws_timeline_print_text(const char *indent, u64 total, u64 reused);
// A listed structure's reuse, in one short line under it.
void efsan_ws_timeline_print_object_reuse(const char *indent, u64 lines,
                                          u64 reused);
// Prints "reused_lines": ..., "timeline": {...} (no separator around it).
void efsan_ws_timeline_print_json(u64 total, u64 reused);
// Bit 0 of each byte of a shadow word whose level bits (1..6) are not all
// clear: the lines touched in an earlier sample period since the top
// level's last snapshot. (Each byte of `bits` has bits 0 and 7 clear, so
// adding 0x7f carries into bit 7 of that byte only, when it is not 0.)
static inline u64 efsan_ws_any_level_bit(u64 shadow_word) {
  u64 bits = shadow_word & 0x7e7e7e7e7e7e7e7eULL;
  return ((bits + 0x7f7f7f7f7f7f7f7fULL) >> 7) & 0x0101010101010101ULL;
}
// The sampler's selection of lines at 1/2^shift in a shadow word (bit 0 of
// each selected line's byte; estimated snapshots).
u64 efsan_ws_selected_lines(const u64 *shadow_word, int shift);
// "1", "0.5", ... "0.00390625": 1/2^shift exactly, for JSON.
const char *efsan_ws_fraction_text(int shift);

#endif // EFSAN_INTERNAL_H
