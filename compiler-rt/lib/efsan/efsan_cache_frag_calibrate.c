//===-- efsan_cache_frag_calibrate.c - measuring the machine profile ------===//
//
// efsan-calibrate (ESAN_OPTIONS=cache_frag_calibrate=1): measures what a
// shared cache line costs on this machine, adds the measurements to its
// machine profile (efsan_cache_frag_profile.c) and exits before main. Each
// round measures, with two threads pinned to two CPUs:
// - the transfer: the ping-pong the runs used to make at start-up;
// - plain stores: each thread keeps writing its own word, with both words
//   on one line and then on lines of their own, in ten loop shapes (adding
//   values, one increment per iteration, increments in a row, 1, 2, 4, 8
//   and 32 steps of own work, 8 stores to own memory between writes, 1 step
//   built without optimisation). What the
//   sharing costs depends on the shape as much as on the machine: on an
//   Intel VM whose transfers took 55-70 ns a thread lost 6% adding values,
//   25-41% with 8 steps of work and 75% with 8 stores between writes, where
//   the calibration pairs of such code gained 6%, 38% and (built at -O0)
//   69%. The round's largest loss over the optimised shapes (all but the
//   stores and the unoptimised loop) is the bound of what a thread loses to
//   a line both keep writing (docs/CacheFrag.md, "Claims at the bound"), the
//   unoptimised loop's that of code built without optimisation; the least
//   and the most over all ten bound the range of such a claim;
// - locked read-modify-writes: both threads add to one atomic word, then
//   each to one on its own line, with no work and with 1 step of own work
//   between adds: what the transfer each RMW waits for costs a thread (the
//   bound of a line's claim when its writes are atomic).
// A phase counts only where both threads ran side by side all along (each
// on its CPU for nearly all of the phase's time, at the same time); one
// that did not runs again, up to three times, before its round is dropped:
// a loaded machine gives fewer rounds, never other numbers. A round whose
// transfer, measured before and after it, changed state is dropped too.
//
//===----------------------------------------------------------------------===//
#include "efsan_cache_frag_internal.h"

#define CF_CALIBRATE_ROUNDS 5
#define CF_CALIBRATE_ATTEMPTS 12
#define CF_CALIBRATE_PHASE_TRIES 3
#define CF_CALIBRATE_MASK_WORDS 16

// The loop shapes; each runs with the threads' words on one line (phase 2k)
// and in 128-byte line pairs of their own (2k + 1); the last phase runs
// CF_SHAPE_WORK_8 on the two lines of one pair, to see whether the CPU
// fetches lines in pairs (what cpuid suggests need not hold in a VM: an
// Intel VM's fixes of lines in one pair gained nothing).
enum {
  CF_SHAPE_ADD_VALUE, // counter += value, the value new each time
  CF_SHAPE_INC_EACH,  // one counter++ per iteration
  CF_SHAPE_INC_RUN,   // counter++ four times in a row (an unrolled loop)
  CF_SHAPE_WORK_8,    // counter += value after 8 xorshift steps of own work
  CF_SHAPE_WORK_32,   // the same after 32 steps
  // 1, 2 and 4 steps: with its vCPUs in one core complex an AMD VM's
  // thread lost 95% with no work and 5-22% with 8 steps, and the calibration
  // pairs between them anywhere from 0.07 to 0.71.
  CF_SHAPE_WORK_1,
  CF_SHAPE_WORK_2,
  CF_SHAPE_WORK_4,
  CF_SHAPE_STORES_8,  // counter += value after 8 stores to own memory (the
                      // locals of code built at -O0)
  CF_SHAPE_O0_WORK_1, // the loop with 1 step of work built without
                      // optimisation: what code built at -O0 loses (an AMD
                      // VM's -O0 calibration pair gained 0.36-0.46 in one
                      // core complex and 0.65 in two; this loop lost 24-57%
                      // (69-73% in one run's four rounds) and 56-64%, the 8
                      // stores 57-89% and 54-75%)
  CF_SHAPE_LOCKED,    // an atomic add; shared: both threads on one word
  // The same after 1 step of own work: an AMD VM's threads lost 98% of their
  // time to a bare atomic both bumped (against plain adds to private
  // copies) where its calibration pair, with a step of xorshift between
  // adds, gained 0.91.
  CF_SHAPE_LOCKED_WORK_1,
  CF_LOOP_SHAPES
};
#define CF_PAIR_PHASE (2 * CF_LOOP_SHAPES)
#define CF_PHASES (CF_PAIR_PHASE + 1)
// Writes per phase: 5-30 ms for a thread alone, a few times that shared.
static const u32 cf_shape_writes[CF_LOOP_SHAPES] = {
    8u << 20, 16u << 20, 16u << 20, 4u << 20, 1u << 20,
    8u << 20, 8u << 20,  4u << 20,  2u << 20, 2u << 20, 2u << 20,
    2u << 20};

struct __attribute__((aligned(128))) cf_hammer {
  _Alignas(64) volatile u64 shared[8];
  _Alignas(128) volatile u64 pair[2][8];   // one 128-byte pair
  _Alignas(128) volatile u64 apart[2][16]; // a pair each
  _Alignas(64) volatile int arrived;
  volatile int go, finished, quit;
  volatile int pinned;
  int phase;
  // Per thread: iterations done, its CPU time and its span on the clock.
  u64 iterations[2], cpu_ns[2], begin_ns[2], end_ns[2];
  u64 partner_mask[CF_CALIBRATE_MASK_WORDS];
};

static volatile u64 *cf_hammer_word(struct cf_hammer *h, int me) {
  if (h->phase == CF_PAIR_PHASE)
    return &h->pair[me][0];
  if (h->phase & 1)
    return &h->apart[me][0];
  return h->phase / 2 >= CF_SHAPE_LOCKED ? &h->shared[0] : &h->shared[me];
}

// Each caller passes constants, so that every shape is the loop its C
// counterpart in the pass's tests is (8 steps unrolled, 32 a loop).
static inline __attribute__((always_inline)) void
cf_work_batch(volatile u64 *word, u64 base, const u32 steps, const bool locked) {
  u64 x = base | 1;
#pragma clang loop unroll(disable)
  for (u32 i = 0; i < 4096; i++) {
    for (u32 k = 0; k < steps; k++) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
    }
    if (locked)
      __asm__ volatile("lock addq %1, %0" : "+m"(*word) : "r"(x));
    else
      __asm__ volatile("addq %1, %0" : "+m"(*word) : "r"(x));
  }
}

// The loop with 1 step of work as clang builds it at -O0: every local in a
// stack slot, loaded and stored around each operation.
__attribute__((optnone, noinline)) static void
cf_unoptimised_batch(volatile u64 *word, u64 base) {
  u64 x = base | 1;
  for (u32 i = 0; i < 4096; i++) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *word += x;
  }
}

// 4096 writes of the shape, as the instructions say (the compiler must not
// merge or unroll them into another shape).
static void cf_hammer_batch(volatile u64 *word, int shape, u64 base) {
  switch (shape) {
  case CF_SHAPE_ADD_VALUE:
#pragma clang loop unroll(disable)
    for (u64 i = 0; i < 4096; i++)
      __asm__ volatile("addq %1, %0" : "+m"(*word) : "r"((base + i) ^ 0x5bd1));
    return;
  case CF_SHAPE_INC_EACH:
#pragma clang loop unroll(disable)
    for (u32 i = 0; i < 4096; i++)
      __asm__ volatile("incq %0" : "+m"(*word));
    return;
  case CF_SHAPE_INC_RUN:
#pragma clang loop unroll(disable)
    for (u32 i = 0; i < 1024; i++)
      __asm__ volatile("addq $1, %0\n\taddq $1, %0\n\taddq $1, %0\n\t"
                       "addq $1, %0"
                       : "+m"(*word));
    return;
  case CF_SHAPE_WORK_1:
    cf_work_batch(word, base, 1, false);
    return;
  case CF_SHAPE_WORK_2:
    cf_work_batch(word, base, 2, false);
    return;
  case CF_SHAPE_WORK_4:
    cf_work_batch(word, base, 4, false);
    return;
  case CF_SHAPE_WORK_8:
    cf_work_batch(word, base, 8, false);
    return;
  case CF_SHAPE_WORK_32:
    cf_work_batch(word, base, 32, false);
    return;
  case CF_SHAPE_O0_WORK_1:
    cf_unoptimised_batch(word, base);
    return;
  case CF_SHAPE_LOCKED_WORK_1:
    cf_work_batch(word, base, 1, true);
    return;
  case CF_SHAPE_STORES_8: {
    u64 local[8];
#pragma clang loop unroll(disable)
    for (u32 i = 0; i < 4096; i++) {
      for (u32 k = 0; k < 8; k++)
        __asm__ volatile("movq %1, %0" : "=m"(local[k]) : "r"(base + i + k));
      __asm__ volatile("addq %1, %0" : "+m"(*word) : "r"(local[i & 7]));
    }
    return;
  }
  default:
#pragma clang loop unroll(disable)
    for (u32 i = 0; i < 4096; i++)
      __asm__ volatile("lock incq %0" : "+m"(*word));
  }
}

// Makes the phase's writes with nothing else in the loop (no clock read,
// no call: a pause every few thousand writes lets each thread keep the
// line for a run of them, and the loss measured falls).
static void cf_hammer_run(struct cf_hammer *h, int me) {
  volatile u64 *word = cf_hammer_word(h, me);
  int shape = h->phase == CF_PAIR_PHASE ? CF_SHAPE_WORK_8 : h->phase / 2;
  u64 batches = cf_shape_writes[shape] / 4096;
  u64 cpu = efsan_thread_cpu_ns(), begin = efsan_monotonic_ns();
  for (u64 b = 0; b < batches; b++)
    cf_hammer_batch(word, shape, b * 4096);
  h->end_ns[me] = efsan_monotonic_ns();
  h->begin_ns[me] = begin;
  h->cpu_ns[me] = efsan_thread_cpu_ns() - cpu;
  h->iterations[me] = batches * 4096;
}

// The partner: pinned to its CPU, runs each phase the main thread starts.
static void cf_hammer_partner(void *arg) {
  struct cf_hammer *h = (struct cf_hammer *)arg;
  bool pinned = efsan_set_affinity(h->partner_mask, CF_CALIBRATE_MASK_WORDS);
  __atomic_store_n(&h->pinned, pinned ? 1 : -1, __ATOMIC_RELEASE);
  if (!pinned)
    return;
  for (int seen = 0;;) {
    while (__atomic_load_n(&h->go, __ATOMIC_ACQUIRE) == seen &&
           !__atomic_load_n(&h->quit, __ATOMIC_ACQUIRE))
      efsan_sleep_us(50);
    if (__atomic_load_n(&h->quit, __ATOMIC_ACQUIRE))
      return;
    seen = __atomic_load_n(&h->go, __ATOMIC_ACQUIRE);
    __atomic_fetch_add(&h->arrived, 1, __ATOMIC_ACQ_REL);
    while (__atomic_load_n(&h->arrived, __ATOMIC_ACQUIRE) < 2)
      ;
    cf_hammer_run(h, 1);
    __atomic_store_n(&h->finished, seen, __ATOMIC_RELEASE);
  }
}

// One phase on both threads; the bumps per CPU second of each, or false
// when they did not run side by side throughout.
static bool cf_hammer_phase(struct cf_hammer *h, int phase, double rate[2]) {
  h->phase = phase;
  h->shared[0] = h->shared[1] = 0;
  __atomic_store_n(&h->arrived, 0, __ATOMIC_RELEASE);
  int round = __atomic_load_n(&h->go, __ATOMIC_ACQUIRE) + 1;
  __atomic_store_n(&h->go, round, __ATOMIC_RELEASE);
  __atomic_fetch_add(&h->arrived, 1, __ATOMIC_ACQ_REL);
  u64 waited = efsan_monotonic_ns();
  while (__atomic_load_n(&h->arrived, __ATOMIC_ACQUIRE) < 2)
    if (efsan_monotonic_ns() - waited > 2000000ull) {
      // The partner did not come in time: its CPU is busy. It still comes;
      // let it run the phase alone and wait for it.
      break;
    }
  cf_hammer_run(h, 0);
  while (__atomic_load_n(&h->finished, __ATOMIC_ACQUIRE) != round)
    efsan_sleep_us(100);
  u64 span[2], overlap_begin, overlap_end;
  for (int t = 0; t < 2; t++)
    span[t] = h->end_ns[t] - h->begin_ns[t];
  overlap_begin = h->begin_ns[0] > h->begin_ns[1] ? h->begin_ns[0] : h->begin_ns[1];
  overlap_end = h->end_ns[0] < h->end_ns[1] ? h->end_ns[0] : h->end_ns[1];
  u64 overlap = overlap_end > overlap_begin ? overlap_end - overlap_begin : 0;
  bool side_by_side = true;
  u64 shorter = span[0] < span[1] ? span[0] : span[1];
  for (int t = 0; t < 2; t++) {
    if (!span[t] || !h->cpu_ns[t] || !h->iterations[t])
      return false;
    // Each running nearly all its span, the quicker nearly all of its span
    // beside the other: on a VM one vCPU at times runs a loop of its own
    // words twice as fast as the other, and waiting for the slower one's
    // span dropped most rounds of an idle machine.
    side_by_side = side_by_side && h->cpu_ns[t] * 10 >= span[t] * 9 &&
                   overlap * 10 >= shorter * 9;
    rate[t] = (double)h->iterations[t] / (double)h->cpu_ns[t];
  }
  efsan_vreport(1, "efsan-calibrate: phase %d: T0 %llu bumps in %llu ns CPU, "
                   "%llu ns span; T1 %llu bumps in %llu ns CPU, %llu ns span; "
                   "overlap %llu ns\n",
                phase, h->iterations[0], h->cpu_ns[0], span[0],
                h->iterations[1], h->cpu_ns[1], span[1], overlap);
  return side_by_side;
}

// What a thread loses with the line shared: 1 - its rate shared / its rate
// alone, the mean of the two threads.
static double cf_loss(const double shared[2], const double own[2]) {
  double loss = 0;
  for (int t = 0; t < 2; t++)
    loss += own[t] > 0 ? 1 - shared[t] / own[t] : 0;
  loss /= 2;
  return loss < 0 ? 0 : loss > 0.99 ? 0.99 : loss;
}

// The first two CPUs of the affinity mask, or another of the machine's for
// a process pinned to one (the profile is the machine's).
static bool cf_calibrate_cpus(int *first, int *second) {
  u64 mask[CF_CALIBRATE_MASK_WORDS];
  *first = *second = -1;
  if (!efsan_get_affinity(mask, CF_CALIBRATE_MASK_WORDS))
    return false;
  for (int c = 0; c < CF_CALIBRATE_MASK_WORDS * 64 && *second < 0; c++)
    if (mask[c / 64] >> (c % 64) & 1) {
      if (*first < 0)
        *first = c;
      else
        *second = c;
    }
  if (*first >= 0 && *second < 0)
    *second = cf_other_online_cpu(*first);
  return *second >= 0;
}

static u32 cf_percent(double loss) { return (u32)(loss * 100 + 0.5); }

static void cf_print_range(const char *what, int kind, const char *unit,
                           u32 scale) {
  u32 n = cf_profile_count(kind);
  if (!n) {
    efsan_printf("  %s: not measured\n", what);
    return;
  }
  efsan_printf("  %s: median %u%s, %u-%u%s over %u measurement%s\n", what,
               (cf_profile_point(kind) + scale / 2) / scale, unit,
               (cf_profile_low(kind) + scale / 2) / scale,
               (cf_profile_high(kind) + scale / 2) / scale, unit, n,
               n == 1 ? "" : "s");
}

void cf_calibrate_machine(void) {
  int first, second;
  if (!cf_calibrate_cpus(&first, &second)) {
    efsan_printf("efsan-calibrate: error: a machine profile needs two CPUs "
                 "(this machine has one online)\n");
    efsan_exit_now(1);
  }
  if (!cf_profile_where()[0]) {
    efsan_printf("efsan-calibrate: error: no place for the machine profile (%s;"
                 " set cache_frag_machine_profile=FILE)\n",
                 cf_profile_missing());
    efsan_exit_now(1);
  }
  static struct cf_hammer hammer;
  struct cf_hammer *h = &hammer;
  h->partner_mask[second / 64] = 1ull << (second % 64);
  u64 mine[CF_CALIBRATE_MASK_WORDS], before[CF_CALIBRATE_MASK_WORDS];
  efsan_internal_memset(mine, 0, sizeof(mine));
  mine[first / 64] = 1ull << (first % 64);
  bool restore = efsan_get_affinity(before, CF_CALIBRATE_MASK_WORDS);
  if (!efsan_set_affinity(mine, CF_CALIBRATE_MASK_WORDS) ||
      !efsan_start_sideline_thread(cf_hammer_partner, h)) {
    efsan_printf("efsan-calibrate: error: cannot run two threads pinned to "
                 "CPUs %d and %d\n", first, second);
    efsan_exit_now(1);
  }
  while (!__atomic_load_n(&h->pinned, __ATOMIC_ACQUIRE))
    efsan_sleep_us(100);
  if (__atomic_load_n(&h->pinned, __ATOMIC_ACQUIRE) < 0) {
    efsan_printf("efsan-calibrate: error: CPU %d refused a thread\n", second);
    efsan_exit_now(1);
  }
  efsan_printf("efsan-calibrate: machine %s, CPUs %d and %d\n",
               cf_profile_machine(), first, second);
  u32 kept = 0;
  for (u32 attempt = 0;
       attempt < CF_CALIBRATE_ATTEMPTS && kept < CF_CALIBRATE_ROUNDS;
       attempt++) {
    double rate[CF_PHASES][2];
    // The ping-pong pins this thread itself and restores its mask.
    u32 before = cf_measure_transfer(first, second);
    bool good = before != 0;
    // A phase of a few ms that a timer tick or the hypervisor cut short is
    // run again rather than the round thrown away (an idle 2-vCPU VM cut
    // one phase in most rounds).
    for (int phase = 0; phase < CF_PHASES && good; phase++) {
      good = false;
      for (int retry = 0; retry < CF_CALIBRATE_PHASE_TRIES && !good; retry++)
        good = cf_hammer_phase(h, phase, rate[phase]);
    }
    u32 transfer = good ? cf_measure_transfer(first, second) : 0;
    if (!good || !transfer) {
      efsan_printf("  round %u: the two threads did not run side by side "
                   "(a busy machine): not kept\n", attempt + 1);
      efsan_sleep_ms(50);
      continue;
    }
    // A VM's vCPUs that moved between core complexes during the round give
    // losses of both states under one transfer (an AMD VM's round read 92-97%
    // for bare increments, as in one complex, and 31-38% with work between
    // writes, as in two, beside a transfer of 207 ns): such a round says
    // nothing about either state.
    if (transfer > 2 * before || before > 2 * transfer) {
      efsan_printf("  round %u: the line transfer went from %u to %u ns during "
                   "the round (the CPUs changed state): not kept\n",
                   attempt + 1, before, transfer);
      continue;
    }
    // The bound is the optimised loops' most; the range runs over all.
    double loss[CF_LOOP_SHAPES], most = 0, least = 1, most_of_all = 0;
    for (int k = 0; k < CF_LOOP_SHAPES; k++)
      loss[k] = cf_loss(rate[2 * k], rate[2 * k + 1]);
    for (int k = 0; k < CF_SHAPE_LOCKED; k++) {
      if (k != CF_SHAPE_STORES_8 && k != CF_SHAPE_O0_WORK_1)
        most = loss[k] > most ? loss[k] : most;
      most_of_all = loss[k] > most_of_all ? loss[k] : most_of_all;
      least = loss[k] < least ? loss[k] : least;
    }
    double rmw = loss[CF_SHAPE_LOCKED];
    // Against plain increments of a private word: what private copies of
    // an atomic total save.
    double removed =
        cf_loss(rate[2 * CF_SHAPE_LOCKED], rate[2 * CF_SHAPE_INC_EACH + 1]);
    double rmw_work_1 = loss[CF_SHAPE_LOCKED_WORK_1];
    double removed_work_1 = cf_loss(rate[2 * CF_SHAPE_LOCKED_WORK_1],
                                    rate[2 * CF_SHAPE_WORK_1 + 1]);
    double paired = cf_loss(rate[CF_PAIR_PHASE], rate[2 * CF_SHAPE_WORK_8 + 1]);
    cf_profile_add(CF_PROFILE_TRANSFER, transfer);
    cf_profile_add(CF_PROFILE_PAIRED, (u32)(paired * 1000000 + 0.5));
    cf_profile_add(CF_PROFILE_HAMMERED, (u32)(most * 1000000 + 0.5));
    cf_profile_add(CF_PROFILE_HAMMERED_LEAST, (u32)(least * 1000000 + 0.5));
    cf_profile_add(CF_PROFILE_HAMMERED_MOST,
                   (u32)(most_of_all * 1000000 + 0.5));
    cf_profile_add(CF_PROFILE_HAMMERED_STORES,
                   (u32)(loss[CF_SHAPE_STORES_8] * 1000000 + 0.5));
    double one_write = loss[CF_SHAPE_ADD_VALUE] > loss[CF_SHAPE_INC_EACH]
                           ? loss[CF_SHAPE_ADD_VALUE]
                           : loss[CF_SHAPE_INC_EACH];
    cf_profile_add(CF_PROFILE_ONE_WRITE, (u32)(one_write * 1000000 + 0.5));
    cf_profile_add(CF_PROFILE_WORK_8,
                   (u32)(loss[CF_SHAPE_WORK_8] * 1000000 + 0.5));
    cf_profile_add(CF_PROFILE_WORK_32,
                   (u32)(loss[CF_SHAPE_WORK_32] * 1000000 + 0.5));
    cf_profile_add(CF_PROFILE_WORK_1,
                   (u32)(loss[CF_SHAPE_WORK_1] * 1000000 + 0.5));
    cf_profile_add(CF_PROFILE_WORK_2,
                   (u32)(loss[CF_SHAPE_WORK_2] * 1000000 + 0.5));
    cf_profile_add(CF_PROFILE_WORK_4,
                   (u32)(loss[CF_SHAPE_WORK_4] * 1000000 + 0.5));
    cf_profile_add(CF_PROFILE_UNOPTIMISED,
                   (u32)(loss[CF_SHAPE_O0_WORK_1] * 1000000 + 0.5));
    cf_profile_add(CF_PROFILE_RMW, (u32)(rmw * 1000000 + 0.5));
    cf_profile_add(CF_PROFILE_RMW_REMOVED, (u32)(removed * 1000000 + 0.5));
    cf_profile_add(CF_PROFILE_RMW_WORK_1, (u32)(rmw_work_1 * 1000000 + 0.5));
    cf_profile_add(CF_PROFILE_RMW_REMOVED_WORK_1,
                   (u32)(removed_work_1 * 1000000 + 0.5));
    kept++;
    efsan_printf("  round %u: transfer %u ns; a thread loses %u%%, %u%%, %u%%, "
                 "%u%%, %u%%, %u%%, %u%%, %u%%, %u%% and %u%% of its time to a "
                 "line the other keeps writing (adding values, one increment "
                 "per iteration, increments in a row, 1, 2, 4, 8 and 32 steps "
                 "of own work, 8 stores to own memory between writes, 1 step "
                 "built without optimisation), %u%% to an atomic the other "
                 "bumps too (%u%% with 1 step of own work between adds), %u%% "
                 "to the other line of its 128-byte pair\n",
                 attempt + 1, transfer,
                 cf_percent(loss[CF_SHAPE_ADD_VALUE]),
                 cf_percent(loss[CF_SHAPE_INC_EACH]),
                 cf_percent(loss[CF_SHAPE_INC_RUN]),
                 cf_percent(loss[CF_SHAPE_WORK_1]),
                 cf_percent(loss[CF_SHAPE_WORK_2]),
                 cf_percent(loss[CF_SHAPE_WORK_4]),
                 cf_percent(loss[CF_SHAPE_WORK_8]),
                 cf_percent(loss[CF_SHAPE_WORK_32]),
                 cf_percent(loss[CF_SHAPE_STORES_8]),
                 cf_percent(loss[CF_SHAPE_O0_WORK_1]), cf_percent(rmw),
                 cf_percent(rmw_work_1), cf_percent(paired));
  }
  __atomic_store_n(&h->quit, 1, __ATOMIC_RELEASE);
  if (restore)
    efsan_set_affinity(before, CF_CALIBRATE_MASK_WORDS);
  if (!kept) {
    efsan_printf("efsan-calibrate: error: no round ran both threads side by "
                 "side (the machine is busy): the profile is unchanged\n");
    efsan_exit_now(1);
  }
  if (!cf_profile_save()) {
    efsan_printf("efsan-calibrate: error: cannot write %s\n",
                 cf_profile_where());
    efsan_exit_now(1);
  }
  efsan_printf("efsan-calibrate: %u round%s added to %s; the profile now "
               "holds:\n",
               kept, kept == 1 ? "" : "s", cf_profile_where());
  cf_print_range("line transfer", CF_PROFILE_TRANSFER, " ns", 1);
  cf_print_range("a line both threads keep writing (the most of the optimised shapes)",
                 CF_PROFILE_HAMMERED, "%", 10000);
  cf_print_range("the same (the least of the shapes)",
                 CF_PROFILE_HAMMERED_LEAST, "%", 10000);
  cf_print_range("the same (the most, stores between writes included)",
                 CF_PROFILE_HAMMERED_MOST, "%", 10000);
  cf_print_range("the same with stores between writes",
                 CF_PROFILE_HAMMERED_STORES, "%", 10000);
  cf_print_range("the same in the loop with 1 step of work built without "
                 "optimisation (code built at -O0)",
                 CF_PROFILE_UNOPTIMISED, "%", 10000);
  cf_print_range("the same with one write per iteration and no work",
                 CF_PROFILE_ONE_WRITE, "%", 10000);
  cf_print_range("the same with 1 step of own work between writes",
                 CF_PROFILE_WORK_1, "%", 10000);
  cf_print_range("the same with 2 steps of own work between writes",
                 CF_PROFILE_WORK_2, "%", 10000);
  cf_print_range("the same with 4 steps of own work between writes",
                 CF_PROFILE_WORK_4, "%", 10000);
  cf_print_range("the same with 8 steps of own work between writes",
                 CF_PROFILE_WORK_8, "%", 10000);
  cf_print_range("the same with 32 steps of own work between writes",
                 CF_PROFILE_WORK_32, "%", 10000);
  cf_print_range("an atomic both threads bump", CF_PROFILE_RMW, "%", 10000);
  cf_print_range("the same against plain adds to a private copy",
                 CF_PROFILE_RMW_REMOVED, "%", 10000);
  cf_print_range("an atomic both threads bump after 1 step of own work",
                 CF_PROFILE_RMW_WORK_1, "%", 10000);
  cf_print_range("the same against plain adds to a private copy",
                 CF_PROFILE_RMW_REMOVED_WORK_1, "%", 10000);
  cf_print_range("the other line of a 128-byte pair", CF_PROFILE_PAIRED, "%",
                 10000);
  efsan_exit_now(0);
}
