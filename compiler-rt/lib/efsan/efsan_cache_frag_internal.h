//===-- efsan_cache_frag_internal.h - cache-frag tool internals --*- C -*-===//
//
// Shared between the files of the cache-frag tool: sampling
// (efsan_cache_frag.c), the per-line states and records
// (efsan_cache_frag_lines.c and the files it names; their own tables in
// efsan_cache_frag_lines.h), the contention model that turns records into
// estimates (efsan_cache_frag_model.c), the live-allocation map
// (efsan_heap.c, shared with the working-set tool), struct field counters
// (efsan_cache_frag_structs.c) and the report (the finding model in
// efsan_cache_frag_findings.c, its printers in efsan_cache_frag_report.c).
// docs/CacheFrag.md explains the algorithm and every number it produces.
//
//===----------------------------------------------------------------------===//
#ifndef EFSAN_CACHE_FRAG_INTERNAL_H
#define EFSAN_CACHE_FRAG_INTERNAL_H

#include "efsan_cache_frag.h"
#include "efsan_internal.h"

#define cf_load(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define cf_store(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define cf_add(p, v) __atomic_fetch_add((p), (v), __ATOMIC_RELAXED)
#define cf_cas(p, expected, desired)                                           \
  __atomic_compare_exchange_n((p), (expected), (desired), false,               \
                              __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)

// Threads recorded one by one per tracked line; samples of further threads
// are summed into the line's "other threads" entry.
#define CF_THREAD_SLOTS 16
// Distinct (offset, length, object) accesses remembered per thread and line;
// further ones are summed into the thread's overflow counts.
#define CF_SHAPES 8
// Heap objects remembered per line (live at the time of some access).
#define CF_LINE_OBJECTS 8
// Code addresses remembered per thread and line, with their sampled reads
// and writes; samples at further addresses are summed into the thread's
// other_site counts.
#define CF_SITES 8
// Activity intervals kept per thread and line (the closest ones are merged
// beyond that).
#define CF_INTERVALS 32
// A thread's part holds the first CF_INLINE_* shapes, sites and intervals;
// the rest of each kind go to a block of their own, taken when the thread
// needs it: most threads use a line in a few kinds of access, from a few
// places, in a few bursts, and a part costs 256 bytes, not 1.5 KiB
// (threadtest3: 60,000 parts live at once).
#define CF_INLINE_SHAPES 2
#define CF_INLINE_SITES 2
#define CF_INLINE_INTERVALS 2
struct cf_interval {
  u64 first, last; // virtual clock of the first and last sample
  u64 samples;
};

// One kind of access a thread made to a line: the bytes it covered and the
// heap object that held them at the time.
struct cf_shape {
  u8 offset, length; // in the line; length 0: unused entry
  u8 object;         // index in cf_line_record.objects + 1; 0: not heap
  u8 unused;
  u32 reads, writes; // sampled accesses
  // Invalidations the history table counted on this thread's writes of
  // these bytes, and those that were true sharing.
  u32 invalidations, true_invalidations;
};

// A place in the code that accessed a line: the return address of the
// instrumentation call (its debug location is the access's), or the caller
// of a libc function.
struct cf_site {
  uptr pc; // 0: unused entry
  u32 reads, writes; // sampled
  u32 locked;        // of them, made while the thread held a mutex or spin lock
  u32 locked_writes; // writes among those
  u64 bytes;         // bit i: byte i of the line
};

// The further entries of a thread's part, each kind in blocks of whole cache
// lines (their thread writes them), with the counts of what did not fit.
struct cf_shape_block {
  struct cf_shape at[CF_SHAPES - CF_INLINE_SHAPES];
  u32 overflow_reads, overflow_writes; // samples whose shape did not fit
  u64 overflow_bytes;
} __attribute__((aligned(64)));
struct cf_site_block {
  struct cf_site at[CF_SITES - CF_INLINE_SITES];
  u32 other_site_reads, other_site_writes; // samples at further sites
  u32 other_site_locked_writes;
} __attribute__((aligned(64)));
struct cf_interval_block {
  struct cf_interval at[CF_INTERVALS - CF_INLINE_INTERVALS];
} __attribute__((aligned(64)));

// One thread's sampled use of one line. Only that thread writes it (the
// "other threads" entry uses atomics), except held_bytes, which a thread that
// invalidates this one clears. Whole cache lines, so that threads updating
// their own entries do not falsely share the runtime's metadata; allocated
// when the thread first samples the line, so that a record costs what its
// threads use.
struct cf_thread_line {
  u64 reads, writes;              // sampled accesses
  u64 locked_rmw_writes;          // writes that were locked read-modify-writes
  // Of the writes sampled since the line has its record (record_writes:
  // those seeded from its summary were not told their loops), the writes
  // the pass found in a loop, and the sums over them of their loops'
  // instructions per write (flags bits 16-23) and accesses per write, in
  // quarters (bits 24-31).
  u64 record_writes, loop_writes, loop_work, loop_accesses;
  u64 read_bytes, written_bytes;  // bit i: byte i was read / written
  u64 held_bytes;                 // bytes used since the thread last got the
                                  // line, in the history table's view
  // Sharing is judged within the lifetime of the data: bytes of a heap
  // block count from its allocation to its free, so that a block freed and
  // allocated again at the same address starts with no owners of its bytes
  // (cf_end_lifetime). life_*: the bytes used and written in their current
  // lifetime (since the run started, for memory never freed); true_written
  // and co_written: the bytes this thread wrote that, within one ended
  // lifetime, another thread used / wrote too. Several threads update the
  // life_* masks (the freeing thread clears them): atomic bit operations.
  u64 life_used, life_written;
  u64 true_written, co_written;
  u64 first_clock, last_clock;    // virtual clock of the first / last sample
  // When the thread used the line: intervals of virtual clock, in order,
  // each from its first sample to its last, so that the model sees bursts
  // (turns taken under a lock), not just a first-to-last span.
  u32 interval_count; // published after the intervals it counts
  // The blocks of further shapes, sites and intervals: index + 1, 0 while
  // the part has none (published before the entries they hold).
  u32 more_shapes, more_sites, more_intervals;
  struct cf_shape shapes[CF_INLINE_SHAPES];
  struct cf_site sites[CF_INLINE_SITES];
  struct cf_interval intervals[CF_INLINE_INTERVALS];
} __attribute__((aligned(64)));

// A write's loop, as the pass marks it (flags bits 16-31, passed on as one
// value): the instructions its loop runs per write, and the accesses the
// countdown counts per write, in quarters.
static inline u32 cf_loop_work(u32 loop) { return loop & 0xff; }
static inline u32 cf_loop_accesses(u32 loop) { return loop >> 8; }

// The blocks' tables (efsan_cache_frag_parts.c).
extern struct cf_shape_block *cf_shape_blocks;
extern struct cf_site_block *cf_site_blocks;
extern struct cf_interval_block *cf_interval_blocks;

// The part's blocks of further shapes and sites, or null while it has none.
static inline struct cf_shape_block *cf_shape_block_of(struct cf_thread_line *t) {
  u32 block = __atomic_load_n(&t->more_shapes, __ATOMIC_ACQUIRE);
  return block ? &cf_shape_blocks[block - 1] : 0;
}
static inline struct cf_site_block *cf_site_block_of(struct cf_thread_line *t) {
  u32 block = __atomic_load_n(&t->more_sites, __ATOMIC_ACQUIRE);
  return block ? &cf_site_blocks[block - 1] : 0;
}
// The part's k-th shape, site or interval, or null when its block was never
// needed (k beyond the inline ones). Intervals: k < interval_count.
static inline struct cf_shape *cf_shape_at(struct cf_thread_line *t, u32 k) {
  if (k < CF_INLINE_SHAPES)
    return &t->shapes[k];
  struct cf_shape_block *block = cf_shape_block_of(t);
  return block ? &block->at[k - CF_INLINE_SHAPES] : 0;
}
static inline struct cf_site *cf_site_at(struct cf_thread_line *t, u32 k) {
  if (k < CF_INLINE_SITES)
    return &t->sites[k];
  struct cf_site_block *block = cf_site_block_of(t);
  return block ? &block->at[k - CF_INLINE_SITES] : 0;
}
static inline struct cf_interval *cf_interval_at(struct cf_thread_line *t,
                                                 u32 k) {
  if (k < CF_INLINE_INTERVALS)
    return &t->intervals[k];
  u32 block = __atomic_load_n(&t->more_intervals, __ATOMIC_ACQUIRE);
  return &cf_interval_blocks[block - 1].at[k - CF_INLINE_INTERVALS];
}
// The same, making the block when the part has none (the part's own thread
// only); null when the blocks ran out (never: there are as many of each
// kind as parts).
struct cf_shape_block *cf_new_shape_block(struct cf_thread_line *t);
struct cf_shape *cf_new_shape_at(struct cf_thread_line *t, u32 k);
struct cf_site *cf_new_site_at(struct cf_thread_line *t, u32 k);

// A two-entry cache history table (Predator): each half holds a thread index
// + 1, 0 for an empty entry; the high half is only set when the low one is.
typedef u64 cf_history;

struct cf_line_object {
  uptr start, size;
  u32 stack_id;
  u32 serial; // the heap block's allocation number (blocks reuse addresses)
  // Blocks of this site and size allocated here in turn (cf_object_of):
  // the entry stands for all of them, the last one's serial.
  u32 allocations;
  u8 live;
};

// Everything known about one line that more than one thread used with at
// least one write (or that one thread writes often: prediction needs it).
struct cf_line_record {
  uptr line; // line address; 0 while the record is unused
  // Threads (index + 1) that own threads[i], in the order they first
  // sampled the line; 0 = free. Written once per slot.
  u32 owners[CF_THREAD_SLOTS];
  efsan_mutex objects_lock;
  u32 object_count;
  // When its live threads last sampled it, as sweeps saw it (the sweep's).
  u64 sweep_mark;
  struct cf_line_object objects[CF_LINE_OBJECTS];

  _Alignas(64) cf_history history;
  // Invalidations Predator's history table counted over the accesses the
  // tool saw (every access at sample period 1), and those of them where the
  // writer's bytes met bytes the invalidated thread had used.
  u64 observed;
  u64 observed_true;

  // threads[i] belongs to owners[i] (null for a moment after the owner
  // claimed the slot, or when the runtime ran out of them); others, null
  // until used, sums the samples of threads beyond CF_THREAD_SLOTS.
  struct cf_thread_line *threads[CF_THREAD_SLOTS];
  struct cf_thread_line *others;
};

// The thread index + 1 that owns record->threads[i], or 0.
static inline u32 cf_owner(struct cf_line_record *record, int i) {
  return cf_load(&record->owners[i]);
}
// The part of the record that owners[i] wrote, or null.
static inline struct cf_thread_line *cf_thread_part(struct cf_line_record *record,
                                                    int i) {
  return __atomic_load_n(&record->threads[i], __ATOMIC_ACQUIRE);
}
// The other threads' part, or null when there were none.
static inline struct cf_thread_line *cf_others_part(struct cf_line_record *record) {
  return __atomic_load_n(&record->others, __ATOMIC_ACQUIRE);
}

// Sets the bits of mask in a byte mask only its owner writes (stored only
// when they change: the line stays shared in the owner's cache).
static inline void cf_own_bits(u64 *bytes, u64 mask) {
  if ((*bytes & mask) != mask)
    cf_store(bytes, *bytes | mask);
}

// A heap block's bytes `mask` of the record's line end their lifetime (the
// block is freed): what each thread wrote there that another used or wrote
// within it is kept, and the bytes start again with no owner, in the
// lifetime masks and in the history table's held bytes.
void cf_end_lifetime(struct cf_line_record *record, u64 mask);
// Whether a live heap block holds bytes of the line.
bool cf_line_has_heap(uptr line);
// The bytes the part wrote that another thread used (*true_written) or
// wrote (*co_written) within one lifetime of the data, the current one
// included (efsan_cache_frag_records.c).
void cf_lifetime_sharing(struct cf_line_record *record,
                         struct cf_thread_line *part, u64 *true_written,
                         u64 *co_written);

// Sampling (efsan_cache_frag.c).
// Mean sampling period in accesses (1: every access is seen).
u64 cf_sample_period(void);
// The most a sample counts for (a thread alone, a quiet thread); 1: every
// sample counts once.
u32 cf_max_sample_weight(void);
// The samples a struct's field count (sampled accesses, a thread alone's
// counted several times each: efsan_cache_frag.c) surely came from: all of
// it when no thread was alone, else a lower bound.
u64 cf_field_samples_at_least(u64 counted);
// How many samples a thread alone took (verbosity=1).
void cf_print_sampling_stats(void);
// Program threads the tool keeps apart (thread indices beyond are not
// timed or reclaimed).
#define CF_MAX_THREAD_INFOS (1u << 20)
// Whether the program thread has exited.
bool cf_thread_exited(u32 thread);
// Odd while the thread is in the line state machine; it changes each time
// the thread enters or leaves it.
u64 cf_thread_line_ops(u32 thread);

// The line state machine (efsan_cache_frag_lines.c): set up with the record
// table's capacity, the mean sampling period, the sampled writes that make
// a line a candidate (one thread: prediction; another thread reading:
// tracking) and the invalidations a finding needs.
void cf_lines_init(u32 record_capacity, u64 mean_period, u64 prediction_samples,
                   u64 tracking_samples, u32 report_threshold);
// One sampled access of thread_plus1 to [line + offset, + length), at the
// thread's virtual clock (efsan_cache_frag_alone.c); pc is the code address
// that made it. locked_rmw: a write the core could not retire into its
// store buffer (atomicrmw, cmpxchg, seq_cst store: flags bit 1,
// docs/InstrumentationABI.md). loop_work: for a write in a loop, the
// instructions its loop runs per write and the accesses, in quarters (flags
// bits 16-31: cf_loop_work, cf_loop_accesses), else 0. weight:
// the samples it counts for (more than
// 1 while the process has a single thread, or for a thread whose samples
// found nothing shared: efsan_cache_frag.c). Returns whether the line is one
// several threads use (a shared summary or a record).
bool cf_sample_line(uptr line, uptr offset, uptr length, bool is_write,
                    bool locked_rmw, u32 loop_work, u32 thread_plus1,
                    u64 clock, uptr pc, u32 weight);
// Applies the samples the thread logged while it was the process's only
// thread (they are applied in batches); called before it creates a thread.
void cf_lines_apply_alone_samples(void);
// After fork: the locks other threads held in the records are released.
void cf_lines_fork_child(void);
// A program thread exited: the lines only exited threads used may give
// their entries back (a sweep, now and then: efsan_cache_frag_sweep.c).
void cf_lines_thread_exited(void);
// The report is starting: entries stay where they are from now on.
void cf_lines_stop_reclaiming(void);
// Lines whose entries went back after their threads exited, by what they
// were: records (none of which could be reported), and lines used in turn.
u64 cf_retired_records(void);

// An entry of a line table (efsan_cache_frag_lines.c): one its pool has
// free (zeroed here), else a fresh one; false when the table is full.
struct cf_pool;
bool cf_new_entry(struct cf_pool *pool, u32 *handed_out, void *table,
                  uptr entry_size, u32 *index);

// The threads' parts of records (efsan_cache_frag_parts.c), room for
// capacity of them.
void cf_parts_init(u32 capacity, u64 mean_period);
// A thread's part of a record; null when they run out.
struct cf_thread_line *cf_new_thread_line(void);
// A part no other thread could reach.
void cf_give_thread_line(struct cf_thread_line *part);
// A part a sweep took off its line.
void cf_retire_thread_line(struct cf_thread_line *part);
// Adds a sample of the thread at `clock`, counting for weight samples, to
// its intervals of the line (samples: its samples of the line before).
void cf_note_activity(struct cf_thread_line *slot, u64 clock, u64 samples,
                      u32 weight);
// Counts a sample of the thread's at pc (only the thread writes its slot).
void cf_count_site(struct cf_thread_line *slot, uptr pc, bool is_write,
                   u64 mask, u32 weight);
struct cf_parts_stats {
  u32 made, in_use; // parts handed out, in use
  // Blocks of further shapes, sites and intervals handed out.
  u32 shape_blocks, site_blocks, interval_blocks;
  u64 retired;             // given back after their threads were done
  u64 bytes;               // of the parts and blocks handed out
};
void cf_parts_stats(struct cf_parts_stats *stats);

// Reusing line table entries (efsan_cache_frag_reclaim.c): a pool of the
// indices of one table that are free, or retired by the last sweep and
// free once the threads that may still use them have left the line state
// machine.
struct cf_pool {
  efsan_mutex lock;
  u32 capacity;
  u32 *free, free_count;
  u32 *limbo, limbo_count;
  u64 retired; // entries retired in all
};
void cf_pool_init(struct cf_pool *pool, u32 capacity);
// A free entry's index (its memory as its last user left it); false when
// none is free.
bool cf_pool_take(struct cf_pool *pool, u32 *index);
// An entry no other thread could reach (it was never published).
void cf_pool_give(struct cf_pool *pool, u32 index);
// An entry a sweep took off its line.
void cf_pool_retire(struct cf_pool *pool, u32 index);
// Of the handed_out entries the table handed out, those in use.
u32 cf_pool_in_use(const struct cf_pool *pool, u32 handed_out);
void cf_reclaim_init(void);
// A sweep: begin takes the sweep lock (false: another sweep runs, the last
// batch is still in use, or reclaiming is off); end says whether the sweep
// retired entries and lets go of the lock.
bool cf_reclaim_begin(void);
void cf_reclaim_end(bool retired);
// No sweep after this one (the report).
void cf_reclaim_stop(void);
void cf_reclaim_fork_child(void);
// Tracked-line records in creation order, and their count.
struct cf_line_record *cf_records(u32 *count);
struct cf_line_record *cf_find_record(uptr line);
// Whether [addr, addr + size) lies in a line where other threads
// wrote those bytes and this thread never did (what a thread polls).
bool cf_reads_others_bytes(uptr addr, uptr size, u32 thread_plus1);
// Lines that needed a record but found the table full.
u64 cf_untracked_lines(void);
// Lines that several threads used, each at other times (never meeting on
// the virtual clock), summarized without a record: what they cost is one
// transfer per hand-over.
u64 cf_summarized_lines(void);
// How many of each kind of per-line entry the run made (verbosity=1).
void cf_lines_print_stats(void);
// Accesses made by a program thread so far (0 if unknown), and the number of
// thread indices handed out.
u64 cf_thread_accesses(u32 thread);
// The thread's virtual clock when it exited; 0 while it runs (or unknown).
u64 cf_thread_final_clock(u32 thread);
// CPU time of a program thread: at its exit, or now while it runs (0 if
// unknown).
u64 cf_thread_cpu_ns(u32 thread);
// The part of it the tool's sampled path and start-up took, and that of
// all threads.
u64 cf_thread_tool_ns(u32 thread);
u64 cf_tool_ns(void);
// From now on the reporting thread's CPU time is the report's, not the
// program's.
void cf_note_report_start(void);
// The part of it the thread spent polling a value that did not change.
u64 cf_thread_wait_ns(u32 thread);
// The share of the thread's sampled accesses that code built without
// optimisation made (0 if it made none or is unknown).
double cf_thread_unoptimised_share(u32 thread);

// What the machine does (efsan_cache_frag_machine.c): the cost of moving a
// line between two cores, in ns, and where the value comes from ("measured",
// "cache_frag_transfer_ns", "default (...)"), final once cf_machine_settle
// has run; whether the CPU fetches lines in 128-byte pairs (adjacent-line
// prefetch), and why the tool thinks so.
void cf_machine_init(void);
// A program thread was created: the ping-pong a machine profile's run
// defers to its second thread starts.
void cf_machine_thread_created(void);
// Takes the background measurement's result for the report; `needed` (lines
// to price) waits for an attempt under way, up to 0.2 s.
void cf_machine_settle(bool needed);
u32 cf_transfer_ns(void);
const char *cf_transfer_source(void);
bool cf_lines_paired(void);
const char *cf_pairing_source(void);
// The CPU time the transfer's measurement took (its threads').
u64 cf_machine_cpu_ns(void);
// One ping-pong measurement between two CPUs (the calling thread pinned to
// first, a partner to second; the mask is restored): the one-way transfer
// in ns, 0 if the two threads never ran at once.
u32 cf_measure_transfer(int first, int second);
// The CPU's vendor string, family and model (display family and model, as
// Intel and AMD document them); false without cpuid ("unknown", 0, 0).
bool cf_cpu_model(char vendor[13], unsigned *family, unsigned *model);
// An online CPU other than first (-1 if none): the machine's, whatever the
// process's affinity mask.
int cf_other_online_cpu(int first);
// The share of its time a thread can lose to a line another thread keeps
// writing at the same time (plain stores; locked read-modify-writes): the
// machine profile's median, else CF_CONTENDED_SHARE and
// CF_CONTENDED_RMW_SHARE; the range over the profile's measurements (the
// point itself without one).
// removed: what a fix that removes the atomic (private copies) saves, not
// one that keeps it on a line of its own.
double cf_contended_share(void);
// The pass's count of instructions per write (EfficiencySanitizerCountdown's
// markLoopWork) for the profile's loop shapes written in C
// (test/Instrumentation/EfficiencySanitizer/cache-frag-loop-work.c): 6 and 8
// for one increment and for adding values per iteration (CF_WORK_ONE_WRITE,
// their most), 12, 18, 30, 54 and 247 with 1, 2, 4, 8 and 32 steps of
// xorshift. A loop that
// writes one word several times per iteration with at most CF_WORK_ONE_WRITE
// per write is a run of writes, the profile's tightest shape
// (cf_sample_access).
#define CF_WORK_ONE_WRITE 8
#define CF_WORK_1 12
#define CF_WORK_2 18
#define CF_WORK_4 30
#define CF_WORK_8 54
#define CF_WORK_32 247
// The bound of a thread whose writes to the line sit in loops of `work`
// instructions per write (the pass's count): the profile's loops with work
// between writes, read at that work; end: 0 the median round, 1 the least,
// 2 the most. False where the profile did not measure them.
bool cf_contended_share_for_work(double work, int end, double *share);
// The counts of the loops the profile measured, in ascending order (works
// has room for CF_PROFILE_LOOP_POINTS); 0 where it lacks the three
// cf_contended_share_for_work needs.
#define CF_PROFILE_LOOP_POINTS 6
u32 cf_contended_loop_points(u32 *works);
double cf_contended_rmw_share(bool removed);
// The pass's counts of the profile's locked loops written in C: 4 for
// `atomic_fetch_add(&total, 1)` alone, 10 after 1 step of xorshift
// (test/Instrumentation/EfficiencySanitizer/cache-frag-loop-work.c).
#define CF_WORK_RMW_BARE 4
#define CF_WORK_RMW_1 10
// The bound of a thread whose locked writes sit in loops of `work`
// instructions per write: the bare atomic up to CF_WORK_RMW_BARE, the one
// after 1 step from CF_WORK_RMW_1, linear in the logarithm of the work
// between; end as for cf_contended_share_for_work. False where the profile
// did not measure the second.
bool cf_contended_rmw_share_for_work(bool removed, double work, int end,
                                     double *share);
void cf_contended_range(double *low, double *high);
// The same for code built without optimisation (functions the pass saw as
// optnone): the profile's loop built so, else its loop with stores between
// writes, else its most, else CF_CONTENDED_UNOPTIMISED_SHARE.
double cf_contended_unoptimised_share(void);
void cf_contended_unoptimised_range(double *low, double *high);
void cf_contended_rmw_range(bool removed, double *low, double *high);
void cf_transfer_range(u32 *low, u32 *high);

// The machine profile (efsan_cache_frag_profile.c): efsan-calibrate's
// measurements of this machine, in a file every run reads at start-up.
// HAMMERED is each round's largest loss over the optimised loop shapes (the
// bound), HAMMERED_LEAST and HAMMERED_MOST the least and the most over all
// of them, stores between writes (code built at -O0) included: where the
// range of a claim at the bound ends.
// RMW_REMOVED is what an atomic both threads bump costs against plain adds
// to a private copy (what the fix of an atomic total removes).
// HAMMERED_STORES is the loop with stores to the thread's own memory between
// its writes (every local a stack slot), UNOPTIMISED the loop with 1 step of
// work built without optimisation: the bound of a thread whose sampled
// accesses are such code's (the first where the profile lacks the second),
// the first the top of its range.
// ONE_WRITE is the most of the loops with one write per iteration and no
// work (adding values, one increment per iteration), WORK_1 to WORK_32 the
// loops with 1 to 32 steps of own work between writes: where a loop with
// work between its writes sits (cf_contended_share_for_work).
// RMW_WORK_1 and RMW_REMOVED_WORK_1 are RMW and RMW_REMOVED with 1 step of
// own work between adds (cf_contended_rmw_share_for_work).
enum { CF_PROFILE_TRANSFER, CF_PROFILE_HAMMERED, CF_PROFILE_RMW,
       CF_PROFILE_PAIRED, CF_PROFILE_HAMMERED_LEAST, CF_PROFILE_RMW_REMOVED,
       CF_PROFILE_HAMMERED_MOST, CF_PROFILE_HAMMERED_STORES,
       CF_PROFILE_ONE_WRITE, CF_PROFILE_WORK_8, CF_PROFILE_WORK_32,
       CF_PROFILE_WORK_1, CF_PROFILE_WORK_2, CF_PROFILE_WORK_4,
       CF_PROFILE_UNOPTIMISED, CF_PROFILE_RMW_WORK_1,
       CF_PROFILE_RMW_REMOVED_WORK_1, CF_PROFILE_KINDS };
void cf_profile_load(void);
void cf_profile_add(int kind, u32 value);
bool cf_profile_save(void);
bool cf_profile_found(void);
bool cf_profile_has(int kind);
u32 cf_profile_count(int kind);
// How many of a kind's measurements are at most `value`.
u32 cf_profile_count_at_most(int kind, u32 value);
// The rounds of the profile in which a line both threads keep writing cost
// a thread at most CF_FREE_LOSS of its time, where others cost it more than
// CF_COSTLY_LOSS: a machine whose two CPUs sometimes behave as one core (a
// VM's vCPU pair), where what a fix gains depends on the state the
// program meets. 0 where the profile has no such pair of states.
#define CF_FREE_LOSS 0.10
#define CF_COSTLY_LOSS 0.30
u32 cf_profile_rounds_without_cost(void);
// The profile's state a line transfer belongs to (its rounds' transfers
// grouped where they are close; the least of them), 0 where none.
u32 cf_profile_state_of(u32 transfer_ns);
// Chooses the rounds measured in the state this run met, the state of
// `transfer_ns`. Returns how many (0: none, every round counts).
u32 cf_profile_select_state(u32 transfer_ns);
// The rounds chosen, 0 where none are (every round counts then).
u32 cf_profile_state_rounds(void);
// The median of a kind's measurements in the chosen rounds (all where none
// are chosen, or the chosen have none of the kind), and the least and most
// of all of them (ns or ppm): a claim's point and its range.
u32 cf_profile_point(int kind);
u32 cf_profile_low(int kind);
u32 cf_profile_high(int kind);
// The least and most in the chosen rounds.
u32 cf_profile_state_low(int kind);
u32 cf_profile_state_high(int kind);
const char *cf_profile_where(void);
const char *cf_profile_when(void);
const char *cf_profile_missing(void);
const char *cf_profile_machine(void);
// efsan-calibrate (cache_frag_calibrate=1): measures, adds to the profile,
// prints and exits.
void cf_calibrate_machine(void) __attribute__((noreturn));
// Marks the record objects that refer to a freed heap block as dead.
void cf_forget_heap_object(uptr start, uptr size, u32 serial);

// The contention model (efsan_cache_frag_model.c): the estimates for one
// real or virtual line. A view is what one thread did on up to 128 bytes.
#define CF_VIEW_MAX_BYTES 128
#define CF_VIEW_MAX_SHAPES (2 * (CF_SHAPES + 1))
struct cf_view_shape {
  u16 offset, length; // in the (virtual) line: the first byte to the last
  u64 bytes[2];       // the bytes themselves (a summed shape has gaps)
  u32 reads, writes;  // sampled
  struct cf_line_record *record; // where it came from (object lookup)
  u8 object;                     // record->objects index + 1, 0: not heap
  u32 observed, observed_true;   // history-table invalidations its writes caused
  double invalidations;          // out: invalidations its writes caused
  double true_invalidations;     // out: those that were true sharing
};
struct cf_view {
  u32 thread; // index, or EFSAN_INTERNAL_THREAD for "other threads"
  bool involved; // out: took part in estimated or observed invalidations
  u64 reads, writes; // sampled
  double locked_rmw_writes; // of the writes (sampled), the locked RMWs
  // Of the writes, those sampled since the line has its record, those of
  // them in a loop, and the sums of their loops' instructions and accesses
  // (in quarters) per write (cf_thread_line.loop_work, loop_accesses).
  double record_writes, loop_writes, loop_work, loop_accesses;
  u64 bytes[2];      // bytes used (bit i of word i/64)
  // Of the bytes it wrote, those another thread used / wrote within the
  // same lifetime of the data (cf_lifetime_sharing).
  u64 true_written[2], co_written[2];
  u64 first_clock, last_clock;
  // The intervals in which the thread used the (virtual) line, in order,
  // disjoint; the "other threads" view has one, from first to last clock.
  u32 interval_count;
  struct cf_interval intervals[2 * CF_INTERVALS];
  u32 shape_count;
  struct cf_view_shape shapes[CF_VIEW_MAX_SHAPES];
};
struct cf_estimate {
  double parallel;      // invalidations if the threads ran at once
  double parallel_true; // of which true sharing
};
// Runs the model over the views (in: accesses; out: per-shape shares).
void cf_model(struct cf_view *views, u32 count, struct cf_estimate *out);
// exp(-x) for x >= 0 (the runtime has no libm).
double cf_exp_neg(double x);
// Fills views from one record (virtual line = the real line) or from the
// bytes [from, from + length) of the records of two adjacent lines.
u32 cf_views_of_line(struct cf_line_record *record, struct cf_view *views);
u32 cf_views_of_range(struct cf_line_record *first,
                      struct cf_line_record *second, uptr from, uptr length,
                      struct cf_view *views);
// Whether a record whose threads have all exited could still be named by
// the report (efsan_cache_frag_findings.c): its line's invalidations, or
// those of a virtual line over it and a neighbour (before or after: 0 if
// none), reach what a finding needs. Its share of the run only falls as
// the run goes on, so a record that counts too little now never will.
bool cf_record_may_report(struct cf_line_record *record,
                          struct cf_line_record *before,
                          struct cf_line_record *after);

// Struct field counters of the instrumented modules
// (efsan_cache_frag_structs.c), merged by type for the report.
void cf_structs_module_init(void *module_info);
void cf_structs_module_exit(void *module_info);
void cf_fields_init(void);
// A sampled access to a field: counted in the thread's own table.
void cf_count_field(u64 *counter, u64 weight);
// The thread's counts go to the modules; later ones too.
void cf_fields_thread_exit(void);
struct cf_struct_usage {
  const char *name;
  u32 size;
  u32 num_fields;
  const u32 *field_offsets;
  const u32 *field_sizes;
  const char *const *field_type_names;
  const char *const *field_names; // null without debug info
  u64 *counts; // sampled accesses, summed over modules
  // Per field: its address escapes in some module, so that its count is a
  // lower bound (docs/CacheFrag.md, "Derived and escaping pointers").
  bool *escapes;
  u64 total;
};
// Returns the number of distinct struct types; *usages has room for
// *capacity entries (pass both back to cf_structs_release).
uptr cf_structs_collect(struct cf_struct_usage **usages, uptr *capacity);
void cf_structs_release(struct cf_struct_usage *usages, uptr count,
                        uptr capacity);
u32 cf_structs_modules_dropped(void);

// Member names (efsan_cache_frag_members.c).
void cf_members_init(void);
// The calling thread allocated a heap block at address (stack depot id).
void cf_members_note_alloc(uptr address, u32 stack_id);
// The type the allocations with this stack were described with.
bool cf_heap_type_of(u32 stack_id, const char **layout, const char **holder);
// The described type of the global starting at start
// (efsan_cache_frag_structs.c).
bool cf_global_type_of(uptr start, const char **name, const char **layout);
// Names the bytes [offset, offset + length) of an object described by
// layout, held by holder (a global, or for a heap block, pointer, the
// pointer variable it was assigned to), e.g. "wstats[1].ops" or
// "slots->head"; *member_start and *member_end bound the member (object
// offsets), so that callers can split a range where members change.
bool cf_member_name(const char *layout, const char *holder, bool pointer,
                    uptr object_size, uptr offset, uptr length, char *name,
                    uptr size, uptr *member_start, uptr *member_end);

// The struct type of the array element (or heap block) holding offset: its
// source name (empty if none), size and first member's name.
bool cf_member_element(const char *layout, bool pointer, uptr offset,
                       char *type_name, uptr name_size, uptr *element_size,
                       char *first_member, uptr member_size);

#endif // EFSAN_CACHE_FRAG_INTERNAL_H
