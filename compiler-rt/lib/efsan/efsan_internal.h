//===-- efsan_internal.h - declarations shared inside the C core -*- C -*-===//
//
// The services the C core offers both tools: shadow scanning, the region
// registry, heap blocks, report helpers, JSON and the machine's caches. A
// tool's files include this header and their own, never the other tool's.
// The glue does not include this header; its door is efsan.h.
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

//===-- Named ranges (efsan_names.c) ---------------------------------------===//
// Names the program gave ranges of its memory (__efsan_name_range): sorted,
// disjoint ranges, each with the number of its name. Numbers stay the same
// for the life of the process (and in a forked child).
struct efsan_named_range {
  uptr lo, hi;
  u32 name;
};
// Longer names are cut, ending in "...".
#define EFSAN_MAX_RANGE_NAME 255
// Names [addr, addr + size), replacing the names of what it overlaps; a
// null or empty name takes the names away.
void efsan_names_set(uptr addr, uptr size, const char *name);
// Copies the ranges into *out (reallocated as needed, efsan_mmap memory);
// returns their number.
uptr efsan_names_snapshot(struct efsan_named_range **out, uptr *capacity);
// The first named range that overlaps [lo, hi), if any.
bool efsan_names_find(uptr lo, uptr hi, struct efsan_named_range *found);
// The text of a name, and the path of the mapping it was given in ("" for
// anonymous memory; null if it was not given in a mapping: heap, stack,
// or an address nothing was mapped at). Both live as long as the process.
const char *efsan_name_text(u32 name);
const char *efsan_name_mapping(u32 name);

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
// Set once at start-up by the working-set tool's object attribution, which
// tells the table of some blocks only: the table then also counts which
// bytes its records cover, for the two calls below.
extern bool efsan_heap_keep_freed;
// False if no record (live or freed) covers a byte of [start, start+size):
// a block there takes no byte from a record.
bool efsan_heap_may_cover(uptr start, uptr size);
// How many of the table's records (all of them in *records) have a byte the
// coverage counts miss: 0 unless the counts are wrong (a check for tests,
// printed at verbosity 2 by the working set's report).
uptr efsan_heap_uncovered_records(uptr *records);
// For a new block that the table need not be told of (the working set's
// blocks without an allocation stack): false, without a lock, if it lands
// on no record's bytes; else drops the freed records of at most
// HEAP_SMALL_MAX bytes (4 KiB) it overlaps, which then own nothing, and is
// true if a record still covers one of its bytes (a larger freed one), so
// that the block must be inserted to own its bytes.
bool efsan_heap_take_unnamed(uptr start, uptr size);

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
// Who owns a heap block allocated at the depot stack stack_id when it is not
// the program: "the dynamic loader" (a thread's TLS vector, allocate_dtv),
// "the C++ library" (every frame in libstdc++, e.g. its exception emergency
// pool); null for the program's blocks.
const char *efsan_runtime_memory_owner(u32 stack_id);

// Whether the report being written is JSON: report_format=json, or a report
// into the process tree's directory (efsan_report_begin).
bool efsan_report_json(void);

//===-- JSON reports (efsan_json.c) ----------------------------------------===//
// The version of the JSON report schema (docs/JSONSchema.md): bumped when a
// key is renamed or removed or its meaning changes, not when one is added.
#define EFSAN_JSON_SCHEMA_VERSION 5
// Prints s as a JSON string: quoted, with '"', '\\' and control characters
// escaped. A null s prints "".
void efsan_json_string(const char *s);
// Prints the keys every JSON report starts with: "tool", "schema_version",
// "pid" and "executable", then "process_tree" in a process tree (a
// descendant, or a root whose descendants have reported),
// separated by `separator` (", " or ",\n  ", to fit the report's layout); no
// separator after the last.
void efsan_json_print_identity(const char *tool, const char *separator);
// Prints an allocation stack as a list of {"function", "file", "line"},
// program frames first, at most EFSAN_JSON_STACK_FRAMES; [] for stack 0.
#define EFSAN_JSON_STACK_FRAMES 16
void efsan_json_stack(u32 stack_id);

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

//===-- Printed figures (efsan_figures.c) ----------------------------------===//
// n rounded half up to three significant digits.
u64 efsan_round_3(u64 n);
// A duration to three significant digits: "166 ms", "48.8 ms", "1.23 s",
// "12.3 us", "789 ns"; from 1000 s up, whole seconds.
void efsan_format_duration(char *buffer, uptr length, u64 ns);
// An estimate rounded to the power of ten of its error's leading digit
// (649,728 with a standard error of 4,487: 650,000), and the error itself
// to two significant digits (4,500).
u64 efsan_round_to_error(u64 value, u64 error);
u64 efsan_round_error(u64 error);
void efsan_caches_print_text(void);
// Prints "caches": [...] (no separator around it).
void efsan_caches_print_json(void);

#endif // EFSAN_INTERNAL_H
