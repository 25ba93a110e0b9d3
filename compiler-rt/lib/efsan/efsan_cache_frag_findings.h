//===-- efsan_cache_frag_findings.h - the cache-frag finding model -*- C -*-===//
//
// The model of a cache-frag report, shared by the finding model that builds
// it (efsan_cache_frag_findings.c; the struct field judgments,
// efsan_cache_frag_struct_usage.c) and the printers that walk it
// (efsan_cache_frag_report.c, text and JSON): a finding (kind, invalidations,
// impact), the objects its bytes belong to, its line map, access sites and
// the threads' creation groups, and the struct field usage judgments. It owns
// no sampling or estimation (efsan_cache_frag_internal.h) and no output.
//
//===----------------------------------------------------------------------===//
#ifndef EFSAN_CACHE_FRAG_FINDINGS_H
#define EFSAN_CACHE_FRAG_FINDINGS_H

#include "efsan_cache_frag_internal.h"

enum cf_finding_kind {
  CF_FALSE_SHARING,
  CF_TRUE_SHARING,
  CF_PREDICTED_128,     // virtual 128-byte line
  CF_PREDICTED_SHIFTED, // virtual 64-byte line at another start offset
};

struct cf_finding {
  u8 kind;
  bool has_observed;  // real lines only
  uptr address;       // first byte of the (virtual) line
  uptr length;        // 64 or 128
  struct cf_line_record *records[2]; // real lines the (virtual) line covers
  u64 observed, observed_true;
  u64 parallel, parallel_true;
  u64 invalidations;      // the larger estimate, which decides the kind
  u64 true_invalidations; // of those
  // The impact (docs/CacheFrag.md, "Impact"): the CPU time the fix saves,
  // its share of the run's CPU time, the wall time it saves (the slowest
  // involved thread decides), the involved threads' CPU time.
  // share_ppm = lost_ns / run_ns: the run's CPU time (cf_run_ns), or for a
  // layout this run did not have (hypothetical), the time the run would
  // take with it, cf_run_ns + lost_ns.
  u64 lost_ns;
  u32 share_ppm;
  u64 run_ns;
  bool hypothetical;
  // The claim at the least and the most of the machine profile's prices
  // (the claim itself without a profile).
  u64 low_ns, high_ns;
  u32 low_ppm, high_ppm;
  u64 wall_ns;
  u64 threads_ns;
  // The largest share of its time an involved thread could lose to the
  // line (CF_CONTENDED_SHARE, more for locked read-modify-writes and for
  // code built without optimisation), in ppm; whether the thread of that
  // bound ran mostly such code.
  u32 cap_ppm;
  // The same at the least and the most of the profile's prices: what holds
  // the program's total at each end of its range.
  u32 low_cap_ppm, high_cap_ppm;
  bool unoptimised;
  // Whether the thread of that bound wrote the line mostly with locked
  // read-modify-writes (its bound is an atomic's).
  bool locked;
  // The instructions per write (the pass's count) of the loops whose
  // profile reading set cap_ppm; 0 where the bound is not a loop's.
  u32 bound_loop_work;
  // Of lost_ns, what threads lose at that bound: their stalls, as the
  // model prices them, would exceed it (a line both hammer). The measured
  // gains of such fixes spread widely around the bound, so the report says
  // the figure is one.
  u64 bound_ns;
  // A 128-byte-line prediction on a CPU that does not pair lines: no gain
  // on this machine; lost_ns and share_ppm are what it would cost on one
  // that does (a portability note).
  bool conditional;
  u64 sampled_writes;
};

// Samples of writes a finding needs: an estimate from k samples is off by
// about 1/sqrt(k) (35% at 8), and with fewer a rare writer's lucky samples,
// scaled up by the period, could pass the thresholds.
#define CF_MIN_SAMPLED_WRITES 8

// How far (ns of its own work) a core runs past a store whose line is on
// another core before it stalls: the most of a transfer the work after a
// plain store can hide (efsan_cache_frag_findings.c,
// cf_plain_store_stall). Fitted to what the fix really gains with 0-400
// xorshift steps of private work between writes on a 2-core AMD EPYC VM
// whose transfers measure 40 ns or 150-190 ns by turns: where they are
// long, the loss per write with 100-400 steps between writes is the
// transfer less 65-71 ns (docs/performance.md, "private work between
// writes").
#define CF_RUN_AHEAD_NS 70.0
// The share of two threads' overlap that one of them can lose to a line
// both keep taking: each gets the line, makes the accesses it can until the
// other's request arrives, and waits for it again. Measured losses of such
// pairs on a 2-core AMD EPYC VM are 0.5 to 0.9 of the sharing run's time
// (docs/performance.md, calibration table); 0.65 errs least over them.
#define CF_CONTENDED_SHARE 0.65
// The same for code built without optimisation (clang -O0): every local is
// a stack slot, so stores to the thread's own memory lie between its writes
// to the line, and they drain from the store buffer in order behind the
// store that waits for the line: the core stalls where optimised code runs
// on. efsan-calibrate's loop with 8 stores between writes lost 74-77% on the
// Intel VM, where the optimised loops lost 6-37% and the -O0 calibration
// pair's fix gained 69-73% (docs/performance.md); 0.75 without a profile.
#define CF_CONTENDED_UNOPTIMISED_SHARE 0.75
// The same for a thread whose writes of the line are locked
// read-modify-writes (atomicrmw, cmpxchg, seq_cst stores): a locked
// instruction cannot retire into the store buffer, so the core waits out
// every transfer instead of going on past it. Two threads bumping one
// atomic with 0-1 xorshift steps between bumps lose 0.90-0.96 of the time
// that the same loop without the atomic takes, measured on the same VM
// (utils/bench/contended_rmw.c, docs/performance.md); 0.9 is the lower end.
// Such a thread's invalidations stall for the whole transfer (no part is
// hidden).
#define CF_CONTENDED_RMW_SHARE 0.9

struct cf_object {
  int kind;
  const char *name; // globals only
  uptr start, size; // heap and globals; stack and unknown: first byte
  u32 stack_id;     // heap only
  u32 serial;       // heap only: which allocation (addresses are reused)
  // heap only: blocks of its site and size allocated at its address in
  // turn (1: this one alone), each judged on its own.
  u32 allocations;
  u32 thread;       // stack only
  // The range the program named (__efsan_name_range) that holds the
  // object's bytes on the line (two ranges make two objects): its name
  // (null if none), its bounds, and the path of the mapping it was named in
  // ("": anonymous; null: not in a mapping).
  const char *range_name, *range_in;
  uptr range_start, range_size;
  double invalidations; // caused by writes to its bytes
  u64 bytes[2];         // its contended bytes (bit i: finding address + i)
};

enum cf_object_kind {
  CF_OBJECT_UNKNOWN = 0,
  CF_OBJECT_HEAP,
  CF_OBJECT_GLOBAL,
  CF_OBJECT_STACK,
};

#define CF_MAX_OBJECTS 16
struct cf_objects {
  u32 count;
  struct cf_object objects[CF_MAX_OBJECTS];
};

#define CF_MAX_VIEWS (2 * CF_THREAD_SLOTS + 2)
#define CF_MAX_FRAMES 16

// One range of the finding's line whose bytes have the same readers,
// writers and object.
struct cf_map_range {
  uptr offset, length;
  u64 readers, writers; // bit v: view v
  struct cf_object object; // kind CF_OBJECT_UNKNOWN with start 0: none
  uptr member_start;       // object offset of its member; -1 if unknown
  char member[128];        // source expression, empty if unknown
};

// The involved threads other than the main thread, grouped by who created
// them where (a loop of pthread_create calls is one group), in thread order.
struct cf_creation_group {
  u32 creator; // EFSAN_INTERNAL_THREAD: unknown
  u32 stack_id;
  u32 count;
  u32 threads[CF_MAX_VIEWS];
};

// One place in the code that accessed the finding's bytes, for one thread.
struct cf_finding_site {
  u32 thread;
  uptr pc;
  struct efsan_frame frame; // the innermost source frame at pc
  u64 reads, writes; // sampled
  u64 locked;        // of them, made while holding a mutex or spin lock
  u64 bytes[2];      // bit i: finding address + i
};
#define CF_MAX_FINDING_SITES (CF_MAX_VIEWS * 2 * CF_SITES)

enum cf_heat {
  CF_HEAT_HOT,
  CF_HEAT_WARM,
  CF_HEAT_COLD,
  CF_HEAT_PADDING,
  CF_HEAT_UNUSED,
  CF_HEAT_NOT_SEEN, // never counted, and its address escapes
  CF_HEAT_FEW_SAMPLES // as reported: too few samples of the type to tell
};

struct cf_struct_shape {
  u64 max;
  u32 hot, cold; // fields whose address escapes are neither
  u32 cold_near_hot; // cold fields on a cache line with a hot one
  uptr hot_bytes, cold_bytes;
  uptr hot_begin, hot_end; // byte range the hot fields span
};

// The report's state: the mean sample period, the views of the finding at
// hand (CF_MAX_VIEWS, mapped for the report), the memory regions snapshot,
// and every record's own finding (mapped for the report).
extern u64 cf_period;
extern struct cf_view *cf_views;
extern struct efsan_region *cf_regions;
extern uptr cf_region_capacity, cf_region_count;
extern struct cf_finding *cf_record_findings;
// The sites cf_collect_sites found, and the samples at places the records
// had no room for.
extern struct cf_finding_site cf_sites[CF_MAX_FINDING_SITES];
extern u64 cf_other_site_samples;
extern const char *const cf_heat_names[];
// The run's CPU time (all threads, less the start-up measurement), and the
// findings that passed every threshold but cache_frag_min_share.
extern u64 cf_run_ns;
extern uptr cf_hidden_findings;

u64 cf_round(double x);
// part's share of whole in parts per million, rounded up: a saving above
// zero is never a share of 0 (printed "<0.1%").
u64 cf_share_ppm(u64 part, u64 whole);
void cf_format_share_range(char *buffer, uptr length, u32 low_ppm,
                           u32 high_ppm);
// The threads' time side by side (efsan_cache_frag_impact.c): from what the
// threads spent polling unchanged values, once the threads are done; returns
// the CPU time by which the run's exceeds it, to take off the run's.
u64 cf_prepare_side_by_side(void);
// A program thread's own time (CPU time less the tool's) as it would be with
// the threads side by side: waits the scheduler lengthened taken out.
u64 cf_thread_side_by_side_ns(u32 thread);
// Prices the finding from its views (efsan_cache_frag_impact.c); scale: the
// finding's share of the views' invalidations.
void cf_set_impact(struct cf_finding *f, struct cf_view *views, u32 count,
                   double scale);
// The line is written under a lock (its words move with the lock), and the
// threads that write it (shared_bytes: several write the same bytes).
bool cf_line_under_lock(const struct cf_finding *f);
u32 cf_writers(u32 view_count, bool *shared_bytes);
u64 cf_false_part(u64 all, u64 true_part);
u32 cf_finding_views(const struct cf_finding *f);
uptr cf_collect_findings(struct cf_finding *findings, struct cf_line_record *records, u32 count);
void cf_sort_findings(struct cf_finding *findings, uptr n);
void cf_attribute(const struct cf_finding *f, u32 view_count, struct cf_objects *list);
bool cf_next_byte_run(const u64 bytes[2], u32 *first, u32 *last);
void cf_format_bytes(char *buffer, uptr length, const u64 bytes[2], uptr base_offset);
const char *cf_object_kind_name(int kind);
const char *cf_kind_name(u8 kind);
long cf_object_delta(const struct cf_finding *f, const struct cf_object *o);
bool cf_bounded(const struct cf_object *o);
const struct cf_object *cf_object_holding(const struct cf_objects *list, uptr address);
void cf_format_percent(char *buffer, uptr length, u64 ppm);
u64 cf_printed_count(u64 n, bool estimated);
bool cf_estimated(const struct cf_finding *f);
void cf_format_impact(char *buffer, uptr length, const struct cf_finding *f);
uptr cf_thread_part_size(const struct cf_finding *f, u32 view_count);
// The suggestion for the finding whose objects are `objects` (the first
// is the one it names).
void cf_suggest(char *buffer, uptr length, const struct cf_finding *f,
                const struct cf_objects *objects, uptr part_size,
                u32 view_count);
u32 cf_line_map(const struct cf_finding *f, u32 view_count, struct cf_map_range *ranges);
const char *cf_thread_function(u32 thread);
u32 cf_creation_groups(u32 view_count, struct cf_creation_group *groups);
uptr cf_collect_sites(const struct cf_finding *f, u32 view_count);
bool cf_site_under_lock(const struct cf_finding_site *site);
enum cf_heat cf_field_heat(const struct cf_struct_usage *u, u32 field, u64 max);
enum cf_heat cf_field_heat_reported(const struct cf_struct_usage *u,
                                    u32 field, u64 max);
bool cf_field_escapes(const struct cf_struct_usage *u, u32 field);
void cf_struct_shape(const struct cf_struct_usage *u, struct cf_struct_shape *shape);
uptr cf_lines(uptr bytes);
bool cf_struct_judged(const struct cf_struct_usage *u);
bool cf_hot_cold_mix(const struct cf_struct_usage *u, const struct cf_struct_shape *shape);
// A cold field on a cache line (of an object that starts on a line) with a
// hot field: the fields the hot/cold note names.
bool cf_cold_near_hot(const struct cf_struct_usage *u, u32 field, u64 max);
uptr cf_hot_span(const struct cf_struct_shape *shape);
void cf_sort_structs(struct cf_struct_usage *u, uptr n);
uptr cf_structs_shown(const struct cf_struct_usage *u, uptr n);
uptr cf_structs_folded(const struct cf_struct_usage *u, uptr n, u64 *accesses);
// suppressions=FILE (efsan_cache_frag_suppress.c). Keeps the findings no
// suppression matches, in order, at the front; returns how many.
uptr cf_suppress_findings(struct cf_finding *findings, uptr n);
// Moves the struct types a "struct:" suppression matches after the others
// (each group in its order) and returns how many are left before them;
// *suppressed_with_accesses: of the suppressed, the types with accesses
// (those the report would have counted).
uptr cf_suppress_structs(struct cf_struct_usage *u, uptr n,
                         uptr *suppressed_with_accesses);

#endif // EFSAN_CACHE_FRAG_FINDINGS_H
