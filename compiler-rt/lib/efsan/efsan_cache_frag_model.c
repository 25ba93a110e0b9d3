//===-- efsan_cache_frag_model.c - invalidations if threads ran at once ---===//
//
// Estimates, for a real or virtual line, the invalidations that would happen
// if the threads that used it ran at the same time on separate cores, from
// their sampled accesses alone (seed: Velesevich, ISP RAS 2015). A thread's
// samples of the line span [first, last] of its virtual clock (accesses of
// the thread, on top of its creator's clock at creation: see
// efsan_cache_frag.c), over which it accesses the line at a constant rate
// a = samples * period / span, writing at rate w. Within a stretch of that
// clock where writer j and other threads are active, a write of j
// invalidates other copies if another thread accessed the line since j's
// previous access to it; with the others' accesses spread at random
// (Poisson) that happens with probability 1 - exp(-A / a_j), A being the
// others' summed rate. So the stretch contributes
//     w_j * length * (1 - exp(-A / a_j))
// invalidations, at most the writes j made in it: no estimate exceeds the
// writes that exist. Each of j's kinds of write takes its part in
// proportion to its writes, and that part is true sharing when its bytes
// meet bytes the other active threads used, false sharing otherwise.
//
//===----------------------------------------------------------------------===//
#include "efsan_cache_frag_internal.h"

// exp(-x) for x >= 0, without libm: halve x below 1/16, a Taylor
// polynomial, then square back.
static double cf_exp_neg(double x) {
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

static bool cf_bytes_meet(const u64 a[2], const u64 b[2]) {
  return (a[0] & b[0]) || (a[1] & b[1]);
}

void cf_model(struct cf_view *views, u32 count, struct cf_estimate *out) {
  out->parallel = out->parallel_true = 0;
  double period = (double)cf_sample_period();
  double rate[2 * CF_THREAD_SLOTS + 2], write_rate[2 * CF_THREAD_SLOTS + 2];
  u64 points[4 * CF_THREAD_SLOTS + 4];
  u32 n_points = 0;
  if (count > 2 * CF_THREAD_SLOTS + 2)
    count = 2 * CF_THREAD_SLOTS + 2;
  for (u32 v = 0; v < count; v++) {
    views[v].involved = false;
    for (u32 s = 0; s < views[v].shape_count; s++) {
      struct cf_view_shape *shape = &views[v].shapes[s];
      shape->invalidations = shape->true_invalidations = 0;
      if (shape->observed)
        views[v].involved = true;
    }
    // A single sample stands for one period of the thread's accesses.
    double span = (double)(views[v].last_clock - views[v].first_clock) + period;
    rate[v] = (double)(views[v].reads + views[v].writes) * period / span;
    write_rate[v] = (double)views[v].writes * period / span;
    points[n_points++] = views[v].first_clock;
    points[n_points++] = views[v].last_clock + (u64)period;
  }
  for (u32 i = 1; i < n_points; i++) {
    u64 p = points[i];
    u32 j = i;
    for (; j > 0 && points[j - 1] > p; j--)
      points[j] = points[j - 1];
    points[j] = p;
  }
  for (u32 p = 0; p + 1 < n_points; p++) {
    u64 from = points[p], to = points[p + 1];
    if (to == from)
      continue;
    double length = (double)(to - from);
    for (u32 j = 0; j < count; j++) {
      struct cf_view *writer = &views[j];
      if (!writer->writes || writer->first_clock > from ||
          writer->last_clock + (u64)period < to)
        continue;
      double others = 0;
      u64 others_bytes[2] = {0, 0};
      for (u32 i = 0; i < count; i++) {
        if (i == j || views[i].first_clock > from ||
            views[i].last_clock + (u64)period < to)
          continue;
        others += rate[i];
        others_bytes[0] |= views[i].bytes[0];
        others_bytes[1] |= views[i].bytes[1];
      }
      if (others <= 0)
        continue;
      double invalidations =
          write_rate[j] * length * (1 - cf_exp_neg(others / rate[j]));
      out->parallel += invalidations;
      if (invalidations >= 0.5)
        for (u32 i = 0; i < count; i++)
          if (i == j || (views[i].first_clock <= from &&
                         views[i].last_clock + (u64)period >= to))
            views[i].involved = true;
      for (u32 s = 0; s < writer->shape_count; s++) {
        struct cf_view_shape *shape = &writer->shapes[s];
        if (!shape->writes)
          continue;
        double part = invalidations * shape->writes / (double)writer->writes;
        shape->invalidations += part;
        if (cf_bytes_meet(shape->bytes, others_bytes)) {
          shape->true_invalidations += part;
          out->parallel_true += part;
        }
      }
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

static u64 cf_mask_of(uptr offset, uptr length) {
  u64 bits = length >= 64 ? ~0ull : ((1ull << length) - 1);
  return bits << offset;
}

// The view of a thread's part of a record, its bytes moved by `shift` and
// clipped to [0, limit).
static void cf_add_thread_line(struct cf_view *view,
                               struct cf_line_record *record,
                               struct cf_thread_line *t, long shift,
                               long limit) {
  u64 first = cf_load(&t->first_clock), last = cf_load(&t->last_clock);
  bool any = false;
  u32 reads_before = (u32)view->reads, writes_before = (u32)view->writes;
  if (t == &record->others) {
    cf_add_shape(view, cf_load(&t->read_bytes) | cf_load(&t->written_bytes),
                 shift, limit, (u32)cf_load(&t->reads), (u32)cf_load(&t->writes),
                 0, 0, record, 0);
  } else {
    for (int i = 0; i < CF_SHAPES; i++) {
      struct cf_shape *s = &t->shapes[i];
      u8 length = __atomic_load_n(&s->length, __ATOMIC_ACQUIRE);
      if (!length)
        break;
      cf_add_shape(view, cf_mask_of(s->offset, length), shift, limit,
                   cf_load(&s->reads), cf_load(&s->writes),
                   cf_load(&s->invalidations), cf_load(&s->true_invalidations),
                   record, s->object);
    }
    cf_add_shape(view, cf_load(&t->overflow_bytes), shift, limit,
                 cf_load(&t->overflow_reads), cf_load(&t->overflow_writes), 0, 0,
                 record, 0);
  }
  any = view->reads != reads_before || view->writes != writes_before;
  if (!any || !first)
    return;
  if (!view->first_clock || first < view->first_clock)
    view->first_clock = first;
  if (last > view->last_clock)
    view->last_clock = last;
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
    cf_add_thread_line(cf_view_for(views, count, owner - 1), record,
                       &record->threads[i], shift, limit);
  }
  if (cf_load(&record->others.reads) || cf_load(&record->others.writes))
    cf_add_thread_line(cf_view_for(views, count, EFSAN_INTERNAL_THREAD), record,
                       &record->others, shift, limit);
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
