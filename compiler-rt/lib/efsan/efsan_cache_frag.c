//===-- efsan_cache_frag.c - sampled per-thread access records -----------===//
//
// The cache-frag tool's access path. Instrumented code keeps a per-thread
// countdown of accesses (in a register, synced with __efsan_cache_frag_countdown
// at calls) and calls __efsan_cache_frag_access for the accesses of a run
// only when it runs out. The runtime then samples the access at which the
// countdown reaches zero and draws the next period at random (mean
// cache_frag_sample_period, or a whole multiple of it that the sample
// counts for: a thread alone, a thread whose samples find nothing shared):
// whether an access is sampled does not depend on the run it belongs to or
// on how slowly the sampled path runs, so the weighted sampled counts times
// the mean period estimate the real ones without bias.
// cache_frag_sample_period=1 samples every access.
//
// A sample carries the thread's virtual clock: the accesses it has made, on
// top of its creator's clock when it was created, of the clock of every
// thread it joined and of every lock release it acquired after. The
// contention model (efsan_cache_frag_model.c) compares threads on that
// clock, as if each had run on its own core, so estimates do not depend on
// how this run's scheduler interleaved them.
//
// Each sample goes to the line state machine (efsan_cache_frag_lines.c),
// which keeps what the samples did per line.
//
//===----------------------------------------------------------------------===//
#include "efsan_cache_frag_internal.h"

// The countdown instrumented code keeps (docs/InstrumentationABI.md).
EFSAN_INTERFACE __thread long long __efsan_cache_frag_countdown
    __attribute__((tls_model("initial-exec")));

// Per-thread sampling state. A thread's clock at its n-th access is
// clock_base + n; accesses_done counts the accesses of the periods finished.
struct cf_sampler {
  u64 period;        // length of the current period
  u32 weight;        // samples the one that ends it counts for
  bool alone;        // the weight is cf_alone_weight (the process had one thread)
  u32 quiet;         // samples in a row at this weight that found nothing shared
  bool waited;       // it was seen polling: it samples at the default period
  u64 accesses_done; // accesses of the finished periods
  u64 clock_base;
  u64 random;
  bool started;
  u64 samples, tool_ticks; // samples taken, TSC ticks they took
};
static __thread struct cf_sampler cf_self
    __attribute__((tls_model("initial-exec")));

static u64 cf_mean_period;

// While the process has a single thread, no line can be shared yet: its
// samples only set the plain states of their lines (the thread, written,
// its sampled writes) and count struct fields. It samples cf_alone_weight
// times less often, and each of its samples counts that many times, so that
// every count stays an unbiased estimate: a third of a 1-thread kernel's
// time went to the samples (measured for issue 24; see git history). 1
// with every access seen (cache_frag_sample_period=1: exact counts).
static u32 cf_alone_weight;
// Such samples taken, and the field counts they added (each
// cf_alone_weight).
static u64 cf_alone_samples;
static u64 cf_weighted_field_samples;

// A thread whose samples keep finding lines no other thread shares (its own
// data, input it only reads, lines written once and read after) learns
// nothing from the next one either, yet pays for each: the line state it
// loads is a cache miss when the thread streams through its data, and the
// samples were most of cache-frag's cost on the Phoenix programs
// (docs/performance.md, "Cache-frag"). So after CF_QUIET_RUN such samples
// in a row its mean period doubles, up to cf_quiet_weight times the
// default, and each sample counts for as many: the weight is known before
// the period it ends begins, so every count stays an unbiased estimate.
// The first sample that lands on a line several threads use at this time
// (a record, or a shared summary whose threads' use meets: a line used in
// turn is quiet, nothing there is a finding) puts the thread back to the
// default period at once: where sharing is, samples are as dense as ever.
// 1 with every access seen.
#define CF_QUIET_RUN 64
static u32 cf_quiet_weight;
static u64 cf_quiet_samples; // samples taken at a weight above 1

// What the report needs of each program thread, indexed by thread index;
// each entry on its own line, written by its thread (accesses) or by its
// creator before it runs (clock_base).
struct cf_thread_info {
  u64 accesses;
  u64 clock_base;
  u64 final_clock; // clock at exit, for threads joining it
  uptr handle;     // pthread_t
  uptr stack_lo, stack_hi;
  uptr start_routine;
  u32 creator_plus1;  // index + 1 of the thread that created it; 0: unknown
  u32 creation_stack; // where it was created
  u32 tid;            // kernel thread id, for its CPU clock while it runs
  u64 cpu_ns;         // CPU time at exit
  u64 report_cpu_ns;  // CPU time when the report began, if it ran then
  u64 tool_ticks;     // TSC ticks the thread spent in the sampled path
  u64 wait_ticks;     // TSC ticks it spent polling a value that did not change
  // Its sampled accesses of instrumented code, and those of them in code
  // built without optimisation (what a line it keeps writing costs it).
  u64 samples, unoptimised_samples;
  // Odd while the thread is in the line state machine: an entry the sweep
  // took off its line is reused only after the threads that were in there
  // have left (efsan_cache_frag_reclaim.c).
  u64 line_ops;
  u8 exited;
} __attribute__((aligned(64)));
static struct cf_thread_info *cf_thread_infos;

// pthread_t -> thread index, direct-mapped: a handle is reused only after
// its thread was joined or detached, and a lost entry only costs the join's
// clock merge.
#define CF_HANDLE_SLOTS 16384
static u32 *cf_handle_index; // thread index + 1

u64 cf_sample_period(void) { return cf_mean_period; }

u32 cf_max_sample_weight(void) {
  return cf_alone_weight > cf_quiet_weight ? cf_alone_weight : cf_quiet_weight;
}

void cf_print_sampling_stats(void) {
  efsan_report_line("cache-frag sampling: %llu samples while the process had "
                    "one thread, each counted %u times; %llu samples of "
                    "threads that found nothing shared, counted up to %u "
                    "times\n",
                    cf_load(&cf_alone_samples), cf_alone_weight,
                    cf_load(&cf_quiet_samples), cf_quiet_weight);
}

u64 cf_field_samples_at_least(u64 counted) {
  u64 weighted = cf_load(&cf_weighted_field_samples);
  u64 k = cf_max_sample_weight();
  if (!weighted || k <= 1)
    return counted;
  // counted = u + k w with w <= weighted: the samples u + w are at least
  // counted / k, and at least counted - (k - 1) weighted.
  u64 by_share = (counted + k - 1) / k;
  u64 extra = weighted * (k - 1);
  u64 by_count = counted > extra ? counted - extra : 0;
  return by_share > by_count ? by_share : by_count;
}

u64 cf_thread_accesses(u32 thread) {
  if (thread >= CF_MAX_THREAD_INFOS)
    return 0;
  return cf_load(&cf_thread_infos[thread].accesses);
}

double cf_thread_unoptimised_share(u32 thread) {
  if (thread >= CF_MAX_THREAD_INFOS)
    return 0;
  u64 samples = cf_load(&cf_thread_infos[thread].samples);
  return samples ? (double)cf_load(&cf_thread_infos[thread].unoptimised_samples) /
                       (double)samples
                 : 0;
}

u64 cf_thread_final_clock(u32 thread) {
  if (thread >= CF_MAX_THREAD_INFOS)
    return 0;
  return cf_load(&cf_thread_infos[thread].final_clock);
}

bool cf_thread_exited(u32 thread) {
  return thread < CF_MAX_THREAD_INFOS &&
         __atomic_load_n(&cf_thread_infos[thread].exited, __ATOMIC_ACQUIRE);
}

u64 cf_thread_line_ops(u32 thread) {
  if (thread >= CF_MAX_THREAD_INFOS)
    return 0;
  return __atomic_load_n(&cf_thread_infos[thread].line_ops, __ATOMIC_ACQUIRE);
}

//===-- The tool's own time -------------------------------------------------===//

// The runtime's part of a thread's CPU time: the sampled path, timed with
// the TSC on one sample in CF_TIMED (cf_sample_access), so that the impact
// prices the program's own time, not the instrumented run's
// (docs/design/CacheFragImpact.md, "The tool's own time"). A sample that took
// longer than CF_MAX_SAMPLE_TICKS was descheduled midway (a loaded machine,
// two threads on one core): it counts as the thread's mean sample so far,
// so that time the thread spent waiting for a CPU is not taken for the
// tool's.
#define CF_MAX_SAMPLE_TICKS 400000 // about 0.1 ms at 2-4 GHz
static u64 cf_tsc_at_init, cf_ns_at_init;

static inline u64 cf_ticks(void) { return __builtin_ia32_rdtsc(); }
static u64 cf_ticks_to_ns(u64 ticks);

// A sample timed on behalf of `weight` samples (the one timed among them);
// returns the tick it ended at.
static u64 cf_count_tool_ticks(u32 thread, u64 start, u32 weight) {
  u64 end = cf_ticks();
  if (thread >= CF_MAX_THREAD_INFOS)
    return end;
  u64 ticks = end - start;
  cf_self.samples += weight;
  if (ticks > CF_MAX_SAMPLE_TICKS)
    ticks = cf_self.tool_ticks / cf_self.samples;
  cf_self.tool_ticks += ticks * weight;
  cf_store(&cf_thread_infos[thread].tool_ticks, cf_self.tool_ticks);
  return end;
}

//===-- Time spent waiting --------------------------------------------------===//

// A thread that polls a value another thread is to change (a queue's index,
// a flag, a spin lock) burns CPU time for as long as the other thread takes,
// and how long that is depends on the scheduler: descheduled, the other
// thread makes it poll for whole time slices (a pinned ring: 35 s of CPU
// per thread where both run 0.75 s side by side). The claims are priced on
// the threads' time as if they ran side by side (efsan_cache_frag_impact.c),
// so the runtime tells the polling apart: a sampled load of the same address
// and value as the thread's previous CF_WAIT_RUN - 1 sampled accesses, about
// a thousand accesses apart each, is a wait, and so is the time since the
// sample before it. Short waits (a consumer a few items behind) change the
// value between samples and stay the thread's own time, as they would side
// by side; a loop that rereads a value it does not change among other
// accesses (a volatile pointer beside a strncpy: half of them) rarely has
// CF_WAIT_RUN samples in a row on it (1 in 256), where a thread that polls
// for a time slice has thousands. A sampled libc or mem* range breaks the
// run. Only while the process has two threads or more.
//
// Timed by TSC reads around the samples that continue a run only (and the
// samples timed for the tool's time): two reads around every sample were
// 3-4% of a 2-thread histogram's time (measured for issue 24; see git history). The
// gap before a run's second sample is therefore measured only when its
// first sample happened to be timed; else the run's first CF_WAIT_RUN - 1
// gaps count as the ones measured among them, scaled to their number.
//
// A wait is no progress of the thread's virtual clock either: side by side
// the other thread would have been there sooner. A producer that filled a
// ring while its consumer was not yet running (on a start-up probe's CPU,
// under SCHED_FIFO: 8 ms, 13 million polls) ran that far ahead of it on the
// clock, and its activity on the ring's line met the consumer's for only
// two thirds of the run (claims 0.23 instead of 0.38). From the sample that
// makes a run long enough on, the clock stands still while the run lasts.
#define CF_WAIT_RUN 8
struct cf_wait_state {
  uptr addr;      // the address of the last sampled load; 0 after a store
  u64 value;      // the value it read
  u32 run;        // samples in a row that read it
  u32 gaps;       // gaps measured in pending
  u64 pending;    // ticks between them, not counted until the run is long enough
  u64 last_end;   // tick at which the thread's last sample ended; 0: not read
  u64 waits;      // gaps counted as waits (for their mean)
};
static __thread struct cf_wait_state cf_wait
    __attribute__((tls_model("initial-exec")));

static u64 cf_peek(uptr addr, uptr size) {
  switch (size) {
  case 1:
    return __atomic_load_n((u8 *)addr, __ATOMIC_RELAXED);
  case 2:
    return __atomic_load_n((u16 *)addr, __ATOMIC_RELAXED);
  case 4:
    return __atomic_load_n((u32 *)addr, __ATOMIC_RELAXED);
  default: // 8, or the first 8 bytes of a vector
    return __atomic_load_n((u64 *)(addr & ~(uptr)7), __ATOMIC_RELAXED);
  }
}

// Whether a sampled load of [addr, addr + size) that read *value continues
// the thread's run of loads of one unchanged value (then the sample is timed
// from its start).
static inline bool cf_wait_continues(uptr addr, uptr size, u64 *value) {
  *value = cf_peek(addr, size);
  return addr == cf_wait.addr && *value == cf_wait.value;
}

// The next period ends at this sample's clock: the accesses until then are
// polls.
static void cf_freeze_next_period(u64 clock) {
  u64 done = clock - cf_self.clock_base;
  if (done >= cf_self.period)
    cf_self.accesses_done = done - cf_self.period;
}

// A poll that sees a new value each time is a wait too, but no run of one
// value tells it apart: a consumer faster than its producer polls the head
// a few times per item, and between two of its samples (a thousand
// accesses apart) the head has changed. Counted as work, those polls took
// its clock ahead of the producer's, by how cheap a poll was (the
// machine's state): in a test ring 1.8 times the producer's accesses in
// most runs, 3.3 times in 1 of 7 on an idle machine, where their use of the
// line met on the clock for a fraction of the run and the claim fell from
// 0.36 to 0.03-0.11. So a sampled load of the address of the thread's
// previous sample (itself a load), of bytes other threads write and this
// one never does (a tracked line's record says), is a poll, changed value
// or not: the period after it does not move the clock, as the sample
// stands for the accesses around it. (Not the same place too: the compiler
// peels a poll loop, and its first load and the others are two places.) A
// thread that rereads its own counter, or a line nobody else writes, is
// not polling.
static bool cf_polls(uptr addr, uptr size, u32 thread_plus1) {
  return addr == cf_wait.addr &&
         cf_reads_others_bytes(addr, size, thread_plus1);
}

// After a sample of a thread of a process with threads. continues: as
// cf_wait_continues said for a load (start: the tick the sample began at);
// polls: as cf_polls said; end: the tick it ended at, 0 when not read;
// clock: the sample's.
static void cf_note_wait(u32 thread, uptr addr, bool is_write, u64 value,
                         bool continues, bool polls, u64 clock, u64 start,
                         u64 end) {
  struct cf_wait_state *w = &cf_wait;
  u64 last_end = w->last_end;
  w->last_end = end;
  if (is_write || thread >= CF_MAX_THREAD_INFOS) {
    w->addr = 0;
    return;
  }
  if (polls) {
    cf_freeze_next_period(clock);
    cf_self.waited = true;
  }
  if (!continues) {
    w->addr = addr;
    w->value = value;
    w->run = 1;
    w->gaps = 0;
    w->pending = 0;
    return;
  }
  // The next sample may continue the run: its gap counts from here.
  if (!end)
    w->last_end = end = cf_ticks();
  w->run++;
  struct cf_thread_info *info = &cf_thread_infos[thread];
  u64 waited = cf_load(&info->wait_ticks);
  if (last_end) {
    u64 gap = start > last_end ? start - last_end : 0;
    // A gap that long was descheduled midway: the wait's CPU time is that of
    // an ordinary gap.
    if (gap > CF_MAX_SAMPLE_TICKS)
      gap = w->waits ? waited / w->waits : 0;
    w->pending += gap;
    w->gaps++;
  }
  if (w->run < CF_WAIT_RUN)
    return;
  u64 pending = w->pending;
  if (w->run == CF_WAIT_RUN) {
    if (w->gaps && w->gaps < CF_WAIT_RUN - 1)
      pending = pending * (CF_WAIT_RUN - 1) / w->gaps;
    w->waits += CF_WAIT_RUN - 1;
  } else {
    w->waits++;
  }
  cf_store(&info->wait_ticks, waited + pending);
  w->pending = 0;
  w->gaps = 0;
  cf_freeze_next_period(clock);
  cf_self.waited = true;
}

u64 cf_thread_wait_ns(u32 thread) {
  if (thread >= CF_MAX_THREAD_INFOS)
    return 0;
  return cf_ticks_to_ns(cf_load(&cf_thread_infos[thread].wait_ticks));
}

// TSC ticks to ns at the rate they ran since start-up.
static u64 cf_ticks_to_ns(u64 ticks) {
  u64 ns = efsan_monotonic_ns() - cf_ns_at_init;
  u64 elapsed = cf_ticks() - cf_tsc_at_init;
  if (!elapsed || !ns)
    return 0;
  return (u64)((double)ticks * (double)ns / (double)elapsed);
}

// The main thread's CPU time up to the end of the runtime's start-up (the
// loader mapping our dependencies, the tables cleared, the allocator's first
// pages: 15-25 ms on this VM, where a plain build's loader takes about 1 ms),
// and the reporting thread's when the report began. Both are the tool's,
// not the program's: counted as the main thread's own, they made its time
// the longest "work" of a program whose main thread only waits, and a
// thread that polled was made up to it (impact.c, side by side).
static u64 cf_startup_cpu_ns, cf_report_cpu_ns;

u64 cf_thread_tool_ns(u32 thread) {
  if (thread >= CF_MAX_THREAD_INFOS)
    return 0;
  return cf_ticks_to_ns(cf_load(&cf_thread_infos[thread].tool_ticks)) +
         (thread == 0 ? cf_startup_cpu_ns : 0);
}

u64 cf_tool_ns(void) {
  u64 ticks = 0;
  u32 threads = efsan_thread_count();
  for (u32 t = 0; t < threads && t < CF_MAX_THREAD_INFOS; t++)
    ticks += cf_load(&cf_thread_infos[t].tool_ticks);
  return cf_ticks_to_ns(ticks) + cf_startup_cpu_ns;
}

// Every running thread's CPU time is read when the report begins, with the
// process's: an idle OpenMP worker spins on while the report runs (its
// ping-pong takes tens of ms), and read later, the threads' time summed to
// more than the run's.
void cf_note_report_start(void) {
  cf_report_cpu_ns = efsan_thread_cpu_ns();
  u32 threads = efsan_thread_count();
  for (u32 t = 0; t < threads && t < CF_MAX_THREAD_INFOS; t++) {
    struct cf_thread_info *info = &cf_thread_infos[t];
    if (t == efsan_thread_index ||
        __atomic_load_n(&info->exited, __ATOMIC_ACQUIRE) || !cf_load(&info->tid))
      continue;
    u64 cpu = efsan_thread_cpu_ns_of(cf_load(&info->tid));
    cf_store(&info->report_cpu_ns, cpu ? cpu : 1);
  }
}

u64 cf_thread_cpu_ns(u32 thread) {
  if (thread >= CF_MAX_THREAD_INFOS)
    return 0;
  struct cf_thread_info *info = &cf_thread_infos[thread];
  if (__atomic_load_n(&info->exited, __ATOMIC_ACQUIRE))
    return cf_load(&info->cpu_ns);
  if (thread == efsan_thread_index)
    return cf_report_cpu_ns ? cf_report_cpu_ns : efsan_thread_cpu_ns();
  u64 at_report = cf_load(&info->report_cpu_ns);
  return at_report ? at_report : efsan_thread_cpu_ns_of(cf_load(&info->tid));
}
//===-- Sync clocks ---------------------------------------------------------===//

// The clock each lock was last released at, so that the next owner's clock
// moves past it: threads that take turns under a lock are in turn order on
// the virtual clock, as they would be on separate cores. Open addressing by
// address; a table that is full forgets (clocks then only move at thread
// creation and join, as without it).
#define CF_SYNC_SLOTS (1u << 16)
struct cf_sync_clock {
  uptr addr;
  u64 clock;
};
static struct cf_sync_clock *cf_sync_clocks;

static struct cf_sync_clock *cf_sync_slot(uptr addr, bool create) {
  u32 h = (u32)((addr * 0x9e3779b97f4a7c15ull) >> 48) & (CF_SYNC_SLOTS - 1);
  for (u32 probe = 0; probe < 64; probe++) {
    struct cf_sync_clock *slot = &cf_sync_clocks[(h + probe) & (CF_SYNC_SLOTS - 1)];
    uptr key = __atomic_load_n(&slot->addr, __ATOMIC_ACQUIRE);
    if (key == addr)
      return slot;
    if (!key) {
      if (!create)
        return 0;
      if (cf_cas(&slot->addr, &key, addr) || key == addr)
        return slot;
    }
  }
  return 0;
}

// Counts the access among the thread's kinds of access to the line; returns
// its entry (null when it went to the overflow counts).
//===-- Sampling ----------------------------------------------------------===//

static u64 cf_next_random(void) {
  // xorshift64*: per thread, cheap, good enough to break aliasing with loops.
  u64 x = cf_self.random;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  cf_self.random = x;
  return x * 0x2545f4914f6cdd1dull;
}

// Uniform in [1, 2 * mean - 1]: mean period `mean`, never a fixed stride
// that a loop could alias with. The high half of random * range is uniform
// in [0, range) to within range / 2^64, and a multiply instead of a 64-bit
// division (about 40 cycles) is a sixth of what a sample costs the runtime
// in a tight loop (ph_histogram: docs/performance.md).
static u64 cf_next_period(void) {
  u64 mean = cf_mean_period * cf_self.weight;
  if (mean <= 1)
    return 1;
  u64 range = 2 * mean - 1;
  return 1 + (u64)(((unsigned __int128)cf_next_random() * range) >> 64);
}

static void cf_start_thread_sampler(u32 thread, u64 clock_base) {
  cf_self.random = 0x9e3779b97f4a7c15ull * (thread + 1) ^ efsan_monotonic_ns();
  if (!cf_self.random)
    cf_self.random = 1;
  cf_self.clock_base = clock_base;
  cf_self.accesses_done = 0;
  cf_self.alone = efsan_thread_count() < 2;
  cf_self.weight = cf_self.alone ? cf_alone_weight : 1;
  cf_self.quiet = 0;
  cf_self.period = cf_next_period();
  __efsan_cache_frag_countdown = (long long)cf_self.period;
  cf_self.started = true;
}

// The accesses of the current period the thread has made so far.
static u64 cf_into_period(void) {
  long long left = __efsan_cache_frag_countdown;
  return left <= 0 ? cf_self.period
                   : (u64)left >= cf_self.period ? 0
                                                 : cf_self.period - (u64)left;
}

// The clock of the current thread now (accesses so far + its base).
static u64 cf_current_clock(void) {
  return cf_self.clock_base + cf_self.accesses_done + cf_into_period();
}

// The period just ended at an access of this thread: returns the thread
// index + 1, the access's clock and the samples it counts for, and starts
// the next period. 0 for the runtime's own threads. Inline: a call and its
// register saves were a tenth of what the runtime spent per sample in
// matmul (issue 24).
static inline __attribute__((always_inline)) u32 cf_end_period(u64 *clock,
                                                               u32 *weight) {
  u32 thread = efsan_thread_index;
  if (thread == EFSAN_INTERNAL_THREAD) {
    __efsan_cache_frag_countdown = 1ll << 62;
    return 0;
  }
  if (!cf_self.started)
    cf_start_thread_sampler(thread, 0);
  cf_self.accesses_done += cf_self.period;
  *clock = cf_self.clock_base + cf_self.accesses_done;
  if (thread < CF_MAX_THREAD_INFOS)
    cf_store(&cf_thread_infos[thread].accesses, cf_self.accesses_done);
  *weight = cf_self.weight;
  if (cf_self.alone) {
    if (cf_self.weight != 1)
      cf_add(&cf_alone_samples, 1);
    if (efsan_thread_count() >= 2) {
      cf_self.alone = false;
      cf_self.weight = 1;
    }
  } else if (cf_self.weight != 1) {
    cf_add(&cf_quiet_samples, 1);
  }
  cf_self.period = cf_next_period();
  __efsan_cache_frag_countdown = (long long)cf_self.period;
  return thread + 1;
}

// After a sample of instrumented code in a process with threads: shared:
// whether it landed on a line several threads use at this time. Sets the
// weight of the period that follows (cf_quiet_weight) and redraws it when
// that changed.
static inline void cf_adapt_period(bool shared) {
  if (cf_self.alone || cf_quiet_weight <= 1)
    return;
  // A thread that polls (a queue's consumer, a producer waiting for room)
  // keeps its samples dense: its clock stands still only at samples that
  // see the polls (cf_note_wait), and between them its work runs from one
  // sample's period to the next. With longer periods a consumer's clock
  // ran to 3-5 times its producer's in 4 of 45 runs beside another copy
  // (waits-new-values.c), against none at the default period.
  shared |= cf_self.waited;
  u32 weight = cf_self.weight;
  if (shared) {
    cf_self.quiet = 0;
    if (weight == 1)
      return;
    weight = 1;
  } else {
    if (++cf_self.quiet < CF_QUIET_RUN || weight >= cf_quiet_weight)
      return;
    cf_self.quiet = 0;
    weight = weight * 2 < cf_quiet_weight ? weight * 2 : cf_quiet_weight;
  }
  cf_self.weight = weight;
  cf_self.period = cf_next_period();
  __efsan_cache_frag_countdown = (long long)cf_self.period;
}

static bool cf_sample_range(uptr addr, uptr size, bool is_write,
                            bool locked_rmw, u32 loop_work, u32 thread_plus1,
                            u64 clock, uptr pc, u32 weight) {
  uptr end = addr + size;
  if (end < addr || end > EFSAN_APP_END)
    return false;
  u32 thread = thread_plus1 - 1;
  // In the line state machine: odd. A plain store, kept before the state
  // loads by the compiler; the sweep's membarrier orders it for the CPU.
  // Not while the process has a single thread: only a thread that exits
  // sweeps, and none has been created yet (this thread would have created
  // it).
  u64 *ops = thread < CF_MAX_THREAD_INFOS && efsan_thread_count() >= 2
                 ? &cf_thread_infos[thread].line_ops
                 : 0;
  if (ops) {
    cf_store(ops, *ops + 1);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
  }
  bool shared = false;
  for (uptr line = addr & ~(uptr)(EFSAN_CACHE_LINE_SIZE - 1); line < end;
       line += EFSAN_CACHE_LINE_SIZE) {
    uptr lo = addr > line ? addr : line;
    uptr hi = end < line + EFSAN_CACHE_LINE_SIZE ? end
                                                  : line + EFSAN_CACHE_LINE_SIZE;
    shared |= cf_sample_line(line, lo - line, hi - lo, is_write, locked_rmw,
                             loop_work, thread_plus1, clock, pc, weight);
  }
  if (ops)
    __atomic_store_n(ops, *ops + 1, __ATOMIC_RELEASE);
  return shared;
}

// The sampled access: the period ended at it. Its time is the tool's own
// (left out of the threads' time). One sample in CF_TIMED, chosen at random
// (never in step with the batches a lone thread's line states are applied
// in), is timed for all of them: the mean of a thread's samples is
// estimated without bias, and reading the TSC twice per sample was a
// quarter of a sample's cost in matmul and 3-4% of a 2-thread histogram's
// time (measured for issue 24; see git history). A load that continues a run of
// polls reads the TSC too (cf_note_wait), for its gap.
// A timed sample runs slower than an untimed one (its TSC reads: pinned,
// the threads of a test at cache_frag_sample_period=1 were estimated at
// 15-30% more time in the tool than with every sample timed): negligible
// beside a thread's own time between samples at the default period, not
// where the samples are most of the run. There, with two threads or more,
// every sample is timed, as it always was.
#define CF_TIMED 16
#define CF_TIME_ALL_BELOW 64
static __attribute__((noinline)) void cf_sample_access(void *addr, uptr size,
                                                       u32 flags,
                                                       u64 *field_counter,
                                                       uptr pc) {
  bool is_write = flags & 1;
  bool threads = efsan_thread_count() >= 2;
  // A draw of its own: with cache_frag_sample_period=1 the periods draw
  // none, and the thread would time all its samples or none.
  u32 timed = (cf_next_random() >> 32) % CF_TIMED ? 0 : CF_TIMED;
  if (threads && cf_mean_period < CF_TIME_ALL_BELOW)
    timed = 1;
  u64 value = 0;
  bool continues =
      threads && !is_write && cf_wait_continues((uptr)addr, size, &value);
  u64 start = timed || continues ? cf_ticks() : 0;
  u64 clock;
  u32 weight;
  u32 thread_plus1 = cf_end_period(&clock, &weight);
  if (!thread_plus1)
    return;
  if (thread_plus1 <= CF_MAX_THREAD_INFOS) {
    struct cf_thread_info *info = &cf_thread_infos[thread_plus1 - 1];
    cf_store(&info->samples, info->samples + weight);
    if (flags & 4)
      cf_store(&info->unoptimised_samples, info->unoptimised_samples + weight);
  }
  if (field_counter) {
    // A vectorised access to adjacent members counts for each of them.
    u32 fields = ((flags >> 8) & 0xff) + 1;
    for (u32 i = 0; i < fields; i++)
      cf_count_field(&field_counter[i], weight);
    if (weight > 1)
      cf_add(&cf_weighted_field_samples, fields);
  }
  // The loop's instructions and accesses per write (flags bits 16-31, one
  // value: cf_loop_work, cf_loop_accesses); 0 for a run of writes to one
  // word (bit 3: written several times per iteration) with little work
  // between, which the profile's tightest loops bound, as it does writes
  // outside loops.
  u32 loop_work = (flags >> 16) & 0xffff;
  if ((flags & 8) && cf_loop_work(loop_work) <= CF_WORK_ONE_WRITE)
    loop_work = 0;
  bool shared = cf_sample_range((uptr)addr, size, is_write, (flags & 2) != 0,
                                loop_work,
                                thread_plus1, clock, pc, weight);
  bool polls = threads && !is_write && cf_polls((uptr)addr, size, thread_plus1);
  if (threads)
    cf_adapt_period(shared);
  u64 end = timed ? cf_count_tool_ticks(thread_plus1 - 1, start, timed) : 0;
  if (threads)
    cf_note_wait(thread_plus1 - 1, (uptr)addr, is_write, value, continues,
                 polls, clock, start, end);
}

// preserve_most: the caller keeps its values in every register but r11
// across the call, so that the cold block of a hot loop does not make the
// loop spill (ph_linear_regression: five sums in registers, 1.40x -> 1.20x).
// The sampled path is a C function of its own, so that this one only saves
// the registers that call may clobber.
EFSAN_INTERFACE __attribute__((preserve_most)) void
__efsan_cache_frag_access(void *addr, uptr size, u32 flags,
                          u64 *field_counter) {
  if (!size || --__efsan_cache_frag_countdown > 0)
    return;
  // The pass gives the call the access's debug location.
  cf_sample_access(addr, size, flags, field_counter,
                   (uptr)__builtin_return_address(0));
}

// Each range a libc interceptor reports counts as one access: whether it is
// sampled is decided before the interceptor sizes it (often a strlen), so
// that an unsampled range costs a decrement. A sampled range is sampled at
// one of its lines, chosen at random.
static __thread u32 cf_libc_thread_plus1
    __attribute__((tls_model("initial-exec")));
static __thread u64 cf_libc_clock __attribute__((tls_model("initial-exec")));
static __thread u32 cf_libc_weight __attribute__((tls_model("initial-exec")));

bool efsan_cache_frag_libc_range_sampled(void) {
  if (--__efsan_cache_frag_countdown > 0) {
    cf_libc_thread_plus1 = 0;
    return false;
  }
  cf_libc_thread_plus1 = cf_end_period(&cf_libc_clock, &cf_libc_weight);
  return cf_libc_thread_plus1 != 0;
}

void efsan_cache_frag_libc_range(uptr addr, uptr size, bool is_write,
                                 uptr pc) {
  uptr end = addr + size;
  if (!cf_libc_thread_plus1 || !size || end < addr)
    return;
  cf_wait.addr = 0; // not a poll
  uptr first_line = addr & ~(uptr)(EFSAN_CACHE_LINE_SIZE - 1);
  u64 lines = (end - first_line + EFSAN_CACHE_LINE_SIZE - 1) >>
              EFSAN_CACHE_LINE_SHIFT;
  uptr line = first_line + (cf_next_random() % lines) * EFSAN_CACHE_LINE_SIZE;
  uptr lo = addr > line ? addr : line;
  uptr hi = end < line + EFSAN_CACHE_LINE_SIZE ? end : line + EFSAN_CACHE_LINE_SIZE;
  cf_sample_range(lo, hi - lo, is_write != 0, false, 0, cf_libc_thread_plus1,
                  cf_libc_clock, pc, cf_libc_weight);
}

void efsan_cache_frag_access(uptr addr, uptr size, bool is_write, uptr pc) {
  // A range a mem* call of instrumented code touched: one access per line
  // it covers, so a large copy is sampled where the countdown runs out.
  if (!size)
    return;
  uptr end = addr + size;
  if (end < addr)
    return;
  uptr first_line = addr & ~(uptr)(EFSAN_CACHE_LINE_SIZE - 1);
  u64 lines = (end - first_line + EFSAN_CACHE_LINE_SIZE - 1) >>
              EFSAN_CACHE_LINE_SHIFT;
  long long left = __efsan_cache_frag_countdown;
  if (left > 0 && (u64)left > lines) {
    __efsan_cache_frag_countdown = left - (long long)lines;
    return;
  }
  u64 done = 0;
  for (;;) {
    u64 step = left > 0 ? (u64)left : 1;
    if (step > lines - done) {
      __efsan_cache_frag_countdown = (long long)(step - (lines - done));
      return;
    }
    done += step;
    __efsan_cache_frag_countdown = 0;
    u64 clock;
    u32 weight;
    u32 thread_plus1 = cf_end_period(&clock, &weight);
    if (!thread_plus1)
      return;
    cf_wait.addr = 0; // not a poll
    uptr line = first_line + (done - 1) * EFSAN_CACHE_LINE_SIZE;
    uptr lo = addr > line ? addr : line;
    uptr hi = end < line + EFSAN_CACHE_LINE_SIZE ? end
                                                  : line + EFSAN_CACHE_LINE_SIZE;
    cf_sample_range(lo, hi - lo, is_write != 0, false, 0, thread_plus1, clock,
                    pc, weight);
    left = __efsan_cache_frag_countdown;
  }
}

//===-- Threads -----------------------------------------------------------===//

static u32 cf_handle_slot(uptr handle) {
  return (u32)((handle * 0x9e3779b97f4a7c15ull) >> 50) & (CF_HANDLE_SLOTS - 1);
}

// The creator of the process's second thread, which drew its period while
// alone (cf_alone_weight times longer): the period ends here unsampled, and
// the next one is drawn as every thread's are, its sample counting once.
// Its clock goes on from where it is.
static void cf_end_alone_period(void) {
  cf_self.accesses_done += cf_into_period();
  cf_self.alone = false;
  cf_self.weight = 1;
  cf_self.period = cf_next_period();
  __efsan_cache_frag_countdown = (long long)cf_self.period;
}

void efsan_cache_frag_thread_created(u32 thread, u32 creation_stack) {
  // On the creating thread, before the new one runs. The creator's samples
  // from while it was alone go to the line states first, as they would
  // have one by one: the new thread's samples come after them. The new
  // thread's clock starts where its creator's is, as if both went on in
  // parallel.
  cf_lines_apply_alone_samples();
  bool internal = efsan_thread_index == EFSAN_INTERNAL_THREAD;
  if (!internal)
    cf_machine_thread_created();
  if (!internal && cf_self.started && cf_self.alone)
    cf_end_alone_period();
  if (thread >= CF_MAX_THREAD_INFOS)
    return;
  u64 base = internal ? 0 : cf_current_clock();
  struct cf_thread_info *info = &cf_thread_infos[thread];
  cf_store(&info->clock_base, base);
  cf_store(&info->creator_plus1, internal ? 0 : efsan_thread_index + 1);
  cf_store(&info->creation_stack, creation_stack);
}

u32 efsan_cache_frag_thread_creator(u32 thread, u32 *creation_stack) {
  *creation_stack = 0;
  if (thread >= CF_MAX_THREAD_INFOS)
    return EFSAN_INTERNAL_THREAD;
  u32 creator_plus1 = cf_load(&cf_thread_infos[thread].creator_plus1);
  if (!creator_plus1)
    return EFSAN_INTERNAL_THREAD;
  *creation_stack = cf_load(&cf_thread_infos[thread].creation_stack);
  return creator_plus1 - 1;
}

void efsan_cache_frag_thread_start(u32 thread, uptr handle, uptr stack_lo,
                                   uptr stack_hi, uptr start_routine) {
  if (thread == EFSAN_INTERNAL_THREAD)
    return;
  u64 base = 0;
  if (thread < CF_MAX_THREAD_INFOS) {
    base = cf_load(&cf_thread_infos[thread].clock_base);
    cf_store(&cf_thread_infos[thread].stack_lo, stack_lo);
    cf_store(&cf_thread_infos[thread].stack_hi, stack_hi);
    cf_store(&cf_thread_infos[thread].start_routine, start_routine);
    cf_store(&cf_thread_infos[thread].handle, handle);
    cf_store(&cf_thread_infos[thread].tid, efsan_gettid());
    cf_store(&cf_handle_index[cf_handle_slot(handle)], thread + 1);
  }
  cf_start_thread_sampler(thread, base);
}

uptr efsan_cache_frag_thread_start_routine(u32 thread) {
  return thread < CF_MAX_THREAD_INFOS
             ? cf_load(&cf_thread_infos[thread].start_routine)
             : 0;
}

bool efsan_cache_frag_thread_stack(u32 thread, uptr *lo, uptr *hi) {
  if (thread >= CF_MAX_THREAD_INFOS)
    return false;
  *lo = cf_load(&cf_thread_infos[thread].stack_lo);
  *hi = cf_load(&cf_thread_infos[thread].stack_hi);
  return *lo < *hi;
}

void efsan_cache_frag_thread_exit(void) {
  u32 thread = efsan_thread_index;
  if (thread >= CF_MAX_THREAD_INFOS || !cf_self.started)
    return;
  struct cf_thread_info *info = &cf_thread_infos[thread];
  cf_store(&info->accesses, cf_current_clock() - cf_self.clock_base);
  cf_store(&info->final_clock, cf_current_clock());
  cf_store(&info->cpu_ns, efsan_thread_cpu_ns());
  __atomic_store_n(&info->exited, 1, __ATOMIC_RELEASE);
  cf_fields_thread_exit();
  // Lines only exited threads used can give their entries back now.
  cf_lines_thread_exited();
}

void efsan_cache_frag_sync_release(uptr addr) {
  if (!cf_self.started || efsan_thread_index == EFSAN_INTERNAL_THREAD)
    return;
  struct cf_sync_clock *slot = cf_sync_slot(addr, true);
  if (!slot)
    return;
  u64 now = cf_current_clock(), released = cf_load(&slot->clock);
  while (now > released && !cf_cas(&slot->clock, &released, now)) {
  }
}

void efsan_cache_frag_sync_acquire(uptr addr) {
  if (!cf_self.started || efsan_thread_index == EFSAN_INTERNAL_THREAD)
    return;
  struct cf_sync_clock *slot = cf_sync_slot(addr, false);
  if (!slot)
    return;
  u64 released = cf_load(&slot->clock), now = cf_current_clock();
  if (released > now)
    cf_self.clock_base += released - now;
}

void efsan_cache_frag_thread_joined(uptr handle) {
  // The joiner goes on after the joined thread ended: its clock moves there.
  u32 thread_plus1 = cf_load(&cf_handle_index[cf_handle_slot(handle)]);
  if (!thread_plus1 || !cf_self.started)
    return;
  struct cf_thread_info *info = &cf_thread_infos[thread_plus1 - 1];
  if (cf_load(&info->handle) != handle ||
      !__atomic_load_n(&info->exited, __ATOMIC_ACQUIRE))
    return;
  u64 joined = cf_load(&info->final_clock), now = cf_current_clock();
  if (joined > now)
    cf_self.clock_base += joined - now;
}

//===-- Hooks called by the shared runtime ---------------------------------===//

static void cf_check_flags(void) {
  struct efsan_flags *f = &efsan_flags;
  if (f->cache_frag_sample_period < 1)
    efsan_fatal("cache_frag_sample_period must be >= 1 (got %d)",
                f->cache_frag_sample_period);
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
  if (f->cache_frag_alone_weight < 1 || f->cache_frag_alone_weight > 255)
    efsan_fatal("cache_frag_alone_weight must be 1..255 (got %d)",
                f->cache_frag_alone_weight);
  if (f->cache_frag_quiet_weight < 1 || f->cache_frag_quiet_weight > 255)
    efsan_fatal("cache_frag_quiet_weight must be 1..255 (got %d)",
                f->cache_frag_quiet_weight);
  if (f->cache_frag_prediction_threshold < 1)
    efsan_fatal("cache_frag_prediction_threshold must be >= 1 (got %d)",
                f->cache_frag_prediction_threshold);
  if (f->cache_frag_report_threshold < 1)
    efsan_fatal("cache_frag_report_threshold must be >= 1 (got %d)",
                f->cache_frag_report_threshold);
  if (f->cache_frag_transfer_ns < 0 || f->cache_frag_transfer_ns > 100000)
    efsan_fatal("cache_frag_transfer_ns must be 1..100000, or 0 to measure "
                "(got %d)",
                f->cache_frag_transfer_ns);
  if (efsan_internal_strcmp(f->cache_frag_line_pairs, "auto") &&
      efsan_internal_strcmp(f->cache_frag_line_pairs, "yes") &&
      efsan_internal_strcmp(f->cache_frag_line_pairs, "no"))
    efsan_fatal("cache_frag_line_pairs must be auto, yes or no (got '%s')",
                f->cache_frag_line_pairs);
  if (efsan_cache_frag_min_share_ppm() < 0)
    efsan_fatal("cache_frag_min_share must be a percentage from 0 to 100 with "
                "at most 4 decimals, e.g. 1 or 0.5 (got '%s')",
                f->cache_frag_min_share);
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

int efsan_cache_frag_min_share_ppm(void) {
  // "1", "0.5", "12.25": a percentage, parsed without libc.
  const char *s = efsan_flags.cache_frag_min_share;
  long long ppm = 0;
  int digits = 0, decimals = -1;
  for (; *s; s++) {
    if (*s == '.' && decimals < 0) {
      decimals = 0;
      continue;
    }
    if (*s < '0' || *s > '9')
      return -1;
    if (decimals >= 0 && ++decimals > 4)
      return -1;
    ppm = ppm * 10 + (*s - '0');
    digits++;
    if (ppm > 100000000)
      return -1;
  }
  if (!digits)
    return -1;
  // ppm now holds the percentage times 10^decimals.
  for (int d = decimals < 0 ? 0 : decimals; d < 4; d++)
    ppm *= 10;
  // The percentage times 10^4 is parts per million.
  return ppm > 1000000 ? -1 : (int)ppm;
}

void efsan_cache_frag_check_flags(void) { cf_check_flags(); }

void efsan_cache_frag_init(void) {
  cf_check_flags();
  // cache_frag_period_ms=0 was the spelling of "see every access" when the
  // tool sampled time windows; it still means that.
  cf_mean_period = efsan_flags.cache_frag_period_ms == 0
                       ? 1
                       : (u64)efsan_flags.cache_frag_sample_period;
  cf_alone_weight =
      cf_mean_period > 1 ? (u32)efsan_flags.cache_frag_alone_weight : 1;
  cf_quiet_weight =
      cf_mean_period > 1 ? (u32)efsan_flags.cache_frag_quiet_weight : 1;
  u64 samples = ((u64)efsan_flags.cache_frag_prediction_threshold +
                 cf_mean_period - 1) / cf_mean_period;
  if (cf_mean_period > 1 && samples < 4)
    samples = 4; // a single sampled write is no evidence of a hot line
  u64 prediction_samples = samples;
  samples = ((u64)efsan_flags.cache_frag_tracking_threshold + cf_mean_period -
             1) / cf_mean_period;
  if (cf_mean_period > 1 && samples < 2)
    samples = 2;
  cf_lines_init((u32)efsan_flags.cache_frag_max_tracked_lines, cf_mean_period,
                prediction_samples, samples,
                (u32)efsan_flags.cache_frag_report_threshold);
  // Address space only: thread entries become resident when used.
  cf_tsc_at_init = cf_ticks();
  cf_ns_at_init = efsan_monotonic_ns();
  cf_thread_infos = (struct cf_thread_info *)efsan_mmap_noreserve(
      CF_MAX_THREAD_INFOS * sizeof(struct cf_thread_info));
  cf_handle_index = (u32 *)efsan_mmap_noreserve(CF_HANDLE_SLOTS * sizeof(u32));
  cf_sync_clocks = (struct cf_sync_clock *)efsan_mmap_noreserve(
      CF_SYNC_SLOTS * sizeof(struct cf_sync_clock));

  efsan_heap_init();
  cf_members_init();
  cf_fields_init();
  cf_store(&cf_thread_infos[0].tid, efsan_gettid());
  cf_start_thread_sampler(0, 0);
  cf_machine_init();
  efsan_publish_direct_libc_calls();
  cf_startup_cpu_ns = efsan_thread_cpu_ns();
}

void efsan_cache_frag_module_init(void *module_info) {
  cf_structs_module_init(module_info);
}

void efsan_cache_frag_module_exit(void *module_info) {
  cf_structs_module_exit(module_info);
}

void efsan_cache_frag_alloc(uptr addr, uptr size, u32 alloc_stack_id) {
  if (addr) {
    efsan_heap_insert(addr, size, alloc_stack_id);
    cf_members_note_alloc(addr, alloc_stack_id);
  }
}

void efsan_cache_frag_free(uptr addr) {
  struct efsan_heap_block forgotten;
  if (addr && efsan_heap_remove(addr, &forgotten))
    cf_forget_heap_object(forgotten.start, forgotten.size, forgotten.serial);
}

void efsan_cache_frag_fork_child(void) {
  // The child keeps the parent's records (its report covers the parent's
  // run up to the fork as well) but has lost the other threads' locks.
  efsan_heap_fork_child();
  cf_lines_fork_child();
}

static bool cf_wants_alloc_stacks(void) { return true; }

// A report while the program runs reads the same state as the one at exit.
static void cf_report(bool at_exit) {
  (void)at_exit;
  efsan_cache_frag_report();
}

const struct efsan_tool_hooks efsan_cache_frag_tool = {
    .name = "cache-frag",
    .id = EFSAN_TOOL_CACHE_FRAG,
    .ranges = EFSAN_RANGES_SAMPLED,
    .names_openmp_threads = true,
    .init = efsan_cache_frag_init,
    .check_flags = efsan_cache_frag_check_flags,
    .module_init = efsan_cache_frag_module_init,
    .module_exit = efsan_cache_frag_module_exit,
    .thread_created = efsan_cache_frag_thread_created,
    .thread_start = efsan_cache_frag_thread_start,
    .thread_exit = efsan_cache_frag_thread_exit,
    .thread_joined = efsan_cache_frag_thread_joined,
    .sync_release = efsan_cache_frag_sync_release,
    .sync_acquire = efsan_cache_frag_sync_acquire,
    .lock_held = efsan_cache_frag_lock_held,
    .fork_child = efsan_cache_frag_fork_child,
    .wants_alloc_stacks = cf_wants_alloc_stacks,
    .heap_alloc = efsan_cache_frag_alloc,
    .heap_free = efsan_cache_frag_free,
    .access = efsan_cache_frag_access,
    .libc_range = efsan_cache_frag_libc_range,
    .libc_range_sampled = efsan_cache_frag_libc_range_sampled,
    .report = cf_report,
};
