//===-- efsan_working_set.c - the working-set tool ------------------------===//
//
// Shadow byte of a line: bit 0 = touched since the last sample, bits 1..6 =
// touched since the last snapshot of level 1..6, bit 7 = ever touched. The
// instrumented code sets bits 0 and 7 and marks the shadow page changed
// (efsan.h's changed-page map). A sideline thread wakes every sample_freq ms
// and, for every shadow page that changed since its last sample or may hold
// a bit of a level due now:
//   - counts the lines with bit 0 (the level-0 snapshot: lines touched in the
//     last sample period),
//   - copies bit 0 into bits 1..6 and clears bit 0,
//   - for every level k due now (every 2^(k*snapshot_step) samples, and at
//     every phase boundary) counts the lines with bit k (touched since its
//     last snapshot) and clears bit k.
// Each level keeps its snapshots in a circular buffer of snapshot_history
// entries, each with the interval it covers on the sampler's clock (a late
// sample's covers the time since the one before; the report names where
// the sampler fell behind). Bit 7 is never cleared; at exit it gives the total working set.
// A page the program no longer touches is visited at most once more per
// level, so the sampler's cost follows what changed, not the resident shadow.
//
// Races with the program's threads. The program's store is a plain "read
// byte, or in 0x81, write byte", made only when it read bit 0 (or bit 7)
// clear. So a shadow word whose eight bytes all have bits 0 and 7 set gets
// no store from the program that has not already landed (but for a store of
// another thread that read the byte before the store that set its bit 0:
// an access in the same instant, which may then count in the period that
// ends rather than the one that starts): the sampler rewrites such a word
// with a plain store. Any other word it changes with a compare-and-swap of
// the whole word, so a bit the program sets meanwhile is never lost (the CAS
// fails and the word is redone). If the sampler clears bits of a byte
// between the program's read and write, the write puts back bits 1..6 that
// were just cleared; that can only make the next snapshot of those levels
// count a line the program is touching right now anyway (bit 0 is set by
// the same store, and copied into bits 1..6 at the next sample), so no count
// is wrong by more than the one-sample uncertainty of when an access
// happened.
//
// A sample that takes longer than the period is followed by a sleep at least
// as long as it took (and at least a millisecond), so the sampler never uses
// more than about half a core, and exit, fork and a report on demand find
// the sampler's lock free between samples; a scan in progress notices exit
// within a few shadow pages.
//
//===----------------------------------------------------------------------===//
#include "efsan_working_set.h"
#include "efsan_ws_scan.h"
#include "efsan_ws_mrc.h"

#define EVER_BITS 0x8080808080808080ULL

struct level_series {
  u32 *lines;  // circular buffer of `history` snapshots
  // For each snapshot: 0 if exact, else s: estimated from the lines
  // selected at 1/2^s, with its standard error in lines.
  u8 *shift;
  u32 *std_error;
  // The interval each snapshot covers, on the sampler's clock from the
  // start of the run: from the snapshot before it (or the start) to the
  // sample that took it, however late that sample came.
  u64 *start_ns, *end_ns;
  u64 open_since_ns; // start of the snapshot this level takes next
  u64 open_samples;  // samples since this level's last snapshot
  u64 taken;   // snapshots taken at this level, including dropped ones
  u64 estimated; // of them estimated, including dropped ones
  u32 peak;    // largest snapshot ever taken at this level
  u8 peak_shift;
  u32 peak_std_error;
  u64 peak_start_ns, peak_end_ns; // the interval the peak covers
};

static struct level_series levels[NUM_LEVELS];
static u32 history;
static u32 samples; // read without the lock by __efsan_get_sample_count
static efsan_mutex sampler_lock;
// Set (without the lock) at exit: a scan in progress stops at once, so that
// exit never waits behind a sample of a large address space.
static bool sampler_stopped;
static u64 sampler_generation; // a forked child starts a new generation
static u64 sampler_cpu_ns;     // CPU time of this process's sampler thread
// Samples that came later than sample_freq to keep the sampler within
// sampler_max_cpu (counted by the sampler thread, read by the report).
static u32 sampler_late_samples;
// Scans that ended past half of the next period (a busy machine preempted
// the sampler): the next period started at their end.
static u32 sampler_overrun_scans;
// Where the sampler fell behind: level-0 snapshots that cover more than one
// and a half periods (a late sample: the sampler's share of the CPU, a busy
// machine, a stopped process), neighbours joined, the first BEHIND_KEPT
// kept; the others are counted.
#define BEHIND_KEPT 32
struct behind_span {
  u64 start_ns, end_ns;
  u32 samples;
};
static struct behind_span behind[BEHIND_KEPT];
static u32 num_behind;
static u64 behind_dropped; // late samples in spans not kept
static u64 behind_samples, behind_ns; // all late samples, and their time
// The time of the last sample on the sampler's clock (0: none yet).
static u64 last_sample_ns;
static struct efsan_region *scan_regions; // sampler-owned copy of the registry
static uptr scan_capacity;

u32 efsan_ws_sample_count(void) {
  return __atomic_load_n(&samples, __ATOMIC_ACQUIRE);
}

static u64 level_period_samples(int level) {
  return 1ULL << (level * efsan_flags.snapshot_step);
}

//===-- Estimated snapshots -------------------------------------------------===//
//
// Every line touched in a period costs the program a cold path (the store of
// bits 0 and 7 and of the changed-page byte) and the sampler a clear of its
// bit 0. A program that touches hundreds of thousands of lines per period at
// random pays that again every period. Beyond snapshot_budget lines per
// period the sampler clears bit 0 only in the lines of a fixed selection of
// 1/2^s of them (s = 1..8; line i of a shadow word is selected when the top
// s bits of byte i of a hash of the word's address are 0, so each line is
// selected with probability 1/2^s, independently of the others, and the
// selection at s + 1 is a subset of the one at s). The other lines keep
// bit 0: the program touches them again without a cold path. Their bit 7
// was set by the first touch, so totals (bit 7) are exact. A snapshot counts
// the selected lines only, times 2^s: unbiased, with variance
// n (1 - f) / f^2 for n selected lines counted at fraction f, which the
// report gives as a standard error. s is chosen after each sample so that
// at least snapshot_budget lines would be selected (with some hysteresis
// going down, so that the relative standard error stays below
// sqrt(4 / (3 budget)): 0.9% with the default budget).
//
// Invariant after each sample: bit 0 is set only in lines touched since
// that sample, or in lines not selected at `in_force` (the selection whose
// lines that sample cleared), which may be stale ("stuck"). The sampler's
// pending byte of a shadow page has bit 0 while the page may hold stuck
// lines; a sample that clears a larger selection than the one in force
// visits those pages too. A phase boundary clears every line (phases stay
// exact: the phase bitmap takes bit 0 of all lines, and after the boundary
// a stuck bit 0 means touched within the phase).
//
// Level k's snapshot counts the lines selected at the largest s in force
// during its 2^(k*step) periods: those lines had bit 0 cleared at every
// sample of the period, so their bit k is exact. A stuck bit 0 is not
// copied into bits 1..6 (no level counts the line), so a page that holds
// only stuck lines drops out of the level visits.

#define MAX_SHIFT 8
static int in_force;      // shift whose selection the last sample cleared
static int budget_shift;  // the shift the budget asks for now
u8 efsan_ws_level_shift[NUM_LEVELS]; // largest in force in each level's period

u64 efsan_ws_selected_lines(const u64 *shadow_word, int shift) {
  return selected_lines(line_hash(shadow_word), shift);
}

static u64 isqrt(u64 x) {
  u64 root = 0;
  for (u64 bit = 1ULL << 62; bit; bit >>= 2) {
    if (x >= root + bit) {
      x -= root + bit;
      root = (root >> 1) + bit;
    } else {
      root >>= 1;
    }
  }
  return root;
}

// Standard error of a count of `selected` lines at 1/2^shift, scaled up:
// sqrt(n (1 - f)) / f.
static u64 std_error_of(u64 selected, int shift) {
  u64 scale = 1ULL << shift;
  return isqrt(selected * (scale - 1) * scale);
}

// The shift for the next period, from the lines (estimated) of the last.
static int choose_shift(u64 lines) {
  if (efsan_flags.exact_snapshots)
    return 0;
  u64 budget = (u64)efsan_flags.snapshot_budget;
  int target = 0;
  while (target < MAX_SHIFT && (lines >> (target + 1)) >= budget)
    target++;
  // Down only once the lines sampled fall below 3/4 of the budget: a
  // working set near a power of two times the budget does not switch back
  // and forth (each switch down visits every page with stuck lines).
  if (target < budget_shift && (lines >> budget_shift) >= budget * 3 / 4)
    return budget_shift;
  return target;
}

//===-- Sampling -----------------------------------------------------------===//
//
// The scan of a shadow page is in efsan_ws_scan.c.

static u32 clamp_u32(u64 value) {
  return value > 0xffffffffu ? 0xffffffffu : (u32)value;
}

// `selected`: the lines counted among those selected at 1/2^shift, in the
// snapshot that ends at now_ns.
static void record(int level, u64 selected, int shift, u64 now_ns) {
  struct level_series *series = &levels[level];
  u32 value = clamp_u32(selected << shift);
  u32 error = clamp_u32(std_error_of(selected, shift));
  u64 slot = series->taken % history;
  series->lines[slot] = value;
  series->shift[slot] = (u8)shift;
  series->std_error[slot] = error;
  series->start_ns[slot] = series->open_since_ns;
  series->end_ns[slot] = now_ns;
  series->open_samples = 0;
  series->taken++;
  if (shift)
    series->estimated++;
  if (value > series->peak || series->taken == 1) {
    series->peak = value;
    series->peak_shift = (u8)shift;
    series->peak_std_error = error;
    series->peak_start_ns = series->open_since_ns;
    series->peak_end_ns = now_ns;
  }
  series->open_since_ns = now_ns;
}

// A level-0 snapshot of [start, end) that covers more than one and a half
// periods: the sampler fell behind there. Judged on the microseconds the
// report prints, so that the snapshots a reader finds that long are exactly
// the ones counted (compared in nanoseconds, a snapshot less than a
// microsecond past the limit was counted but printed as no longer than it:
// viewer/timeline-real-time.c read 6 late samples and 5 long snapshots).
static void note_behind(u64 start_ns, u64 end_ns) {
  u64 period_us = (u64)efsan_flags.sample_freq * 1000ULL;
  if (end_ns / 1000 - start_ns / 1000 <= period_us + period_us / 2)
    return;
  behind_samples++;
  behind_ns += end_ns - start_ns;
  if (num_behind && behind[num_behind - 1].end_ns == start_ns) {
    behind[num_behind - 1].end_ns = end_ns;
    behind[num_behind - 1].samples++;
  } else if (num_behind < BEHIND_KEPT) {
    behind[num_behind].start_ns = start_ns;
    behind[num_behind].end_ns = end_ns;
    behind[num_behind].samples = 1;
    num_behind++;
  } else {
    behind_dropped++;
  }
}

// Called with sampler_lock held. A sample cut short by *stop (exit) is not
// recorded (the last partial period is in no snapshot anyway). A phase
// boundary clears bit 0 of every line (see "Estimated snapshots") and ends
// the open snapshot of every level, so that no snapshot (and no timeline
// period) covers parts of two phases: level k snapshots every
// 2^(k*snapshot_step) samples and at each phase boundary, and the counts
// stay nested (a level due now is one whose lower levels are all due).
static void take_sample(const bool *stop, bool phase_boundary) {
  // The snapshots taken now end here: the lines the scan finds were
  // touched before it (or during it: they may count in either period).
  u64 now_ns = efsan_ws_elapsed_ns();
  efsan_regions_refresh();
  u32 sample = samples + 1;
  struct sample_scan scan;
  efsan_internal_memset(&scan, 0, sizeof(scan));
  scan.count_shift = in_force;
  scan.clear_shift = phase_boundary ? 0 : budget_shift;
  u8 wanted = scan.clear_shift < in_force ? 1 : 0; // pages with stuck lines
  for (int level = 1; level < NUM_LEVELS; level++) {
    if (!phase_boundary &&
        levels[level].open_samples + 1 < level_period_samples(level))
      break;
    scan.due_bits |= ONES << level;
    scan.due_mask |= (u8)(1 << level);
    scan.top_due = level;
  }
  scan.estimating = scan.count_shift || scan.clear_shift;
  scan.timeline_period_level = efsan_ws_timeline_period_ends(scan.top_due);
  scan.timeline_history_ends = scan.top_due == NUM_LEVELS - 1;
  for (int level = 1; level < NUM_LEVELS; level++) {
    if (efsan_ws_level_shift[level] < in_force)
      efsan_ws_level_shift[level] = (u8)in_force;
    // A level due now whose period was estimated counts its selected lines
    // only, even if this sample is exact at level 0.
    if (level <= scan.top_due && efsan_ws_level_shift[level])
      scan.estimating = true;
  }
  uptr n = efsan_regions_snapshot(&scan_regions, &scan_capacity);
  efsan_ws_mrc_before_scan();
  bool scanned = efsan_shadow_for_each_changed(
      scan_regions, n, scan.due_mask | wanted, efsan_ws_sample_page, &scan,
      stop);
  efsan_ws_mrc_after_scan();
  if (!scanned) {
    // Cut short (exit): some pages were cleared at clear_shift, the rest
    // still at in_force; the larger of the two keeps the invariant.
    if (scan.clear_shift > in_force)
      in_force = scan.clear_shift;
    return;
  }
  note_behind(levels[0].open_since_ns, now_ns);
  record(0, scan.counts[0], scan.count_shift, now_ns);
  for (int level = 1; level < NUM_LEVELS; level++) {
    if (level > scan.top_due) {
      levels[level].open_samples++;
      continue;
    }
    record(level, scan.counts[level], efsan_ws_level_shift[level], now_ns);
    efsan_ws_level_shift[level] = 0;
  }
  in_force = scan.clear_shift;
  budget_shift = choose_shift(scan.counts[0] << scan.count_shift);
  last_sample_ns = now_ns;
  __atomic_store_n(&samples, sample, __ATOMIC_RELEASE);
  efsan_ws_timeline_sampled(scan.timeline_period_level >= 0, now_ns,
                            scan.count_shift, scan.clear_shift);
}

u64 efsan_ws_last_sample_ns(void) { return last_sample_ns; }

static bool sample_by_cpu_time(void) {
  return !efsan_internal_strcmp(efsan_flags.sample_clock, "cpu");
}

// The CPU time of the program's threads, read on the sampler thread (its
// own is taken out).
static u64 program_cpu_ns(void) {
  u64 process = efsan_process_cpu_ns(), sampler = efsan_thread_cpu_ns();
  return process > sampler ? process - sampler : 0;
}

// The sampler's clock: wall-clock time, or (sample_clock=cpu) the CPU time
// the program's threads used, which does not run while the program waits
// for the machine. Called on the sampler thread: its own CPU time (the
// scans) is taken out.
static u64 sampler_clock_ns(void) {
  return sample_by_cpu_time() ? program_cpu_ns() : efsan_monotonic_ns();
}

// The sampler's clock as any thread reads it, from the start of the run (or
// of a forked child): with CPU time, the process's minus what the sampler
// thread had used at its last sample. Called with sampler_lock held.
static u64 clock_origin_ns;
static u64 program_clock_ns(void) {
  if (!sample_by_cpu_time())
    return efsan_monotonic_ns();
  u64 process = efsan_process_cpu_ns();
  return process > sampler_cpu_ns ? process - sampler_cpu_ns : 0;
}
u64 efsan_ws_elapsed_ns(void) {
  u64 now = program_clock_ns();
  return now > clock_origin_ns ? now - clock_origin_ns : 0;
}


// The rest paid since a sample ended: the lesser of the wall-clock time
// and the program's CPU time that went by.
static sptr rest_paid_ns(u64 end_wall, u64 end_program) {
  u64 wall = efsan_monotonic_ns() - end_wall;
  u64 program = program_cpu_ns();
  program = program > end_program ? program - end_program : 0;
  return (sptr)(wall < program ? wall : program);
}

static void sampler_main(void *arg) {
  u64 generation = (u64)(uptr)arg;
  u64 period_ns = (u64)efsan_flags.sample_freq * 1000000ULL;
  u64 last_sample = sampler_clock_ns();
  u64 sampler_started = efsan_monotonic_ns(); // for the verbosity=3 log
  u64 next = last_sample + period_ns;
  u64 cpu_at_start = efsan_thread_cpu_ns();
  // Rest still owed for the sampler's CPU time; negative: credit, at most
  // ten periods' worth, earned by resting longer than owed.
  sptr credit_limit_ns = 10 * (sptr)period_ns;
  sptr rest_owed_ns = -credit_limit_ns;
  u64 previous_end = 0;   // when the last sample ended (wall clock)
  u64 previous_end_program = 0; // and the program's CPU time then
  for (;;) {
    // Absolute deadlines, so the time a sample takes does not stretch the
    // period. With CPU time the wait is wall-clock time all the same: the
    // program's threads may run slower (a busy machine, waits) or faster
    // (several threads at once) than the wall clock; a wait of a whole
    // period at most, then the clock is read again.
    u64 now = sampler_clock_ns();
    while (now < next) {
      u64 wait_ms = (next - now + 999999) / 1000000;
      if (wait_ms > (u64)efsan_flags.sample_freq)
        wait_ms = (u64)efsan_flags.sample_freq;
      efsan_sleep_ms((u32)wait_ms);
      if (__atomic_load_n(&sampler_stopped, __ATOMIC_RELAXED) ||
          !sample_by_cpu_time())
        break;
      now = sampler_clock_ns();
    }
    if (previous_end && rest_owed_ns > 0 &&
        rest_paid_ns(previous_end, previous_end_program) < rest_owed_ns) {
      __atomic_fetch_add(&sampler_late_samples, 1, __ATOMIC_RELAXED);
      for (;;) {
        sptr paid_so_far = rest_paid_ns(previous_end, previous_end_program);
        sptr left = rest_owed_ns - paid_so_far;
        if (left <= 0 || __atomic_load_n(&sampler_stopped, __ATOMIC_RELAXED))
          break;
        // What is left takes at least that long in wall-clock time, and
        // longer at the rate the program has paid since the sample (a
        // program that waits pays in its CPU time, slowly). Each wake-up
        // costs CPU that is owed too (50-70 us on a VM after a long sleep):
        // waking every 20 ms while a program used 4% of a core cost the
        // sampler 6% of the program's CPU time at sampler_max_cpu=1. At
        // most a second (or a period) asleep, so a program that gets busy
        // again is sampled soon after.
        u64 wall_ns = efsan_monotonic_ns() - previous_end;
        u64 wait_ns = (u64)left;
        if (paid_so_far > 0 && wall_ns > (u64)paid_so_far)
          wait_ns = (u64)((double)left * (double)wall_ns / (double)paid_so_far);
        else if (paid_so_far <= 0 && wall_ns > 0)
          wait_ns = ~0ULL;
        u64 wait_ms = wait_ns / 1000000 + 1;
        u64 most_ms = efsan_flags.sample_freq > 1000 ? (u64)efsan_flags.sample_freq : 1000;
        efsan_sleep_ms((u32)(wait_ms < most_ms ? wait_ms : most_ms));
      }
    }
    now = sampler_clock_ns();
    // A late wake-up (an overloaded machine, a stopped process, a scan that
    // outlasted the period) samples once now, for all the periods it missed,
    // and the next deadline is at least half a period away: otherwise the
    // next sample would follow almost at once and cover next to nothing (a
    // level-0 snapshot of 0 lines while the program is busy).
    while (next <= now + period_ns / 2)
      next += period_ns;
    // The lock is held by a report (at exit: for as long as the symbolizer
    // takes), a phase switch or a fork: wait for it asleep, not spinning on
    // the program's CPU, and give up as soon as exit stops the sampler.
    while (!efsan_mutex_trylock(&sampler_lock)) {
      if (__atomic_load_n(&sampler_stopped, __ATOMIC_RELAXED))
        return;
      efsan_sleep_ms(1);
    }
    if (sampler_stopped || generation != sampler_generation) {
      efsan_mutex_unlock(&sampler_lock);
      return;
    }
    efsan_vreport(3, "sampler: sample %u covers %llu ms\n", samples + 1,
                  (now - last_sample) / 1000000);
    last_sample = now;
    u64 started = efsan_monotonic_ns();
    sptr paid = previous_end ? rest_paid_ns(previous_end, previous_end_program) : 0;
    take_sample(&sampler_stopped, false);
    u64 cpu_now = efsan_thread_cpu_ns();
    u64 cpu_since_last = cpu_now - cpu_at_start - sampler_cpu_ns;
    sampler_cpu_ns = cpu_now - cpu_at_start;
    bool estimated = in_force != 0; // read under the lock: a phase switch writes it
    efsan_mutex_unlock(&sampler_lock);
    // The sampler keeps to sampler_max_cpu (P) percent of one core and of
    // the CPU time of the program's threads: the CPU time T it used since
    // the last sample (the scan, and the waits' wake-ups) owes a rest of
    // T * (100 - P) / P, which the time between samples pays off, counted
    // as the lesser of the wall-clock time and the program's CPU time that
    // went by: what is still owed is rested before the next sample.
    // Resting more than owed earns a credit of at most ten periods (the
    // sampler starts with it), so that an odd slow sample among quick ones
    // (a phase switch, the first levels due after a large allocation)
    // delays nothing, while over time the sampler uses P percent at most.
    // Paid in wall-clock time only, a program that got a third of a core
    // (a loaded machine, or waits) gave the sampler three times P percent
    // of its own CPU time (hash_table: 14% at load 9, beside ASan's whole
    // 18%). A scan costs in proportion to the shadow that changed:
    // streaming 1 GiB changes 16 MiB of it every period, and the samples
    // then come less often than sample_freq.
    u64 ended = efsan_monotonic_ns();
    rest_owed_ns -= paid;
    if (rest_owed_ns < -credit_limit_ns)
      rest_owed_ns = -credit_limit_ns;
    // An estimated sample (one that cleared a selection: the last period
    // touched more than snapshot_budget lines) costs the program about as
    // much again, re-marking the cleared lines it touches next
    // (docs/design/WorkingSetModel.md, "Cost of a sample"), so it is
    // charged twice: sampler_max_cpu then bounds the snapshots' whole cost,
    // not its sampler's half. A small working set's samples are charged
    // once: their re-marking is at most the budget's lines, and they keep
    // their rate.
    u64 share = (u64)efsan_flags.sampler_max_cpu;
    u64 charged_ns = estimated ? 2 * cpu_since_last : cpu_since_last;
    rest_owed_ns += (sptr)(charged_ns * (100 - share) / share);
    previous_end = ended;
    previous_end_program = program_cpu_ns();
    // A scan the machine preempted can end after most of the next period
    // has gone: the sample due then would cover a short period, its lines
    // those of a fraction of the program's work (a level-0 snapshot of
    // 33,248 of a loop's 40,000 lines at load 7). The next period is a
    // whole one from the scan's end instead (the report counts them).
    u64 scan_end = sampler_clock_ns();
    if (next < scan_end + period_ns / 2) {
      next = scan_end + period_ns;
      __atomic_fetch_add(&sampler_overrun_scans, 1, __ATOMIC_RELAXED);
    }
    efsan_vreport(3, "sampler: sample started at %llu us took %llu us (%llu "
                  "us of CPU, charged %llu us); sleep owed %lld us\n",
                  (started - sampler_started) / 1000, (ended - started) / 1000,
                  cpu_since_last / 1000, charged_ns / 1000,
                  (long long)rest_owed_ns / 1000);
  }
}

void efsan_ws_sample_now(void (*with_lock)(void *arg), void *arg) {
  efsan_mutex_lock(&sampler_lock);
  // Not stopped by exit: a phase that ends in an atexit handler still gets
  // its last sample.
  take_sample(0, true);
  with_lock(arg);
  efsan_mutex_unlock(&sampler_lock);
}

static void start_sampler(void) {
  if (!efsan_flags.record_snapshots)
    return;
  if (!efsan_start_sideline_thread(sampler_main,
                                   (void *)(uptr)sampler_generation))
    efsan_fatal("cannot start the working-set sampler thread");
}

void efsan_ws_init(void) {
  history = (u32)efsan_flags.snapshot_history;
  for (int level = 0; level < NUM_LEVELS; level++) {
    levels[level].lines = efsan_mmap(history * sizeof(u32));
    levels[level].shift = efsan_mmap(history);
    levels[level].std_error = efsan_mmap(history * sizeof(u32));
    levels[level].start_ns = efsan_mmap(history * sizeof(u64));
    levels[level].end_ns = efsan_mmap(history * sizeof(u64));
  }
  efsan_caches_init();
  efsan_ws_objects_init();
  efsan_ws_timeline_init();
  efsan_ws_mrc_init();
  clock_origin_ns = program_clock_ns();
  start_sampler();
}

void efsan_ws_stop_sampler(void) {
  __atomic_store_n(&sampler_stopped, true, __ATOMIC_RELAXED);
  // Wait for a scan in progress to notice.
  efsan_mutex_lock(&sampler_lock);
  efsan_mutex_unlock(&sampler_lock);
}

// fork does not wait for a sample in progress: the locks a sample takes
// that the child needs (the region registry's, the maps buffer's) are held
// by the fork interceptor around fork; the sampler's own state is reset in
// the child, whose shadow starts empty.
void efsan_ws_fork_child(void) {
  // The sampler thread did not survive fork; it may have held the lock.
  efsan_internal_memset(&sampler_lock, 0, sizeof(sampler_lock));
  efsan_mutex_lock(&sampler_lock);
  // The child's working set starts at fork (the shadow was dropped); its
  // sampler thread did not survive fork.
  for (int level = 0; level < NUM_LEVELS; level++) {
    levels[level].taken = 0;
    levels[level].estimated = 0;
    levels[level].peak = 0;
    levels[level].open_since_ns = 0;
    levels[level].open_samples = 0;
    efsan_ws_level_shift[level] = 0;
  }
  num_behind = 0;
  behind_dropped = behind_samples = behind_ns = 0;
  last_sample_ns = 0;
  in_force = 0;
  budget_shift = 0;
  __atomic_store_n(&samples, 0, __ATOMIC_RELEASE);
  efsan_ws_phases_fork_child();
  efsan_ws_timeline_fork_child();
  efsan_ws_objects_fork_child();
  efsan_ws_mrc_fork_child();
  sampler_cpu_ns = 0;
  __atomic_store_n(&sampler_late_samples, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&sampler_overrun_scans, 0, __ATOMIC_RELAXED);
  clock_origin_ns = program_clock_ns();
  sampler_generation++;
  efsan_mutex_unlock(&sampler_lock);
  if (!sampler_stopped)
    start_sampler();
}

//===-- Report -------------------------------------------------------------===//

struct ever_count {
  u64 lines;
  struct efsan_ws_objects *tally; // null without object attribution
};

static void count_ever_touched(u64 *words, uptr count, void *arg) {
  struct ever_count *c = arg;
  for (uptr i = 0; i < count; i++) {
    u64 ever = __atomic_load_n(&words[i], __ATOMIC_RELAXED) & EVER_BITS;
    if (!ever)
      continue;
    c->lines += __builtin_popcountll(ever);
    // Bit i: line i of the word (bytes of 0 or 1 gathered by the product).
    if (c->tally) {
      efsan_ws_objects_add(
          c->tally, efsan_app_of_shadow((const u8 *)&words[i]),
          (u8)(((ever >> 7) * 0x0102040810204080ULL) >> 56));
      if (efsan_ws_timeline_bits)
        efsan_ws_timeline_count_word(c->tally, &words[i], words[i]);
    }
  }
}

// The largest snapshot of any level: the most lines the program touched
// within one snapshot of that level (of the shortest level among equals).
static u32 peak_snapshot(int *level_out) {
  u32 peak = 0;
  *level_out = -1;
  for (int level = 0; level < NUM_LEVELS; level++)
    if (levels[level].taken && (levels[level].peak > peak || *level_out < 0)) {
      peak = levels[level].peak;
      *level_out = level;
    }
  return peak;
}

static struct efsan_ws_top *total_top; // mapped at the first report


void efsan_format_lines(char *buffer, uptr length, u64 lines) {
  u64 bytes = lines * EFSAN_CACHE_LINE_SIZE;
  static const char *const units[] = {"KiB", "MiB", "GiB", "TiB"};
  if (bytes < 1024) {
    efsan_snprintf(buffer, length, "%llu B", bytes);
    return;
  }
  u64 scale = 1024;
  int unit = 0;
  while (unit < 3 && bytes >= scale * 1024) {
    scale *= 1024;
    unit++;
  }
  u64 tenths = (bytes * 10 + scale / 2) / scale;
  efsan_snprintf(buffer, length, "%llu.%llu %s", tenths / 10, tenths % 10,
                 units[unit]);
}

static void format_duration(char *buffer, uptr length, u64 ms) {
  if (ms < 1000)
    efsan_snprintf(buffer, length, "%llu ms", ms);
  else if (ms % 1000 == 0)
    efsan_snprintf(buffer, length, "%llu s", ms / 1000);
  else
    efsan_snprintf(buffer, length, "%llu.%03llu s", ms / 1000, ms % 1000);
}

// Calls emit(value, index, arg) for the snapshots kept at a level, oldest
// first.
static u64 kept_snapshots(const struct level_series *series) {
  return series->taken < history ? series->taken : history;
}
// Where the i-th kept snapshot (oldest first) sits in the level's rings.
static u64 kept_slot(const struct level_series *series, u64 i) {
  return (series->taken - kept_snapshots(series) + i) % history;
}
static u32 kept_snapshot(const struct level_series *series, u64 i) {
  return series->lines[kept_slot(series, i)];
}
static u8 kept_shift(const struct level_series *series, u64 i) {
  return series->shift[kept_slot(series, i)];
}
static u32 kept_std_error(const struct level_series *series, u64 i) {
  return series->std_error[kept_slot(series, i)];
}
static u64 kept_start_ns(const struct level_series *series, u64 i) {
  return series->start_ns[kept_slot(series, i)];
}
static u64 kept_end_ns(const struct level_series *series, u64 i) {
  return series->end_ns[kept_slot(series, i)];
}

// "1.234-1.456 s (3 samples)": a span where the sampler fell behind.
static void format_behind(char *buffer, uptr length,
                          const struct behind_span *b) {
  efsan_snprintf(buffer, length, "%llu.%03llu-%llu.%03llu s (%u sample%s)",
                 b->start_ns / 1000000000, b->start_ns / 1000000 % 1000,
                 b->end_ns / 1000000000, b->end_ns / 1000000 % 1000,
                 b->samples, b->samples == 1 ? "" : "s");
}

// The text's list of where the sampler fell behind (the first few spans;
// JSON has them all).
#define BEHIND_PRINTED 8
static void print_behind_text(void) {
  if (!behind_samples)
    return;
  efsan_report_line("  the sampler fell behind: %llu sample%s covered more "
                    "than one and a half periods (%llu ms in all; each "
                    "snapshot covers the time since the one before), at:\n",
                    behind_samples, behind_samples == 1 ? "" : "s",
                    behind_ns / 1000000);
  char line[4 * 48 + 16];
  uptr used = 0;
  u32 printed = num_behind < BEHIND_PRINTED ? num_behind : BEHIND_PRINTED;
  for (u32 i = 0; i < printed; i++) {
    char span[64];
    format_behind(span, sizeof(span), &behind[i]);
    used += efsan_snprintf(line + used, sizeof(line) - used, "%s%s",
                           used ? ", " : "", span);
    if ((i + 1) % 4 == 0 || i + 1 == printed) {
      efsan_report_line("    %s\n", line);
      used = 0;
    }
  }
  u64 more = (num_behind - printed) + behind_dropped;
  if (more)
    efsan_report_line("    and %llu more (JSON sampler_behind lists the first "
                      "%d)\n", more, BEHIND_KEPT);
}

static void print_behind_json(void) {
  efsan_printf("\"sampler_behind\": [");
  for (u32 i = 0; i < num_behind; i++)
    efsan_printf("%s{\"start_ms\": %llu.%03llu, \"end_ms\": %llu.%03llu, "
                 "\"samples\": %u}",
                 i ? ", " : "", behind[i].start_ns / 1000000,
                 behind[i].start_ns / 1000 % 1000, behind[i].end_ns / 1000000,
                 behind[i].end_ns / 1000 % 1000, behind[i].samples);
  efsan_printf("], \"sampler_behind_samples\": %llu, \"sampler_behind_ms\": "
               "%llu.%03llu", behind_samples, behind_ns / 1000000,
               behind_ns / 1000 % 1000);
}

// Over the kept estimated snapshots of every level: the smallest fraction
// sampled (its shift); of those that counted at least 3/4 of the budget's
// lines (the steady state), the largest standard error relative to the
// estimate, in hundredths of a percent; of the others (a period with fewer
// lines than the one before it, counted on the share chosen for that one),
// how many and their largest standard error.
struct estimates_summary {
  int max_shift;
  u64 max_error_bp;
  u64 small, small_max_error;
};

static bool summarize_estimates(struct estimates_summary *sum) {
  bool any = false;
  efsan_internal_memset(sum, 0, sizeof(*sum));
  for (int level = 0; level < NUM_LEVELS; level++) {
    const struct level_series *series = &levels[level];
    for (u64 i = 0; i < kept_snapshots(series); i++) {
      int shift = kept_shift(series, i);
      if (!shift)
        continue;
      any = true;
      if (shift > sum->max_shift)
        sum->max_shift = shift;
      u32 lines = kept_snapshot(series, i), error = kept_std_error(series, i);
      u64 selected = (u64)lines >> shift;
      if (selected < (u64)efsan_flags.snapshot_budget * 3 / 4) {
        sum->small++;
        if (error > sum->small_max_error)
          sum->small_max_error = error;
        continue;
      }
      u64 bp = ((u64)error * 10000 + lines / 2) / lines;
      if (bp > sum->max_error_bp)
        sum->max_error_bp = bp;
    }
  }
  return any;
}

// "1", "0.5", ... "0.00390625": 1/2^shift exactly, for JSON.
const char *efsan_ws_fraction_text(int shift) {
  static const char *const text[MAX_SHIFT + 1] = {
      "1", "0.5", "0.25", "0.125", "0.0625", "0.03125", "0.015625",
      "0.0078125", "0.00390625"};
  return text[shift];
}

static void print_text(u64 total, const u64 *by_kind, u32 num_samples) {
  char size[32], period[64];
  int pid = efsan_getpid();
  efsan_format_lines(size, sizeof(size), total);
  efsan_report_line("EfficiencySanitizer: the total working set size: %llu "
                    "cache lines (%s)\n", total, size);
  for (int kind = 0; kind < EFSAN_REGION_KINDS; kind++) {
    efsan_format_lines(size, sizeof(size), by_kind[kind]);
    efsan_report_line("  %-8s %llu lines (%s)\n",
                      efsan_region_kind_names[kind], by_kind[kind], size);
  }
  char fit[64];
  efsan_cache_fit_text(fit, sizeof(fit), total);
  efsan_report_line("  the total counts every distinct line ever touched "
                    "(memory freed and reused at new addresses counts again, "
                    "so it can exceed the peak RSS): %s\n", fit);
  if (total_top && total_top->reuse_known)
    efsan_ws_timeline_print_text("  ", &total_top->reuse);
  int peak_level;
  u32 peak = peak_snapshot(&peak_level);
  if (efsan_flags.record_snapshots && peak_level >= 0) {
    const struct level_series *series = &levels[peak_level];
    efsan_format_lines(size, sizeof(size), peak);
    // The time the snapshot covered, which a late sample or a phase
    // boundary makes longer or shorter than the level's period.
    u64 from = series->peak_start_ns, to = series->peak_end_ns;
    efsan_snprintf(period, sizeof(period), "%llu.%03llu-%llu.%03llu s",
                   from / 1000000000, from / 1000000 % 1000,
                   to / 1000000000, to / 1000000 % 1000);
    efsan_cache_fit_text(fit, sizeof(fit), peak);
    char span[32];
    efsan_format_duration(span, sizeof(span), to - from);
    if (series->peak_shift) {
      // An estimate, with the digits its error leaves it.
      u64 rounded = efsan_round_to_error(peak, series->peak_std_error);
      efsan_format_lines(size, sizeof(size), rounded);
      efsan_report_line("  the peak: about %llu lines (%s; estimated, "
                        "standard error %llu lines) touched within one "
                        "snapshot of level %d, %s (%s), %s\n",
                        rounded, size,
                        efsan_round_error(series->peak_std_error), peak_level,
                        period, span, fit);
    } else {
      efsan_report_line("  the peak: at most %u lines (%s) touched within "
                        "one snapshot of level %d, %s (%s), %s\n",
                        peak, size, peak_level, period, span, fit);
    }
  }
  efsan_caches_print_text();
  if (total_top && efsan_ws_objects_enabled()) {
    efsan_report_line("  data structures, most lines first (%llu in all):\n",
                      total_top->total_objects);
    efsan_print_alloc_stack_sampling("    ");
    efsan_ws_objects_print_text(total_top, "    ");
  }
  efsan_ws_phases_print_text();
  if (!efsan_flags.record_snapshots) {
    efsan_report_line("  snapshots not recorded (record_snapshots=0)\n");
  } else {
    format_duration(period, sizeof(period), efsan_flags.sample_freq);
    efsan_report_line("  %u sample%s, one every %s of %s; level k keeps a "
                      "snapshot every %d^k samples and at each phase "
                      "boundary\n",
                      num_samples, num_samples == 1 ? "" : "s", period,
                      sample_by_cpu_time() ? "the program's CPU time"
                                           : "wall-clock time",
                      1 << efsan_flags.snapshot_step);
    u32 late = __atomic_load_n(&sampler_late_samples, __ATOMIC_RELAXED);
    char used[32];
    efsan_format_duration(used, sizeof(used), sampler_cpu_ns);
    if (!late)
      efsan_report_line("  the sampler used %s of CPU time\n", used);
    else
      efsan_report_line("  the sampler used %s of CPU time; %u sample%s came "
                        "late to keep it within %d%% of one core "
                        "(sampler_max_cpu)\n",
                        used, late, late == 1 ? "" : "s",
                        efsan_flags.sampler_max_cpu);
    u32 overruns = __atomic_load_n(&sampler_overrun_scans, __ATOMIC_RELAXED);
    if (overruns)
      efsan_report_line("  %u scan%s of the shadow outlasted half a period (the "
                        "sampler preempted on a busy machine): the next "
                        "period started at %s end\n",
                        overruns, overruns == 1 ? "" : "s",
                        overruns == 1 ? "its" : "their");
    print_behind_text();
    struct estimates_summary sum;
    if (summarize_estimates(&sum)) {
      char small[160] = "";
      if (sum.small)
        efsan_snprintf(small, sizeof(small),
                       " (but %llu that counted fewer lines, as the share "
                       "adapted to a smaller working set: at most %llu "
                       "lines)",
                       sum.small, sum.small_max_error);
      efsan_report_line("  snapshots marked ~ are estimates (more than %d lines "
                        "per period, snapshot_budget): counted on a fixed "
                        "1/%d of the lines at the least, standard error at "
                        "most %llu.%02llu%%%s; exact_snapshots=1 counts every "
                        "line (totals and phases are always exact)\n",
                        efsan_flags.snapshot_budget, 1 << sum.max_shift,
                        sum.max_error_bp / 100, sum.max_error_bp % 100, small);
    }
    for (int level = 0; level < NUM_LEVELS; level++) {
      const struct level_series *series = &levels[level];
      if (!series->taken)
        break;
      format_duration(period, sizeof(period),
                      (u64)efsan_flags.sample_freq *
                          level_period_samples(level));
      // An estimate (~) with the digits its standard error leaves it.
      u64 peak = series->peak_shift
                     ? efsan_round_to_error(series->peak, series->peak_std_error)
                     : series->peak;
      efsan_format_lines(size, sizeof(size), peak);
      efsan_cache_fit_text(fit, sizeof(fit), peak);
      u64 kept = kept_snapshots(series);
      efsan_report_line("  level %d: every %s, %llu snapshot%s%s, peak %s%llu "
                        "lines (%s, %s); lines per snapshot, oldest first:\n",
                        level, period, series->taken,
                        series->taken == 1 ? "" : "s",
                        kept < series->taken ? " (oldest dropped)" : "",
                        series->peak_shift ? "~" : "", peak, size, fit);
      char line[16 * 12 + 32];
      uptr used = 0;
      for (u64 i = 0; i < kept; i++) {
        bool estimated = kept_shift(series, i);
        u64 lines = kept_snapshot(series, i);
        if (estimated)
          lines = efsan_round_to_error(lines, kept_std_error(series, i));
        used += efsan_snprintf(line + used, sizeof(line) - used, " %s%llu",
                               estimated ? "~" : "", lines);
        if ((i + 1) % 16 == 0 || i + 1 == kept) {
          efsan_report_line("   %s\n", line);
          used = 0;
        }
      }
    }
  }
  efsan_ws_mrc_print_text();
  efsan_format_lines(size, sizeof(size), total);
  efsan_printf("SUMMARY: EfficiencySanitizer: working set of %llu cache lines "
               "(%s) in process %d\n", total, size, pid);
}

// The time of the report on the sampler's clock (JSON run_ms).
static u64 report_ns;

static void print_json(u64 total, const u64 *by_kind, u32 num_samples) {
  efsan_printf("{");
  efsan_json_print_identity("working-set", ", ");
  efsan_printf(",\n \"cache_line_size\": %d, \"total_lines\": %llu, "
               "\"total_bytes\": %llu,\n",
               EFSAN_CACHE_LINE_SIZE, total, total * EFSAN_CACHE_LINE_SIZE);
  efsan_printf(" \"regions\": {\"heap\": %llu, \"globals\": %llu, \"stack\": "
               "%llu, \"other\": %llu},\n",
               by_kind[EFSAN_REGION_HEAP], by_kind[EFSAN_REGION_GLOBALS],
               by_kind[EFSAN_REGION_STACK], by_kind[EFSAN_REGION_OTHER]);
  int peak_level;
  u32 peak = efsan_flags.record_snapshots ? peak_snapshot(&peak_level) : 0;
  efsan_printf(" \"fits_level\": %d, \"peak_snapshot_lines\": %u, "
               "\"sample_clock\": \"%s\",\n ",
               efsan_cache_fit_level(total), peak,
               sample_by_cpu_time() ? "cpu" : "wall");
  efsan_caches_print_json();
  efsan_printf(",\n ");
  efsan_ws_mrc_print_json();
  efsan_printf(",\n");
  efsan_json_alloc_stack_sampling(" ");
  efsan_printf(" \"objects\": ");
  if (total_top && efsan_ws_objects_enabled()) {
    efsan_ws_objects_print_json(total_top);
    efsan_printf(",\n \"objects_rest\": {\"objects\": %llu, \"lines\": %llu}",
                 total_top->rest_objects, total_top->rest_lines);
  } else {
    efsan_printf("[]");
  }
  efsan_printf(",\n ");
  struct efsan_ws_reuse no_reuse;
  efsan_internal_memset(&no_reuse, 0, sizeof(no_reuse));
  no_reuse.lines = total;
  efsan_ws_timeline_print_json(total_top && total_top->reuse_known
                                   ? &total_top->reuse
                                   : &no_reuse);
  efsan_printf(",\n ");
  efsan_ws_phases_print_json();
  efsan_printf(",\n ");
  efsan_ws_shared_print_json();
  efsan_printf(",\n \"sample_period_ms\": %d, \"samples\": %u, \"snapshot_step\": "
               "%d, \"snapshot_history\": %u,\n \"sampler_cpu_ms\": "
               "%llu.%03llu, \"sampler_max_cpu\": %d, "
               "\"sampler_late_samples\": %u, \"sampler_overrun_scans\": %u,\n "
               "\"snapshot_budget\": %d, "
               "\"exact_snapshots\": %s,\n \"run_ms\": %llu.%03llu, ",
               efsan_flags.sample_freq, num_samples, efsan_flags.snapshot_step,
               history, sampler_cpu_ns / 1000000,
               sampler_cpu_ns / 1000 % 1000, efsan_flags.sampler_max_cpu,
               __atomic_load_n(&sampler_late_samples, __ATOMIC_RELAXED),
               __atomic_load_n(&sampler_overrun_scans, __ATOMIC_RELAXED),
               efsan_flags.snapshot_budget,
               efsan_flags.exact_snapshots ? "true" : "false",
               report_ns / 1000000, report_ns / 1000 % 1000);
  print_behind_json();
  efsan_printf(",\n \"levels\": [");
  for (int level = 0; level < NUM_LEVELS; level++) {
    const struct level_series *series = &levels[level];
    u64 kept = efsan_flags.record_snapshots ? kept_snapshots(series) : 0;
    bool recorded = efsan_flags.record_snapshots && series->taken;
    u32 level_peak = recorded ? series->peak : 0;
    efsan_printf("%s\n  {\"level\": %d, \"period_ms\": %llu, \"taken\": %llu, "
                 "\"estimated\": %llu, \"peak_lines\": %u, "
                 "\"peak_fits_level\": %d, \"peak_sampled_fraction\": %s, "
                 "\"peak_std_error\": %u,\n   \"lines\": [",
                 level ? "," : "", level,
                 (u64)efsan_flags.sample_freq * level_period_samples(level),
                 recorded ? series->taken : 0,
                 recorded ? series->estimated : 0, level_peak,
                 efsan_cache_fit_level(level_peak),
                 efsan_ws_fraction_text(recorded ? series->peak_shift : 0),
                 recorded ? series->peak_std_error : 0);
    // The snapshots, the smallest cache each one fits, the fraction of the
    // lines each one counted and its standard error.
    // The interval each one covers, in us on the sampler's clock.
    static const char *const arrays[] = {"lines", "fits_level",
                                         "sampled_fraction", "std_error",
                                         "start_us", "end_us"};
    for (int array = 0; array < 6; array++) {
      if (array)
        efsan_printf("],\n   \"%s\": [", arrays[array]);
      char line[16 * 16 + 32];
      uptr used = 0;
      for (u64 i = 0; i < kept; i++) {
        u32 lines = kept_snapshot(series, i);
        const char *sep = i ? ", " : "";
        if (array == 2)
          used += efsan_snprintf(line + used, sizeof(line) - used, "%s%s", sep,
                                 efsan_ws_fraction_text(kept_shift(series, i)));
        else if (array >= 4)
          used += efsan_snprintf(line + used, sizeof(line) - used, "%s%llu",
                                 sep,
                                 (array == 4 ? kept_start_ns(series, i)
                                             : kept_end_ns(series, i)) /
                                     1000);
        else
          used += efsan_snprintf(
              line + used, sizeof(line) - used, "%s%u", sep,
              array == 0   ? lines
              : array == 1 ? (u32)efsan_cache_fit_level(lines)
                           : kept_std_error(series, i));
        if ((i + 1) % 16 == 0 || i + 1 == kept) {
          efsan_printf("%s", line);
          used = 0;
        }
      }
    }
    efsan_printf("]}");
  }
  efsan_printf("\n ]}\n");
}

// An estimated snapshot above the run's total is capped there: no period
// touched more lines than the whole run did, and a peak "about 137,280
// lines" beside a total of 136,196 (its error: 1.1 standard errors) read
// as a contradiction. Exact snapshots never exceed it.
static void cap_estimates(u64 total) {
  u32 cap = clamp_u32(total);
  for (int level = 0; level < NUM_LEVELS; level++) {
    struct level_series *series = &levels[level];
    u64 first = series->taken - kept_snapshots(series);
    for (u64 i = 0; i < kept_snapshots(series); i++) {
      u64 slot = (first + i) % history;
      if (series->shift[slot] && series->lines[slot] > cap)
        series->lines[slot] = cap;
    }
    if (series->peak_shift && series->peak > cap)
      series->peak = cap;
  }
}

void efsan_ws_report(bool at_exit) {
  efsan_mutex_lock(&sampler_lock);
  // The open phase's lines up to now (it ends here at exit).
  // At exit that sample is the last phase's boundary: the snapshots of every
  // level end with it.
  if (efsan_ws_phase_bits)
    take_sample(0, at_exit);
  report_ns = efsan_ws_elapsed_ns();
  efsan_ws_phases_before_report(at_exit);
  efsan_ws_mrc_report_begin();
  efsan_ws_timeline_before_report(at_exit);
  efsan_regions_refresh();
  u64 by_kind[EFSAN_REGION_KINDS] = {0};
  u64 scanned_bytes = 0;
  struct ever_count count = {0, 0};
  if (efsan_ws_objects_enabled())
    count.tally = efsan_ws_objects_begin();
  uptr n = efsan_regions_snapshot(&scan_regions, &scan_capacity);
  for (uptr i = 0; i < n; i++) {
    count.lines = 0;
    efsan_shadow_for_each_resident(scan_regions[i].lo, scan_regions[i].hi,
                                   count_ever_touched, &count, 0);
    u64 lines = count.lines;
    scanned_bytes += scan_regions[i].hi - scan_regions[i].lo;
    by_kind[scan_regions[i].kind] += lines;
    if (lines)
      efsan_vreport(2, "  region [0x%zx, 0x%zx) %s: %llu lines\n",
                    scan_regions[i].lo, scan_regions[i].hi,
                    efsan_region_kind_names[scan_regions[i].kind], lines);
  }
  efsan_vreport(2, "  %zu regions, %llu MiB of address space scanned\n", n,
                scanned_bytes >> 20);
  efsan_ws_timeline_after_count(report_ns);
  efsan_ws_mrc_report_end();
  u64 total = 0;
  for (int kind = 0; kind < EFSAN_REGION_KINDS; kind++)
    total += by_kind[kind];
  if (count.tally) {
    if (!total_top)
      total_top = efsan_mmap(sizeof(struct efsan_ws_top));
    efsan_ws_objects_top(count.tally, (u32)efsan_flags.report_objects,
                         total_top);
    efsan_ws_objects_end(count.tally);
  }
  efsan_ws_mrc_attribute(total_top);
  u32 num_samples = samples;
  cap_estimates(total);
  if (efsan_report_json())
    print_json(total, by_kind, num_samples);
  else
    print_text(total, by_kind, num_samples);
  efsan_ws_mrc_report_done();
  efsan_mutex_unlock(&sampler_lock);
}

//===-- The tool's hooks (efsan_tool.h) ------------------------------------===//

static void ws_init(void) {
  efsan_ws_init();
  efsan_publish_inline_compares();
}

static void ws_thread_start(u32 thread, uptr handle, uptr stack_lo,
                            uptr stack_hi, uptr start_routine) {
  (void)handle;
  efsan_ws_objects_thread_start(thread, stack_lo, stack_hi, start_routine);
}

static void ws_thread_exit(void) { efsan_ws_mrc_thread_exit(); }

static void ws_fork_child(void) {
  efsan_shadow_forget_all();
  if (efsan_ws_objects_enabled())
    efsan_heap_fork_child();
  efsan_ws_fork_child();
}

// Heap blocks are kept only to name the structures of the report. A block
// without an allocation stack names none: where it lands on small freed
// blocks, they are forgotten (their lines count as heap memory of no known
// block); it is kept only where it takes bytes from a larger one
// (efsan_heap.c).
static void ws_heap_alloc(uptr addr, uptr size, u32 stack_id) {
  if (efsan_ws_objects_enabled() &&
      (stack_id || efsan_heap_take_unnamed(addr, size)))
    efsan_heap_insert(addr, size, stack_id);
}

static void ws_heap_free(uptr addr) {
  if (efsan_ws_objects_enabled() && efsan_heap_may_cover(addr, 1)) {
    struct efsan_heap_block unused;
    efsan_heap_remove(addr, &unused);
  }
}

// A read and a write touch a line alike, and so does every range (an empty
// one marks nothing).
static void ws_access(uptr addr, uptr size, bool is_write, uptr pc) {
  (void)is_write, (void)pc;
  efsan_ws_mark_range(addr, size);
}

const struct efsan_tool_hooks efsan_working_set_tool = {
    .name = "working-set",
    .id = EFSAN_TOOL_WORKING_SET,
    .ranges = EFSAN_RANGES_ALL,
    .init = ws_init,
    .thread_start = ws_thread_start,
    .thread_exit = ws_thread_exit,
    .fork_child = ws_fork_child,
    .wants_alloc_stacks = efsan_ws_objects_enabled,
    .heap_alloc = ws_heap_alloc,
    .heap_free = ws_heap_free,
    .access = ws_access,
    .libc_range = ws_access,
    .finish = efsan_ws_stop_sampler,
    .report = efsan_ws_report,
    .sample_count = efsan_ws_sample_count,
};
