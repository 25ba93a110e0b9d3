//===-- efsan_cache_frag_machine.c - what this machine's caches cost ------===//
//
// Two facts about the machine the cache-frag report prices its findings
// with, decided once at start-up:
// - the cost of moving a cache line from one core to another (the transfer
//   an invalidation forces), measured by a short ping-pong of one line
//   between two threads pinned to two CPUs of the affinity mask; a default
//   where that cannot be done (one CPU, cache_frag_measure_transfer=0, a
//   loaded machine that never ran both threads at once);
//   cache_frag_transfer_ns overrides both;
// - whether the CPU fetches lines in 128-byte pairs (Intel's adjacent-line
//   prefetch does; AMD's does not), from cpuid, so that a 128-byte-line
//   prediction counts only where it can happen (cache_frag_line_pairs
//   overrides).
// It does not price findings (efsan_cache_frag_findings.c does) and never
// blocks the program: every wait is bounded in iterations and in time.
// docs/CacheFrag.md explains both numbers.
//
//===----------------------------------------------------------------------===//
#include "efsan_cache_frag_internal.h"

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
static u64 cf_measuring_ns;

u32 cf_transfer_ns(void) { return cf_transfer; }
const char *cf_transfer_source(void) { return cf_transfer_from; }
bool cf_lines_paired(void) { return cf_paired; }
u64 cf_machine_cpu_ns(void) { return cf_measuring_ns; }
const char *cf_pairing_source(void) { return cf_pairing_why; }

//===-- Line pairing ------------------------------------------------------===//

static void cf_decide_pairing(void) {
  const char *option = efsan_flags.cache_frag_line_pairs;
  if (!efsan_internal_strcmp(option, "yes") ||
      !efsan_internal_strcmp(option, "no")) {
    cf_paired = option[0] == 'y';
    efsan_snprintf(cf_pairing_why, sizeof(cf_pairing_why),
                   "cache_frag_line_pairs=%s", option);
    return;
  }
  unsigned a, b, c, d;
  char vendor[13];
  if (!__get_cpuid(0, &a, &b, &c, &d)) {
    cf_paired = false;
    efsan_snprintf(cf_pairing_why, sizeof(cf_pairing_why), "no cpuid");
    return;
  }
  efsan_internal_memcpy(vendor, &b, 4);
  efsan_internal_memcpy(vendor + 4, &d, 4);
  efsan_internal_memcpy(vendor + 8, &c, 4);
  vendor[12] = 0;
  unsigned family = 0, model = 0;
  if (__get_cpuid(1, &a, &b, &c, &d)) {
    family = (a >> 8) & 0xf;
    model = (a >> 4) & 0xf;
    if (family == 0xf)
      family += (a >> 20) & 0xff;
    if (family == 6 || family >= 0xf)
      model |= ((a >> 16) & 0xf) << 4;
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

// The line the two threads pass back and forth: the main thread writes an
// odd value, the partner answers with the next even one.
static _Alignas(64) volatile u64 cf_ping_line[8];
#define CF_PING_STOP (~0ull)
static u64 cf_partner_mask[CF_AFFINITY_WORDS];
static volatile int cf_partner_ready, cf_partner_done;

static inline u64 cf_ping_ticks(void) { return __builtin_ia32_rdtsc(); }

static void cf_ping_answer(void) {
  __atomic_store_n(&cf_partner_ready, 1, __ATOMIC_RELEASE);
  u64 deadline = efsan_monotonic_ns() + 4 * CF_PING_BUDGET_NS;
  for (u64 spins = 1;; spins++) {
    u64 v = __atomic_load_n(&cf_ping_line[0], __ATOMIC_ACQUIRE);
    if (v == CF_PING_STOP)
      return;
    // Never overwrites the stop the main thread may have written since.
    if (v & 1)
      __atomic_compare_exchange_n(&cf_ping_line[0], &v, v + 1, false,
                                  __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
    if (!(spins & 65535) && efsan_monotonic_ns() > deadline)
      return; // the main thread gave up long ago
  }
}

static void cf_ping_partner(void *arg) {
  (void)arg;
  if (efsan_set_affinity(cf_partner_mask, CF_AFFINITY_WORDS))
    cf_ping_answer();
  __atomic_store_n(&cf_partner_done, 1, __ATOMIC_RELEASE);
}

// The fastest one-way transfer over the batches that ran with both threads
// on their CPUs, or 0.
static u32 cf_ping_pong(const u64 *mask) {
  int first = -1, second = -1;
  for (int c = 0; c < CF_AFFINITY_WORDS * 64 && second < 0; c++)
    if (mask[c / 64] >> (c % 64) & 1) {
      if (first < 0)
        first = c;
      else
        second = c;
    }
  if (second < 0)
    return 0;
  u64 mine[CF_AFFINITY_WORDS];
  efsan_internal_memset(mine, 0, sizeof(mine));
  efsan_internal_memset(cf_partner_mask, 0, sizeof(cf_partner_mask));
  mine[first / 64] = 1ull << (first % 64);
  cf_partner_mask[second / 64] = 1ull << (second % 64);
  cf_ping_line[0] = 0;
  u64 best = ~0ull, next = 1;
  u32 batches = 0;
  // The partner starts with this thread's mask and moves to its CPU; this
  // thread pins itself only once the partner runs there (pinned first, it
  // could hold the one CPU the partner starts on).
  bool running = efsan_start_sideline_thread(cf_ping_partner, 0);
  // The wait for the partner counts from its creation's end: creating the
  // first thread of a process (its stack, the allocator's first block)
  // takes 5-7 ms on a loaded machine, longer than the whole budget.
  u64 start = efsan_monotonic_ns();
  while (running && !__atomic_load_n(&cf_partner_ready, __ATOMIC_ACQUIRE) &&
         !__atomic_load_n(&cf_partner_done, __ATOMIC_ACQUIRE) &&
         efsan_monotonic_ns() - start < CF_PING_BUDGET_NS)
    efsan_sleep_ms(0);
  running = running && __atomic_load_n(&cf_partner_ready, __ATOMIC_ACQUIRE) &&
            efsan_set_affinity(mine, CF_AFFINITY_WORDS);
  // The batches are timed by the TSC: a clock read in the loop (a system
  // call this early in the process) would add about a microsecond to the
  // round trip it falls in. The ticks become ns at the TSC's rate over the
  // whole ping-pong.
  start = efsan_monotonic_ns();
  u64 start_ticks = cf_ping_ticks(), best_ticks = ~0ull;
  if (running) {
    while (efsan_monotonic_ns() - start < CF_PING_BUDGET_NS &&
           batches < CF_PING_ENOUGH_BATCHES) {
      u64 batch_start = cf_ping_ticks();
      bool stalled = false;
      for (u32 r = 0; r < CF_PING_ROUNDS && !stalled; r++) {
        __atomic_store_n(&cf_ping_line[0], next, __ATOMIC_RELEASE);
        for (u64 spins = 1;
             __atomic_load_n(&cf_ping_line[0], __ATOMIC_ACQUIRE) != next + 1;
             spins++)
          if (!(spins & 255) && cf_ping_ticks() - batch_start >
                                    (r + 1) * CF_PING_STALL_TICKS) {
            stalled = true;
            break;
          }
        if (stalled) {
          // Resynchronise: the partner answers the value late or never.
          while (__atomic_load_n(&cf_ping_line[0], __ATOMIC_ACQUIRE) == next &&
                 efsan_monotonic_ns() - start < CF_PING_BUDGET_NS) {
          }
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
    if (batches && ticks)
      best = (u64)((double)best_ticks * (double)ns / (double)ticks);
  }
  __atomic_store_n(&cf_ping_line[0], CF_PING_STOP, __ATOMIC_RELEASE);
  efsan_set_affinity(mask, CF_AFFINITY_WORDS);
  // So that the partner's CPU time is all counted in what the measurement
  // took (bounded: it may never have run).
  u64 waited = efsan_monotonic_ns();
  while (batches && !__atomic_load_n(&cf_partner_done, __ATOMIC_ACQUIRE) &&
         efsan_monotonic_ns() - waited < 1000000) {
  }
  efsan_vreport(2, "cache-frag: ping-pong between CPUs %d and %d: partner "
                   "%s; %u good batches of %d round trips, the fastest %llu "
                   "ns\n",
                first, second,
                __atomic_load_n(&cf_partner_ready, __ATOMIC_ACQUIRE)
                    ? "ran"
                    : __atomic_load_n(&cf_partner_done, __ATOMIC_ACQUIRE)
                          ? "could not be pinned"
                          : "never ran",
                batches, CF_PING_ROUNDS, best);
  if (batches < CF_PING_MIN_BATCHES)
    return 0;
  return (u32)((best + CF_PING_ROUNDS) / (2 * CF_PING_ROUNDS));
}

static void cf_decide_transfer(void) {
  if (efsan_flags.cache_frag_transfer_ns) {
    cf_transfer = (u32)efsan_flags.cache_frag_transfer_ns;
    cf_transfer_from = "cache_frag_transfer_ns";
    return;
  }
  cf_transfer = CF_DEFAULT_TRANSFER_NS;
  if (!efsan_flags.cache_frag_measure_transfer) {
    cf_transfer_from = "default (cache_frag_measure_transfer=0)";
    return;
  }
  u64 mask[CF_AFFINITY_WORDS];
  if (!efsan_get_affinity(mask, CF_AFFINITY_WORDS)) {
    cf_transfer_from = "default (no affinity mask)";
    return;
  }
  u32 cpus = 0;
  for (int w = 0; w < CF_AFFINITY_WORDS; w++)
    cpus += (u32)__builtin_popcountll(mask[w]);
  if (cpus < 2) {
    cf_transfer_from = "default (one CPU)";
    return;
  }
  u64 before = efsan_process_cpu_ns();
  u32 measured = cf_ping_pong(mask);
  u64 after = efsan_process_cpu_ns();
  cf_measuring_ns = after > before ? after - before : 0;
  // Outside what any machine does: a measurement the scheduler spoiled.
  if (measured < 10 || measured > 2000) {
    cf_transfer_from = "default (the ping-pong did not run on two CPUs)";
    return;
  }
  cf_transfer = measured;
  cf_transfer_from = "measured";
}

void cf_machine_init(void) {
  cf_decide_pairing();
  cf_decide_transfer();
}
