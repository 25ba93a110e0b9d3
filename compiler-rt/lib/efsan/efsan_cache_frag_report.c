//===-- efsan_cache_frag_report.c - cache-frag report ---------------------===//
//
// Turns the tracked lines into findings (false sharing, true sharing,
// predicted false sharing), attributes each to its object, ranks them by
// estimated invalidations and prints them with the struct field usage, as
// sanitizer-style text or as JSON (report_format=json). docs/CacheFrag.md
// explains every number printed here.
//
//===----------------------------------------------------------------------===//
#include "efsan_cache_frag_internal.h"

enum cf_finding_kind {
  CF_FALSE_SHARING,
  CF_TRUE_SHARING,
  CF_PREDICTED_128,     // virtual 128-byte line
  CF_PREDICTED_SHIFTED, // virtual 64-byte line at another start offset
};

struct cf_finding {
  u8 kind;
  uptr address; // first byte of the (virtual) line
  uptr length;  // 64 or 128
  u64 observed; // invalidations seen in windows
  u64 estimated;
  struct cf_line_record *records[2]; // real lines the (virtual) line covers
};

struct cf_object {
  int kind;
  const char *name; // globals only
  uptr start, size;
  u32 stack_id; // heap only
  // Invalidations caused by writes to this object's words, and those words
  // (bit i: the word at finding address + 8 * i); 0 when the object was
  // chosen without per-word invalidation counts (predictions).
  u64 invalidations;
  u32 contended_words;
};

// A finding's objects: those whose words caused its invalidations, most
// invalidations first (a line can hold several globals).
#define CF_MAX_OBJECTS 16 /* words of a 128-byte virtual line */
struct cf_objects {
  u32 count;
  struct cf_object objects[CF_MAX_OBJECTS];
};

#define CF_MAX_THREADS_LISTED 64
#define CF_MAX_FRAMES 16

static u64 cf_duty_ppm;
static bool cf_json;

//===-- Collecting findings -----------------------------------------------===//

static u64 cf_true_invalidations(const struct cf_sharing *s) {
  u64 all = cf_load(&s->invalidations), false_ones = cf_load(&s->false_invalidations);
  return all > false_ones ? all - false_ones : 0;
}

static bool cf_reportable(u64 observed) {
  return observed &&
         cf_estimate(observed, cf_duty_ppm) >=
             (u64)efsan_flags.cache_frag_report_threshold;
}

static void cf_add_finding(struct cf_finding *findings, uptr *count, u8 kind,
                           uptr address, uptr length, u64 observed,
                           struct cf_line_record *first,
                           struct cf_line_record *second) {
  struct cf_finding *f = &findings[(*count)++];
  f->kind = kind;
  f->address = address;
  f->length = length;
  f->observed = observed;
  f->estimated = cf_estimate(observed, cf_duty_ppm);
  f->records[0] = first;
  f->records[1] = second;
}

static bool cf_has_observed_false_sharing(struct cf_line_record *record) {
  return record && cf_reportable(cf_load(&record->real.false_invalidations));
}

// At most 4 findings per record: false, true, predicted 128, predicted shifted.
static uptr cf_collect_findings(struct cf_finding *findings,
                                struct cf_line_record *records, u32 count) {
  uptr n = 0;
  for (u32 i = 0; i < count; i++) {
    struct cf_line_record *r = &records[i];
    if (!cf_load(&r->line))
      continue;
    u64 false_observed = cf_load(&r->real.false_invalidations);
    u64 true_observed = cf_true_invalidations(&r->real);
    if (cf_reportable(false_observed))
      cf_add_finding(findings, &n, CF_FALSE_SHARING, r->line,
                     EFSAN_CACHE_LINE_SIZE, false_observed, r, 0);
    if (cf_reportable(true_observed))
      cf_add_finding(findings, &n, CF_TRUE_SHARING, r->line,
                     EFSAN_CACHE_LINE_SIZE, true_observed, r, 0);
  }
  // Predictions: only where no real line of the virtual one already shows
  // false sharing, and only for invalidations beyond those observed.
  for (u32 i = 0; i < count; i++) {
    struct cf_line_record *r = &records[i];
    if (!cf_load(&r->line))
      continue;
    struct cf_line_record *next = cf_find_record(r->line + EFSAN_CACHE_LINE_SIZE);
    if (cf_has_observed_false_sharing(r) || cf_has_observed_false_sharing(next))
      continue;
    bool predicted_pair = false;
    if (!(r->line & EFSAN_CACHE_LINE_SIZE)) {
      u64 virtual_false = cf_load(&r->vline128.false_invalidations);
      u64 real_false = cf_load(&r->real.false_invalidations) +
                       (next ? cf_load(&next->real.false_invalidations) : 0);
      if (virtual_false > real_false &&
          cf_reportable(virtual_false - real_false)) {
        cf_add_finding(findings, &n, CF_PREDICTED_128, r->line,
                       2 * EFSAN_CACHE_LINE_SIZE, virtual_false, r, next);
        predicted_pair = true;
      }
    }
    if (predicted_pair)
      continue;
    u64 best = 0;
    uptr best_k = 0;
    for (uptr k = 1; k < CF_WORDS_PER_LINE; k++) {
      u64 v = cf_load(&r->shifted[k].false_invalidations);
      if (v > best) {
        best = v;
        best_k = k;
      }
    }
    if (best_k && cf_reportable(best))
      cf_add_finding(findings, &n, CF_PREDICTED_SHIFTED,
                     r->line + best_k * CF_WORD_SIZE, EFSAN_CACHE_LINE_SIZE,
                     best, r, next);
  }
  return n;
}

static bool cf_ranks_before(const struct cf_finding *a,
                            const struct cf_finding *b) {
  if (a->estimated != b->estimated)
    return a->estimated > b->estimated;
  if (a->address != b->address)
    return a->address < b->address;
  return a->kind < b->kind;
}

// Shell sort: no libc in the runtime, and the list is short.
static void cf_sort_findings(struct cf_finding *findings, uptr n) {
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

//===-- Words, threads, objects -------------------------------------------===//

// Calls visit for each 8-byte word of the finding's (virtual) line that has
// accesses, with the record and word index that hold it.
typedef void (*cf_word_visitor)(uptr word_address, struct cf_line_record *record,
                                uptr word, void *arg);

static bool cf_word_used(struct cf_line_record *record, uptr word) {
  for (int s = 0; s < CF_THREAD_SLOTS; s++)
    if (cf_load(&record->counters[s].reads[word]) ||
        cf_load(&record->counters[s].writes[word]))
      return true;
  return cf_load(&record->other_reads[word]) || cf_load(&record->other_writes[word]);
}

// The tracking record (of the finding's one or two real lines) that holds the
// word at address a, or null.
static struct cf_line_record *cf_record_covering(const struct cf_finding *f,
                                                 uptr a) {
  for (int i = 0; i < 2; i++)
    if (f->records[i] && a - f->records[i]->line < EFSAN_CACHE_LINE_SIZE)
      return f->records[i];
  return 0;
}

static void cf_for_each_word(const struct cf_finding *f, cf_word_visitor visit,
                             void *arg) {
  for (uptr a = f->address; a < f->address + f->length; a += CF_WORD_SIZE) {
    struct cf_line_record *record = cf_record_covering(f, a);
    if (!record)
      continue;
    uptr word = (a - record->line) / CF_WORD_SIZE;
    if (cf_word_used(record, word))
      visit(a, record, word, arg);
  }
}

struct cf_thread_set {
  u32 count;
  u32 threads[CF_MAX_THREADS_LISTED];
  bool others; // threads beyond the per-word slots
};

static void cf_collect_threads(uptr word_address, struct cf_line_record *record,
                               uptr word, void *arg) {
  (void)word_address;
  struct cf_thread_set *set = arg;
  for (int s = 0; s < CF_THREAD_SLOTS; s++) {
    u32 owner = cf_load(&record->owners[s]);
    if (!owner)
      break;
    if (!cf_load(&record->counters[s].reads[word]) &&
        !cf_load(&record->counters[s].writes[word]))
      continue;
    u32 thread = owner - 1, i = 0;
    while (i < set->count && set->threads[i] < thread)
      i++;
    if (i < set->count && set->threads[i] == thread)
      continue;
    if (set->count == CF_MAX_THREADS_LISTED) {
      set->others = true;
      continue;
    }
    for (u32 j = set->count; j > i; j--)
      set->threads[j] = set->threads[j - 1];
    set->threads[i] = thread;
    set->count++;
  }
  if (cf_load(&record->other_reads[word]) || cf_load(&record->other_writes[word]))
    set->others = true;
}

static struct efsan_region *cf_regions;
static uptr cf_region_capacity, cf_region_count;

static bool cf_on_a_stack(uptr address) {
  for (uptr i = 0; i < cf_region_count; i++)
    if (cf_regions[i].lo <= address && address < cf_regions[i].hi)
      return cf_regions[i].kind == EFSAN_REGION_STACK;
  return false;
}

struct cf_attribution {
  struct cf_object *object;
  bool done;
};

static void cf_attribute_word(uptr word_address, struct cf_line_record *record,
                              uptr word, void *arg) {
  (void)word;
  struct cf_attribution *at = arg;
  if (at->done)
    return;
  struct cf_object *object = at->object;
  if (record->heap_found && record->heap_start <= word_address &&
      word_address - record->heap_start < record->heap_size) {
    object->kind = CF_OBJECT_HEAP;
    object->start = record->heap_start;
    object->size = record->heap_size;
    object->stack_id = record->heap_stack;
    at->done = true;
    return;
  }
  const char *name;
  uptr start, size;
  // The symbolizer answers "??" (size 0) for addresses it does not know.
  if (efsan_symbolize_global(word_address, &name, &start, &size) && name &&
      size && start <= word_address && word_address - start < size &&
      efsan_internal_strcmp(name, "??") != 0) {
    object->kind = CF_OBJECT_GLOBAL;
    object->name = name;
    object->start = start;
    object->size = size;
    at->done = true;
    return;
  }
  if (cf_on_a_stack(word_address)) {
    object->kind = CF_OBJECT_STACK;
    object->start = word_address; // object bounds unknown: the first word
    at->done = true;
  }
}

static void cf_first_word(uptr word_address, struct cf_line_record *record,
                          uptr word, void *arg) {
  (void)record;
  (void)word;
  uptr *first = arg;
  if (!*first)
    *first = word_address;
}

// The object of the finding. Stack and unknown objects have no known bounds:
// start is their first accessed word.
struct cf_hottest {
  uptr address;
  struct cf_line_record *record;
  uptr word;
  u64 writes;
};

static void cf_find_hottest(uptr word_address, struct cf_line_record *record,
                            uptr word, void *arg) {
  struct cf_hottest *hottest = arg;
  u64 writes = cf_load(&record->other_writes[word]);
  for (int s = 0; s < CF_THREAD_SLOTS; s++)
    writes += cf_load(&record->counters[s].writes[word]);
  if (!hottest->record || writes > hottest->writes) {
    hottest->address = word_address;
    hottest->record = record;
    hottest->word = word;
    hottest->writes = writes;
  }
}

// The object a word belongs to; false if it is in no known object.
static bool cf_object_of_word(uptr word_address, struct cf_line_record *record,
                              struct cf_object *object) {
  efsan_internal_memset(object, 0, sizeof(*object));
  struct cf_attribution at = {object, false};
  cf_attribute_word(word_address, record, 0, &at);
  return at.done;
}

static bool cf_same_object(const struct cf_object *a, const struct cf_object *b) {
  if (a->kind != b->kind)
    return false;
  // Stack objects have no known bounds: the finding's stack words are one.
  return a->kind == CF_OBJECT_STACK || a->kind == CF_OBJECT_UNKNOWN ||
         a->start == b->start;
}

struct cf_contention {
  const struct cf_finding *finding;
  struct cf_objects *objects;
};

// Adds a word whose writes invalidated other threads' copies (of the
// finding's kind) to its object.
static void cf_add_contended_word(uptr word_address,
                                  struct cf_line_record *record, uptr word,
                                  void *arg) {
  struct cf_contention *c = arg;
  u64 n = cf_load(c->finding->kind == CF_TRUE_SHARING
                      ? &record->true_by_word[word]
                      : &record->false_by_word[word]);
  if (!n)
    return;
  struct cf_object object;
  if (!cf_object_of_word(word_address, record, &object))
    object.start = word_address; // unknown: the first contended word
  struct cf_objects *list = c->objects;
  u32 i = 0;
  while (i < list->count && !cf_same_object(&list->objects[i], &object))
    i++;
  if (i == list->count) {
    if (list->count == CF_MAX_OBJECTS)
      return;
    list->objects[list->count++] = object;
  }
  list->objects[i].invalidations += n;
  list->objects[i].contended_words |=
      1u << ((word_address - c->finding->address) / CF_WORD_SIZE);
}

static void cf_attribute(const struct cf_finding *f, struct cf_object *object);

// Real-line findings are attributed by the words whose writes caused their
// invalidations: every object holding such a word is named, most
// invalidations first. Predictions (virtual lines) have no per-word counts
// and name one object, as cf_attribute chooses it.
static void cf_attribute_all(const struct cf_finding *f,
                             struct cf_objects *list) {
  list->count = 0;
  if (f->kind == CF_FALSE_SHARING || f->kind == CF_TRUE_SHARING) {
    struct cf_contention c = {f, list};
    cf_for_each_word(f, cf_add_contended_word, &c);
    for (u32 i = 1; i < list->count; i++) {
      struct cf_object item = list->objects[i];
      u32 j = i;
      for (; j > 0 && list->objects[j - 1].invalidations < item.invalidations;
           j--)
        list->objects[j] = list->objects[j - 1];
      list->objects[j] = item;
    }
  }
  if (!list->count) {
    cf_attribute(f, &list->objects[0]);
    list->count = 1;
  }
}

static void cf_attribute(const struct cf_finding *f, struct cf_object *object) {
  efsan_internal_memset(object, 0, sizeof(*object));
  struct cf_attribution at = {object, false};
  // The most written word names the object (a line can hold several
  // globals); failing that, the first word that can be attributed.
  struct cf_hottest hottest = {0, 0, 0, 0};
  cf_for_each_word(f, cf_find_hottest, &hottest);
  if (hottest.record)
    cf_attribute_word(hottest.address, hottest.record, hottest.word, &at);
  if (!at.done)
    cf_for_each_word(f, cf_attribute_word, &at);
  if (!at.done)
    cf_for_each_word(f, cf_first_word, &object->start);
}

static bool cf_in_object(const struct cf_object *o, uptr address) {
  return (o->kind == CF_OBJECT_HEAP || o->kind == CF_OBJECT_GLOBAL) &&
         o->start <= address && address - o->start < o->size;
}

// The named object that holds the address, or null.
static const struct cf_object *cf_object_holding(const struct cf_objects *list,
                                                 uptr address) {
  for (u32 i = 0; i < list->count; i++)
    if (cf_in_object(&list->objects[i], address))
      return &list->objects[i];
  return 0;
}

// "; contended words: +0 +8 (3999 invalidations)": offsets in the object
// (in the line for objects without known bounds).
static void cf_format_contended(char *buffer, uptr length,
                                const struct cf_finding *f,
                                const struct cf_object *o) {
  buffer[0] = 0;
  if (!o->contended_words)
    return;
  bool bounded = o->kind == CF_OBJECT_HEAP || o->kind == CF_OBJECT_GLOBAL;
  uptr at = efsan_snprintf(buffer, length, "; contended words%s:",
                           bounded ? "" : " (line offsets)");
  for (uptr i = 0; i < 32 && at < length; i++) {
    if (!(o->contended_words & (1u << i)))
      continue;
    uptr address = f->address + i * CF_WORD_SIZE;
    at += efsan_snprintf(buffer + at, length - at, " +%zu",
                         (uptr)(bounded ? address - o->start
                                        : address - f->address));
  }
  if (at < length)
    efsan_snprintf(buffer + at, length - at, " (%llu invalidations)",
                   cf_estimate(o->invalidations, cf_duty_ppm));
}

static const char *cf_object_kind_name(int kind) {
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

static const char *cf_kind_name(u8 kind) {
  switch (kind) {
  case CF_FALSE_SHARING:
    return "false-sharing";
  case CF_TRUE_SHARING:
    return "true-sharing";
  default:
    return "predicted-false-sharing";
  }
}

//===-- Text --------------------------------------------------------------===//

// "12.3456%" of a parts-per-million value.
static void cf_format_percent(char *buffer, uptr length, u64 ppm) {
  efsan_snprintf(buffer, length, "%llu.%04llu%%", ppm / 10000, ppm % 10000);
}

static void cf_print_stack(u32 stack_id, const char *indent) {
  struct efsan_frame frames[CF_MAX_FRAMES];
  uptr n = stack_id ? efsan_symbolize_stack(stack_id, frames, CF_MAX_FRAMES) : 0;
  if (!n) {
    efsan_report_line("%s<allocation stack not available>\n", indent);
    return;
  }
  for (uptr i = 0; i < n; i++) {
    if (frames[i].file)
      efsan_report_line("%s#%zu 0x%zx in %s %s:%d\n", indent, i, frames[i].pc,
                   frames[i].function, frames[i].file, frames[i].line);
    else
      efsan_report_line("%s#%zu 0x%zx in %s\n", indent, i, frames[i].pc,
                   frames[i].function);
  }
}

// "global 'x'", "the heap object allocated at f.c:12", ...
static void cf_describe_object(char *buffer, uptr length,
                               const struct cf_object *object) {
  switch (object->kind) {
  case CF_OBJECT_GLOBAL:
    efsan_snprintf(buffer, length, "global '%s'", object->name);
    return;
  case CF_OBJECT_HEAP: {
    struct efsan_frame frame;
    if (object->stack_id && efsan_symbolize_stack(object->stack_id, &frame, 1) &&
        frame.file)
      efsan_snprintf(buffer, length, "the heap object allocated at %s:%d",
                     frame.file, frame.line);
    else
      efsan_snprintf(buffer, length, "the heap object of size %zu",
                     object->size);
    return;
  }
  case CF_OBJECT_STACK:
    efsan_snprintf(buffer, length, "the stack object");
    return;
  default:
    efsan_snprintf(buffer, length, "the data");
    return;
  }
}

static void cf_suggest(char *buffer, uptr length, const struct cf_finding *f,
                       const struct cf_object *object) {
  char what[512];
  cf_describe_object(what, sizeof(what), object);
  switch (f->kind) {
  case CF_FALSE_SHARING:
    efsan_snprintf(buffer, length,
                   "threads write different words of %s on one cache line: "
                   "align it to 64 bytes and pad each thread's part to 64 "
                   "bytes (or accumulate in thread-local variables)",
                   what);
    return;
  case CF_TRUE_SHARING:
    efsan_snprintf(buffer, length,
                   "threads write the same words of %s (true sharing; padding "
                   "cannot help): give each thread a private copy and combine "
                   "them at the end, or update it less often",
                   what);
    return;
  case CF_PREDICTED_128:
    efsan_snprintf(buffer, length,
                   "each thread's part of %s has its own 64-byte line, but "
                   "both lines form one 128-byte pair (adjacent-line "
                   "prefetch, 128-byte lines): align and pad each thread's "
                   "part to 128 bytes",
                   what);
    return;
  default:
    efsan_snprintf(buffer, length,
                   "different threads' parts of %s are less than 64 bytes "
                   "apart across a line boundary, so another start offset "
                   "makes them share a line: align it to 64 bytes and pad "
                   "each thread's part to a multiple of 64 bytes",
                   what);
    return;
  }
}

static void cf_print_text_object(const struct cf_finding *f,
                                 const struct cf_object *o) {
  char contended[256];
  cf_format_contended(contended, sizeof(contended), f, o);
  switch (o->kind) {
  case CF_OBJECT_GLOBAL:
    efsan_report_line("  object: global '%s' at 0x%zx, size %zu%s\n", o->name,
                      o->start, o->size, contended);
    break;
  case CF_OBJECT_HEAP:
    efsan_report_line("  object: heap object at 0x%zx, size %zu%s%sallocated "
                      "at:\n",
                      o->start, o->size, contended, *contended ? "; " : ", ");
    cf_print_stack(o->stack_id, "    ");
    break;
  case CF_OBJECT_STACK:
    efsan_report_line("  object: on a thread stack (first shared word at "
                      "0x%zx)%s\n",
                      o->start, contended);
    break;
  default:
    efsan_report_line("  object: unknown: not a heap object, global or stack "
                      "(first shared word at 0x%zx)%s\n",
                      o->start, contended);
    break;
  }
}

static void cf_print_text_finding(uptr rank, const struct cf_finding *f) {
  struct cf_objects objects;
  cf_attribute_all(f, &objects);
  const struct cf_object object = objects.objects[0];
  struct cf_thread_set threads = {0};
  cf_for_each_word(f, cf_collect_threads, &threads);
  char thread_list[CF_MAX_THREADS_LISTED * 12 + 16];
  uptr at = 0;
  for (u32 i = 0; i < threads.count && at < sizeof(thread_list); i++)
    at += efsan_snprintf(thread_list + at, sizeof(thread_list) - at, " T%u",
                         threads.threads[i]);
  if (threads.others && at < sizeof(thread_list))
    efsan_snprintf(thread_list + at, sizeof(thread_list) - at, " and others");
  if (!at && !threads.others)
    thread_list[0] = 0;

  switch (f->kind) {
  case CF_FALSE_SHARING:
  case CF_TRUE_SHARING: {
    u64 other = f->kind == CF_FALSE_SHARING
                    ? cf_true_invalidations(&f->records[0]->real)
                    : cf_load(&f->records[0]->real.false_invalidations);
    efsan_report_line("#%zu %s: %llu estimated invalidations of cache line 0x%zx "
                 "(%llu observed; %llu more observed were %s), threads%s\n",
                 rank, f->kind == CF_FALSE_SHARING ? "false sharing" : "true sharing",
                 f->estimated, f->address, f->observed, other,
                 f->kind == CF_FALSE_SHARING ? "true sharing" : "false sharing",
                 thread_list);
    break;
  }
  case CF_PREDICTED_128:
    efsan_report_line("#%zu predicted false sharing with 128-byte lines: %llu "
                 "estimated invalidations of virtual line [0x%zx, 0x%zx) "
                 "(%llu observed), threads%s\n",
                 rank, f->estimated, f->address, f->address + f->length,
                 f->observed, thread_list);
    break;
  default:
    efsan_report_line("#%zu predicted false sharing at another start offset: %llu "
                 "estimated invalidations of virtual 64-byte line [0x%zx, "
                 "0x%zx) (%llu observed), threads%s\n",
                 rank, f->estimated, f->address, f->address + f->length,
                 f->observed, thread_list);
    break;
  }

  for (u32 i = 0; i < objects.count; i++)
    cf_print_text_object(f, &objects.objects[i]);
  // Columns as in the rows below (sanitizer_common pads strings only on the
  // right, numbers only on the left).
  efsan_report_line("  words:  offset object-offset  thread           reads       "
               "writes\n");
  for (uptr a = f->address; a < f->address + f->length; a += CF_WORD_SIZE) {
    struct cf_line_record *record = cf_record_covering(f, a);
    if (!record)
      continue;
    uptr word = (a - record->line) / CF_WORD_SIZE;
    // sanitizer_common's printf pads only strings on the left: numbers
    // are formatted first.
    char line_offset[32], object_offset[32] = "-", thread[32];
    efsan_snprintf(line_offset, sizeof(line_offset), "+%zu",
                   (uptr)(a - f->address));
    const struct cf_object *holder = cf_object_holding(&objects, a);
    if (holder)
      efsan_snprintf(object_offset, sizeof(object_offset), "+%zu",
                     (uptr)(a - holder->start));
    for (int s = 0; s < CF_THREAD_SLOTS; s++) {
      u32 owner = cf_load(&record->owners[s]);
      if (!owner)
        break;
      u64 reads = cf_load(&record->counters[s].reads[word]);
      u64 writes = cf_load(&record->counters[s].writes[word]);
      if (!reads && !writes)
        continue;
      efsan_snprintf(thread, sizeof(thread), "T%u", owner - 1);
      efsan_report_line("          %-6s %-14s %-9s %12llu %12llu\n", line_offset,
                   object_offset, thread, cf_estimate(reads, cf_duty_ppm),
                   cf_estimate(writes, cf_duty_ppm));
    }
    u64 reads = cf_load(&record->other_reads[word]);
    u64 writes = cf_load(&record->other_writes[word]);
    if (reads || writes)
      efsan_report_line("          %-6s %-14s %-9s %12llu %12llu\n", line_offset,
                   object_offset, "others",
                   cf_estimate(reads, cf_duty_ppm),
                   cf_estimate(writes, cf_duty_ppm));
  }
  char suggestion[1024];
  cf_suggest(suggestion, sizeof(suggestion), f, &object);
  efsan_report_line("  suggestion: %s\n", suggestion);
}

//===-- Struct field usage --------------------------------------------------===//

// A field is hot with at least a tenth of the busiest field's count and cold
// with less than a hundredth (never-accessed fields are cold).
static bool cf_field_hot(u64 count, u64 max) { return count && count * 10 >= max; }
static bool cf_field_cold(u64 count, u64 max) { return count * 100 < max; }

// A never-accessed byte array ("[N x i8]") is most likely padding (often
// added against false sharing): it is shown as such and not counted as a
// cold field to move out.
static bool cf_field_padding(const struct cf_struct_usage *u, u32 field) {
  if (u->counts[field])
    return false;
  const char *type = u->field_type_names[field];
  uptr n = efsan_internal_strlen(type);
  return n > 7 && type[0] == '[' &&
         efsan_internal_strcmp(type + n - 6, " x i8]") == 0;
}

enum cf_heat { CF_HEAT_HOT, CF_HEAT_WARM, CF_HEAT_COLD, CF_HEAT_PADDING };
static const char *const cf_heat_names[] = {"hot", "warm", "cold", "padding"};

static enum cf_heat cf_field_heat(const struct cf_struct_usage *u, u32 field,
                                  u64 max) {
  if (cf_field_hot(u->counts[field], max))
    return CF_HEAT_HOT;
  if (cf_field_padding(u, field))
    return CF_HEAT_PADDING;
  return cf_field_cold(u->counts[field], max) ? CF_HEAT_COLD : CF_HEAT_WARM;
}

struct cf_struct_shape {
  u64 max;
  u32 hot, cold;
  uptr hot_begin, hot_end; // byte range the hot fields span
};

static void cf_struct_shape(const struct cf_struct_usage *u,
                            struct cf_struct_shape *shape) {
  efsan_internal_memset(shape, 0, sizeof(*shape));
  for (u32 f = 0; f < u->num_fields; f++)
    if (u->counts[f] > shape->max)
      shape->max = u->counts[f];
  shape->hot_begin = ~(uptr)0;
  for (u32 f = 0; f < u->num_fields; f++) {
    enum cf_heat heat = cf_field_heat(u, f, shape->max);
    if (heat == CF_HEAT_HOT) {
      shape->hot++;
      if (u->field_offsets[f] < shape->hot_begin)
        shape->hot_begin = u->field_offsets[f];
      if (u->field_offsets[f] + u->field_sizes[f] > shape->hot_end)
        shape->hot_end = u->field_offsets[f] + u->field_sizes[f];
    } else if (heat == CF_HEAT_COLD) {
      shape->cold++;
    }
  }
  if (!shape->hot)
    shape->hot_begin = 0;
}

static bool cf_hot_cold_mix(const struct cf_struct_shape *shape) {
  return shape->hot && shape->cold;
}

static uptr cf_hot_span(const struct cf_struct_shape *shape) {
  return shape->hot_end - shape->hot_begin;
}

// Busiest first; the order of equal totals is by name so that reports are
// reproducible.
static void cf_sort_structs(struct cf_struct_usage *u, uptr n) {
  for (uptr i = 1; i < n; i++) {
    struct cf_struct_usage item = u[i];
    uptr j = i;
    for (; j > 0 && (u[j - 1].total < item.total ||
                     (u[j - 1].total == item.total &&
                      efsan_internal_strcmp(u[j - 1].name, item.name) > 0));
         j--)
      u[j] = u[j - 1];
    u[j] = item;
  }
}

static uptr cf_structs_shown(const struct cf_struct_usage *u, uptr n) {
  uptr shown = 0;
  while (shown < n && u[shown].total)
    shown++;
  uptr limit = (uptr)efsan_flags.cache_frag_max_structs;
  return limit && shown > limit ? limit : shown;
}

static void cf_print_text_structs(struct cf_struct_usage *u, uptr n,
                                  uptr with_counts) {
  if (!with_counts) {
    efsan_report_line("Struct field usage: no struct field accesses were seen.\n");
    return;
  }
  efsan_report_line("Struct field usage (estimated accesses per field):\n");
  uptr shown = cf_structs_shown(u, n);
  for (uptr i = 0; i < shown; i++) {
    struct cf_struct_shape shape;
    cf_struct_shape(&u[i], &shape);
    efsan_report_line("  %s: size %u, %u fields, %llu accesses\n", u[i].name,
                 u[i].size, u[i].num_fields, cf_estimate(u[i].total, cf_duty_ppm));
    for (u32 f = 0; f < u[i].num_fields; f++) {
      u64 count = u[i].counts[f];
      enum cf_heat heat = cf_field_heat(&u[i], f, shape.max);
      const char *tag = heat == CF_HEAT_HOT       ? " (hot)"
                        : heat == CF_HEAT_COLD    ? " (cold)"
                        : heat == CF_HEAT_PADDING ? " (unused: padding?)"
                                                  : "";
      efsan_report_line("    field %u offset %u size %u type %s count %llu%s\n", f,
                   u[i].field_offsets[f], u[i].field_sizes[f],
                   u[i].field_type_names[f], cf_estimate(count, cf_duty_ppm),
                   tag);
    }
    if (cf_hot_cold_mix(&shape))
      efsan_report_line("    note: hot/cold mix: %u cold field(s) share cache lines "
                   "with %u hot one(s); move the cold fields to a separate "
                   "struct so hot ones fill fewer lines\n",
                   shape.cold, shape.hot);
    if (cf_hot_span(&shape) > EFSAN_CACHE_LINE_SIZE)
      efsan_report_line("    note: hot fields span %zu bytes (at least %zu cache "
                   "lines per object); group them together\n",
                   cf_hot_span(&shape),
                   (cf_hot_span(&shape) + EFSAN_CACHE_LINE_SIZE - 1) /
                       EFSAN_CACHE_LINE_SIZE);
  }
  if (shown < with_counts)
    efsan_report_line("  (%zu more struct types with accesses not shown; see "
                 "cache_frag_max_structs)\n",
                 with_counts - shown);
}

//===-- JSON --------------------------------------------------------------===//

static void cf_json_string(const char *s) {
  char buffer[256];
  uptr at = 0;
  buffer[at++] = '"';
  for (; s && *s; s++) {
    if (at > sizeof(buffer) - 8) {
      buffer[at] = 0;
      efsan_printf("%s", buffer);
      at = 0;
    }
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') {
      buffer[at++] = '\\';
      buffer[at++] = (char)c;
    } else if (c < 0x20) {
      at += efsan_snprintf(buffer + at, sizeof(buffer) - at, "\\u%04x", c);
    } else {
      buffer[at++] = (char)c;
    }
  }
  buffer[at++] = '"';
  buffer[at] = 0;
  efsan_printf("%s", buffer);
}

struct cf_json_words {
  const struct cf_finding *finding;
  const struct cf_objects *objects;
  bool first;
};

static void cf_json_word_entry(struct cf_json_words *w, uptr word_address,
                               long long thread, u64 reads, u64 writes) {
  efsan_printf("%s\n        {\"offset\": %zu, ", w->first ? "" : ",",
               (uptr)(word_address - w->finding->address));
  const struct cf_object *holder = cf_object_holding(w->objects, word_address);
  if (holder)
    efsan_printf("\"object_offset\": %zu, ",
                 (uptr)(word_address - holder->start));
  else
    efsan_printf("\"object_offset\": null, ");
  efsan_printf("\"thread\": %lld, \"reads\": %llu, \"writes\": %llu}", thread,
               cf_estimate(reads, cf_duty_ppm), cf_estimate(writes, cf_duty_ppm));
  w->first = false;
}

static void cf_json_word(uptr word_address, struct cf_line_record *record,
                         uptr word, void *arg) {
  struct cf_json_words *w = arg;
  for (int s = 0; s < CF_THREAD_SLOTS; s++) {
    u32 owner = cf_load(&record->owners[s]);
    if (!owner)
      break;
    u64 reads = cf_load(&record->counters[s].reads[word]);
    u64 writes = cf_load(&record->counters[s].writes[word]);
    if (reads || writes)
      cf_json_word_entry(w, word_address, owner - 1, reads, writes);
  }
  u64 reads = cf_load(&record->other_reads[word]);
  u64 writes = cf_load(&record->other_writes[word]);
  if (reads || writes)
    cf_json_word_entry(w, word_address, -1, reads, writes);
}

// One object: kind, name, bounds, allocation stack, and (when the finding's
// per-word counts chose it) the invalidations its words caused and their
// offsets (in the object, or in the line for objects without bounds).
static void cf_print_json_object(const struct cf_finding *f,
                                 const struct cf_object *o) {
  const struct cf_object object = *o;
  efsan_printf("{\"kind\": \"%s\"", cf_object_kind_name(object.kind));
  if (object.kind == CF_OBJECT_GLOBAL) {
    efsan_printf(", \"name\": ");
    cf_json_string(object.name);
  }
  if (object.kind == CF_OBJECT_GLOBAL || object.kind == CF_OBJECT_HEAP)
    efsan_printf(", \"address\": %zu, \"size\": %zu", object.start, object.size);
  else
    efsan_printf(", \"address\": %zu, \"size\": null", object.start);
  if (object.kind == CF_OBJECT_HEAP) {
    efsan_printf(", \"alloc_stack\": [");
    struct efsan_frame frames[CF_MAX_FRAMES];
    uptr n = object.stack_id
                 ? efsan_symbolize_stack(object.stack_id, frames, CF_MAX_FRAMES)
                 : 0;
    for (uptr i = 0; i < n; i++) {
      efsan_printf("%s{\"function\": ", i ? ", " : "");
      cf_json_string(frames[i].function);
      efsan_printf(", \"file\": ");
      if (frames[i].file)
        cf_json_string(frames[i].file);
      else
        efsan_printf("null");
      efsan_printf(", \"line\": %d}", frames[i].line);
    }
    efsan_printf("]");
  }
  if (object.contended_words) {
    bool bounded = object.kind == CF_OBJECT_GLOBAL || object.kind == CF_OBJECT_HEAP;
    efsan_printf(", \"invalidations\": %llu, \"contended_offsets\": [",
                 cf_estimate(object.invalidations, cf_duty_ppm));
    bool first = true;
    for (uptr i = 0; i < 32; i++) {
      if (!(object.contended_words & (1u << i)))
        continue;
      uptr address = f->address + i * CF_WORD_SIZE;
      efsan_printf("%s%zu", first ? "" : ", ",
                   (uptr)(bounded ? address - object.start : address - f->address));
      first = false;
    }
    efsan_printf("]");
  }
  efsan_printf("}");
}

static void cf_print_json_finding(const struct cf_finding *f, bool last) {
  struct cf_objects objects;
  cf_attribute_all(f, &objects);
  const struct cf_object object = objects.objects[0];
  struct cf_thread_set threads = {0};
  cf_for_each_word(f, cf_collect_threads, &threads);
  efsan_printf("    {\"kind\": \"%s\", \"line_address\": %zu, \"line_size\": %zu, "
               "\"invalidations\": %llu, \"observed_invalidations\": %llu,\n",
               cf_kind_name(f->kind), f->address, f->length, f->estimated,
               f->observed);
  if (f->kind == CF_PREDICTED_128 || f->kind == CF_PREDICTED_SHIFTED)
    efsan_printf("     \"prediction\": \"%s\",\n",
                 f->kind == CF_PREDICTED_128 ? "128-byte-line" : "start-offset");
  efsan_printf("     \"threads\": [");
  for (u32 i = 0; i < threads.count; i++)
    efsan_printf("%s%u", i ? ", " : "", threads.threads[i]);
  efsan_printf("],\n     \"object\": ");
  cf_print_json_object(f, &objects.objects[0]);
  efsan_printf(",\n     \"objects\": [");
  for (u32 i = 0; i < objects.count; i++) {
    efsan_printf("%s", i ? ", " : "");
    cf_print_json_object(f, &objects.objects[i]);
  }
  efsan_printf("],\n     \"words\": [");
  struct cf_json_words w = {f, &objects, true};
  cf_for_each_word(f, cf_json_word, &w);
  char suggestion[1024];
  cf_suggest(suggestion, sizeof(suggestion), f, &object);
  efsan_printf("],\n     \"suggestion\": ");
  cf_json_string(suggestion);
  efsan_printf("}%s\n", last ? "" : ",");
}

static void cf_print_json_structs(struct cf_struct_usage *u, uptr n) {
  uptr shown = cf_structs_shown(u, n);
  efsan_printf("  \"structs\": [");
  for (uptr i = 0; i < shown; i++) {
    struct cf_struct_shape shape;
    cf_struct_shape(&u[i], &shape);
    efsan_printf("%s\n    {\"name\": ", i ? "," : "");
    cf_json_string(u[i].name);
    efsan_printf(", \"size\": %u, \"accesses\": %llu, \"hot_cold_mix\": %s, "
                 "\"hot_span\": %zu,\n     \"fields\": [",
                 u[i].size, cf_estimate(u[i].total, cf_duty_ppm),
                 cf_hot_cold_mix(&shape) ? "true" : "false", cf_hot_span(&shape));
    for (u32 f = 0; f < u[i].num_fields; f++) {
      u64 count = u[i].counts[f];
      efsan_printf("%s\n       {\"index\": %u, \"offset\": %u, \"size\": %u, "
                   "\"type\": ",
                   f ? "," : "", f, u[i].field_offsets[f], u[i].field_sizes[f]);
      cf_json_string(u[i].field_type_names[f]);
      efsan_printf(", \"count\": %llu, \"heat\": \"%s\"}",
                   cf_estimate(count, cf_duty_ppm),
                   cf_heat_names[cf_field_heat(&u[i], f, shape.max)]);
    }
    efsan_printf("]}");
  }
  efsan_printf("%s]\n", shown ? "\n  " : "");
}

//===-- The report ----------------------------------------------------------===//

void efsan_cache_frag_report(void) {
  cf_json = efsan_internal_strcmp(efsan_flags.report_format, "json") == 0;
  cf_duty_ppm = cf_duty_cycle_ppm();
  bool sampled = cf_is_sampled();

  efsan_regions_refresh();
  cf_region_count = efsan_regions_snapshot(&cf_regions, &cf_region_capacity);

  u32 record_count;
  struct cf_line_record *records = cf_records(&record_count);
  uptr findings_capacity = 4 * (uptr)record_count + 1;
  uptr findings_bytes = findings_capacity * sizeof(struct cf_finding);
  struct cf_finding *findings = (struct cf_finding *)efsan_mmap(findings_bytes);
  uptr n = cf_collect_findings(findings, records, record_count);
  cf_sort_findings(findings, n);
  uptr counts[4] = {0, 0, 0, 0};
  for (uptr i = 0; i < n; i++)
    counts[findings[i].kind]++;
  uptr shown = n;
  if (efsan_flags.cache_frag_max_findings &&
      shown > (uptr)efsan_flags.cache_frag_max_findings)
    shown = (uptr)efsan_flags.cache_frag_max_findings;

  struct cf_struct_usage *structs;
  uptr struct_capacity;
  uptr struct_count = cf_structs_collect(&structs, &struct_capacity);
  cf_sort_structs(structs, struct_count);
  uptr structs_with_counts = 0;
  while (structs_with_counts < struct_count && structs[structs_with_counts].total)
    structs_with_counts++;

  char duty[32];
  cf_format_percent(duty, sizeof(duty), cf_duty_ppm);
  u64 tracked = 0;
  for (u32 i = 0; i < record_count; i++)
    if (cf_load(&records[i].line))
      tracked++;

  if (cf_json) {
    efsan_printf("{\n  \"tool\": \"cache-frag\",\n  \"sampled\": %s,\n"
                 "  \"duty_cycle\": %llu.%06llu,\n  \"window_ms\": %d,\n"
                 "  \"period_ms\": %d,\n  \"report_threshold\": %d,\n"
                 "  \"tracked_lines\": %llu,\n  \"untracked_lines\": %llu,\n"
                 "  \"findings\": [%s",
                 sampled ? "true" : "false", cf_duty_ppm / 1000000,
                 cf_duty_ppm % 1000000, efsan_flags.cache_frag_window_ms,
                 efsan_flags.cache_frag_period_ms,
                 efsan_flags.cache_frag_report_threshold, tracked,
                 cf_untracked_lines(), shown ? "\n" : "");
    for (uptr i = 0; i < shown; i++)
      cf_print_json_finding(&findings[i], i + 1 == shown);
    efsan_printf("%s],\n", shown ? "  " : "");
    cf_print_json_structs(structs, struct_count);
    efsan_printf("}\n");
  } else {
    efsan_report_line("EfficiencySanitizer: cache-frag report: false sharing "
                      "and struct field usage\n");
    if (sampled)
      efsan_report_line("Counts are sampled: tracking windows of %d ms every %d ms "
                   "(more often for %d ms after a thread is created), "
                   "measured duty cycle %s; estimated counts are the counts "
                   "seen in windows divided by the duty cycle.\n",
                   efsan_flags.cache_frag_window_ms,
                   efsan_flags.cache_frag_period_ms, cf_adaptive_span_ms(),
                   duty);
    else
      efsan_report_line("Counts are exact: the tracking window was open all the "
                   "time (duty cycle 100%%).\n");
    efsan_report_line("Cache lines tracked in detail: %llu (tracking threshold %d "
                 "writes, report threshold %d invalidations)\n",
                 tracked, efsan_flags.cache_frag_tracking_threshold,
                 efsan_flags.cache_frag_report_threshold);
    if (cf_untracked_lines())
      efsan_report_line("WARNING: %llu more lines passed the tracking threshold "
                   "but were not tracked (cache_frag_max_tracked_lines=%d)\n",
                   cf_untracked_lines(), efsan_flags.cache_frag_max_tracked_lines);
    if (!n)
      efsan_report_line("No false sharing, true sharing or predicted false sharing "
                   "above the report threshold.\n");
    for (uptr i = 0; i < shown; i++)
      cf_print_text_finding(i + 1, &findings[i]);
    if (shown < n)
      efsan_report_line("(%zu more findings not shown; see cache_frag_max_findings)\n",
                   n - shown);
    cf_print_text_structs(structs, struct_count, structs_with_counts);
    // Like every sanitizer's SUMMARY line, not prefixed (scripts look for it
    // at the start of a line); the PID at its end names the process.
    efsan_printf("SUMMARY: EfficiencySanitizer: cache-frag: %zu false sharing, "
                 "%zu true sharing, %zu predicted false sharing; %zu struct "
                 "types with field accesses in process %d\n",
                 counts[CF_FALSE_SHARING], counts[CF_TRUE_SHARING],
                 counts[CF_PREDICTED_128] + counts[CF_PREDICTED_SHIFTED],
                 structs_with_counts, efsan_getpid());
  }
  cf_structs_release(structs, struct_count, struct_capacity);
  efsan_munmap(findings, findings_bytes);
}
