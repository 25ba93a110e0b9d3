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

// Working-set marking: sets "touched since the last sample" and "ever
// touched" in the shadow byte of every line of [addr, addr+size), storing only
// into bytes that miss a bit (the same check as the inline fast path), and
// then marks the shadow page changed. The changed-page byte is stored after
// the shadow byte (x86 keeps stores in order, and the store is a release), so
// a sampler that clears it and then reads the shadow sees the new bit or
// finds the page changed again.
#define EFSAN_WS_ACCESS_BITS 0x81
static inline void efsan_ws_mark_line(uptr addr) {
  u8 *shadow = efsan_shadow_of(addr);
  u8 bits = *(volatile u8 *)shadow;
  if ((bits & EFSAN_WS_ACCESS_BITS) != EFSAN_WS_ACCESS_BITS) {
    *(volatile u8 *)shadow = bits | EFSAN_WS_ACCESS_BITS;
    __atomic_store_n(efsan_dirty_byte_of(shadow), 1, __ATOMIC_RELEASE);
  }
}
void efsan_ws_mark_range(uptr addr, uptr size);

//===-- Regions (efsan_regions.c) ------------------------------------------===//
enum efsan_region_kind {
  EFSAN_REGION_HEAP,
  EFSAN_REGION_GLOBALS,
  EFSAN_REGION_STACK,
  EFSAN_REGION_OTHER,
  EFSAN_REGION_KINDS
};
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

//===-- JSON reports (efsan_json.c) ----------------------------------------===//
// The version of the JSON report schema (docs/JSONSchema.md): bumped when a
// key is renamed or removed or its meaning changes, not when one is added.
#define EFSAN_JSON_SCHEMA_VERSION 1
// Prints s as a JSON string: quoted, with '"', '\\' and control characters
// escaped. A null s prints "".
void efsan_json_string(const char *s);
// Prints the keys every JSON report starts with: "tool", "schema_version",
// "pid" and "executable", separated by `separator` (", " or ",\n  ", to
// fit the report's layout); no separator after the last.
void efsan_json_print_identity(const char *tool, const char *separator);

//===-- Working set (efsan_working_set.c) ----------------------------------===//
void efsan_ws_init(void);
void efsan_ws_report(bool at_exit);
void efsan_ws_stop_sampler(void);
void efsan_ws_fork_prepare(void);
void efsan_ws_fork_parent(void);
void efsan_ws_fork_child(void);
u32 efsan_ws_sample_count(void);

#endif // EFSAN_INTERNAL_H
