//===-- efsan_cache_frag_model.c - invalidations if threads ran at once ---===//
//
// Estimates, for a real or virtual line, the invalidations that would happen
// if the threads that used it ran at the same time on separate cores, from
// their sampled accesses alone (seed: Velesevich, ISP RAS 2015). On the
// virtual clock (accesses of the thread, on top of its creator's clock at
// creation and of the clocks of threads and locks it waited for: see
// efsan_cache_frag.c) a thread used the line in intervals (bursts), within
// each at a constant rate a = samples * period / length, a share of it
// writes (w). Within a stretch where writer j and other threads are active,
// a write of j invalidates other copies if another thread accessed the line
// since j's previous write to it (j's reads leave the others their copies);
// with the others' accesses spread at random (Poisson) that happens with
// probability 1 - exp(-A / (w_j a_j)), A being the others' summed rate. So
// the stretch contributes
//     w_j * a_j * length * (1 - exp(-A / (w_j a_j)))
// invalidations, at most the writes j made in it: no estimate exceeds the
// writes that exist. Each of j's kinds of write takes its part in
// proportion to its writes. A part whose bytes meet bytes another thread
// used within the same lifetime of the data (a heap block freed and
// allocated again starts anew) is true sharing where the other threads'
// accesses since j's previous write touched bytes that both j and another
// thread use so (no layout parts them), false sharing where they touched
// only others: with those accesses spread at random over the line in the
// proportion of their accesses of it (n of them, a part f of them to such
// bytes of j's), that is
//     (1 - exp(-n f)) / (1 - exp(-n))
// of the part's invalidations. Threads that update the same words, in turn
// or at once, share them all (f = 1), while a thread that reads the others'
// sums once per call, between calls in which each thread updates its own,
// does not make the updates' invalidations true sharing (padding removes
// them).
//
//===----------------------------------------------------------------------===//
#include "efsan_cache_frag_internal.h"

// exp(-x) for x >= 0, without libm: halve x below 1/16, a Taylor
// polynomial, then square back.
double cf_exp_neg(double x) {
  if (x > 700)
    return 0;
  int halvings = 0;
  while (x > 0.0625) {
    x *= 0.5;
    halvings++;
  }
  double t = -x;
  double r =
      1 + t * (1 + t / 2 * (1 + t / 3 * (1 + t / 4 * (1 + t / 5 * (1 + t / 6)))));
  while (halvings--)
    r *= r;
  return r;
}

static bool cf_bytes_meet3(const u64 a[2], const u64 b[2], const u64 c[2]) {
  return (a[0] & b[0] & c[0]) || (a[1] & b[1] & c[1]);
}

// The part of the view's sampled accesses of the line that are to `bytes`.
static double cf_part_on(const struct cf_view *v, const u64 bytes[2]) {
  u64 all = v->reads + v->writes, on = 0;
  for (u32 s = 0; s < v->shape_count; s++)
    if ((v->shapes[s].bytes[0] & bytes[0]) || (v->shapes[s].bytes[1] & bytes[1]))
      on += (u64)v->shapes[s].reads + v->shapes[s].writes;
  return all && on < all ? (double)on / (double)all : all ? 1 : 0;
}

// Where an interval's activity ends: a sample stands for the period of
// accesses after it, so an interval reaches to its last sample + period,
// but never past the thread's exit (a thread that joins it may sample the
// line right after; it did not overlap with anything the exited thread
// did). exit_clock is 0 for a thread still running.
static u64 cf_interval_end(const struct cf_interval *in, u64 period,
                           u64 exit_clock) {
  u64 end = in->last + period;
  return exit_clock > in->last && exit_clock < end ? exit_clock : end;
}

// The view's interval that contains [from, to), or -1. Each view's
// intervals are disjoint and sorted.
static int cf_active_interval(const struct cf_view *v, u64 from, u64 to,
                              u64 period, u64 exit_clock) {
  for (u32 k = 0; k < v->interval_count; k++) {
    const struct cf_interval *in = &v->intervals[k];
    if (in->first <= from && to <= cf_interval_end(in, period, exit_clock))
      return (int)k;
    if (in->first >= to)
      break;
  }
  return -1;
}

#define CF_MAX_MODEL_VIEWS (2 * CF_THREAD_SLOTS + 2)
#define CF_MAX_POINTS (CF_MAX_MODEL_VIEWS * 2 * 2 * CF_INTERVALS)

void cf_model(struct cf_view *views, u32 count, struct cf_estimate *out) {
  out->parallel = out->parallel_true = 0;
  u64 period = cf_sample_period();
  if (count > CF_MAX_MODEL_VIEWS)
    count = CF_MAX_MODEL_VIEWS;
  static u64 points[CF_MAX_POINTS]; // the report runs on one thread
  u32 n_points = 0;
  double write_share[CF_MAX_MODEL_VIEWS];
  // Invalidations each writer causes, and of them true sharing.
  double caused[CF_MAX_MODEL_VIEWS] = {0}, caused_true[CF_MAX_MODEL_VIEWS] = {0};
  u64 exit_clock[CF_MAX_MODEL_VIEWS];
  for (u32 v = 0; v < count; v++) {
    struct cf_view *view = &views[v];
    view->involved = false;
    for (u32 s = 0; s < view->shape_count; s++) {
      struct cf_view_shape *shape = &view->shapes[s];
      shape->invalidations = shape->true_invalidations = 0;
      if (shape->observed)
        view->involved = true;
    }
    u64 samples = view->reads + view->writes;
    write_share[v] = samples ? (double)view->writes / (double)samples : 0;
    exit_clock[v] = view->thread == EFSAN_INTERNAL_THREAD
                        ? 0
                        : cf_thread_final_clock(view->thread);
    for (u32 k = 0; k < view->interval_count && n_points + 2 <= CF_MAX_POINTS; k++) {
      points[n_points++] = view->intervals[k].first;
      points[n_points++] =
          cf_interval_end(&view->intervals[k], period, exit_clock[v]);
    }
  }
  // Shell sort of the interval ends: the stretches between them have the
  // same threads active throughout.
  static const u32 gaps[] = {701, 301, 132, 57, 23, 10, 4, 1};
  for (u32 g = 0; g < sizeof(gaps) / sizeof(gaps[0]); g++)
    for (u32 i = gaps[g]; i < n_points; i++) {
      u64 p = points[i];
      u32 j = i;
      for (; j >= gaps[g] && points[j - gaps[g]] > p; j -= gaps[g])
        points[j] = points[j - gaps[g]];
      points[j] = p;
    }
  for (u32 p = 0; p + 1 < n_points; p++) {
    u64 from = points[p], to = points[p + 1];
    if (to == from)
      continue;
    double length = (double)(to - from);
    double rate[CF_MAX_MODEL_VIEWS];
    bool active[CF_MAX_MODEL_VIEWS];
    u32 n_active = 0;
    for (u32 v = 0; v < count; v++) {
      int k = cf_active_interval(&views[v], from, to, period, exit_clock[v]);
      active[v] = k >= 0;
      if (!active[v])
        continue;
      n_active++;
      // The thread's accesses to the line, spread evenly over the interval.
      const struct cf_interval *in = &views[v].intervals[k];
      rate[v] = (double)in->samples * (double)period /
                (double)(in->last - in->first + period);
    }
    if (n_active < 2)
      continue;
    for (u32 j = 0; j < count; j++) {
      struct cf_view *writer = &views[j];
      if (!active[j] || !writer->writes)
        continue;
      double others = 0;
      u64 others_bytes[2] = {0, 0};
      for (u32 i = 0; i < count; i++) {
        if (i == j || !active[i])
          continue;
        others += rate[i];
        others_bytes[0] |= views[i].bytes[0];
        others_bytes[1] |= views[i].bytes[1];
      }
      if (others <= 0)
        continue;
      // Since the writer's previous write, not its previous access: a
      // consumer that polls an index between its writes still takes the
      // line from the producer at each one.
      double write_rate = write_share[j] * rate[j];
      double invalidations = write_rate * length *
                             (1 - cf_exp_neg(others / write_rate));
      // Of a part whose bytes another thread used, the true sharing: the
      // others' accesses since j's previous write (seen) met bytes j shares
      // with another thread (a part shared of them).
      double on = 0;
      for (u32 i = 0; i < count; i++)
        if (i != j && active[i])
          on += rate[i] * cf_part_on(&views[i], writer->true_written);
      double seen = others / write_rate;
      double shared = on < others ? on / others : 1;
      double any = 1 - cf_exp_neg(seen);
      double true_share = any > 0 ? (1 - cf_exp_neg(seen * shared)) / any : 1;
      out->parallel += invalidations;
      caused[j] += invalidations;
      // Involved: the writer, and each other thread by its share of the
      // others' accesses (a single read in the same stretch is not).
      if (invalidations >= 0.5)
        writer->involved = true;
      for (u32 i = 0; i < count; i++)
        if (i != j && active[i] && invalidations * rate[i] / others >= 0.5)
          views[i].involved = true;
      for (u32 s = 0; s < writer->shape_count; s++) {
        struct cf_view_shape *shape = &writer->shapes[s];
        if (!shape->writes)
          continue;
        double part = invalidations * shape->writes / (double)writer->writes;
        shape->invalidations += part;
        if (cf_bytes_meet3(shape->bytes, others_bytes, writer->true_written)) {
          double true_part = part * true_share;
          shape->true_invalidations += true_part;
          out->parallel_true += true_part;
          caused_true[j] += true_part;
        }
      }
    }
  }
  // Each invalidation is a write taking the line from another core: a
  // writer causes at most as many as it writes. Spreading a thread's
  // samples evenly over its intervals can claim more (a burst inside a long
  // interval meets other threads it never overlapped); the writer's share
  // is scaled down to its writes.
  for (u32 j = 0; j < count; j++) {
    double writes = (double)views[j].writes * (double)period;
    if (caused[j] <= writes)
      continue;
    double keep = writes / caused[j];
    out->parallel -= caused[j] * (1 - keep);
    out->parallel_true -= caused_true[j] * (1 - keep);
    for (u32 s = 0; s < views[j].shape_count; s++) {
      views[j].shapes[s].invalidations *= keep;
      views[j].shapes[s].true_invalidations *= keep;
    }
  }
}

//===-- Views -------------------------------------------------------------===//

// Adds the thread's accesses to the bytes of `mask` (in its record's line)
// moved by shift and clipped to [0, limit).
static void cf_add_shape(struct cf_view *view, u64 mask, long shift, long limit,
                         u32 reads, u32 writes, u32 observed, u32 observed_true,
                         struct cf_line_record *record, u8 object) {
  if ((!reads && !writes) || view->shape_count == CF_VIEW_MAX_SHAPES)
    return;
  u64 bytes[2] = {0, 0};
  long first = -1, last = -1;
  for (long i = 0; i < 64; i++) {
    long at = i + shift;
    if (!(mask & (1ull << i)) || at < 0 || at >= limit || at >= CF_VIEW_MAX_BYTES)
      continue;
    bytes[at / 64] |= 1ull << (at % 64);
    if (first < 0)
      first = at;
    last = at;
  }
  if (first < 0)
    return;
  struct cf_view_shape *s = &view->shapes[view->shape_count++];
  s->offset = (u16)first;
  s->length = (u16)(last - first + 1);
  s->bytes[0] = bytes[0];
  s->bytes[1] = bytes[1];
  s->reads = reads;
  s->writes = writes;
  s->record = record;
  s->object = object;
  s->observed = observed;
  s->observed_true = observed_true;
  view->reads += reads;
  view->writes += writes;
  view->bytes[0] |= bytes[0];
  view->bytes[1] |= bytes[1];
}

// mask's bytes moved by shift and clipped to [0, limit), ORed into out.
static void cf_add_moved(u64 out[2], u64 mask, long shift, long limit) {
  for (long i = 0; i < 64; i++) {
    long at = i + shift;
    if ((mask & (1ull << i)) && at >= 0 && at < limit &&
        at < CF_VIEW_MAX_BYTES)
      out[at / 64] |= 1ull << (at % 64);
  }
}

static u64 cf_mask_of(uptr offset, uptr length) {
  u64 bits = length >= 64 ? ~0ull : ((1ull << length) - 1);
  return bits << offset;
}

// The view of a thread's part of a record, its bytes moved by `shift` and
// clipped to [0, limit).
// Adds a thread's intervals of one line to the view's (the same thread's
// intervals of the neighbouring line, for a virtual line): the union, kept
// sorted and disjoint (overlapping intervals become one).
static void cf_add_intervals(struct cf_view *view, struct cf_thread_line *t) {
  u32 n = __atomic_load_n(&t->interval_count, __ATOMIC_ACQUIRE);
  if (n > CF_INTERVALS)
    n = CF_INTERVALS;
  struct cf_interval merged[2 * CF_INTERVALS];
  u32 a = 0, b = 0, m = 0;
  while (a < view->interval_count || b < n) {
    struct cf_interval next;
    if (b >= n || (a < view->interval_count &&
                   view->intervals[a].first <=
                       cf_load(&cf_interval_at(t, b)->first))) {
      next = view->intervals[a++];
    } else {
      struct cf_interval *in = cf_interval_at(t, b);
      next.first = cf_load(&in->first);
      next.last = cf_load(&in->last);
      next.samples = cf_load(&in->samples);
      b++;
    }
    if (m && next.first <= merged[m - 1].last) {
      if (next.last > merged[m - 1].last)
        merged[m - 1].last = next.last;
      merged[m - 1].samples += next.samples;
    } else if (m < 2 * CF_INTERVALS) {
      merged[m++] = next;
    } else {
      merged[m - 1].last = next.last;
      merged[m - 1].samples += next.samples;
    }
  }
  efsan_internal_memcpy(view->intervals, merged, m * sizeof(merged[0]));
  view->interval_count = m;
}

static void cf_add_thread_line(struct cf_view *view,
                               struct cf_line_record *record,
                               struct cf_thread_line *t, long shift,
                               long limit) {
  u64 first = cf_load(&t->first_clock), last = cf_load(&t->last_clock);
  bool any = false;
  u32 reads_before = (u32)view->reads, writes_before = (u32)view->writes;
  if (t == cf_others_part(record)) {
    cf_add_shape(view, cf_load(&t->read_bytes) | cf_load(&t->written_bytes),
                 shift, limit, (u32)cf_load(&t->reads), (u32)cf_load(&t->writes),
                 0, 0, record, 0);
  } else {
    struct cf_shape *s;
    for (u32 i = 0; i < CF_SHAPES && (s = cf_shape_at(t, i)); i++) {
      u8 length = __atomic_load_n(&s->length, __ATOMIC_ACQUIRE);
      if (!length)
        break;
      cf_add_shape(view, cf_mask_of(s->offset, length), shift, limit,
                   cf_load(&s->reads), cf_load(&s->writes),
                   cf_load(&s->invalidations), cf_load(&s->true_invalidations),
                   record, s->object);
    }
    struct cf_shape_block *more = cf_shape_block_of(t);
    if (more)
      cf_add_shape(view, cf_load(&more->overflow_bytes), shift, limit,
                   cf_load(&more->overflow_reads),
                   cf_load(&more->overflow_writes), 0, 0, record, 0);
  }
  any = view->reads != reads_before || view->writes != writes_before;
  u64 true_written, co_written;
  cf_lifetime_sharing(record, t, &true_written, &co_written);
  cf_add_moved(view->true_written, true_written, shift, limit);
  cf_add_moved(view->co_written, co_written, shift, limit);
  // The locked read-modify-writes and the writes in loops among the writes
  // that fell in the (virtual) line, in the thread's proportion on the real
  // one.
  u64 writes = cf_load(&t->writes);
  if (writes && view->writes > writes_before) {
    double part = (double)(view->writes - writes_before) / (double)writes;
    view->locked_rmw_writes += (double)cf_load(&t->locked_rmw_writes) * part;
    view->record_writes += (double)cf_load(&t->record_writes) * part;
    view->loop_writes += (double)cf_load(&t->loop_writes) * part;
    view->loop_work += (double)cf_load(&t->loop_work) * part;
    view->loop_accesses += (double)cf_load(&t->loop_accesses) * part;
  }
  if (!any || !first)
    return;
  if (!view->first_clock || first < view->first_clock)
    view->first_clock = first;
  if (last > view->last_clock)
    view->last_clock = last;
  if (t != cf_others_part(record)) {
    cf_add_intervals(view, t);
  } else {
    // Other threads: one interval over their whole span.
    struct cf_interval whole = {view->first_clock, view->last_clock,
                                view->reads + view->writes};
    view->intervals[0] = whole;
    view->interval_count = 1;
  }
}

static struct cf_view *cf_view_for(struct cf_view *views, u32 *count,
                                   u32 thread) {
  for (u32 i = 0; i < *count; i++)
    if (views[i].thread == thread)
      return &views[i];
  struct cf_view *v = &views[(*count)++];
  efsan_internal_memset(v, 0, sizeof(*v));
  v->thread = thread;
  return v;
}

static void cf_add_record(struct cf_view *views, u32 *count,
                          struct cf_line_record *record, long shift,
                          long limit) {
  for (int i = 0; i < CF_THREAD_SLOTS; i++) {
    u32 owner = cf_owner(record, i);
    if (!owner)
      break;
    struct cf_thread_line *part = cf_thread_part(record, i);
    if (part)
      cf_add_thread_line(cf_view_for(views, count, owner - 1), record, part,
                         shift, limit);
  }
  struct cf_thread_line *others = cf_others_part(record);
  if (others && (cf_load(&others->reads) || cf_load(&others->writes)))
    cf_add_thread_line(cf_view_for(views, count, EFSAN_INTERNAL_THREAD), record,
                       others, shift, limit);
}

// Views without accesses (a thread whose bytes all fell outside a virtual
// line) are dropped; the rest are put in thread order, their shapes in
// byte order, so that reports read the same from run to run.
static u32 cf_compact(struct cf_view *views, u32 count) {
  u32 kept = 0;
  for (u32 i = 0; i < count; i++)
    if (views[i].reads || views[i].writes) {
      if (kept != i)
        views[kept] = views[i];
      kept++;
    }
  for (u32 i = 1; i < kept; i++) {
    struct cf_view item = views[i];
    u32 j = i;
    for (; j > 0 && views[j - 1].thread > item.thread; j--)
      views[j] = views[j - 1];
    views[j] = item;
  }
  for (u32 v = 0; v < kept; v++) {
    struct cf_view_shape *shapes = views[v].shapes;
    for (u32 i = 1; i < views[v].shape_count; i++) {
      struct cf_view_shape item = shapes[i];
      u32 j = i;
      for (; j > 0 && (shapes[j - 1].offset > item.offset ||
                       (shapes[j - 1].offset == item.offset &&
                        shapes[j - 1].length > item.length));
           j--)
        shapes[j] = shapes[j - 1];
      shapes[j] = item;
    }
  }
  return kept;
}

u32 cf_views_of_line(struct cf_line_record *record, struct cf_view *views) {
  u32 count = 0;
  cf_add_record(views, &count, record, 0, EFSAN_CACHE_LINE_SIZE);
  return cf_compact(views, count);
}

u32 cf_views_of_range(struct cf_line_record *first,
                      struct cf_line_record *second, uptr from, uptr length,
                      struct cf_view *views) {
  u32 count = 0;
  if (first)
    cf_add_record(views, &count, first, (long)first->line - (long)from,
                  (long)length);
  if (second)
    cf_add_record(views, &count, second, (long)second->line - (long)from,
                  (long)length);
  return cf_compact(views, count);
}
