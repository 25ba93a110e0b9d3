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
//   - for every level k due now (every 2^(k*snapshot_step) samples) counts
//     the lines with bit k (touched in the last 2^(k*snapshot_step) periods)
//     and clears bit k.
// Each level keeps its snapshots in a circular buffer of snapshot_history
// entries. Bit 7 is never cleared; at exit it gives the total working set.
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
#include "efsan_internal.h"

#define NUM_LEVELS 7 // level 0 (bit 0) and levels 1..6 (bits 1..6)
#define ONES 0x0101010101010101ULL
#define EVER_BITS 0x8080808080808080ULL

struct level_series {
  u32 *lines;  // circular buffer of `history` snapshots
  u64 taken;   // snapshots taken at this level, including dropped ones
  u32 peak;    // largest snapshot ever taken at this level
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
static struct efsan_region *scan_regions; // sampler-owned copy of the registry
static uptr scan_capacity;

u32 efsan_ws_sample_count(void) {
  return __atomic_load_n(&samples, __ATOMIC_ACQUIRE);
}

static u64 level_period_samples(int level) {
  return 1ULL << (level * efsan_flags.snapshot_step);
}

//===-- Sampling -----------------------------------------------------------===//

#define ACCESS_BITS_ALL 0x8181818181818181ULL

struct sample_scan {
  u64 due_bits; // bits 1..6 of every byte, for the levels due now
  u8 due_mask;  // the same bits of one byte
  u64 counts[NUM_LEVELS];
  int top_due;  // levels 1..top_due are due now (0: none)
  bool touched; // sample_words saw a bit 0
};

// The number of bytes with bit 0 set in a word whose other bits are clear:
// the product adds all eight bytes into the top one (at most 8, no carry).
// The runtime is built for any x86-64, where __builtin_popcountll is a
// dozen instructions; this is one multiply.
static inline u64 count_bit0(u64 bits) { return (bits * ONES) >> 56; }

// For each shadow word that may have changed: the word with bit 0 moved
// into bits 1..6 and the bits of the due levels (1..top_due: a sample where
// level k is due is one where every lower level is) counted and cleared.
// See the top of the file for why a plain store is safe when every line of
// the word has bits 0 and 7; any other word changes by compare-and-swap.
// Inlined twice: with top_due = 0 (three samples in four with the default
// snapshot_step) only words with a bit 0 change and the loop is short
// enough for every line of 1 GiB changed to cost a few milliseconds.
static inline __attribute__((always_inline)) void
sample_words(struct sample_scan *scan, u64 *words, uptr count, int top_due) {
  u64 due_bits = scan->due_bits;
  u64 interesting = ONES | due_bits;
  u64 counts[NUM_LEVELS] = {0};
  bool phase_open = efsan_ws_phase_bits != 0;
  for (uptr i = 0; i < count; i++) {
    u64 old = __atomic_load_n(&words[i], __ATOMIC_RELAXED);
    if (!(old & interesting))
      continue;
    u64 touched, moved;
    for (;;) {
      touched = old & ONES;
      // Each byte of `touched` is 0 or 1, so the product sets bits 1..6 in
      // exactly the bytes with bit 0, without carries between bytes.
      moved = (old & ~ONES) | (touched * 0x7e);
      if ((old & ACCESS_BITS_ALL) == ACCESS_BITS_ALL) {
        __atomic_store_n(&words[i], moved & ~due_bits, __ATOMIC_RELAXED);
        break;
      }
      if (__atomic_compare_exchange_n(&words[i], &old, moved & ~due_bits,
                                      false, __ATOMIC_RELAXED,
                                      __ATOMIC_RELAXED))
        break;
      // The program set bits meanwhile: redo the word with its new value.
    }
    counts[0] += count_bit0(touched);
    for (int level = 1; level <= top_due; level++)
      counts[level] += count_bit0((moved >> level) & ONES);
    if (EFSAN_UNLIKELY(phase_open) && touched)
      efsan_ws_phase_note(&words[i], touched);
  }
  for (int level = 0; level <= top_due; level++)
    scan->counts[level] += counts[level];
  scan->touched = counts[0] != 0;
}

static void sample_words_level0(struct sample_scan *scan, u64 *words,
                                uptr count) {
  sample_words(scan, words, count, 0);
}

static void sample_words_due(struct sample_scan *scan, u64 *words,
                             uptr count) {
  sample_words(scan, words, count, scan->top_due);
}

// One shadow page that changed or holds bits of a due level. Its pending
// byte says which levels' bits it may hold: after the visit, those not due
// now, plus all of them if a line had bit 0.
static u8 sample_page(u64 *words, uptr count, u8 pending, void *arg) {
  struct sample_scan *scan = arg;
  scan->touched = false;
  if (scan->top_due == 0)
    sample_words_level0(scan, words, count);
  else
    sample_words_due(scan, words, count);
  if (scan->touched)
    pending |= 0x7e;
  return pending & ~scan->due_mask;
}

static void record(int level, u64 lines) {
  struct level_series *series = &levels[level];
  u32 value = lines > 0xffffffffu ? 0xffffffffu : (u32)lines;
  series->lines[series->taken % history] = value;
  series->taken++;
  if (value > series->peak)
    series->peak = value;
}

// Called with sampler_lock held. A sample cut short by *stop (exit) is not
// recorded (the last partial period is in no snapshot anyway).
static void take_sample(const bool *stop) {
  efsan_regions_refresh();
  u32 sample = samples + 1;
  struct sample_scan scan;
  efsan_internal_memset(&scan, 0, sizeof(scan));
  for (int level = 1; level < NUM_LEVELS; level++) {
    u64 period = level_period_samples(level);
    if (sample % period == 0) {
      scan.due_bits |= ONES << level;
      scan.due_mask |= (u8)(1 << level);
      scan.top_due = level;
    }
  }
  uptr n = efsan_regions_snapshot(&scan_regions, &scan_capacity);
  if (!efsan_shadow_for_each_changed(scan_regions, n, scan.due_mask,
                                     sample_page, &scan, stop))
    return;
  record(0, scan.counts[0]);
  for (int level = 1; level <= scan.top_due; level++)
    record(level, scan.counts[level]);
  __atomic_store_n(&samples, sample, __ATOMIC_RELEASE);
}

static bool sample_by_cpu_time(void) {
  return !efsan_internal_strcmp(efsan_flags.sample_clock, "cpu");
}

// The sampler's clock: wall-clock time, or (sample_clock=cpu) the CPU time
// the program's threads used, which does not run while the program waits
// for the machine. Called on the sampler thread: its own CPU time (the
// scans) is taken out.
static u64 sampler_clock_ns(void) {
  if (!sample_by_cpu_time())
    return efsan_monotonic_ns();
  u64 process = efsan_process_cpu_ns(), sampler = efsan_thread_cpu_ns();
  return process > sampler ? process - sampler : 0;
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

static void sampler_main(void *arg) {
  u64 generation = (u64)(uptr)arg;
  u64 period_ns = (u64)efsan_flags.sample_freq * 1000000ULL;
  u64 last_sample = sampler_clock_ns();
  u64 sampler_started = efsan_monotonic_ns(); // for the verbosity=3 log
  u64 next = last_sample + period_ns;
  u64 cpu_at_start = efsan_thread_cpu_ns();
  u64 earliest_wall = 0; // the end of the rest after a sample (wall clock)
  // Sleep still owed for the sampler's CPU time; negative: credit, at most
  // ten periods' worth, earned by sleeping longer than owed.
  sptr credit_limit_ns = 10 * (sptr)period_ns;
  sptr rest_owed_ns = -credit_limit_ns;
  u64 previous_end = 0;   // when the last sample ended (wall clock)
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
    u64 wall = efsan_monotonic_ns();
    if (wall < earliest_wall) {
      efsan_sleep_ms((u32)((earliest_wall - wall + 999999) / 1000000));
      if (sample_by_cpu_time())
        __atomic_fetch_add(&sampler_late_samples, 1, __ATOMIC_RELAXED);
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
    take_sample(&sampler_stopped);
    u64 cpu_now = efsan_thread_cpu_ns();
    u64 cpu_since_last = cpu_now - cpu_at_start - sampler_cpu_ns;
    sampler_cpu_ns = cpu_now - cpu_at_start;
    efsan_mutex_unlock(&sampler_lock);
    // The sampler keeps to sampler_max_cpu (P) percent of one core: the
    // CPU time T it used since the last sample (the scan, and the waits'
    // wake-ups) owes T * (100 - P) / P of sleep, which the time between
    // samples pays off: what is still owed is slept before the next
    // sample. Sleeping more than owed earns a credit of at most ten periods
    // (the sampler starts with it), so that an odd slow sample among quick
    // ones (a phase switch, the first levels due after a large allocation)
    // delays nothing, while over time the sampler uses P percent at most. Wall-clock time with either clock (with
    // sample_clock=cpu the sampler's own time is not in the program's). A
    // scan costs in proportion to the shadow that changed: streaming 1 GiB
    // changes 16 MiB of it every period, and the samples then come less
    // often than sample_freq.
    u64 ended = efsan_monotonic_ns();
    if (previous_end)
      rest_owed_ns -= (sptr)(started - previous_end);
    if (rest_owed_ns < -credit_limit_ns)
      rest_owed_ns = -credit_limit_ns;
    u64 share = (u64)efsan_flags.sampler_max_cpu;
    rest_owed_ns += (sptr)(cpu_since_last * (100 - share) / share);
    previous_end = ended;
    earliest_wall = ended + (rest_owed_ns > 0 ? (u64)rest_owed_ns : 0);
    // (A sample that overran its period, or waited for the lock, is not
    // late on this account: next is then pushed by the loop at the top.)
    if (!sample_by_cpu_time() && rest_owed_ns > 0 && next < earliest_wall) {
      next = earliest_wall;
      __atomic_fetch_add(&sampler_late_samples, 1, __ATOMIC_RELAXED);
    }
    efsan_vreport(3, "sampler: sample started at %llu us took %llu us (%llu "
                  "us of CPU); sleep owed %lld us\n",
                  (started - sampler_started) / 1000, (ended - started) / 1000,
                  cpu_since_last / 1000, (long long)rest_owed_ns / 1000);
  }
}

void efsan_ws_sample_now(void (*with_lock)(void *arg), void *arg) {
  efsan_mutex_lock(&sampler_lock);
  // Not stopped by exit: a phase that ends in an atexit handler still gets
  // its last sample.
  take_sample(0);
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
  for (int level = 0; level < NUM_LEVELS; level++)
    levels[level].lines = efsan_mmap(history * sizeof(u32));
  efsan_caches_init();
  efsan_ws_objects_init();
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
void efsan_ws_fork_prepare(void) {}

void efsan_ws_fork_parent(void) {}

void efsan_ws_fork_child(void) {
  // The sampler thread did not survive fork; it may have held the lock.
  efsan_internal_memset(&sampler_lock, 0, sizeof(sampler_lock));
  efsan_mutex_lock(&sampler_lock);
  // The child's working set starts at fork (the shadow was dropped); its
  // sampler thread did not survive fork.
  for (int level = 0; level < NUM_LEVELS; level++) {
    levels[level].taken = 0;
    levels[level].peak = 0;
  }
  __atomic_store_n(&samples, 0, __ATOMIC_RELEASE);
  efsan_ws_phases_fork_child();
  sampler_cpu_ns = 0;
  __atomic_store_n(&sampler_late_samples, 0, __ATOMIC_RELAXED);
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
    if (c->tally)
      efsan_ws_objects_add(
          c->tally, efsan_app_of_shadow((const u8 *)&words[i]),
          (u8)(((ever >> 7) * 0x0102040810204080ULL) >> 56));
  }
}

// The largest snapshot of any level: the most lines the program touched
// within one period of that level.
static u32 peak_snapshot(int *level_out) {
  u32 peak = 0;
  *level_out = -1;
  for (int level = 0; level < NUM_LEVELS; level++)
    if (levels[level].taken && levels[level].peak >= peak) {
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
static u32 kept_snapshot(const struct level_series *series, u64 i) {
  u64 first = series->taken - kept_snapshots(series);
  return series->lines[(first + i) % history];
}

static void print_text(u64 total, const u64 *by_kind, u32 num_samples) {
  char size[32], period[32];
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
  int peak_level;
  u32 peak = peak_snapshot(&peak_level);
  if (efsan_flags.record_snapshots && peak_level >= 0) {
    efsan_format_lines(size, sizeof(size), peak);
    format_duration(period, sizeof(period),
                    (u64)efsan_flags.sample_freq *
                        level_period_samples(peak_level));
    efsan_cache_fit_text(fit, sizeof(fit), peak);
    efsan_report_line("  the peak: at most %u lines (%s) touched within one "
                      "period of %s (level %d), %s\n",
                      peak, size, period, peak_level, fit);
  }
  efsan_caches_print_text();
  if (total_top && efsan_ws_objects_enabled()) {
    efsan_report_line("  data structures, most lines first (%llu in all):\n",
                      total_top->total_objects);
    efsan_ws_objects_print_text(total_top, "    ");
  }
  efsan_ws_phases_print_text();
  if (!efsan_flags.record_snapshots) {
    efsan_report_line("  snapshots not recorded (record_snapshots=0)\n");
  } else {
    format_duration(period, sizeof(period), efsan_flags.sample_freq);
    efsan_report_line("  %u sample%s, one every %s of %s; level k keeps a "
                      "snapshot every %d^k samples\n",
                      num_samples, num_samples == 1 ? "" : "s", period,
                      sample_by_cpu_time() ? "the program's CPU time"
                                           : "wall-clock time",
                      1 << efsan_flags.snapshot_step);
    u32 late = __atomic_load_n(&sampler_late_samples, __ATOMIC_RELAXED);
    if (!late)
      efsan_report_line("  the sampler used %llu.%03llu ms of CPU time\n",
                        sampler_cpu_ns / 1000000,
                        sampler_cpu_ns / 1000 % 1000);
    else
      efsan_report_line("  the sampler used %llu.%03llu ms of CPU time; %u "
                        "sample%s came late to keep it within %d%% of one "
                        "core (sampler_max_cpu)\n",
                        sampler_cpu_ns / 1000000, sampler_cpu_ns / 1000 % 1000,
                        late, late == 1 ? "" : "s", efsan_flags.sampler_max_cpu);
    for (int level = 0; level < NUM_LEVELS; level++) {
      const struct level_series *series = &levels[level];
      if (!series->taken)
        break;
      format_duration(period, sizeof(period),
                      (u64)efsan_flags.sample_freq *
                          level_period_samples(level));
      efsan_format_lines(size, sizeof(size), series->peak);
      efsan_cache_fit_text(fit, sizeof(fit), series->peak);
      u64 kept = kept_snapshots(series);
      efsan_report_line("  level %d: every %s, %llu snapshot%s%s, peak %u lines "
                        "(%s, %s); lines per snapshot, oldest first:\n",
                        level, period, series->taken,
                        series->taken == 1 ? "" : "s",
                        kept < series->taken ? " (oldest dropped)" : "",
                        series->peak, size, fit);
      char line[16 * 12 + 32];
      uptr used = 0;
      for (u64 i = 0; i < kept; i++) {
        used += efsan_snprintf(line + used, sizeof(line) - used, " %u",
                               kept_snapshot(series, i));
        if ((i + 1) % 16 == 0 || i + 1 == kept) {
          efsan_report_line("   %s\n", line);
          used = 0;
        }
      }
    }
  }
  efsan_format_lines(size, sizeof(size), total);
  efsan_printf("SUMMARY: EfficiencySanitizer: working set of %llu cache lines "
               "(%s) in process %d\n", total, size, pid);
}

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
  efsan_printf(",\n \"objects\": ");
  if (total_top && efsan_ws_objects_enabled()) {
    efsan_ws_objects_print_json(total_top);
    efsan_printf(",\n \"objects_rest\": {\"objects\": %llu, \"lines\": %llu}",
                 total_top->rest_objects, total_top->rest_lines);
  } else {
    efsan_printf("[]");
  }
  efsan_printf(",\n ");
  efsan_ws_phases_print_json();
  efsan_printf(",\n \"sample_period_ms\": %d, \"samples\": %u, \"snapshot_step\": "
               "%d, \"snapshot_history\": %u,\n \"sampler_cpu_ms\": "
               "%llu.%03llu, \"sampler_max_cpu\": %d, "
               "\"sampler_late_samples\": %u,\n \"levels\": [",
               efsan_flags.sample_freq, num_samples, efsan_flags.snapshot_step,
               history, sampler_cpu_ns / 1000000,
               sampler_cpu_ns / 1000 % 1000, efsan_flags.sampler_max_cpu,
               __atomic_load_n(&sampler_late_samples, __ATOMIC_RELAXED));
  for (int level = 0; level < NUM_LEVELS; level++) {
    const struct level_series *series = &levels[level];
    u64 kept = efsan_flags.record_snapshots ? kept_snapshots(series) : 0;
    u32 level_peak = efsan_flags.record_snapshots ? series->peak : 0;
    efsan_printf("%s\n  {\"level\": %d, \"period_ms\": %llu, \"taken\": %llu, "
                 "\"peak_lines\": %u, \"peak_fits_level\": %d, \"lines\": [",
                 level ? "," : "", level,
                 (u64)efsan_flags.sample_freq * level_period_samples(level),
                 efsan_flags.record_snapshots ? series->taken : 0, level_peak,
                 efsan_cache_fit_level(level_peak));
    // The snapshots, then the smallest cache each one fits.
    for (int fits = 0; fits < 2; fits++) {
      if (fits)
        efsan_printf("], \"fits_level\": [");
      char line[16 * 12 + 32];
      uptr used = 0;
      for (u64 i = 0; i < kept; i++) {
        u32 lines = kept_snapshot(series, i);
        used += efsan_snprintf(line + used, sizeof(line) - used, "%s%u",
                               i ? ", " : "",
                               fits ? (u32)efsan_cache_fit_level(lines) : lines);
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

void efsan_ws_report(bool at_exit) {
  efsan_mutex_lock(&sampler_lock);
  // The open phase's lines up to now (it ends here at exit).
  if (efsan_ws_phase_bits)
    take_sample(0);
  efsan_ws_phases_before_report(at_exit);
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
  u32 num_samples = samples;
  if (!efsan_internal_strcmp(efsan_flags.report_format, "json"))
    print_json(total, by_kind, num_samples);
  else
    print_text(total, by_kind, num_samples);
  efsan_mutex_unlock(&sampler_lock);
}
