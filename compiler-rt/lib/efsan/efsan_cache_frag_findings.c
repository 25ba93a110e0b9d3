//===-- efsan_cache_frag_findings.c - the cache-frag finding model --------===//
//
// Turns the tracked lines into findings (efsan_cache_frag_findings.h): one
// per line, false or true sharing by its dominant kind, and predicted false
// sharing for virtual lines (the 128-byte pair, the 64-byte line at another
// start offset). Each finding carries the invalidations Predator's history
// table observed, those the contention model estimates if the threads ran in
// parallel (efsan_cache_frag_model.c), and their impact: estimated time lost
// and its share of the involved threads' time, by which findings are ranked
// and filtered. Around a finding it works out what every printer reads: the
// objects its contended bytes belong to, the line map, the access sites, the
// threads' creation groups, the fix and its wording. The struct field usage
// report's judgments are efsan_cache_frag_struct_usage.c's.
//
// It prints nothing: the text and JSON printers (efsan_cache_frag_report.c)
// walk what it computes, so a number cannot differ between the two. Sampling
// and the records are efsan_cache_frag.c's; the invalidation estimate is
// efsan_cache_frag_model.c's, its price efsan_cache_frag_impact.c's. docs/CacheFrag.md explains every number.
//
//===----------------------------------------------------------------------===//
#include "efsan_cache_frag_findings.h"

u64 cf_period;
struct cf_view *cf_views;
struct efsan_region *cf_regions;
uptr cf_region_capacity, cf_region_count;

//===-- Estimates -----------------------------------------------------------===//

u64 cf_round(double x) { return x <= 0 ? 0 : (u64)(x + 0.5); }

u64 cf_share_ppm(u64 part, u64 whole) {
  if (!whole)
    return 0;
  return (u64)(((unsigned __int128)part * 1000000 + whole - 1) / whole);
}

u64 cf_run_ns;
uptr cf_hidden_findings;

static bool cf_is_prediction(const struct cf_finding *f) {
  return f->kind == CF_PREDICTED_128 || f->kind == CF_PREDICTED_SHIFTED;
}

static bool cf_counts_enough(const struct cf_finding *f) {
  return f->invalidations >= (u64)efsan_flags.cache_frag_report_threshold &&
         (cf_period == 1 || f->sampled_writes >= CF_MIN_SAMPLED_WRITES);
}

static bool cf_significant(const struct cf_finding *f) {
  return cf_counts_enough(f) &&
         f->share_ppm >= (u32)efsan_cache_frag_min_share_ppm();
}

// The finding of a real line, whether or not it is significant.
static void cf_line_finding(struct cf_line_record *r, struct cf_finding *f) {
  efsan_internal_memset(f, 0, sizeof(*f));
  u32 count = cf_views_of_line(r, cf_views);
  struct cf_estimate e;
  cf_model(cf_views, count, &e);
  f->has_observed = true;
  f->address = r->line;
  f->length = EFSAN_CACHE_LINE_SIZE;
  f->records[0] = r;
  f->observed = cf_load(&r->observed);
  f->observed_true = cf_load(&r->observed_true);
  f->parallel = cf_round(e.parallel);
  f->parallel_true = cf_round(e.parallel_true);
  if (f->observed >= f->parallel) {
    f->invalidations = f->observed;
    f->true_invalidations = f->observed_true;
  } else {
    f->invalidations = f->parallel;
    f->true_invalidations = f->parallel_true;
  }
  f->kind = 2 * f->true_invalidations > f->invalidations ? CF_TRUE_SHARING
                                                         : CF_FALSE_SHARING;
  cf_set_impact(f, cf_views, count, 1);
}

u64 cf_false_part(u64 all, u64 true_part) {
  return all > true_part ? all - true_part : 0;
}

// False sharing the model estimates for a virtual line beyond the false
// sharing of the real lines it covers.
static void cf_virtual_finding(struct cf_line_record *first,
                               struct cf_line_record *second, uptr from,
                               uptr length, u8 kind, u64 real_false,
                               struct cf_finding *f) {
  efsan_internal_memset(f, 0, sizeof(*f));
  u32 count = cf_views_of_range(first, second, from, length, cf_views);
  struct cf_estimate e;
  cf_model(cf_views, count, &e);
  u64 virtual_false = cf_false_part(cf_round(e.parallel), cf_round(e.parallel_true));
  f->kind = kind;
  f->address = from;
  f->length = length;
  f->records[0] = first;
  f->records[1] = second;
  f->parallel = virtual_false;
  f->invalidations = virtual_false > real_false ? virtual_false - real_false : 0;
  // The threads' part of the virtual line's invalidations beyond the real
  // lines'.
  cf_set_impact(f, cf_views, count,
                e.parallel > 0 ? (double)f->invalidations / e.parallel : 0);
}

// Views of a finding's (virtual) line, with the model's per-shape results.
u32 cf_finding_views(const struct cf_finding *f) {
  u32 count =
      f->kind == CF_FALSE_SHARING || f->kind == CF_TRUE_SHARING
          ? cf_views_of_line(f->records[0], cf_views)
          : cf_views_of_range(f->records[0], f->records[1], f->address,
                              f->length, cf_views);
  struct cf_estimate e;
  cf_model(cf_views, count, &e);
  return count;
}

// Every record's own finding, computed once (predictions look at each
// line's several times).
struct cf_finding *cf_record_findings;
static struct cf_line_record *cf_record_base;

static struct cf_finding *cf_finding_of(struct cf_line_record *r) {
  return &cf_record_findings[r - cf_record_base];
}

uptr cf_collect_findings(struct cf_finding *findings,
                                struct cf_line_record *records, u32 count) {
  uptr n = 0;
  cf_hidden_findings = 0;
  cf_record_base = records;
  for (u32 i = 0; i < count; i++) {
    struct cf_line_record *r = &records[i];
    if (!cf_load(&r->line))
      continue;
    cf_line_finding(r, cf_finding_of(r));
    if (cf_significant(cf_finding_of(r)))
      findings[n++] = *cf_finding_of(r);
    else if (cf_counts_enough(cf_finding_of(r)))
      cf_hidden_findings++;
  }
  // Predictions: virtual lines over two tracked lines, neither of which is
  // reported already, for the false sharing beyond that of the real lines.
  for (u32 i = 0; i < count; i++) {
    struct cf_line_record *r = &records[i];
    if (!cf_load(&r->line))
      continue;
    struct cf_line_record *next = cf_find_record(r->line + EFSAN_CACHE_LINE_SIZE);
    if (!next || next - records >= (long)count || !cf_load(&next->line))
      continue;
    struct cf_finding *mine = cf_finding_of(r), *theirs = cf_finding_of(next);
    if (cf_significant(mine) || cf_significant(theirs))
      continue;
    u64 real_false = cf_false_part(mine->invalidations, mine->true_invalidations) +
                     cf_false_part(theirs->invalidations, theirs->true_invalidations);
    if (!(r->line & EFSAN_CACHE_LINE_SIZE)) {
      cf_virtual_finding(r, next, r->line, 2 * EFSAN_CACHE_LINE_SIZE,
                         CF_PREDICTED_128, real_false, &findings[n]);
      if (cf_significant(&findings[n])) {
        n++;
        continue;
      }
    }
    struct cf_finding best;
    best.invalidations = 0;
    for (uptr k = 1; k < 8; k++) {
      struct cf_finding shifted;
      cf_virtual_finding(r, next, r->line + 8 * k, EFSAN_CACHE_LINE_SIZE,
                         CF_PREDICTED_SHIFTED, real_false, &shifted);
      if (shifted.invalidations > best.invalidations)
        best = shifted;
    }
    if (best.invalidations && cf_significant(&best))
      findings[n++] = best;
  }
  return n;
}

// Whether views the model ran over count what a finding needs (its
// invalidations: at least estimate, or observed if more).
static bool cf_views_count_enough(struct cf_view *views, u32 count,
                                  double estimate, u64 observed) {
  u64 writes = 0;
  for (u32 i = 0; i < count; i++)
    writes += views[i].writes;
  u64 invalidations = cf_round(estimate);
  if (observed > invalidations)
    invalidations = observed;
  return invalidations >= (u64)efsan_flags.cache_frag_report_threshold &&
         (cf_sample_period() == 1 || writes >= CF_MIN_SAMPLED_WRITES);
}

// Whether a virtual line over the two adjacent records (the 128-byte pair,
// or a 64-byte line at another start offset) counts enough.
static bool cf_virtual_counts_enough(struct cf_line_record *first,
                                     struct cf_line_record *second,
                                     struct cf_view *views) {
  struct cf_estimate e;
  if (!(first->line & EFSAN_CACHE_LINE_SIZE)) {
    u32 count = cf_views_of_range(first, second, first->line,
                                  2 * EFSAN_CACHE_LINE_SIZE, views);
    cf_model(views, count, &e);
    if (cf_views_count_enough(views, count, e.parallel, 0))
      return true;
  }
  for (uptr k = 1; k < 8; k++) {
    u32 count = cf_views_of_range(first, second, first->line + 8 * k,
                                  EFSAN_CACHE_LINE_SIZE, views);
    cf_model(views, count, &e);
    if (cf_views_count_enough(views, count, e.parallel, 0))
      return true;
  }
  return false;
}

// The sampled writes of a record's threads.
static u64 cf_record_writes(struct cf_line_record *record) {
  u64 writes = 0;
  for (int i = 0; i < CF_THREAD_SLOTS; i++) {
    struct cf_thread_line *part = cf_thread_part(record, i);
    if (part)
      writes += cf_load(&part->writes);
  }
  struct cf_thread_line *others = cf_others_part(record);
  return others ? writes + cf_load(&others->writes) : writes;
}

bool cf_record_may_report(struct cf_line_record *record,
                          struct cf_line_record *before,
                          struct cf_line_record *after) {
  // Most records are far from a finding: fewer sampled writes than a
  // finding needs (a writer's estimated invalidations never exceed its
  // writes), which needs no model.
  u64 period = cf_sample_period(),
      threshold = (u64)efsan_flags.cache_frag_report_threshold;
  u64 needed = period == 1 ? threshold : (threshold + period - 1) / period;
  if (period > 1 && needed < CF_MIN_SAMPLED_WRITES)
    needed = CF_MIN_SAMPLED_WRITES;
  u64 writes = cf_record_writes(record);
  bool line = writes >= needed || cf_load(&record->observed) >= threshold;
  before = before && writes + cf_record_writes(before) >= needed ? before : 0;
  after = after && writes + cf_record_writes(after) >= needed ? after : 0;
  if (!line && !before && !after)
    return false;
  static struct cf_view *views;
  if (!views)
    views = (struct cf_view *)efsan_mmap(CF_MAX_VIEWS * sizeof(struct cf_view));
  struct cf_estimate e;
  u32 count = line ? cf_views_of_line(record, views) : 0;
  if (line)
    cf_model(views, count, &e);
  return (line && cf_views_count_enough(views, count, e.parallel,
                                        cf_load(&record->observed))) ||
         (before && cf_virtual_counts_enough(before, record, views)) ||
         (after && cf_virtual_counts_enough(record, after, views));
}

// Sharing that happens before sharing that a layout change could cause,
// then by time lost.
static bool cf_ranks_before(const struct cf_finding *a,
                            const struct cf_finding *b) {
  if (cf_is_prediction(a) != cf_is_prediction(b))
    return !cf_is_prediction(a);
  if (a->conditional != b->conditional)
    return !a->conditional;
  if (a->lost_ns != b->lost_ns)
    return a->lost_ns > b->lost_ns;
  if (a->address != b->address)
    return a->address < b->address;
  return a->kind < b->kind;
}

// Shell sort: no libc in the runtime, and the list is short.
void cf_sort_findings(struct cf_finding *findings, uptr n) {
  static const uptr gaps[] = {701, 301, 132, 57, 23, 10, 4, 1};
  for (uptr g = 0; g < sizeof(gaps) / sizeof(gaps[0]); g++) {
    uptr gap = gaps[g];
    for (uptr i = gap; i < n; i++) {
      struct cf_finding item = findings[i];
      uptr j = i;
      for (; j >= gap && cf_ranks_before(&item, &findings[j - gap]); j -= gap)
        findings[j] = findings[j - gap];
      findings[j] = item;
    }
  }
}

//===-- Objects -------------------------------------------------------------===//

static u32 cf_stack_owner(uptr address, bool *on_stack) {
  *on_stack = false;
  for (uptr i = 0; i < cf_region_count; i++)
    if (cf_regions[i].lo <= address && address < cf_regions[i].hi) {
      *on_stack = cf_regions[i].kind == EFSAN_REGION_STACK;
      break;
    }
  u32 threads = efsan_thread_count();
  for (u32 t = 1; t < threads; t++) {
    uptr lo, hi;
    if (efsan_cache_frag_thread_stack(t, &lo, &hi) && lo <= address &&
        address < hi) {
      *on_stack = true;
      return t;
    }
  }
  return 0; // the main thread's, when on a stack at all
}

static bool cf_in_module_data(uptr address) {
  for (uptr i = 0; i < cf_region_count; i++)
    if (cf_regions[i].lo <= address && address < cf_regions[i].hi)
      return cf_regions[i].kind == EFSAN_REGION_GLOBALS;
  return false;
}

static void cf_heap_object(const struct cf_line_object *lo,
                           struct cf_object *o) {
  o->kind = CF_OBJECT_HEAP;
  o->start = lo->start;
  o->size = lo->size;
  o->stack_id = lo->stack_id;
  o->serial = lo->serial;
  o->allocations = cf_load(&lo->allocations);
}

// The object that held the byte at address when the shape's access was
// sampled: the heap block the record noted then, else the live heap block
// that holds it now (the shape's own lookup can miss: a block another
// thread was reallocating at that moment, or kinds of access beyond the
// record's, which are summed without one), else a block the record noted
// there (freed since: the same site's blocks at one address are one entry),
// else a global or a thread stack by address.
static void cf_held_object(const struct cf_view_shape *s, uptr address,
                           struct cf_object *o) {
  efsan_internal_memset(o, 0, sizeof(*o));
  struct efsan_heap_block block;
  if (s->object) {
    cf_heap_object(&s->record->objects[s->object - 1], o);
    return;
  }
  if (s->record) {
    u32 n = cf_load(&s->record->object_count);
    const struct cf_line_object *held = 0;
    for (u32 i = 0; i < n; i++) {
      const struct cf_line_object *lo = &s->record->objects[i];
      if (address - lo->start < lo->size && (!held || cf_load(&lo->live)))
        held = lo;
    }
    if (held && (cf_load(&held->live) || !efsan_heap_lookup(address, &block))) {
      cf_heap_object(held, o);
      return;
    }
  }
  if (efsan_heap_lookup(address, &block)) {
    o->kind = CF_OBJECT_HEAP;
    o->start = block.start;
    o->size = block.size;
    o->stack_id = block.stack_id;
    o->serial = block.serial;
    o->allocations = 1;
    return;
  }
  const char *name;
  uptr start, size;
  // Only addresses in a module's data go to the symbolizer: it complains
  // on stderr about addresses it cannot map to a file.
  if (cf_in_module_data(address) &&
      efsan_symbolize_global(address, &name, &start, &size) && name && size &&
      start <= address && address - start < size &&
      efsan_internal_strcmp(name, "??") != 0) {
    o->kind = CF_OBJECT_GLOBAL;
    o->name = name;
    o->start = start;
    o->size = size;
    return;
  }
  bool on_stack;
  u32 thread = cf_stack_owner(address, &on_stack);
  o->kind = on_stack ? CF_OBJECT_STACK : CF_OBJECT_UNKNOWN;
  o->thread = thread;
  o->start = address;
}

// Names do not depend on when the byte was accessed: the program's name
// of the range at report time, whatever object holds the byte.
static void cf_name_object(uptr address, struct cf_object *o) {
  struct efsan_named_range range;
  if (!efsan_names_find(address, address + 1, &range))
    return;
  o->range_name = efsan_name_text(range.name);
  o->range_in = efsan_name_mapping(range.name);
  o->range_start = range.lo;
  o->range_size = range.hi - range.lo;
}

static void cf_object_of_shape(const struct cf_view_shape *s, uptr address,
                               struct cf_object *o) {
  cf_held_object(s, address, o);
  cf_name_object(address, o);
}

static bool cf_same_object(const struct cf_object *a, const struct cf_object *b) {
  // Two named parts of one mapping (or block) are two objects.
  if (a->kind != b->kind || a->range_name != b->range_name ||
      a->range_start != b->range_start)
    return false;
  if (a->kind == CF_OBJECT_STACK)
    return a->thread == b->thread;
  if (a->kind == CF_OBJECT_HEAP)
    return a->serial == b->serial;
  return a->kind == CF_OBJECT_UNKNOWN || a->start == b->start;
}

static void cf_add_object(struct cf_objects *list, const struct cf_object *o,
                          double invalidations, uptr first,
                          const u64 bytes[2]) {
  u32 i = 0;
  while (i < list->count && !cf_same_object(&list->objects[i], o))
    i++;
  if (i == list->count) {
    if (list->count == CF_MAX_OBJECTS)
      return;
    list->objects[list->count++] = *o;
  }
  struct cf_object *target = &list->objects[i];
  target->invalidations += invalidations;
  if (o->allocations > target->allocations)
    target->allocations = o->allocations;
  if ((target->kind == CF_OBJECT_STACK || target->kind == CF_OBJECT_UNKNOWN) &&
      first < target->start)
    target->start = first;
  target->bytes[0] |= bytes[0];
  target->bytes[1] |= bytes[1];
}

// Invalidations of the finding's estimate that a kind of write caused.
static double cf_shape_contention(const struct cf_finding *f,
                                  const struct cf_view_shape *shape) {
  return f->has_observed && f->observed >= f->parallel ? shape->observed
                                                       : shape->invalidations;
}

// The objects whose bytes' writes caused the finding's invalidations (of
// its kind), most invalidations first, by the estimate the finding's count
// comes from: the history table's per-write counts when it observed more
// (it knows which write took the line), else the model's shares; when
// neither names a byte, the objects of every written byte.
void cf_attribute(const struct cf_finding *f, u32 view_count,
                         struct cf_objects *list) {
  list->count = 0;
  bool want_true = f->kind == CF_TRUE_SHARING;
  bool by_observed = f->has_observed && f->observed >= f->parallel;
  for (int pass = 0; pass < 2 && !list->count; pass++) {
    for (u32 v = 0; v < view_count; v++) {
      for (u32 s = 0; s < cf_views[v].shape_count; s++) {
        struct cf_view_shape *shape = &cf_views[v].shapes[s];
        double all = cf_shape_contention(f, shape);
        double true_part =
            by_observed ? shape->observed_true : shape->true_invalidations;
        double part = want_true ? true_part : all - true_part;
        if (pass == 0 ? part <= 0.5 : !shape->writes)
          continue;
        uptr first = f->address + shape->offset;
        struct cf_object o;
        cf_object_of_shape(shape, first, &o);
        cf_add_object(list, &o, pass == 0 ? part : 0, first, shape->bytes);
      }
    }
  }
  if (!list->count) {
    efsan_internal_memset(&list->objects[0], 0, sizeof(list->objects[0]));
    list->objects[0].start = f->address;
    list->count = 1;
  }
  for (u32 i = 1; i < list->count; i++) {
    struct cf_object item = list->objects[i];
    u32 j = i;
    for (; j > 0 && list->objects[j - 1].invalidations < item.invalidations; j--)
      list->objects[j] = list->objects[j - 1];
    list->objects[j] = item;
  }
}

static bool cf_byte_set(const u64 bytes[2], u32 i) {
  return bytes[i / 64] & (1ull << (i % 64));
}

// The next run of set bits of a 128-bit set at or after *first: [*first,
// *last]. False when there is none.
bool cf_next_byte_run(const u64 bytes[2], u32 *first, u32 *last) {
  u32 i = *first;
  while (i < 128 && !cf_byte_set(bytes, i))
    i++;
  if (i == 128)
    return false;
  u32 end = i;
  while (end + 1 < 128 && cf_byte_set(bytes, end + 1))
    end++;
  *first = i;
  *last = end;
  return true;
}

// Byte ranges of a 128-bit set, relative to base: "+0..3 +8..15".
void cf_format_bytes(char *buffer, uptr length, const u64 bytes[2],
                            uptr base_offset) {
  uptr at = 0;
  buffer[0] = 0;
  for (u32 i = 0, end; at < length && cf_next_byte_run(bytes, &i, &end);
       i = end + 1)
    at += efsan_snprintf(buffer + at, length - at, "%s+%zu..%zu", at ? " " : "",
                         (uptr)(i + base_offset), (uptr)(end + base_offset));
}

const char *cf_object_kind_name(int kind) {
  switch (kind) {
  case CF_OBJECT_HEAP:
    return "heap";
  case CF_OBJECT_GLOBAL:
    return "global";
  case CF_OBJECT_STACK:
    return "stack";
  default:
    return "unknown";
  }
}

const char *cf_kind_name(u8 kind) {
  switch (kind) {
  case CF_FALSE_SHARING:
    return "false-sharing";
  case CF_TRUE_SHARING:
    return "true-sharing";
  default:
    return "predicted-false-sharing";
  }
}

// Offset of the object's first byte from the finding's first byte: object
// offsets of bounded objects are line offsets minus this.
long cf_object_delta(const struct cf_finding *f, const struct cf_object *o) {
  return (long)f->address - (long)o->start;
}

bool cf_bounded(const struct cf_object *o) {
  return o->kind == CF_OBJECT_HEAP || o->kind == CF_OBJECT_GLOBAL;
}

const struct cf_object *cf_object_holding(const struct cf_objects *list,
                                                 uptr address) {
  for (u32 i = 0; i < list->count; i++) {
    const struct cf_object *o = &list->objects[i];
    if (cf_bounded(o) && o->start <= address && address - o->start < o->size)
      return o;
  }
  return 0;
}

//===-- Wording (the fix, durations, shares) ------------------------------===//

// Printed figures carry the digits they have (docs/CacheFrag.md, "Figures";
// efsan-view's formatting.py prints the same from the JSON, which keeps
// full precision). A share is a whole percent from 10% up, one decimal
// below ("3.0%", "65%"), "<0.1%" when above 0 but below 0.05%, of a
// parts-per-million value, rounded half up.
void cf_format_percent(char *buffer, uptr length, u64 ppm) {
  u64 tenths = (ppm + 500) / 1000;
  if (!ppm)
    efsan_snprintf(buffer, length, "0%%");
  else if (!tenths)
    efsan_snprintf(buffer, length, "<0.1%%");
  else if (tenths < 100)
    efsan_snprintf(buffer, length, "%llu.%llu%%", tenths / 10, tenths % 10);
  else
    efsan_snprintf(buffer, length, "%llu%%", (ppm + 5000) / 10000);
}

// A count the report estimates (sampled counts times the period, the
// model's invalidations): three significant digits; an exact count as it is.
u64 cf_printed_count(u64 n, bool estimated) {
  return estimated ? efsan_round_3(n) : n;
}

// Whether the finding's invalidations are the model's estimate (a
// prediction, or threads run in parallel counting more than were observed),
// not a count.
bool cf_estimated(const struct cf_finding *f) {
  return f->kind == CF_PREDICTED_128 || f->kind == CF_PREDICTED_SHIFTED ||
         f->parallel > f->observed;
}

// ", 38-47% over the machine profile's range" where a machine profile's
// prices span a range of claims, else "" (the same words wherever a share
// is printed).
void cf_format_share_range(char *buffer, uptr length, u32 low_ppm,
                           u32 high_ppm) {
  char low[32], high[32];
  cf_format_percent(low, sizeof(low), low_ppm);
  cf_format_percent(high, sizeof(high), high_ppm);
  buffer[0] = 0;
  if (!efsan_internal_strcmp(low, high))
    return;
  uptr n = efsan_internal_strlen(low);
  if (n && low[n - 1] == '%')
    low[n - 1] = 0; // "38-47%"
  efsan_snprintf(buffer, length, ", %s-%s over the machine profile's range",
                 low, high);
}

// What fixing the finding gains: "the fix saves 1.234 s of CPU time (45.6%
// of the run; about 0.617 s of wall time)"; a 128-byte prediction on a CPU
// that does not pair lines gains nothing here.
void cf_format_impact(char *buffer, uptr length, const struct cf_finding *f) {
  char cpu[32], share[32], range[80], wall[32];
  efsan_format_duration(cpu, sizeof(cpu), f->lost_ns);
  cf_format_percent(share, sizeof(share), f->share_ppm);
  cf_format_share_range(range, sizeof(range), f->low_ppm, f->high_ppm);
  efsan_format_duration(wall, sizeof(wall), f->wall_ns);
  if (f->conditional)
    efsan_snprintf(buffer, length,
                   "portability note, no gain on this CPU (%s); where lines "
                   "pair, the fix would save %s of CPU time (%s of the run "
                   "there%s)",
                   cf_pairing_source(), cpu, share, range);
  else if (f->hypothetical)
    efsan_snprintf(buffer, length,
                   "the fix saves %s of CPU time (%s of the run with that "
                   "layout%s; about %s of wall time)",
                   cpu, share, range, wall);
  else
    efsan_snprintf(buffer, length,
                   "the fix saves %s of CPU time (%s of the run%s; about %s "
                   "of wall time)",
                   cpu, share, range, wall);
}

// "global 'x'", "the heap object allocated at f.c:12", ...
static void cf_describe_object(char *buffer, uptr length,
                               const struct cf_object *object) {
  switch (object->kind) {
  case CF_OBJECT_GLOBAL:
    efsan_snprintf(buffer, length, "global '%s'", object->name);
    return;
  case CF_OBJECT_HEAP: {
    // Named by its site: the first frame outside the allocation wrappers.
    struct efsan_frame frame;
    if (efsan_symbolize_site(object->stack_id, &frame) && frame.file)
      efsan_snprintf(buffer, length, "the heap object allocated at %s:%d",
                     frame.file, frame.line);
    else
      efsan_snprintf(buffer, length, "the heap object of size %zu",
                     object->size);
    return;
  }
  case CF_OBJECT_STACK:
    efsan_snprintf(buffer, length, "the stack object of thread T%u",
                   object->thread);
    return;
  default:
    if (object->range_name)
      efsan_snprintf(buffer, length, "the named range \"%s\"",
                     object->range_name);
    else
      efsan_snprintf(buffer, length, "the data");
    return;
  }
}

// The size of each thread's part when the bytes whose writes cause the
// invalidations start at evenly spaced offsets, one per thread (per-thread
// elements of an array): 0 otherwise.
uptr cf_thread_part_size(const struct cf_finding *f, u32 view_count) {
  uptr starts[CF_MAX_VIEWS];
  u32 n = 0;
  for (u32 v = 0; v < view_count; v++) {
    if (cf_views[v].thread == EFSAN_INTERNAL_THREAD || !cf_views[v].writes)
      continue;
    uptr first = ~(uptr)0;
    for (u32 k = 0; k < cf_views[v].shape_count; k++)
      if (cf_shape_contention(f, &cf_views[v].shapes[k]) >= 0.5 &&
          cf_views[v].shapes[k].offset < first)
        first = cf_views[v].shapes[k].offset;
    if (first != ~(uptr)0)
      starts[n++] = first;
  }
  if (n < 2)
    return 0;
  for (u32 i = 1; i < n; i++) { // insertion sort: a handful of threads
    uptr x = starts[i];
    u32 j = i;
    for (; j > 0 && starts[j - 1] > x; j--)
      starts[j] = starts[j - 1];
    starts[j] = x;
  }
  uptr stride = starts[1] - starts[0];
  if (!stride || stride >= EFSAN_CACHE_LINE_SIZE)
    return 0;
  for (u32 i = 2; i < n; i++)
    if (starts[i] - starts[i - 1] != stride)
      return 0;
  return stride;
}

// The debug-info type of a global or heap object, if the pass described it;
// pointer: the object is a heap block used through the pointer holder;
// cxx (if asked): a C++ unit declared it (the layout's leading '+',
// docs/InstrumentationABI.md), which the layout then starts after.
static bool cf_object_type_in(const struct cf_object *o, const char **layout,
                              const char **holder, bool *pointer, bool *cxx) {
  if (!cf_bounded(o))
    return false;
  *pointer = o->kind == CF_OBJECT_HEAP;
  bool found = o->kind == CF_OBJECT_GLOBAL
                   ? cf_global_type_of(o->start, holder, layout)
                   : o->kind == CF_OBJECT_HEAP &&
                         cf_heap_type_of(o->stack_id, layout, holder);
  if (!found || !*layout)
    return false;
  bool plus = **layout == '+';
  if (plus)
    ++*layout;
  if (cxx)
    *cxx = plus;
  return true;
}

static bool cf_object_type(const struct cf_object *o, const char **layout,
                           const char **holder, bool *pointer) {
  return cf_object_type_in(o, layout, holder, pointer, 0);
}

// The member of a global or heap object with a described type that holds
// [offset, offset + length) of the object.
static bool cf_object_member(const struct cf_object *o, uptr offset,
                             uptr length, char *name, uptr size,
                             uptr *member_start) {
  const char *layout, *holder;
  bool pointer;
  if (!cf_object_type(o, &layout, &holder, &pointer))
    return false;
  uptr member_end;
  return cf_member_name(layout, holder, pointer, o->size, offset, length, name,
                        size, member_start, &member_end);
}

// What to change, and what it would gain: the finding's estimated time
// lost and its share of the threads' time.
// Whether nearly all the sampled writes to the line were made holding a
// mutex or spin lock.
bool cf_line_under_lock(const struct cf_finding *f) {
  u64 all = 0, locked = 0;
  for (int r = 0; r < 2; r++) {
    struct cf_line_record *record = f->records[r];
    if (!record)
      continue;
    for (int slot = 0; slot < CF_THREAD_SLOTS; slot++) {
      struct cf_thread_line *line = cf_thread_part(record, slot);
      if (!cf_owner(record, slot) || !line)
        continue;
      struct cf_site_block *more = cf_site_block_of(line);
      if (more) {
        all += cf_load(&more->other_site_writes);
        locked += cf_load(&more->other_site_locked_writes);
      }
      const struct cf_site *site;
      for (u32 i = 0; i < CF_SITES && (site = cf_site_at(line, i)); i++) {
        all += cf_load(&site->writes);
        locked += cf_load(&site->locked_writes);
      }
    }
  }
  return all && locked * 10 >= all * 9;
}

// The bytes a view's thread wrote (its kinds of access with writes).
static void cf_view_written(const struct cf_view *view, u64 written[2]) {
  written[0] = written[1] = 0;
  for (u32 k = 0; k < view->shape_count; k++)
    if (view->shapes[k].writes) {
      written[0] |= view->shapes[k].bytes[0];
      written[1] |= view->shapes[k].bytes[1];
    }
}

// The threads that write the finding's bytes: how many, and whether some
// byte has more than one writer within one lifetime of the data (only then
// do threads write the same bytes; a block freed and allocated again at the
// same address starts anew).
u32 cf_writers(u32 view_count, bool *shared_bytes) {
  u32 writers = 0;
  *shared_bytes = false;
  for (u32 v = 0; v < view_count; v++) {
    u64 mine[2];
    cf_view_written(&cf_views[v], mine);
    if (!mine[0] && !mine[1])
      continue;
    // "Other threads" are several threads: their bytes count as shared.
    if ((mine[0] & cf_views[v].co_written[0]) ||
        (mine[1] & cf_views[v].co_written[1]) ||
        cf_views[v].thread == EFSAN_INTERNAL_THREAD)
      *shared_bytes = true;
    writers++;
  }
  return writers;
}

// Whether the objects are two or more, each written by one thread of its
// own.
static bool cf_one_writer_each(const struct cf_objects *objects,
                               u32 view_count) {
  if (objects->count < 2)
    return false;
  u32 writer_of[CF_MAX_OBJECTS];
  for (u32 i = 0; i < objects->count; i++) {
    const struct cf_object *o = &objects->objects[i];
    u32 writers = 0;
    for (u32 v = 0; v < view_count; v++) {
      u64 mine[2];
      cf_view_written(&cf_views[v], mine);
      if ((mine[0] & o->bytes[0]) || (mine[1] & o->bytes[1])) {
        writers++;
        writer_of[i] = cf_views[v].thread;
      }
    }
    if (writers != 1 || writer_of[i] == EFSAN_INTERNAL_THREAD)
      return false;
    for (u32 j = 0; j < i; j++)
      if (writer_of[j] == writer_of[i])
        return false;
  }
  return true;
}

// Separate heap blocks that the allocator placed on one line, each written
// by one thread of its own (Hoard's cache-scratch: small blocks allocated
// one after the other, then handed to threads): the layout is the
// allocator's, so the fix is in each allocation. Names up to two of them.
static bool cf_blocks_side_by_side(const struct cf_objects *objects,
                                   u32 view_count, char *sites, uptr length) {
  for (u32 i = 0; i < objects->count; i++)
    if (objects->objects[i].kind != CF_OBJECT_HEAP)
      return false;
  if (!cf_one_writer_each(objects, view_count))
    return false;
  uptr at = 0;
  for (u32 i = 0; i < objects->count && i < 2 && at < length; i++) {
    struct efsan_frame frame;
    const struct cf_object *o = &objects->objects[i];
    if (efsan_symbolize_site(o->stack_id, &frame) && frame.file)
      at += efsan_snprintf(sites + at, length - at, "%s%zu bytes at %s:%d",
                           i ? " and " : "", o->size, frame.file, frame.line);
    else
      at += efsan_snprintf(sites + at, length - at, "%s%zu bytes", i ? " and " : "",
                           o->size);
  }
  return true;
}

// Parts of memory the program named (a shared segment carved into parts),
// neither a heap block nor a global, that lie on one line, each written by
// one thread of its own: the fix is where the parts are laid out. Names up
// to two of them.
static bool cf_ranges_side_by_side(const struct cf_objects *objects,
                                   u32 view_count, char *names, uptr length) {
  for (u32 i = 0; i < objects->count; i++)
    if (!objects->objects[i].range_name || cf_bounded(&objects->objects[i]))
      return false;
  if (!cf_one_writer_each(objects, view_count))
    return false;
  uptr at = 0;
  for (u32 i = 0; i < objects->count && i < 2 && at < length; i++)
    at += efsan_snprintf(names + at, length - at, "%s\"%s\", %zu bytes",
                         i ? " and " : "", objects->objects[i].range_name,
                         objects->objects[i].range_size);
  return true;
}

// The language the object's type was declared in, for advice spelt in it:
// its described type's mark (a C++ unit's layout starts with '+'), else the
// file extension of its allocation site.
enum cf_language { CF_LANG_UNKNOWN, CF_LANG_C, CF_LANG_CXX };

static bool cf_ends_with(const char *s, const char *suffix) {
  uptr n = efsan_internal_strlen(s), m = efsan_internal_strlen(suffix);
  return n >= m && !efsan_internal_strcmp(s + n - m, suffix);
}

static enum cf_language cf_file_language(const char *file) {
  static const char *const cxx_files[] = {".cpp", ".cc", ".cxx", ".C",
                                          ".c++", ".hpp", ".hh", ".hxx"};
  if (!file)
    return CF_LANG_UNKNOWN;
  for (uptr i = 0; i < sizeof(cxx_files) / sizeof(cxx_files[0]); i++)
    if (cf_ends_with(file, cxx_files[i]))
      return CF_LANG_CXX;
  return cf_ends_with(file, ".c") ? CF_LANG_C : CF_LANG_UNKNOWN;
}

// Without a described type: the allocation site's file, else the files of
// the code that accesses the line (a stack object, a global without -g).
static enum cf_language cf_object_language(const struct cf_finding *f,
                                           const struct cf_object *o,
                                           u32 view_count) {
  const char *layout, *holder;
  bool pointer, cxx;
  if (cf_object_type_in(o, &layout, &holder, &pointer, &cxx))
    return cxx ? CF_LANG_CXX : CF_LANG_C;
  struct efsan_frame frame;
  if (o->kind == CF_OBJECT_HEAP && efsan_symbolize_site(o->stack_id, &frame)) {
    enum cf_language language = cf_file_language(frame.file);
    if (language != CF_LANG_UNKNOWN)
      return language;
  }
  uptr sites = cf_collect_sites(f, view_count);
  for (uptr i = 0; i < sites; i++) {
    enum cf_language language = cf_file_language(cf_sites[i].frame.file);
    if (language != CF_LANG_UNKNOWN)
      return language;
  }
  return CF_LANG_UNKNOWN;
}

// How to align to 64 bytes, in the object's language.
static const char *cf_alignas(enum cf_language language) {
  return language == CF_LANG_CXX ? "alignas(64)"
         : language == CF_LANG_C ? "_Alignas(64)"
                                 : "_Alignas(64) (C) or alignas(64) (C++)";
}

void cf_suggest(char *buffer, uptr length, const struct cf_finding *f,
                const struct cf_objects *objects, uptr part_size,
                u32 view_count) {
  const struct cf_object *object = &objects->objects[0];
  enum cf_language language = cf_object_language(f, object, view_count);
  char what[512], part[384] = "";
  cf_describe_object(what, sizeof(what), object);
  // A block allocated anew at one address whose threads' parts move from
  // one allocation to the next (streamcluster's work_mem): each part is
  // padded, and the block aligned, in every allocation.
  if (object->kind == CF_OBJECT_HEAP && object->allocations > 1)
    efsan_snprintf(part, sizeof(part),
                   " (it was allocated %u times at this address, and each "
                   "allocation is shared anew: allocate it 64-byte aligned, "
                   "e.g. aligned_alloc(64, ...), and round each thread's "
                   "part up to a multiple of 64 bytes)",
                   object->allocations);
  else if (part_size)
    efsan_snprintf(part, sizeof(part),
                   " (each thread's part is %zu bytes, less than a line: make "
                   "each element 64 bytes, e.g. %s on its type)",
                   part_size, cf_alignas(language));
  // With the object's type: name the element type and the member to align.
  const char *layout, *holder;
  bool pointer;
  char type_name[96], first_member[64];
  uptr element_size, first_byte = 0;
  while (first_byte < 128 &&
         !cf_byte_set(object->bytes, first_byte))
    first_byte++;
  if (part_size && first_byte < 128 &&
      cf_object_type(object, &layout, &holder, &pointer) &&
      f->address + first_byte >= object->start &&
      cf_member_element(layout, pointer,
                        f->address + first_byte - object->start, type_name,
                        sizeof(type_name), &element_size, first_member,
                        sizeof(first_member)) &&
      element_size < 64 && type_name[0]) {
    char fit[48];
    if (64 % element_size == 0)
      efsan_snprintf(fit, sizeof(fit), "%zu per line", 64 / element_size);
    else
      efsan_snprintf(fit, sizeof(fit), "elements straddle lines");
    // C++: the type itself is declared aligned (which pads it too), by
    // its own name in its namespace; a template's instance cannot be, and
    // gets the member's alignment as C does.
    const char *unqualified = type_name;
    for (const char *p = type_name; *p; p++)
      if (p[0] == ':' && p[1] == ':')
        unqualified = p + 2;
    bool templated = false;
    for (const char *p = type_name; *p; p++)
      templated |= *p == '<' || *p == ' ';
    if (language == CF_LANG_CXX && !templated)
      efsan_snprintf(part, sizeof(part),
                     " (%s is %zu bytes, %s: make each element 64 bytes, e.g. "
                     "declare it `struct alignas(64) %s` (or "
                     "alignas(std::hardware_destructive_interference_size), "
                     "C++17's <new>), or pad %s to 64 bytes)",
                     type_name, element_size, fit, unqualified, type_name);
    else
      efsan_snprintf(part, sizeof(part),
                     " (%s is %zu bytes, %s: make each element 64 bytes, e.g. "
                     "%s on its first member%s%s, or pad %s to 64 bytes)",
                     type_name, element_size, fit,
                     language == CF_LANG_CXX ? "alignas(64)" : "_Alignas(64)",
                     first_member[0] ? " " : "", first_member, type_name);
  }
  uptr at = 0;
  char sites[384];
  if (f->kind == CF_FALSE_SHARING &&
      cf_ranges_side_by_side(objects, view_count, sites, sizeof(sites))) {
    at = efsan_snprintf(buffer, length,
                        "each thread writes a named range of its own, and "
                        "the ranges lie on one cache line (%s%s): start "
                        "each one on a 64-byte boundary and round its size "
                        "up to a multiple of 64 bytes where the memory is "
                        "carved up; the ranges' contents need no change",
                        sites, objects->count > 2 ? ", ..." : "");
  } else if (f->kind == CF_FALSE_SHARING &&
      cf_blocks_side_by_side(objects, view_count, sites, sizeof(sites))) {
    at = efsan_snprintf(buffer, length,
                        "each thread writes a heap block of its own, and the "
                        "allocator placed them on one cache line (%s%s): "
                        "allocate each one 64-byte aligned and padded to 64 "
                        "bytes (aligned_alloc(64, 64) in C, an alignas(64) "
                        "type with operator new in C++), or from a pool per "
                        "thread; the blocks' contents need no change",
                        sites, objects->count > 2 ? ", ..." : "");
  } else switch (f->kind) {
  case CF_FALSE_SHARING:
    at = efsan_snprintf(buffer, length,
                        "threads write different bytes of %s on one cache "
                        "line: align it to 64 bytes and pad each thread's "
                        "part to 64 bytes%s, or accumulate in thread-local "
                        "variables",
                        what, part);
    break;
  case CF_TRUE_SHARING:
    // Data under a lock: its updates are serialized by the lock already, and
    // private copies would need the lock's work redone.
    if (cf_line_under_lock(f)) {
      at = efsan_snprintf(buffer, length,
                          "threads write the same bytes of %s while holding a "
                          "lock (true sharing; padding cannot help): the line "
                          "moves with the lock; keep the critical section "
                          "short, or split the data and its lock (per thread "
                          "or per key) so that threads update different lines",
                          what);
      break;
    }
    bool shared_bytes;
    u32 writers = cf_writers(view_count, &shared_bytes);
    // Each byte has one writer and other threads read it (a queue's head
    // and tail, flags): what hurts is the writers sharing the line.
    if (!shared_bytes && writers >= 2) {
      at = efsan_snprintf(buffer, length,
                          "each byte of %s has one writer, and other threads "
                          "read it (true sharing of each word, false sharing "
                          "between the writers): put each writer's words on a "
                          "line of its own (%s on each), and let "
                          "each reader keep the last value it read, reading "
                          "again only when it must (a ring's producer "
                          "re-reads the tail only when the ring looks full, "
                          "its consumer the head when it looks empty): "
                          "padding alone leaves each new value a transfer",
                          what, cf_alignas(language));
      break;
    }
    if (!shared_bytes) {
      at = efsan_snprintf(buffer, length,
                          "one thread writes bytes of %s that other threads "
                          "read (communication: the readers need the new "
                          "values): write them less often, or let readers "
                          "check them less often",
                          what);
      break;
    }
    at = efsan_snprintf(buffer, length,
                        "threads write the same bytes of %s (true sharing; "
                        "padding cannot help): give each thread a private "
                        "copy and combine them at the end, or update it less "
                        "often",
                        what);
    break;
  case CF_PREDICTED_128:
    at = efsan_snprintf(buffer, length,
                        "each thread's part of %s has its own 64-byte line, "
                        "but both lines form one 128-byte pair (adjacent-line "
                        "prefetch, 128-byte lines): align and pad each "
                        "thread's part to 128 bytes",
                        what);
    break;
  default:
    at = efsan_snprintf(buffer, length,
                        "different threads' parts of %s are less than 64 "
                        "bytes apart across a line boundary, so another start "
                        "offset makes them share a line (this assumes the data "
                        "%zu bytes further into its line than in this run, "
                        "e.g. after a change of what precedes it): align it to "
                        "64 bytes and pad each thread's part to a multiple of "
                        "64 bytes",
                        what,
                        (uptr)(EFSAN_CACHE_LINE_SIZE -
                               (f->address & (EFSAN_CACHE_LINE_SIZE - 1))));
    break;
  }
  if (at < length) {
    char impact[320];
    cf_format_impact(impact, sizeof(impact), f);
    efsan_snprintf(buffer + at, length - at, "; %s", impact);
  }
}
//===-- Line map ------------------------------------------------------------===//



// The (virtual) line byte by byte, grouped into ranges (pahole-like).
u32 cf_line_map(const struct cf_finding *f, u32 view_count,
                       struct cf_map_range *ranges) {
  u32 n = 0;
  for (uptr b = 0; b < f->length; b++) {
    u64 readers = 0, writers = 0;
    for (u32 v = 0; v < view_count && v < 64; v++)
      for (u32 k = 0; k < cf_views[v].shape_count; k++) {
        const struct cf_view_shape *shape = &cf_views[v].shapes[k];
        if (!cf_byte_set(shape->bytes, b))
          continue;
        if (shape->reads)
          readers |= 1ull << v;
        if (shape->writes)
          writers |= 1ull << v;
      }
    // The object that held the byte when a thread accessed it.
    struct cf_object object;
    efsan_internal_memset(&object, 0, sizeof(object));
    const struct cf_view_shape *any = 0;
    for (u32 v = 0; v < view_count && !any; v++)
      for (u32 k = 0; k < cf_views[v].shape_count && !any; k++)
        if (cf_byte_set(cf_views[v].shapes[k].bytes, b))
          any = &cf_views[v].shapes[k];
    if (any)
      cf_held_object(any, f->address + b, &object);
    if (!cf_bounded(&object))
      object.start = 0;
    cf_name_object(f->address + b, &object);
    // A new member starts a new range (pahole-like).
    uptr member_start = (uptr)-1;
    char unused[128];
    if (object.start)
      cf_object_member(&object, f->address + b - object.start, 1, unused,
                       sizeof(unused), &member_start);
    struct cf_map_range *last = n ? &ranges[n - 1] : 0;
    if (last && last->readers == readers && last->writers == writers &&
        last->object.kind == object.kind && last->object.start == object.start &&
        last->object.serial == object.serial &&
        last->object.range_start == object.range_start &&
        last->object.range_name == object.range_name &&
        last->member_start == member_start) {
      last->length++;
      continue;
    }
    ranges[n].offset = b;
    ranges[n].length = 1;
    ranges[n].readers = readers;
    ranges[n].writers = writers;
    ranges[n].object = object;
    ranges[n].member_start = member_start;
    n++;
  }
  for (u32 i = 0; i < n; i++) {
    struct cf_map_range *r = &ranges[i];
    uptr start;
    r->member[0] = 0;
    if (r->member_start != (uptr)-1 &&
        !cf_object_member(&r->object, f->address + r->offset - r->object.start,
                          r->length, r->member, sizeof(r->member), &start))
      r->member[0] = 0;
  }
  return n;
}
// The function a thread runs: main for T0, the name the runtime gave it
// (an OpenMP thread's parallel region), else its start routine (from the
// symbol table), null if unknown.
const char *cf_thread_function(u32 thread) {
  if (thread == 0)
    return "main";
  if (thread == EFSAN_INTERNAL_THREAD)
    return 0;
  const char *name = efsan_thread_name(thread);
  if (name)
    return name;
  return efsan_start_function_name(
      efsan_cache_frag_thread_start_routine(thread));
}

// Stacks that name the same source lines (an unrolled loop of
// pthread_create calls has several return addresses, one line).
static bool cf_same_source_stack(u32 a, u32 b) {
  return efsan_stacks_alike(a, b, CF_MAX_FRAMES);
}

u32 cf_creation_groups(u32 view_count, struct cf_creation_group *groups) {
  u32 n = 0;
  for (u32 v = 0; v < view_count; v++) {
    u32 thread = cf_views[v].thread;
    if (!cf_views[v].involved || thread == EFSAN_INTERNAL_THREAD || thread == 0)
      continue;
    u32 stack_id;
    u32 creator = efsan_cache_frag_thread_creator(thread, &stack_id);
    struct cf_creation_group *group = 0;
    for (u32 g = 0; g < n && !group; g++)
      if (groups[g].creator == creator &&
          cf_same_source_stack(groups[g].stack_id, stack_id))
        group = &groups[g];
    if (!group) {
      group = &groups[n++];
      group->creator = creator;
      group->stack_id = stack_id;
      group->count = 0;
    }
    group->threads[group->count++] = thread;
  }
  return n;
}
//===-- Access sites ------------------------------------------------------===//

struct cf_finding_site cf_sites[CF_MAX_FINDING_SITES];
// Samples of the involved threads at places the records had no room for.
u64 cf_other_site_samples;

// The innermost source frame of a site (the access itself, when inlined).
static bool cf_library_frame(const struct efsan_frame *frame) {
  const char *f = frame->function;
  if (!efsan_internal_strncmp(f, "std::", 5) ||
      !efsan_internal_strncmp(f, "__gnu_cxx::", 11))
    return true;
  return frame->file && !efsan_internal_strncmp(frame->file, "/usr/", 5);
}

// The source frame of a site: the access itself, or where the program
// called the C++ library code (inlined) that made it.
static struct efsan_frame cf_site_frame(uptr pc) {
  struct efsan_frame frames[8];
  uptr n = efsan_symbolize_pc(pc, frames, 8);
  if (!n) {
    struct efsan_frame unknown = {pc, "<unknown>", 0, 0, false};
    return unknown;
  }
  for (uptr i = 0; i < n; i++)
    if (!cf_library_frame(&frames[i]))
      return frames[i];
  return frames[0];
}

// Thread by thread, busiest place first.
static bool cf_site_before(const struct cf_finding_site *a,
                           const struct cf_finding_site *b) {
  if (a->thread != b->thread)
    return a->thread < b->thread;
  u64 ca = a->reads + a->writes, cb = b->reads + b->writes;
  return ca != cb ? ca > cb : a->pc < b->pc;
}


// The sites of the finding's involved threads that touched its bytes,
// busiest first.
uptr cf_collect_sites(const struct cf_finding *f, u32 view_count) {
  uptr n = 0;
  cf_other_site_samples = 0;
  for (u32 v = 0; v < view_count; v++) {
    u32 thread = cf_views[v].thread;
    if (thread == EFSAN_INTERNAL_THREAD || !cf_views[v].involved)
      continue;
    for (int r = 0; r < 2; r++) {
      struct cf_line_record *record = f->records[r];
      if (!record)
        continue;
      for (int slot = 0; slot < CF_THREAD_SLOTS; slot++) {
        struct cf_thread_line *line = cf_thread_part(record, slot);
        if (cf_owner(record, slot) != thread + 1 || !line)
          continue;
        struct cf_site_block *more = cf_site_block_of(line);
        if (more)
          cf_other_site_samples += cf_load(&more->other_site_reads) +
                                   cf_load(&more->other_site_writes);
        const struct cf_site *site;
        for (u32 i = 0; i < CF_SITES && (site = cf_site_at(line, i)); i++) {
          uptr pc = __atomic_load_n(&site->pc, __ATOMIC_ACQUIRE);
          if (!pc)
            break;
          u64 bytes[2] = {0, 0};
          u64 mask = cf_load(&site->bytes);
          for (int b = 0; b < 64; b++) {
            long at = (long)(record->line + b - f->address);
            if ((mask >> b & 1) && at >= 0 && (uptr)at < f->length)
              bytes[at / 64] |= 1ull << (at % 64);
          }
          if (!bytes[0] && !bytes[1])
            continue;
          struct cf_finding_site *entry = 0;
          for (uptr k = 0; k < n && !entry; k++)
            if (cf_sites[k].thread == thread && cf_sites[k].pc == pc)
              entry = &cf_sites[k];
          if (!entry) {
            if (n == CF_MAX_FINDING_SITES)
              continue;
            entry = &cf_sites[n++];
            efsan_internal_memset(entry, 0, sizeof(*entry));
            entry->thread = thread;
            entry->pc = pc;
          }
          entry->reads += cf_load(&site->reads);
          entry->writes += cf_load(&site->writes);
          entry->locked += cf_load(&site->locked);
          entry->bytes[0] |= bytes[0];
          entry->bytes[1] |= bytes[1];
        }
      }
    }
  }
  // A load and a store of one line of source (`x++`) are two calls, two
  // addresses: one place.
  uptr places = 0;
  for (uptr i = 0; i < n; i++) {
    struct cf_finding_site *site = &cf_sites[i];
    site->frame = cf_site_frame(site->pc);
    struct cf_finding_site *same = 0;
    for (uptr k = 0; k < places && !same; k++)
      if (cf_sites[k].thread == site->thread &&
          efsan_same_place(&cf_sites[k].frame, &site->frame))
        same = &cf_sites[k];
    if (!same) {
      cf_sites[places++] = *site;
      continue;
    }
    same->reads += site->reads;
    same->writes += site->writes;
    same->locked += site->locked;
    same->bytes[0] |= site->bytes[0];
    same->bytes[1] |= site->bytes[1];
    if (site->pc < same->pc)
      same->pc = site->pc;
  }
  n = places;
  for (uptr i = 1; i < n; i++)
    for (uptr j = i; j > 0 && cf_site_before(&cf_sites[j], &cf_sites[j - 1]);
         j--) {
      struct cf_finding_site t = cf_sites[j];
      cf_sites[j] = cf_sites[j - 1];
      cf_sites[j - 1] = t;
    }
  return n;
}

// Nearly all of a place's accesses were made holding a lock.
bool cf_site_under_lock(const struct cf_finding_site *site) {
  return site->locked * 10 >= (site->reads + site->writes) * 9;
}
