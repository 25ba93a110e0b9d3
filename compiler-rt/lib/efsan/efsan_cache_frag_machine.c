//===-- efsan_cache_frag_machine.c - what this machine's caches cost ------===//
//
// What the machine does that the cache-frag report prices its findings
// with. Where this machine has a profile (efsan-calibrate's measurements,
// efsan_cache_frag_profile.c), its figures, the same in every run however
// busy or pinned; else:
// - the cost of moving a cache line from one core to another (the transfer
//   an invalidation forces), measured in the background from start-up on by
//   a short ping-pong of one line between two threads pinned to two CPUs
//   (of the affinity mask, or the machine's when the mask has one); a
//   default where that cannot be done (one CPU, cache_frag_measure_transfer=0,
//   a loaded machine that never ran both threads at once);
//   cache_frag_transfer_ns overrides both;
// - whether the CPU fetches lines in 128-byte pairs (Intel's adjacent-line
//   prefetch does; AMD's does not), from cpuid, so that a 128-byte-line
//   prediction counts only where it can happen (cache_frag_line_pairs
//   overrides);
// - the bounds of what a thread loses to a line both threads keep writing
//   (CF_CONTENDED_SHARE, CF_CONTENDED_RMW_SHARE).
// It does not price findings (efsan_cache_frag_impact.c does) and never
// blocks the program: every wait is bounded in iterations and in time.
// docs/CacheFrag.md explains both numbers.
//
//===----------------------------------------------------------------------===//
#include "efsan_cache_frag_findings.h"

#include <cpuid.h>

// Used when the transfer cannot be measured: a line moving between the
// cores of a recent server CPU (a 2-core AMD EPYC VM measures 150-170 ns,
// Intel desktops 40-80 ns).
#define CF_DEFAULT_TRANSFER_NS 150
// Round trips per timed batch, and the measurement's budget (each of the
// wait for the partner and the ping-pong): the fastest batch is the
// machine's transfer; batches where the partner was descheduled are slower
// and lose. It stops at CF_PING_ENOUGH_BATCHES good ones (about 0.2 ms of
// two CPUs), so that a program's start costs next to nothing.
#define CF_PING_ROUNDS 32
#define CF_PING_BUDGET_NS 2000000ull
#define CF_PING_MIN_BATCHES 3
#define CF_PING_ENOUGH_BATCHES 16
// A round trip slower than this means the partner was not running: 20 us
// at a TSC of up to 5 GHz (more at a slower one; a descheduled partner
// takes milliseconds).
#define CF_PING_STALL_TICKS 100000ull
#define CF_AFFINITY_WORDS 16

static u32 cf_transfer;
static const char *cf_transfer_from = "default";
static bool cf_paired;
static char cf_pairing_why[96];
static char cf_transfer_why[256];
static u64 cf_measuring_ns;

u32 cf_transfer_ns(void) { return cf_transfer; }
const char *cf_transfer_source(void) { return cf_transfer_from; }
bool cf_lines_paired(void) { return cf_paired; }
u64 cf_machine_cpu_ns(void) { return cf_measuring_ns; }
const char *cf_pairing_source(void) { return cf_pairing_why; }

//===-- Line pairing ------------------------------------------------------===//

bool cf_cpu_model(char vendor[13], unsigned *family, unsigned *model) {
  unsigned a, b, c, d;
  efsan_internal_memcpy(vendor, "unknown", 8);
  *family = *model = 0;
  if (!__get_cpuid(0, &a, &b, &c, &d))
    return false;
  efsan_internal_memcpy(vendor, &b, 4);
  efsan_internal_memcpy(vendor + 4, &d, 4);
  efsan_internal_memcpy(vendor + 8, &c, 4);
  vendor[12] = 0;
  if (__get_cpuid(1, &a, &b, &c, &d)) {
    *family = (a >> 8) & 0xf;
    *model = (a >> 4) & 0xf;
    if (*family == 0xf)
      *family += (a >> 20) & 0xff;
    if (*family == 6 || *family >= 0xf)
      *model |= ((a >> 16) & 0xf) << 4;
  }
  return true;
}

// A loss below this (ppm of a thread's time) to the other line of a pair is
// no pairing: the default share a finding must save to be reported.
#define CF_PAIRED_LOSS_PPM 30000

static void cf_decide_pairing(void) {
  const char *option = efsan_flags.cache_frag_line_pairs;
  if (!efsan_internal_strcmp(option, "yes") ||
      !efsan_internal_strcmp(option, "no")) {
    cf_paired = option[0] == 'y';
    efsan_snprintf(cf_pairing_why, sizeof(cf_pairing_why),
                   "cache_frag_line_pairs=%s", option);
    return;
  }
  // Measured: what a thread lost to a thread writing the other line of its
  // 128-byte pair (the prefetcher's pairing costs nothing where it does not
  // move the line away), whatever cpuid promises.
  if (cf_profile_has(CF_PROFILE_PAIRED)) {
    u32 loss = cf_profile_point(CF_PROFILE_PAIRED);
    u32 low = (cf_profile_low(CF_PROFILE_PAIRED) + 5000) / 10000,
        high = (cf_profile_high(CF_PROFILE_PAIRED) + 5000) / 10000;
    cf_paired = loss >= CF_PAIRED_LOSS_PPM;
    char range[32] = "";
    if (low != high)
      efsan_snprintf(range, sizeof(range), ", %u-%u%% measured", low, high);
    efsan_snprintf(cf_pairing_why, sizeof(cf_pairing_why),
                   "machine profile: the other line of a 128-byte pair cost "
                   "a thread %u%% of its time%s",
                   (loss + 5000) / 10000, range);
    return;
  }
  char vendor[13];
  unsigned family, model;
  if (!cf_cpu_model(vendor, &family, &model)) {
    cf_paired = false;
    efsan_snprintf(cf_pairing_why, sizeof(cf_pairing_why), "no cpuid");
    return;
  }
  // Intel's L2 adjacent-line prefetcher fetches the other line of each
  // 128-byte aligned pair (since the Pentium 4; on by default); AMD's
  // prefetchers do not pair lines.
  cf_paired = !efsan_internal_strcmp(vendor, "GenuineIntel");
  efsan_snprintf(cf_pairing_why, sizeof(cf_pairing_why),
                 "cpuid: %s family %u model %u: %s", vendor, family, model,
                 cf_paired ? "adjacent-line prefetch pairs lines"
                           : "no 128-byte line pairing");
}

//===-- Transfer cost -----------------------------------------------------===//
//
// A runtime thread (the probe) measures in the background, from start-up on,
// so that neither the program's start nor its threads wait for it: it pins
// itself to one CPU, starts a partner on another and passes one line back
// and forth with it. Both threads must run at once, which a loaded machine
// or one that runs the program's own threads may not allow for a while: an
// attempt that gets no good batches in its 2 ms is followed by another after
// a sleep, up to CF_PING_ATTEMPTS. The report takes the value when it needs
// one (cf_machine_settle), waiting a little for an attempt under way.

// One attempt's line and handshake, each attempt its own: a partner of an
// earlier attempt that wakes up late never answers a later one.
struct cf_ping_attempt {
  _Alignas(64) volatile u64 line; // odd: the probe's ping, even: the answer
  _Alignas(64) u64 partner_mask[CF_AFFINITY_WORDS];
  volatile int ready, done, pinned;
};
#define CF_PING_STOP (~0ull)
#define CF_PING_ATTEMPTS 12
// Sleep before attempt a (ms): short at first, then spread over about half a
// second of the program's run.
#define CF_PING_SLEEP_MS(a) ((a) < 4 ? 2u : 60u)
// The probe's first attempt waits this long (ms) after start-up.
#define CF_PING_FIRST_SLEEP_MS 20u
// The report's own attempts (cf_machine_settle) take slots of their own.
#define CF_PING_REPORT_ATTEMPTS 16
// With a profile and a start-up reading, the end's reading only tells the
// state: a few attempts, so that a busy machine's exit waits little.
#define CF_PING_END_ATTEMPTS 4
#define CF_PING_SLOTS (CF_PING_ATTEMPTS + CF_PING_REPORT_ATTEMPTS)
static struct cf_ping_attempt cf_attempts[CF_PING_SLOTS];
static u32 cf_attempts_used;

// The probe's results, published by cf_probe_done; the report copies them
// into cf_transfer once (cf_machine_settle), so a late result never changes
// a report half written.
static int cf_probe_pid;
static volatile int cf_probe_done, cf_probe_hurry;
static u32 cf_probe_ns;
static int cf_probe_first, cf_probe_second;
static bool cf_probe_outside_mask;
static const char *cf_probe_failure;
static u64 cf_probe_mask[CF_AFFINITY_WORDS];
static bool cf_settled;
// The run has a machine profile: its ping-pong tells the profile's state.
static bool cf_probe_for_state;
// Its start waits for the program's second thread.
static int cf_probe_deferred;
static void cf_start_probe(void);

static inline u64 cf_ping_ticks(void) { return __builtin_ia32_rdtsc(); }

static void cf_add_measuring_cpu(void) {
  __atomic_fetch_add(&cf_measuring_ns, efsan_thread_cpu_ns(), __ATOMIC_RELAXED);
}

// The partner spins only while pings come: when none came for a stall's
// time (the probe descheduled, by the program's own threads among others),
// it sleeps between looks, so that it never holds its CPU from the program.
// Spinning out its whole deadline there delayed a program's second thread
// by 8-9 ms in 4 of 6 starts (5 of 6 under SCHED_FIFO): a producer then
// polled its ring for 13 million accesses before its consumer ran.
static void cf_ping_answer(struct cf_ping_attempt *at) {
  __atomic_store_n(&at->ready, 1, __ATOMIC_RELEASE);
  u64 deadline = efsan_monotonic_ns() + 4 * CF_PING_BUDGET_NS;
  u64 looked = 0, looked_ticks = cf_ping_ticks();
  for (u64 spins = 1;; spins++) {
    u64 v = __atomic_load_n(&at->line, __ATOMIC_ACQUIRE);
    if (v == CF_PING_STOP)
      return;
    // Never overwrites the stop the probe may have written since.
    if (v & 1)
      __atomic_compare_exchange_n(&at->line, &v, v + 1, false,
                                  __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
    if (spins & 255)
      continue;
    u64 now = cf_ping_ticks();
    if (v != looked) {
      looked = v;
      looked_ticks = now;
    } else if (now - looked_ticks > CF_PING_STALL_TICKS) {
      efsan_sleep_us(50);
    }
    if (!(spins & 65535) && efsan_monotonic_ns() > deadline)
      return; // the probe gave up long ago
  }
}

static void cf_ping_partner(void *arg) {
  struct cf_ping_attempt *at = (struct cf_ping_attempt *)arg;
  bool pinned = efsan_set_affinity(at->partner_mask, CF_AFFINITY_WORDS);
  __atomic_store_n(&at->pinned, pinned ? 1 : -1, __ATOMIC_RELEASE);
  if (pinned)
    cf_ping_answer(at);
  cf_add_measuring_cpu();
  __atomic_store_n(&at->done, 1, __ATOMIC_RELEASE);
}

// One attempt: the number of good batches, the fastest in *best_ns (kept if
// faster than what it holds). *unpinnable when the partner's CPU refused it.
static u32 cf_ping_attempt(struct cf_ping_attempt *at, int second,
                           u64 *best_ns, bool *unpinnable) {
  efsan_internal_memset(at->partner_mask, 0, sizeof(at->partner_mask));
  at->partner_mask[second / 64] = 1ull << (second % 64);
  at->line = 0;
  at->ready = at->done = at->pinned = 0;
  if (!efsan_start_sideline_thread(cf_ping_partner, at))
    return 0;
  // The wait counts from the creation's end: creating a thread takes
  // milliseconds on a loaded machine, longer than the whole budget. It
  // sleeps, so that on a busy CPU this thread is the one the scheduler owes
  // time to when the partner is ready.
  u64 start = efsan_monotonic_ns();
  while (!__atomic_load_n(&at->ready, __ATOMIC_ACQUIRE) &&
         !__atomic_load_n(&at->done, __ATOMIC_ACQUIRE) &&
         efsan_monotonic_ns() - start < CF_PING_BUDGET_NS)
    efsan_sleep_us(50);
  u32 batches = 0;
  if (__atomic_load_n(&at->ready, __ATOMIC_ACQUIRE)) {
    // Timed by the TSC: a clock read in the loop would add about a
    // microsecond to the round trip it falls in. The ticks become ns at the
    // TSC's rate over the whole attempt.
    start = efsan_monotonic_ns();
    u64 start_ticks = cf_ping_ticks(), best_ticks = ~0ull, next = 1;
    while (efsan_monotonic_ns() - start < CF_PING_BUDGET_NS &&
           batches < CF_PING_ENOUGH_BATCHES) {
      u64 batch_start = cf_ping_ticks();
      bool stalled = false;
      for (u32 r = 0; r < CF_PING_ROUNDS && !stalled; r++) {
        __atomic_store_n(&at->line, next, __ATOMIC_RELEASE);
        for (u64 spins = 1;
             __atomic_load_n(&at->line, __ATOMIC_ACQUIRE) != next + 1; spins++)
          if (!(spins & 255) &&
              cf_ping_ticks() - batch_start > (r + 1) * CF_PING_STALL_TICKS) {
            stalled = true;
            break;
          }
        if (stalled) {
          // The partner answers late or never: wait for it without
          // spinning, its CPU is busy with something else.
          while (__atomic_load_n(&at->line, __ATOMIC_ACQUIRE) == next &&
                 efsan_monotonic_ns() - start < CF_PING_BUDGET_NS)
            efsan_sleep_ms(0);
        }
        next += 2;
      }
      u64 took = cf_ping_ticks() - batch_start;
      if (!stalled && took < best_ticks)
        best_ticks = took;
      batches += !stalled;
    }
    u64 ticks = cf_ping_ticks() - start_ticks;
    u64 ns = efsan_monotonic_ns() - start;
    if (batches && ticks) {
      u64 best = (u64)((double)best_ticks * (double)ns / (double)ticks);
      if (best < *best_ns)
        *best_ns = best;
    }
  }
  __atomic_store_n(&at->line, CF_PING_STOP, __ATOMIC_RELEASE);
  // So that the partner's CPU time is counted in the measurement's
  // (bounded: it may never have run).
  u64 waited = efsan_monotonic_ns();
  while (!__atomic_load_n(&at->done, __ATOMIC_ACQUIRE) &&
         efsan_monotonic_ns() - waited < 1000000)
    efsan_sleep_ms(0);
  *unpinnable = __atomic_load_n(&at->pinned, __ATOMIC_ACQUIRE) < 0;
  return batches;
}

// The CPU after `first` among the machine's online CPUs, for a program
// pinned to one: the transfer is the machine's, whatever the program's mask.
int cf_other_online_cpu(int first) {
  char text[256];
  if (efsan_read_file("/sys/devices/system/cpu/online", text, sizeof(text)) <= 0)
    return -1;
  int best = -1;
  for (const char *p = text; *p >= '0' && *p <= '9';) {
    int lo = 0, hi;
    while (*p >= '0' && *p <= '9')
      lo = lo * 10 + (*p++ - '0');
    hi = lo;
    if (*p == '-') {
      hi = 0;
      for (p++; *p >= '0' && *p <= '9';)
        hi = hi * 10 + (*p++ - '0');
    }
    for (int c = lo; c <= hi && c < CF_AFFINITY_WORDS * 64; c++)
      if (c != first && best < 0)
        best = c;
    if (*p == ',')
      p++;
  }
  return best;
}

// Runs on the probe thread, or on the reporting thread when the probe did
// not measure (its mask is restored).
static void cf_probe_run(u32 attempts) {
  u64 mine[CF_AFFINITY_WORDS], before[CF_AFFINITY_WORDS];
  bool restore = efsan_get_affinity(before, CF_AFFINITY_WORDS);
  efsan_internal_memset(mine, 0, sizeof(mine));
  mine[cf_probe_first / 64] = 1ull << (cf_probe_first % 64);
  u64 best = ~0ull;
  u32 batches = 0, a = 0;
  const char *failure = "the ping-pong did not run on two CPUs";
  if (!efsan_set_affinity(mine, CF_AFFINITY_WORDS)) {
    failure = "no CPU to pin to";
  } else {
    for (; a < attempts && batches < CF_PING_MIN_BATCHES; a++) {
      if (a)
        efsan_sleep_ms(__atomic_load_n(&cf_probe_hurry, __ATOMIC_ACQUIRE)
                           ? 1
                           : CF_PING_SLEEP_MS(a));
      bool unpinnable = false;
      struct cf_ping_attempt *at =
          &cf_attempts[cf_attempts_used++ % CF_PING_SLOTS];
      u32 good = cf_ping_attempt(at, cf_probe_second, &best, &unpinnable);
      // Good batches of several attempts add up: each is a round trip
      // timed with both threads on their CPUs.
      batches += good;
      if (unpinnable) {
        failure = "the other CPU refused the partner";
        a++;
        break;
      }
    }
  }
  if (restore)
    efsan_set_affinity(before, CF_AFFINITY_WORDS);
  u64 one_way = batches >= CF_PING_MIN_BATCHES
                    ? (best + CF_PING_ROUNDS) / (2 * CF_PING_ROUNDS)
                    : 0;
  efsan_vreport(2, "cache-frag: ping-pong between CPUs %d and %d: %u attempts, "
                   "%u good batches of %d round trips, one way %llu ns\n",
                cf_probe_first, cf_probe_second, a, batches, CF_PING_ROUNDS,
                one_way);
  // Outside what any machine does: a measurement the scheduler spoiled.
  cf_probe_ns = one_way >= 10 && one_way <= 2000 ? (u32)one_way : 0;
  cf_probe_failure = failure;
}

static void cf_probe_main(void *arg) {
  (void)arg;
  // The ping-pong keeps two CPUs busy for up to 2 ms: a process that ends
  // sooner than this (a child of a server, a build's compiler run, a shell
  // pipeline's stage) would wait for its CPU, and measures nothing it needs
  // unless it has findings, which its report then measures itself.
  for (u32 ms = 0; ms < CF_PING_FIRST_SLEEP_MS &&
                   !__atomic_load_n(&cf_probe_hurry, __ATOMIC_ACQUIRE);
       ms++)
    efsan_sleep_ms(1);
  cf_probe_run(CF_PING_ATTEMPTS);
  cf_add_measuring_cpu();
  __atomic_store_n(&cf_probe_done, 1, __ATOMIC_RELEASE);
}

u32 cf_measure_transfer(int first, int second) {
  cf_probe_first = first;
  cf_probe_second = second;
  cf_probe_ns = 0;
  cf_probe_run(CF_PING_ATTEMPTS);
  return cf_probe_ns;
}

// With a profile, the run that cannot tell its state is priced at the
// median of all the profile's rounds, and says why.
static void cf_unknown_state(const char *why) {
  u32 n = cf_profile_count(CF_PROFILE_TRANSFER);
  efsan_snprintf(cf_transfer_why, sizeof(cf_transfer_why),
                 "machine profile: median of its %u rounds, %u-%u ns; which "
                 "state this run met is not known (%s)",
                 n, cf_profile_low(CF_PROFILE_TRANSFER),
                 cf_profile_high(CF_PROFILE_TRANSFER), why);
  cf_transfer_from = cf_transfer_why;
}

// Which of the profile's states the run met, from the transfers its
// ping-pong measured at its start and its end: the claims' point is priced
// at the median of the profile's rounds in that state (a VM's vCPUs in one
// core complex or in two: the same loop loses 5% in one and 45% in the
// other, and the claim follows what the machine does); the ranges stay
// over all rounds. A run that met two states is priced over all rounds; a
// transfer no round of the profile met is this run's own, beside the
// profile's bounds over all rounds.
static void cf_settle_state(u32 at_start, u32 at_end) {
  if (at_start && at_end &&
      cf_profile_state_of(at_start) != cf_profile_state_of(at_end)) {
    char why[96];
    efsan_snprintf(why, sizeof(why),
                   "it met two: %u ns at its start, %u ns at its end",
                   at_start, at_end);
    cf_unknown_state(why);
    return;
  }
  u32 measured = at_end ? at_end : at_start;
  char when[64];
  if (at_start && at_end)
    efsan_snprintf(when, sizeof(when), "%u ns at its start, %u ns at its end",
                   at_start, at_end);
  else
    efsan_snprintf(when, sizeof(when), "%u ns at its %s", measured,
                   at_end ? "end" : "start");
  u32 rounds = cf_profile_select_state(measured);
  u32 n = cf_profile_count(CF_PROFILE_TRANSFER);
  if (!rounds) {
    cf_transfer = measured;
    efsan_snprintf(cf_transfer_why, sizeof(cf_transfer_why),
                   "measured; none of the machine profile's %u rounds met a "
                   "transfer near it (%u-%u ns): efsan-calibrate adds this "
                   "state",
                   n, cf_profile_low(CF_PROFILE_TRANSFER),
                   cf_profile_high(CF_PROFILE_TRANSFER));
    cf_transfer_from = cf_transfer_why;
    return;
  }
  cf_transfer = cf_profile_point(CF_PROFILE_TRANSFER);
  efsan_snprintf(cf_transfer_why, sizeof(cf_transfer_why),
                 "machine profile: median of the %u of its %u rounds in the "
                 "state this run met (%u-%u ns; this run measured %s)",
                 rounds, n, cf_profile_state_low(CF_PROFILE_TRANSFER),
                 cf_profile_state_high(CF_PROFILE_TRANSFER), when);
  cf_transfer_from = cf_transfer_why;
}

static void cf_no_measurement(const char *why) {
  if (cf_probe_for_state) {
    cf_unknown_state(why);
    return;
  }
  efsan_snprintf(cf_transfer_why, sizeof(cf_transfer_why), "default (%s)", why);
  cf_transfer_from = cf_transfer_why;
}

static void cf_decide_transfer(void) {
  cf_transfer = CF_DEFAULT_TRANSFER_NS;
  cf_settled = true;
  if (efsan_flags.cache_frag_transfer_ns) {
    // With a profile, its rounds of that transfer's state give the bounds.
    cf_transfer = (u32)efsan_flags.cache_frag_transfer_ns;
    cf_transfer_from = "cache_frag_transfer_ns";
    u32 rounds = cf_profile_has(CF_PROFILE_TRANSFER)
                     ? cf_profile_select_state(cf_transfer)
                     : 0;
    if (rounds) {
      efsan_snprintf(cf_transfer_why, sizeof(cf_transfer_why),
                     "cache_frag_transfer_ns; the machine profile's bounds "
                     "of the %u of its %u rounds in that state",
                     rounds, cf_profile_count(CF_PROFILE_TRANSFER));
      cf_transfer_from = cf_transfer_why;
    }
    return;
  }
  // The machine profile's: the same in every run that meets the machine in
  // the same state, however busy or pinned the run. The run's own
  // ping-pong only tells which of the profile's states it met
  // (cf_settle_state); until it does, or where it cannot, the profile's
  // median over all its rounds.
  cf_probe_for_state = cf_profile_has(CF_PROFILE_TRANSFER);
  if (cf_probe_for_state) {
    cf_transfer = cf_profile_point(CF_PROFILE_TRANSFER);
    cf_unknown_state("the ping-pong had not run");
  }
  if (!efsan_flags.cache_frag_measure_transfer) {
    cf_no_measurement("cache_frag_measure_transfer=0");
    return;
  }
  u64 *mask = cf_probe_mask;
  if (!efsan_get_affinity(mask, CF_AFFINITY_WORDS)) {
    cf_no_measurement("no affinity mask");
    return;
  }
  int first = -1, second = -1;
  for (int c = 0; c < CF_AFFINITY_WORDS * 64 && second < 0; c++)
    if (mask[c / 64] >> (c % 64) & 1) {
      if (first < 0)
        first = c;
      else
        second = c;
    }
  cf_probe_outside_mask = second < 0;
  if (second < 0 && first >= 0)
    second = cf_other_online_cpu(first);
  if (first < 0 || second < 0) {
    cf_no_measurement("one CPU");
    return;
  }
  cf_probe_first = first;
  cf_probe_second = second;
  cf_settled = false;
  // With a profile the ping-pong only tells the state, which matters only
  // where lines are shared: it starts with the program's second thread
  // (cf_machine_thread_created), so that a process that runs one thread (a
  // server's child, a compiler run) does not pay for a thread of its own.
  if (cf_probe_for_state) {
    cf_probe_deferred = 1;
    return;
  }
  cf_start_probe();
}

static void cf_start_probe(void) {
  cf_probe_pid = efsan_getpid();
  if (!efsan_start_sideline_thread(cf_probe_main, 0)) {
    cf_probe_failure = "no thread for the ping-pong";
    __atomic_store_n(&cf_probe_done, 1, __ATOMIC_RELEASE);
  }
}

void cf_machine_thread_created(void) {
  if (__atomic_load_n(&cf_probe_deferred, __ATOMIC_RELAXED) &&
      __atomic_exchange_n(&cf_probe_deferred, 0, __ATOMIC_ACQ_REL))
    cf_start_probe();
}

void cf_machine_settle(bool needed) {
  if (cf_settled)
    return;
  if (__atomic_exchange_n(&cf_probe_deferred, 0, __ATOMIC_ACQ_REL)) {
    // The program never ran a second thread: the report's own attempts
    // below, where there is something to price.
    cf_probe_failure = "the program ran one thread";
    cf_probe_ns = 0;
    __atomic_store_n(&cf_probe_done, 1, __ATOMIC_RELEASE);
  }
  if (!__atomic_load_n(&cf_probe_done, __ATOMIC_ACQUIRE)) {
    if (!needed) {
      // Nothing to price: the report says the measurement was under way.
      cf_no_measurement("the ping-pong had not finished");
      return;
    }
    if (cf_probe_pid != efsan_getpid()) {
      // A child forked before the probe finished has no probe thread: the
      // report's own attempts below measure.
      cf_probe_ns = 0;
      cf_probe_done = 1;
    } else {
      // The program is done with its CPUs: the next attempt starts now.
      __atomic_store_n(&cf_probe_hurry, 1, __ATOMIC_RELEASE);
      u64 start = efsan_monotonic_ns();
      while (!__atomic_load_n(&cf_probe_done, __ATOMIC_ACQUIRE) &&
             efsan_monotonic_ns() - start < 200000000ull)
        efsan_sleep_ms(1);
    }
  }
  if (!__atomic_load_n(&cf_probe_done, __ATOMIC_ACQUIRE)) {
    cf_no_measurement("the ping-pong had not finished");
    cf_settled = true;
    return;
  }
  // With a profile, the state is measured at the run's end too: a VM's
  // vCPUs change state every few seconds, and a run that met both is
  // priced at the profile's median.
  u32 at_start = cf_probe_ns;
  if ((!cf_probe_ns || cf_probe_for_state) && needed) {
    // Without a reading, every attempt met a busy CPU while the program ran
    // (or none ran in this process); its threads are done now.
    __atomic_store_n(&cf_probe_hurry, 1, __ATOMIC_RELEASE);
    u64 before = efsan_thread_cpu_ns();
    cf_probe_run(at_start ? CF_PING_END_ATTEMPTS : CF_PING_REPORT_ATTEMPTS);
    __atomic_fetch_add(&cf_measuring_ns, efsan_thread_cpu_ns() - before,
                       __ATOMIC_RELAXED);
  }
  cf_settled = true;
  if (!cf_probe_ns && !at_start) {
    cf_no_measurement(cf_probe_failure);
    return;
  }
  if (cf_probe_for_state) {
    cf_settle_state(at_start, cf_probe_ns);
    return;
  }
  cf_transfer = cf_probe_ns;
  if (cf_probe_outside_mask) {
    efsan_snprintf(cf_transfer_why, sizeof(cf_transfer_why),
                   "measured between CPUs %d and %d, outside the program's "
                   "affinity mask",
                   cf_probe_first, cf_probe_second);
    cf_transfer_from = cf_transfer_why;
  } else {
    cf_transfer_from = "measured";
  }
}

void cf_machine_init(void) {
  cf_profile_load();
  if (efsan_flags.cache_frag_calibrate)
    cf_calibrate_machine();
  cf_decide_pairing();
  cf_decide_transfer();
}

//===-- A line both threads keep taking -------------------------------------===//

static double cf_profile_share(int kind, u32 ppm, double otherwise) {
  return cf_profile_has(kind) ? (double)ppm / 1000000 : otherwise;
}

u32 cf_profile_rounds_without_cost(void) {
  if (!cf_profile_has(CF_PROFILE_HAMMERED) ||
      cf_profile_high(CF_PROFILE_HAMMERED) <= CF_COSTLY_LOSS * 1000000)
    return 0;
  return cf_profile_count_at_most(CF_PROFILE_HAMMERED,
                                  (u32)(CF_FREE_LOSS * 1000000));
}

double cf_contended_share(void) {
  return cf_profile_share(CF_PROFILE_HAMMERED,
                          cf_profile_point(CF_PROFILE_HAMMERED),
                          CF_CONTENDED_SHARE);
}

// ln(x) for x > 0 without libm: x = m * 2^e with m in [1, 2), and
// ln(m) = 2 atanh((m - 1) / (m + 1)) by its series.
static double cf_log(double x) {
  int e = 0;
  for (; x >= 2; e++)
    x *= 0.5;
  for (; x < 1; e--)
    x *= 2;
  double t = (x - 1) / (x + 1), t2 = t * t, sum = 0, power = t;
  for (int k = 1; k < 40; k += 2, power *= t2)
    sum += power / k;
  return 2 * sum + e * 0.69314718055994530942;
}

static double cf_profile_at(int kind, int end) {
  u32 ppm = end == 1   ? cf_profile_low(kind)
            : end == 2 ? cf_profile_high(kind)
                       : cf_profile_point(kind);
  return (double)ppm / 1000000;
}

// The profile's loops with work between writes, at the pass's counts of
// them (the first, third and last are needed; a profile written before
// efsan-calibrate measured 1, 2 and 4 steps lacks the others).
static const struct {
  u32 work;
  int kind;
} cf_loop_points[] = {
    {CF_WORK_ONE_WRITE, CF_PROFILE_ONE_WRITE}, {CF_WORK_1, CF_PROFILE_WORK_1},
    {CF_WORK_2, CF_PROFILE_WORK_2},            {CF_WORK_4, CF_PROFILE_WORK_4},
    {CF_WORK_8, CF_PROFILE_WORK_8},            {CF_WORK_32, CF_PROFILE_WORK_32}};
#define CF_LOOP_POINTS (sizeof(cf_loop_points) / sizeof(cf_loop_points[0]))
_Static_assert(CF_LOOP_POINTS == CF_PROFILE_LOOP_POINTS,
               "cf_loop_points lists every loop shape of the profile");

u32 cf_contended_loop_points(u32 *works) {
  if (!cf_profile_has(CF_PROFILE_ONE_WRITE) ||
      !cf_profile_has(CF_PROFILE_WORK_8) || !cf_profile_has(CF_PROFILE_WORK_32))
    return 0;
  u32 n = 0;
  for (u32 i = 0; i < CF_LOOP_POINTS; i++)
    if (cf_profile_has(cf_loop_points[i].kind))
      works[n++] = cf_loop_points[i].work;
  return n;
}

// Up to CF_WORK_ONE_WRITE, the loops with one write per iteration and no
// work; then linear in the logarithm of the work through the loops with 1,
// 2, 4, 8 and 32 steps of it, and the last's beyond. With its vCPUs in one
// core complex an AMD VM's loops lost 94%, 80%, 63%, 26%, 6% and 1% (8 to
// 247 instructions per write), in two 70%, 56%, 61%, 56%, 50% and 38%
// (medians of 14 and 18 rounds): where a loop with more work lost more,
// the two are read at their mean (pooled, as many times as it takes), so
// that a claim never rises with the work and a dip at one shape does not
// pull its neighbours down.
bool cf_contended_share_for_work(double work, int end, double *share) {
  u32 works[CF_PROFILE_LOOP_POINTS];
  u32 points = cf_contended_loop_points(works);
  if (!points)
    return false;
  // Pool adjacent violators: blocks of shapes, each at its mean; first:
  // the block's first point.
  double mean[CF_LOOP_POINTS], weight[CF_LOOP_POINTS];
  u32 first[CF_LOOP_POINTS], blocks = 0;
  for (u32 i = 0, p = 0; i < CF_LOOP_POINTS; i++) {
    if (!cf_profile_has(cf_loop_points[i].kind))
      continue;
    mean[blocks] = cf_profile_at(cf_loop_points[i].kind, end);
    weight[blocks] = 1;
    first[blocks++] = p++;
    while (blocks > 1 && mean[blocks - 1] > mean[blocks - 2]) {
      double w = weight[blocks - 2] + weight[blocks - 1];
      mean[blocks - 2] = (mean[blocks - 2] * weight[blocks - 2] +
                          mean[blocks - 1] * weight[blocks - 1]) /
                         w;
      weight[blocks - 2] = w;
      blocks--;
    }
  }
  double before_work = 0, before = 0;
  for (u32 p = 0, b = 0; p < points; p++) {
    while (b + 1 < blocks && first[b + 1] <= p)
      b++;
    double at_work = works[p], at = mean[b];
    if (work <= at_work) {
      *share = p == 0 ? at
                      : before + (at - before) * cf_log(work / before_work) /
                                     cf_log(at_work / before_work);
      return true;
    }
    before_work = at_work;
    before = at;
  }
  *share = before;
  return true;
}

// From the least any loop shape lost in any round to the most any lost,
// stores between writes included (what a claim at the bound may be for a
// loop of another shape, or code built at -O0).
void cf_contended_range(double *low, double *high) {
  int least = cf_profile_has(CF_PROFILE_HAMMERED_LEAST)
                  ? CF_PROFILE_HAMMERED_LEAST
                  : CF_PROFILE_HAMMERED;
  *low = cf_profile_share(least, cf_profile_low(least), CF_CONTENDED_SHARE);
  int most = cf_profile_has(CF_PROFILE_HAMMERED_MOST) ? CF_PROFILE_HAMMERED_MOST
                                                     : CF_PROFILE_HAMMERED;
  *high = cf_profile_share(most, cf_profile_high(most), CF_CONTENDED_SHARE);
}

// Code built without optimisation: the profile's loop with 1 step of work
// built so; a profile written before it measured that loop has the loop with
// 8 stores between writes, one older still its most over all shapes, which
// was that loop's, and one older still only the optimised loops' bound.
// With its vCPUs in one core complex an AMD VM's -O0 calibration pair
// gained 0.36-0.46, the loop with 1 step 24-57%, the 8 stores 57-89%.
static int cf_unoptimised_kind(void) {
  if (cf_profile_has(CF_PROFILE_UNOPTIMISED))
    return CF_PROFILE_UNOPTIMISED;
  if (cf_profile_has(CF_PROFILE_HAMMERED_STORES))
    return CF_PROFILE_HAMMERED_STORES;
  if (cf_profile_has(CF_PROFILE_HAMMERED_MOST))
    return CF_PROFILE_HAMMERED_MOST;
  return CF_PROFILE_HAMMERED;
}

double cf_contended_unoptimised_share(void) {
  int kind = cf_unoptimised_kind();
  return cf_profile_share(kind, cf_profile_point(kind),
                          CF_CONTENDED_UNOPTIMISED_SHARE);
}

// Down to the optimised loops' bound, up to the loop with stores alone
// between writes: code built at -O0 with more work between its writes
// loses less, with less more.
void cf_contended_unoptimised_range(double *low, double *high) {
  int kind = cf_unoptimised_kind();
  double unoptimised = cf_profile_share(kind, cf_profile_low(kind),
                                        CF_CONTENDED_UNOPTIMISED_SHARE);
  double optimised = cf_profile_share(CF_PROFILE_HAMMERED,
                                      cf_profile_low(CF_PROFILE_HAMMERED),
                                      CF_CONTENDED_SHARE);
  *low = unoptimised < optimised ? unoptimised : optimised;
  *high = cf_profile_share(kind, cf_profile_high(kind),
                           CF_CONTENDED_UNOPTIMISED_SHARE);
  if (cf_profile_has(CF_PROFILE_HAMMERED_STORES)) {
    double stores = (double)cf_profile_high(CF_PROFILE_HAMMERED_STORES) / 1000000;
    *high = stores > *high ? stores : *high;
  }
}

// The kind that prices a fix of an atomic: kept on a line of its own, or
// removed (a profile of before rmw_removed_loss_ppm has only the first).
static int cf_rmw_kind(bool removed) {
  return removed && cf_profile_has(CF_PROFILE_RMW_REMOVED)
             ? CF_PROFILE_RMW_REMOVED
             : CF_PROFILE_RMW;
}

double cf_contended_rmw_share(bool removed) {
  int kind = cf_rmw_kind(removed);
  return cf_profile_share(kind, cf_profile_point(kind),
                          CF_CONTENDED_RMW_SHARE);
}

// A loop's atomic with work between its adds loses less than a bare one:
// the other core takes the line while this one works, and fewer of its
// adds find it away. With its vCPUs in one core complex an AMD VM's bare
// atomic cost its threads 98% of their time against private copies, and its
// calibration pair with a step of xorshift between adds gained 0.91. Where
// the one after 1 step lost more, both are read at their mean (as the
// plain loops are pooled). efsan-calibrate measures the four together.
bool cf_contended_rmw_share_for_work(bool removed, double work, int end,
                                     double *share) {
  int bare_kind = removed ? CF_PROFILE_RMW_REMOVED : CF_PROFILE_RMW;
  int work_kind =
      removed ? CF_PROFILE_RMW_REMOVED_WORK_1 : CF_PROFILE_RMW_WORK_1;
  if (work <= 0 || !cf_profile_has(bare_kind) || !cf_profile_has(work_kind))
    return false;
  double bare = cf_profile_at(bare_kind, end),
         after = cf_profile_at(work_kind, end);
  if (after > bare)
    bare = after = (bare + after) / 2;
  if (work <= CF_WORK_RMW_BARE)
    *share = bare;
  else if (work >= CF_WORK_RMW_1)
    *share = after;
  else
    *share = bare + (after - bare) * cf_log(work / CF_WORK_RMW_BARE) /
                        cf_log((double)CF_WORK_RMW_1 / CF_WORK_RMW_BARE);
  return true;
}

void cf_contended_rmw_range(bool removed, double *low, double *high) {
  int kind = cf_rmw_kind(removed);
  *low = cf_profile_share(kind, cf_profile_low(kind), CF_CONTENDED_RMW_SHARE);
  *high = cf_profile_share(kind, cf_profile_high(kind), CF_CONTENDED_RMW_SHARE);
}

void cf_transfer_range(u32 *low, u32 *high) {
  bool profiled = cf_profile_has(CF_PROFILE_TRANSFER) &&
                  !efsan_flags.cache_frag_transfer_ns;
  *low = profiled ? cf_profile_low(CF_PROFILE_TRANSFER) : cf_transfer;
  *high = profiled ? cf_profile_high(CF_PROFILE_TRANSFER) : cf_transfer;
}
