//===-- efsan_cache_frag_impact.c - what fixing a finding saves -----------===//
//
// Prices a finding (efsan_cache_frag_findings.c builds it): from the
// invalidations the contention model estimates for each involved thread
// (efsan_cache_frag_model.c), the threads' CPU time, the work between their
// writes and this machine's transfer cost (efsan_cache_frag_machine.c), the
// CPU time the fix saves, its share of the run and the wall time it saves.
// docs/CacheFrag.md, "Impact and thresholds", explains every number.
//
//===----------------------------------------------------------------------===//
#include "efsan_cache_frag_findings.h"

// What one invalidation costs a thread that writes the line with plain
// stores, from its own time between its writes to the line (`gap`), the
// transfer, whether it reads the bytes it writes and how busy the line is.
// A store retires into the store buffer and the core goes on with the work
// after it while the line comes back: it stalls only when it needs the
// line again (a load of it, the next store draining behind the first)
// before the line is there, or when it cannot run further ahead (its store
// buffer and reorder window full). So the work up to the thread's next
// access hides part of the transfer: nearly all of the first ns of it, less
// and less as the core's window fills, at most CF_RUN_AHEAD_NS:
//     hidden = CF_RUN_AHEAD_NS * (1 - exp(-gap / CF_RUN_AHEAD_NS)),
//     stall = transfer * (1 + reads_own * busy) - hidden, at least 0.
// `busy` is the part of the requests that find the line in flight (from
// the line's demand, cf_set_impact): a thread that loads the word it writes (a counter's
// `+=`) needs the line back before it can go on, and on a line in demand
// its request waits behind the other core's, up to a second transfer.
// A thread that only stores to its words (a queue's index, a flag) waits
// for one transfer at most: its stores wait in the store buffer.
// A thread that hammers the line hides nothing (the cap decides, below);
// one whose writes are further apart than a transfer hides it all where
// the transfer is short (two vCPUs of one core complex, 40 ns), and all
// but transfer - CF_RUN_AHEAD_NS where it is long (two complexes, 170 ns).
// docs/CacheFrag.md, "Impact and thresholds".
static double cf_plain_store_stall(double gap, double transfer,
                                   double reads_own, double busy) {
  double hidden = CF_RUN_AHEAD_NS * (1 - cf_exp_neg(gap / CF_RUN_AHEAD_NS));
  double wait = transfer * (1 + reads_own * busy);
  return wait > hidden ? wait - hidden : 0;
}

// Of a view's sampled writes, the share to bytes the same thread also
// reads (a read-modify-write in two instructions, `counter += x`), as
// opposed to bytes it only stores to.
static double cf_reads_own_writes(const struct cf_view *v) {
  double writes = 0, read_back = 0;
  for (u32 s = 0; s < v->shape_count; s++) {
    const struct cf_view_shape *w = &v->shapes[s];
    if (!w->writes)
      continue;
    writes += w->writes;
    bool read = w->reads > 0;
    for (u32 r = 0; r < v->shape_count && !read; r++)
      read = v->shapes[r].reads &&
             ((v->shapes[r].bytes[0] & w->bytes[0]) ||
              (v->shapes[r].bytes[1] & w->bytes[1]));
    if (read)
      read_back += w->writes;
  }
  return writes > 0 ? read_back / writes : 0;
}

// The instructions a thread's loop runs per write to this line, 0 where
// its writes are not in loops the pass counted: the loop's own per write,
// times the loop's writes per write to this line. A loop that spreads its
// writes over several lines (a thread's 64-byte slot across two, of which it
// shares one) puts only a part of them on this one, and the work between
// those is the more (an AMD VM's fs_sums_offset, 13 instructions per write
// and 3 or 5 of its 8 words on the shared line, gained 0.34-0.52 with its
// vCPUs in one core complex, where loops of 13 instructions per write lost
// 0.7). The part is the loop's accesses per write (the pass's count) over
// the thread's accesses per write to the line while it used it (`span`,
// the accesses of its intervals): a loop whose writes all go to the line
// makes them equal. A part is taken only where the line gets at most
// CF_LINE_PART_MAX of the loop's writes: sampled counts are a few percent
// off (by 1/sqrt(k) over k samples), and a line that gets all of a loop's
// writes at some times and a part at others (streamcluster's work array,
// malloc'ed again per call with another stride: fs_reused_block, 1.3 times
// the loop's accesses per write) loses at the first's rate when it does
// (0.65-0.73 measured, where 1.3 times the work read 0.46 on the AMD VM
// with its vCPUs in one core complex).
#define CF_LINE_PART_MAX (2.0 / 3)
static double cf_work_per_line_write(const struct cf_view *v, double span,
                                     u64 period) {
  if (v->loop_writes <= 0)
    return 0;
  double work = v->loop_work / v->loop_writes;
  double loop_accesses = v->loop_accesses / v->loop_writes / 4;
  double line_accesses =
      v->writes ? span / ((double)v->writes * (double)period) : 0;
  if (loop_accesses > 0 &&
      line_accesses * CF_LINE_PART_MAX > loop_accesses)
    work *= line_accesses / loop_accesses;
  return work;
}

//===-- The threads' time side by side -------------------------------------===//

// A thread that polls a value another thread is to change spends as long
// waiting as the other thread takes to change it, and this run's scheduler
// decides how long that is: side by side, a ring's consumer polls for the
// tens of ns the producer takes per item; with the producer descheduled,
// for the rest of a time slice (a pinned ring: 35 s of CPU per thread where
// 0.75 s side by side, and a claim of 0.02 of it where the fix saves 0.4).
// The claims are for the threads side by side, so a thread's time is its
// work (its own time less the waits the runtime saw, efsan_cache_frag.c,
// "Time spent waiting") made up, where it waited, to the longest work of
// the other threads: side by side it would have waited for them, no more;
// never more than it took. A thread whose waits are under
// CF_WAIT_SIGNIFICANT of its time keeps its time (a sample's chance run on
// an unchanged value). docs/CacheFrag.md, "Impact and thresholds".
#define CF_WAIT_SIGNIFICANT 0.05
static u64 *cf_side_by_side;
static u32 cf_side_by_side_count;

static u64 cf_thread_own_ns(u32 thread) {
  u64 cpu = cf_thread_cpu_ns(thread), tool = cf_thread_tool_ns(thread);
  return cpu > tool ? cpu - tool : 0;
}

u64 cf_prepare_side_by_side(void) {
  u32 threads = efsan_thread_count();
  if (threads > CF_MAX_THREAD_INFOS)
    threads = CF_MAX_THREAD_INFOS;
  cf_side_by_side = (u64 *)efsan_mmap(((uptr)threads + 1) * sizeof(u64));
  cf_side_by_side_count = threads;
  // The two longest works, so that each thread finds the longest of the
  // others'.
  u64 work[2] = {0, 0};
  u32 longest = 0;
  for (u32 t = 0; t < threads; t++) {
    u64 own = cf_thread_own_ns(t), wait = cf_thread_wait_ns(t);
    u64 w = own > wait ? own - wait : 0;
    cf_side_by_side[t] = own;
    if (w > work[0]) {
      work[1] = work[0];
      work[0] = w;
      longest = t;
    } else if (w > work[1]) {
      work[1] = w;
    }
  }
  u64 excess = 0;
  for (u32 t = 0; t < threads; t++) {
    u64 own = cf_side_by_side[t], wait = cf_thread_wait_ns(t);
    if ((double)wait < CF_WAIT_SIGNIFICANT * (double)own)
      continue;
    u64 w = own > wait ? own - wait : 0;
    u64 others = t == longest ? work[1] : work[0];
    u64 side = w > others ? w : others;
    if (side < own) {
      cf_side_by_side[t] = side;
      excess += own - side;
    }
    if (efsan_verbosity() >= 2)
      efsan_report_line("cache-frag waits: T%u own %llu ns, polled unchanged "
                        "values %llu ns, side by side %llu ns\n",
                        t, own, wait, cf_side_by_side[t]);
  }
  return excess;
}

u64 cf_thread_side_by_side_ns(u32 thread) {
  if (thread < cf_side_by_side_count)
    return cf_side_by_side[thread];
  return cf_thread_own_ns(thread);
}

//===-- Pricing ---------------------------------------------------------------===//

// The time the fix saves each involved thread, from the model's
// invalidations that the fix removes (scale: the finding's share of them)
// and the threads' CPU time. A writer's invalidation makes it wait for the
// line: one transfer, less what the core hides behind the work before its
// next access to the line (cf_plain_store_stall). A line moves between
// cores at most once per transfer: the invalidations of all its writers
// in the time they overlap are at most overlap / transfer, and where the
// model counts more (writes tens of ns apart where a transfer takes 200),
// each writer keeps its part of what the line can carry. A thread cannot lose more
// than CF_CONTENDED_SHARE of the time it used the line while another
// thread did: the line is at one core at a time. A locked
// read-modify-write cannot be hidden behind
// the store buffer: its invalidations stall for the whole transfer, and
// the thread can lose up to CF_CONTENDED_RMW_SHARE; a thread that writes
// both ways is priced in proportion. The threads' time is their CPU time
// less the tool's own sampled path (the program's own time, as a plain
// build would spend it), with the waits this run's scheduler lengthened
// taken out (above).
// Padding removes the false-sharing invalidations only. Private copies
// (several writers of the same bytes) remove them all, and so do the
// lines of their own plus cached reads advised where each byte has one
// writer that other threads read (a queue's indices: padding alone leaves
// every read of a new index a transfer). docs/CacheFrag.md, "Impact and
// thresholds".
// What a line's moves cost on this machine: the transfer and the bounds of
// what a thread loses to a line both keep writing, with plain stores and
// with locked read-modify-writes.
// unoptimised_share: the bound of code built without optimisation.
// end: which of the profile's rounds a loop's own bound is read at
// (cf_contended_share_for_work: 0 the median, 1 the least, 2 the most).
struct cf_prices {
  double transfer, share, rmw_share, rmw_removed_share, unoptimised_share;
  int end;
  bool say; // the claim itself: verbosity=2 prints its workings
};

// The thread's own time between writes is found by taking out the waits
// priced at it, again until it moves by less than CF_OWN_GAP_SETTLED of
// itself (each round takes out more and hides less: it only falls).
#define CF_OWN_GAP_ROUNDS 16
#define CF_OWN_GAP_SETTLED 0.01

static void cf_price(struct cf_finding *f, struct cf_view *views, u32 count,
                     double scale, const struct cf_prices *prices) {
  u64 period = cf_period;
  double transfer = prices->transfer;
  double threads[CF_MAX_VIEWS], active[CF_MAX_VIEWS], caused[CF_MAX_VIEWS];
  double spans[CF_MAX_VIEWS]; // accesses of the thread while it used the line
  double all_caused[CF_MAX_VIEWS], overlaps[CF_MAX_VIEWS];
  bool shared_bytes;
  u32 writers = cf_writers(count, &shared_bytes);
  // Private copies remove every invalidation of bytes several threads
  // write; so does the advice for a line whose words each have one writer
  // that other threads read (a ring's head and tail): each on a line of its
  // own, and each reader keeping the last value it read, reading again only
  // when it must. Padding alone removes the false sharing only. (Words
  // written under a lock move with the lock: that advice is another.)
  bool all_removed =
      f->kind == CF_TRUE_SHARING &&
      (shared_bytes || (writers >= 2 && !cf_line_under_lock(f)));
  // Sharing this run did not have (another start offset; 128-byte pairs on
  // a CPU that does not pair lines) is priced as if the layout happened:
  // its threads would take longer by what they lose, so a thread's bound
  // is its share of that longer time.
  f->conditional = f->kind == CF_PREDICTED_128 && !cf_lines_paired();
  f->hypothetical = f->kind == CF_PREDICTED_SHIFTED || f->conditional;
  f->threads_ns = 0;
  f->sampled_writes = 0;
  for (u32 i = 0; i < count && i < CF_MAX_VIEWS; i++) {
    struct cf_view *v = &views[i];
    f->sampled_writes += v->writes;
    threads[i] = active[i] = caused[i] = all_caused[i] = overlaps[i] = 0;
    spans[i] = 0;
    // Only the threads that take part: a thread that read the line once
    // after the others ended must not dilute the share.
    if (!v->involved || v->thread == EFSAN_INTERNAL_THREAD)
      continue;
    u64 cpu = cf_thread_side_by_side_ns(v->thread);
    u64 accesses = cf_thread_accesses(v->thread);
    if (!cpu || !accesses)
      continue;
    threads[i] = (double)cpu;
    f->threads_ns += cpu;
    double ns_per_access = (double)cpu / (double)accesses;
    double span = 0;
    for (u32 k = 0; k < v->interval_count; k++)
      span += (double)(v->intervals[k].last - v->intervals[k].first + period);
    spans[i] = span;
    active[i] = span * ns_per_access < threads[i] ? span * ns_per_access
                                                  : threads[i];
    for (u32 s = 0; s < v->shape_count; s++) {
      caused[i] += (all_removed ? v->shapes[s].invalidations
                                : v->shapes[s].invalidations -
                                      v->shapes[s].true_invalidations) *
                   scale;
      all_caused[i] += v->shapes[s].invalidations * scale;
    }
  }
  // What the line can carry: one move per transfer while its threads
  // overlap. `demand` is the moves the model asks for in that time over
  // the moves there is time for; above 1 each writer keeps its part, and
  // the line is in flight whenever a thread asks for it (busy).
  double line_overlap = 0, moves = 0;
  for (u32 i = 0; i < count && i < CF_MAX_VIEWS; i++) {
    if (!threads[i])
      continue;
    double others = 0;
    for (u32 j = 0; j < count && j < CF_MAX_VIEWS; j++)
      if (j != i && active[j] > others)
        others = active[j];
    overlaps[i] = active[i] < others ? active[i] : others;
    if (overlaps[i] > line_overlap)
      line_overlap = overlaps[i];
    moves += all_caused[i];
  }
  double demand = line_overlap > 0 && transfer > 0
                      ? moves * transfer / line_overlap
                      : 0;
  double carried = demand > 1 ? 1 / demand : 1;
  double busy = demand > 1 ? 1 - 1 / demand : 0;
  double lost = 0, bound = 0, slowest = 0, slowest_after = 0;
  // A fix that removes the atomic (private copies) saves more than one that
  // moves it to a line of its own.
  double share = prices->share,
         rmw_share = all_removed ? prices->rmw_removed_share : prices->rmw_share;
  double cap = 0; // the largest bound of an involved thread
  f->unoptimised = false;
  f->locked = false;
  f->bound_loop_work = 0;
  for (u32 i = 0; i < count && i < CF_MAX_VIEWS; i++) {
    if (!threads[i])
      continue;
    double rmw = views[i].writes
                     ? views[i].locked_rmw_writes / (double)views[i].writes
                     : 0;
    if (rmw > 1)
      rmw = 1;
    // The thread's time between its writes to the line.
    double writes = (double)views[i].writes * (double)period;
    double gap = writes > 0 ? active[i] / writes : threads[i];
    // Plain stores of code built without optimisation wait behind the
    // stores to its stack slots: their own bound.
    double unoptimised = cf_thread_unoptimised_share(views[i].thread);
    // Writes in loops with work between them lose less than the tightest
    // loops do: the profile's loops at the work the pass counted in theirs,
    // per write to this line.
    double loop_share = share, at_work, work = 0;
    double per_write = cf_work_per_line_write(&views[i], spans[i], period);
    if (per_write > 0 &&
        cf_contended_share_for_work(per_write, prices->end, &at_work)) {
      double in_loops = views[i].loop_writes / views[i].record_writes;
      loop_share = share + (in_loops < 1 ? in_loops : 1) * (at_work - share);
      if (in_loops >= 0.5)
        work = per_write;
    }
    double plain_cap =
        loop_share + unoptimised * (prices->unoptimised_share - loop_share);
    // Its atomics' bound at the same work: the profile's bare atomic and
    // the one after a step of work.
    double my_rmw_share = rmw_share, rmw_at_work, rmw_work = 0;
    if (per_write > 0 && unoptimised < 0.5 &&
        views[i].loop_writes >= 0.5 * views[i].record_writes &&
        cf_contended_rmw_share_for_work(all_removed, per_write, prices->end,
                                        &rmw_at_work)) {
      my_rmw_share = rmw_at_work;
      rmw_work = per_write;
    }
    double my_cap = plain_cap + rmw * (my_rmw_share - plain_cap);
    if (my_cap > cap) {
      cap = my_cap;
      f->unoptimised = unoptimised >= 0.5;
      f->locked = !f->unoptimised && rmw >= 0.5;
      f->bound_loop_work = f->unoptimised ? 0
                           : f->locked    ? (u32)(rmw_work + 0.5)
                                          : (u32)(work + 0.5);
    }
    double overlap = overlaps[i];
    double reads_own = cf_reads_own_writes(&views[i]);
    // With the layout, the thread's time with the line grows by what it
    // loses: mine <= my_cap * (overlap + mine).
    double most = f->hypothetical ? my_cap * overlap / (1 - my_cap)
                                  : my_cap * overlap;
    double stalls = 0;
    for (int round = 0; round < CF_OWN_GAP_ROUNDS; round++) {
      // A locked read-modify-write waits out the whole transfer, behind the
      // other core's request where the line is busy.
      stalls =
          caused[i] * carried *
          ((1 - rmw) * cf_plain_store_stall(gap, transfer, reads_own, busy) +
           rmw * transfer * (1 + busy));
      // On a line asked for more often than it can move (demand above 1), a
      // locked read-modify-write finds it away every time and waits: its
      // thread is at the bound for its locked part (two threads bumping one
      // atomic lose 0.96 of their time to it; the model's count of
      // invalidations, a Poisson estimate, priced 0.77).
      if (demand > 1 && stalls < rmw * my_cap * overlap)
        stalls = rmw * my_cap * overlap;
      // The work that hides a transfer is the thread's own: its time
      // between writes less what it waited for the line, which this run
      // had (a layout it did not have, predicted, made no waits). On a
      // line both threads hammer the time between writes is nearly all
      // waiting: an AMD VM's fs_counters, a loop of 1 ns per write, took
      // 7-12 ns per write instrumented, and taken whole that hid 7-12 ns
      // of each transfer (0.81 claimed where the fix gained 0.97).
      if (f->hypothetical || writes <= 0 || round + 1 == CF_OWN_GAP_ROUNDS)
        break;
      double waited = stalls < most ? stalls : most;
      double own_gap = (active[i] - waited) / writes;
      if (own_gap < 0)
        own_gap = 0;
      if (gap - own_gap < CF_OWN_GAP_SETTLED * gap)
        break;
      gap = own_gap;
    }
    double mine = stalls < most ? stalls : most;
    if (prices->say && efsan_verbosity() >= 2)
      efsan_report_line("cache-frag impact: line 0x%zx T%u cpu %llu ns, "
                        "accesses %llu, active %llu ns, overlap %llu ns, "
                        "caused %llu invalidations, sampled line accesses "
                        "%llu, write gap %llu ns, transfer %llu ns, locked "
                        "RMW ppm %llu, reads own writes ppm %llu, line "
                        "demand ppm %llu, tool %llu ns, stalls %llu ns, lost "
                        "%llu ns, bound ppm %llu, writes in loops ppm %llu, "
                        "instructions per write %llu\n",
                        f->address, views[i].thread, (u64)threads[i],
                        cf_thread_accesses(views[i].thread), (u64)active[i],
                        (u64)overlap, (u64)caused[i],
                        (views[i].reads + views[i].writes) * period,
                        (u64)gap, (u64)transfer, (u64)(rmw * 1e6),
                        (u64)(reads_own * 1e6), (u64)(demand * 1e6),
                        cf_thread_tool_ns(views[i].thread), (u64)stalls,
                        (u64)mine, (u64)(my_cap * 1e6),
                        (u64)(views[i].record_writes > 0
                                  ? views[i].loop_writes * 1e6 /
                                        views[i].record_writes
                                  : 0),
                        (u64)per_write);
    lost += mine;
    // Stalls the model prices within a tenth of the bound are the bound's
    // case too: the model is no finer than that, and a hammered line whose
    // price sits at 0.69 of a 0.70 bound must not be told apart from one at
    // 0.71 by the run's noise.
    if (stalls >= 0.9 * most)
      bound += mine;
    // The slowest thread with the sharing and without it.
    double with = f->hypothetical ? threads[i] + mine : threads[i];
    if (with > slowest)
      slowest = with;
    if (with - mine > slowest_after)
      slowest_after = with - mine;
  }
  // One denominator for every share of this run: its CPU time. No thread
  // loses more than its bound of its time, and the threads' time is part of
  // the run's, so the program's total (at most the largest bound of the
  // run, report.c) is never below a finding's.
  f->cap_ppm = (u32)(cap * 1000000);
  double run_bound = (double)f->cap_ppm / 1000000 * (double)cf_run_ns;
  if (!f->hypothetical && lost > run_bound)
    lost = run_bound;
  f->lost_ns = cf_round(lost);
  f->bound_ns = cf_round(bound < lost ? bound : lost);
  double wall = slowest - slowest_after;
  f->wall_ns = cf_round(wall < lost ? wall : lost);
  f->run_ns = f->hypothetical ? cf_run_ns + f->lost_ns : cf_run_ns;
  f->share_ppm = (u32)cf_share_ppm(f->lost_ns, f->run_ns);
}

// The claim at this machine's prices, and, where its profile measured them
// over a range (states of a VM, rounds), at the least and the most of them:
// a claim is a range where its prices are (docs/CacheFrag.md, "The machine
// profile"). Without a profile both ends are the claim.
void cf_set_impact(struct cf_finding *f, struct cf_view *views, u32 count,
                   double scale) {
  struct cf_prices point = {(double)cf_transfer_ns(),
                            cf_contended_share(),
                            cf_contended_rmw_share(false),
                            cf_contended_rmw_share(true),
                            cf_contended_unoptimised_share(),
                            0,
                            true};
  struct cf_prices low = point, high = point;
  low.say = high.say = false;
  low.end = 1;
  high.end = 2;
  u32 transfer_low, transfer_high;
  cf_transfer_range(&transfer_low, &transfer_high);
  low.transfer = transfer_low;
  high.transfer = transfer_high;
  cf_contended_range(&low.share, &high.share);
  cf_contended_rmw_range(false, &low.rmw_share, &high.rmw_share);
  cf_contended_rmw_range(true, &low.rmw_removed_share,
                         &high.rmw_removed_share);
  cf_contended_unoptimised_range(&low.unoptimised_share,
                                 &high.unoptimised_share);
  cf_price(f, views, count, scale, &low);
  u64 low_ns = f->lost_ns;
  u32 low_ppm = f->share_ppm;
  u32 low_cap_ppm = f->cap_ppm;
  cf_price(f, views, count, scale, &high);
  u64 high_ns = f->lost_ns;
  u32 high_ppm = f->share_ppm;
  u32 high_cap_ppm = f->cap_ppm;
  cf_price(f, views, count, scale, &point);
  f->low_cap_ppm = low_cap_ppm < f->cap_ppm ? low_cap_ppm : f->cap_ppm;
  f->high_cap_ppm = high_cap_ppm > f->cap_ppm ? high_cap_ppm : f->cap_ppm;
  // The model is monotone in its prices; rounding is not.
  f->low_ns = low_ns < f->lost_ns ? low_ns : f->lost_ns;
  f->high_ns = high_ns > f->lost_ns ? high_ns : f->lost_ns;
  f->low_ppm = low_ppm < f->share_ppm ? low_ppm : f->share_ppm;
  f->high_ppm = high_ppm > f->share_ppm ? high_ppm : f->share_ppm;
}
