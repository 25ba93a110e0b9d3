//===-- efsan_cache_frag_report.c - cache-frag report printers ------------===//
//
// Prints the cache-frag report, as text or as JSON (report_format=json):
// the header, each finding and the struct field usage. Both printers walk
// the same model (efsan_cache_frag_findings.h), built by
// efsan_cache_frag_findings.c: they format, they compute no number of their
// own, so the text and the JSON always agree. docs/CacheFrag.md explains
// every number printed here; docs/JSONSchema.md the JSON keys.
//
//===----------------------------------------------------------------------===//
#include "efsan_cache_frag_findings.h"

static bool cf_json;

// A count of samples as the text prints it: times the period, to three
// significant digits when sampled (the JSON keeps every digit).
static u64 cf_scaled(u64 samples) {
  return cf_printed_count(samples * cf_period, cf_period > 1);
}

//===-- Text --------------------------------------------------------------===//

// what: "allocation" or "creation", for a stack that was not recorded.
static void cf_print_stack(u32 stack_id, const char *indent, const char *what) {
  struct efsan_frame frames[CF_MAX_FRAMES];
  uptr n = stack_id ? efsan_symbolize_stack(stack_id, frames, CF_MAX_FRAMES) : 0;
  if (!n) {
    efsan_report_line("%s<%s stack not available>\n", indent, what);
    return;
  }
  // The frames of allocation wrappers are marked: the object is named by
  // the first frame after them.
  for (uptr i = 0; i < n; i++) {
    const char *mark = frames[i].allocation_wrapper ? " (allocation wrapper)"
                                                    : "";
    if (frames[i].file)
      efsan_report_line("%s#%zu 0x%zx in %s %s:%d%s\n", indent, i,
                        frames[i].pc, frames[i].function, frames[i].file,
                        frames[i].line, mark);
    else
      efsan_report_line("%s#%zu 0x%zx in %s%s\n", indent, i, frames[i].pc,
                        frames[i].function, mark);
  }
}


static void cf_thread_name(char *buffer, uptr length, u32 thread) {
  if (thread == EFSAN_INTERNAL_THREAD)
    efsan_snprintf(buffer, length, "others");
  else
    efsan_snprintf(buffer, length, "T%u", thread);
}



// "T1 rw, T2 r" for a range.
static void cf_format_range_threads(char *buffer, uptr length,
                                    const struct cf_map_range *r,
                                    u32 view_count) {
  uptr at = 0;
  buffer[0] = 0;
  for (u32 v = 0; v < view_count && v < 64 && at < length; v++) {
    bool reads = r->readers & (1ull << v), writes = r->writers & (1ull << v);
    if (!reads && !writes)
      continue;
    char thread[16];
    cf_thread_name(thread, sizeof(thread), cf_views[v].thread);
    at += efsan_snprintf(buffer + at, length - at, "%s%s %s%s", at ? ", " : "",
                         thread, reads ? "r" : "", writes ? "w" : "");
  }
}

static void cf_print_text_line_map(const struct cf_finding *f, u32 view_count) {
  struct cf_map_range ranges[CF_VIEW_MAX_BYTES];
  u32 n = cf_line_map(f, view_count, ranges);
  bool members = false;
  for (u32 i = 0; i < n; i++)
    members |= ranges[i].member[0] != 0;
  if (members)
    efsan_report_line("  line map: bytes       object                          "
                      "member                  threads\n");
  else
    efsan_report_line("  line map: bytes       object                          "
                      "threads\n");
  for (u32 i = 0; i < n; i++) {
    const struct cf_map_range *r = &ranges[i];
    char bytes[32], object[160] = "-", threads[256];
    efsan_snprintf(bytes, sizeof(bytes), "+%zu..%zu", r->offset,
                   r->offset + r->length - 1);
    if (cf_bounded(&r->object)) {
      uptr start = f->address + r->offset - r->object.start;
      if (r->object.kind == CF_OBJECT_GLOBAL)
        efsan_snprintf(object, sizeof(object), "'%s'+%zu..%zu", r->object.name,
                       start, start + r->length - 1);
      else
        efsan_snprintf(object, sizeof(object), "heap+%zu..%zu", start,
                       start + r->length - 1);
    } else if (r->object.range_name) {
      uptr start = f->address + r->offset - r->object.range_start;
      efsan_snprintf(object, sizeof(object), "\"%s\"+%zu..%zu",
                     r->object.range_name, start, start + r->length - 1);
    } else if (r->object.kind == CF_OBJECT_STACK) {
      efsan_snprintf(object, sizeof(object), "stack of T%u", r->object.thread);
    }
    cf_format_range_threads(threads, sizeof(threads), r, view_count);
    if (!r->readers && !r->writers)
      efsan_snprintf(threads, sizeof(threads), "(not used)");
    if (members)
      efsan_report_line("            %-11s %-31s %-23s %s\n", bytes, object,
                        r->member[0] ? r->member : "-", threads);
    else
      efsan_report_line("            %-11s %-31s %s\n", bytes, object, threads);
  }
}

static void cf_print_text_object(const struct cf_finding *f,
                                 const struct cf_object *o) {
  char bytes[512];
  cf_format_bytes(bytes, sizeof(bytes), o->bytes,
                  cf_bounded(o) ? (uptr)cf_object_delta(f, o) : 0);
  char contended[640] = "";
  if (o->invalidations > 0)
    efsan_snprintf(contended, sizeof(contended),
                   "; written bytes that invalidate%s: %s (%llu invalidations)",
                   cf_bounded(o) ? "" : " (line offsets)", bytes,
                   cf_printed_count(cf_round(o->invalidations),
                                    cf_estimated(f)));
  else if (*bytes)
    efsan_snprintf(contended, sizeof(contended), "; written bytes%s: %s",
                   cf_bounded(o) ? "" : " (line offsets)", bytes);
  // A heap block, global or stack in a range the program named is shown as
  // itself, in that range.
  char named[EFSAN_MAX_RANGE_NAME + 128] = "";
  if (o->range_name && o->kind != CF_OBJECT_UNKNOWN)
    efsan_snprintf(named, sizeof(named),
                   ", in the named range \"%s\" at 0x%zx, size %zu",
                   o->range_name, o->range_start, o->range_size);
  switch (o->kind) {
  case CF_OBJECT_GLOBAL:
    efsan_report_line("  object: global '%s' at 0x%zx, size %zu%s%s\n",
                      o->name, o->start, o->size, named, contended);
    break;
  case CF_OBJECT_HEAP:
    if (o->allocations > 1)
      efsan_report_line("  object: heap object at 0x%zx, size %zu, allocated "
                        "there %u times (sharing is judged within each)%s%s; "
                        "allocated at:\n",
                        o->start, o->size, o->allocations, named, contended);
    else
      efsan_report_line("  object: heap object at 0x%zx, size %zu%s%s; "
                        "allocated at:\n",
                        o->start, o->size, named, contended);
    // Past alloc_stacks_exact most blocks have no stack (efsan.c).
    if (!o->stack_id && efsan_alloc_stacks_sampled())
      efsan_report_line("    <allocation stack not sampled: see \"Allocation "
                        "stacks are sampled\" above>\n");
    else
      cf_print_stack(o->stack_id, "    ", "allocation");
    break;
  case CF_OBJECT_STACK:
    efsan_report_line("  object: on the stack of thread T%u (first byte at "
                      "0x%zx)%s%s\n",
                      o->thread, o->start, named, contended);
    break;
  default:
    // Mapped memory the program named: the main use (a shared segment
    // carved into parts).
    if (o->range_name) {
      efsan_report_line("  object: named range \"%s\" at 0x%zx, size %zu%s%s "
                        "(first byte at 0x%zx)%s\n",
                        o->range_name, o->range_start, o->range_size,
                        o->range_in ? ", in " : "",
                        o->range_in ? (o->range_in[0] ? o->range_in
                                                      : "anonymous memory")
                                    : "",
                        o->start, contended);
      break;
    }
    efsan_report_line("  object: unknown: not a heap object, global or stack "
                      "(first byte at 0x%zx)%s\n",
                      o->start, contended);
    break;
  }
}


// " T1 T2 and others", from the views in thread order.
static void cf_format_threads(char *buffer, uptr length, u32 view_count) {
  uptr at = 0;
  buffer[0] = 0;
  bool others = false;
  u32 last = 0;
  bool any = false;
  for (;;) {
    // Smallest thread index above the last one printed.
    u32 next = EFSAN_INTERNAL_THREAD;
    for (u32 v = 0; v < view_count; v++) {
      u32 t = cf_views[v].thread;
      if (!cf_views[v].involved)
        continue;
      if (t == EFSAN_INTERNAL_THREAD)
        others = true;
      else if ((!any || t > last) && t < next)
        next = t;
    }
    if (next == EFSAN_INTERNAL_THREAD || at >= length)
      break;
    at += efsan_snprintf(buffer + at, length - at, " T%u", next);
    last = next;
    any = true;
  }
  if (others && at < length)
    efsan_snprintf(buffer + at, length - at, " and others");
}


// "  threads: T1 worker, T2 worker" (the threads that take part).
static void cf_print_text_threads(u32 view_count) {
  char line[1024];
  uptr at = 0;
  line[0] = 0;
  for (u32 v = 0; v < view_count && at < sizeof(line); v++) {
    if (!cf_views[v].involved || cf_views[v].thread == EFSAN_INTERNAL_THREAD)
      continue;
    u32 thread = cf_views[v].thread;
    const char *function = cf_thread_function(thread);
    const char *given = efsan_thread_given_name(thread);
    if (given)
      at += efsan_snprintf(line + at, sizeof(line) - at, "%sT%u '%s' (%s)",
                           at ? ", " : "", thread, given,
                           function ? function : "unknown");
    else
      at += efsan_snprintf(line + at, sizeof(line) - at, "%sT%u %s",
                           at ? ", " : "", thread,
                           function ? function : "(unknown)");
  }
  if (at)
    efsan_report_line("  threads: %s\n", line);
}


// "  T1, T2 created by T0 at:" and the stack, as TSan names threads.
static void cf_print_text_creations(u32 view_count) {
  struct cf_creation_group groups[CF_MAX_VIEWS];
  u32 n = cf_creation_groups(view_count, groups);
  for (u32 g = 0; g < n; g++) {
    char line[CF_MAX_VIEWS * 12 + 64], creator[32];
    uptr at = 0;
    for (u32 i = 0; i < groups[g].count && at < sizeof(line); i++)
      at += efsan_snprintf(line + at, sizeof(line) - at, "%sT%u", i ? ", " : "",
                           groups[g].threads[i]);
    if (groups[g].creator == EFSAN_INTERNAL_THREAD) {
      efsan_report_line("  %s created by an unknown thread\n", line);
      continue;
    }
    cf_thread_name(creator, sizeof(creator), groups[g].creator);
    efsan_report_line("  %s created by %s at:\n", line, creator);
    cf_print_stack(groups[g].stack_id, "    ", "creation");
  }
}

static void cf_print_text_accesses(const struct cf_finding *f, u32 view_count,
                                   const struct cf_objects *objects) {
  efsan_report_line("  accesses: bytes       object-bytes  thread           "
                    "reads       writes\n");
  for (u32 v = 0; v < view_count; v++) {
    struct cf_view *view = &cf_views[v];
    char thread[32];
    cf_thread_name(thread, sizeof(thread), view->thread);
    for (u32 s = 0; s < view->shape_count; s++) {
      struct cf_view_shape *shape = &view->shapes[s];
      char bytes[512], object_bytes[512] = "-";
      cf_format_bytes(bytes, sizeof(bytes), shape->bytes, 0);
      const struct cf_object *holder =
          cf_object_holding(objects, f->address + shape->offset);
      if (holder)
        cf_format_bytes(object_bytes, sizeof(object_bytes), shape->bytes,
                        (uptr)cf_object_delta(f, holder));
      efsan_report_line("            %-11s %-13s %-9s %12llu %12llu\n", bytes,
                        object_bytes, thread, cf_scaled(shape->reads),
                        cf_scaled(shape->writes));
    }
  }
}

// Bytes (bit i: finding address + i) as [first, last] pairs, shifted by
// delta.
static void cf_print_json_byte_ranges(const u64 bytes[2], long delta) {
  efsan_printf("[");
  bool first = true;
  for (u32 i = 0, end; cf_next_byte_run(bytes, &i, &end); i = end + 1) {
    efsan_printf("%s[%zu, %zu]", first ? "" : ", ", (uptr)(i + delta),
                 (uptr)(end + delta));
    first = false;
  }
  efsan_printf("]");
}


static void cf_print_text_sites(const struct cf_finding *f, u32 view_count) {
  uptr n = cf_collect_sites(f, view_count);
  if (!n)
    return;
  efsan_report_line("  access sites: thread        reads       writes  bytes  "
                    "    where\n");
  for (uptr i = 0; i < n; i++) {
    const struct cf_finding_site *site = &cf_sites[i];
    char thread[32], bytes[512], where[1024];
    cf_thread_name(thread, sizeof(thread), site->thread);
    cf_format_bytes(bytes, sizeof(bytes), site->bytes, 0);
    const struct efsan_frame *frame = &site->frame;
    // Line 0: the compiler merged accesses of several lines into one.
    if (frame->file && frame->line)
      efsan_snprintf(where, sizeof(where), "%s %s:%d", frame->function,
                     frame->file, frame->line);
    else if (frame->file)
      efsan_snprintf(where, sizeof(where), "%s %s", frame->function,
                     frame->file);
    else
      efsan_snprintf(where, sizeof(where), "%s", frame->function);
    if (cf_site_under_lock(site)) {
      uptr at = efsan_internal_strlen(where);
      efsan_snprintf(where + at, sizeof(where) - at, " (lock held)");
    }
    efsan_report_line("                %-7s %12llu %12llu  %-10s %s\n", thread,
                      cf_scaled(site->reads), cf_scaled(site->writes), bytes,
                      where);
  }
  if (cf_other_site_samples)
    efsan_report_line("                and %llu accesses at other places\n",
                      cf_scaled(cf_other_site_samples));
}

static void cf_print_json_sites(const struct cf_finding *f, u32 view_count) {
  uptr n = cf_collect_sites(f, view_count);
  efsan_printf("],\n     \"access_sites\": [");
  bool first = true;
  for (uptr i = 0; i < n; i++) {
    const struct cf_finding_site *site = &cf_sites[i];
    const struct efsan_frame *frame = &site->frame;
    for (int kind = 0; kind < 2; kind++) {
      u64 count = kind ? site->writes : site->reads;
      if (!count)
        continue;
      efsan_printf("%s\n        {\"thread\": %u, \"access\": \"%s\", "
                   "\"function\": ",
                   first ? "" : ",", site->thread, kind ? "write" : "read");
      efsan_json_string(frame->function);
      efsan_printf(", \"file\": ");
      if (frame->file)
        efsan_json_string(frame->file);
      else
        efsan_printf("null");
      if (frame->line)
        efsan_printf(", \"line\": %d", frame->line);
      else
        efsan_printf(", \"line\": null");
      efsan_printf(", \"count\": %llu, \"under_lock\": %s, \"line_bytes\": ",
                   count * cf_period,
                   cf_site_under_lock(site) ? "true" : "false");
      cf_print_json_byte_ranges(site->bytes, 0);
      efsan_printf("}");
      first = false;
    }
  }
}

// Most of the claim is the bound a thread's loss to one line is held to
// (cf_set_impact): the figure is that bound, not a price of the transfers.
static bool cf_at_bound(const struct cf_finding *f) {
  return !f->conditional && f->lost_ns && f->bound_ns * 2 > f->lost_ns;
}

// label: "#1" for a finding, "note 1:" for a portability note.
static void cf_print_text_finding(const char *label,
                                  const struct cf_finding *f) {
  u32 view_count = cf_finding_views(f);
  struct cf_objects objects;
  cf_attribute(f, view_count, &objects);
  char threads[CF_MAX_VIEWS * 12 + 16], impact[320];
  cf_format_threads(threads, sizeof(threads), view_count);
  cf_format_impact(impact, sizeof(impact), f);
  switch (f->kind) {
  case CF_FALSE_SHARING:
  case CF_TRUE_SHARING: {
    u64 other = f->kind == CF_FALSE_SHARING
                    ? f->true_invalidations
                    : cf_false_part(f->invalidations, f->true_invalidations);
    efsan_report_line(
        "%s %s on cache line 0x%zx: %s; threads%s\n", label,
        f->kind == CF_FALSE_SHARING ? "false sharing" : "true sharing",
        f->address, impact, threads);
    // Observed invalidations are counted, the parallel ones the model's
    // estimate (three significant digits), and so is the other kind's part
    // when the estimate is the larger.
    efsan_report_line("  invalidations: %llu observed, %llu estimated if the "
                      "threads run in parallel; %llu of the larger count "
                      "were %s\n",
                      f->observed, efsan_round_3(f->parallel),
                      cf_printed_count(other, cf_estimated(f)),
                      f->kind == CF_FALSE_SHARING ? "true sharing"
                                                  : "false sharing");
    break;
  }
  case CF_PREDICTED_128:
    efsan_report_line("%s predicted false sharing with 128-byte lines on "
                      "[0x%zx, 0x%zx): %s; threads%s\n",
                      label, f->address, f->address + f->length, impact,
                      threads);
    efsan_report_line("  invalidations: %llu estimated if the threads run in "
                      "parallel, beyond the lines' own\n",
                      efsan_round_3(f->invalidations));
    break;
  default:
    efsan_report_line("%s predicted false sharing at another start offset "
                      "on virtual line [0x%zx, 0x%zx): %s; threads%s\n",
                      label, f->address, f->address + f->length, impact,
                      threads);
    efsan_report_line("  invalidations: %llu estimated if the threads run in "
                      "parallel, beyond the lines' own\n",
                      efsan_round_3(f->invalidations));
    break;
  }
  cf_print_text_threads(view_count);
  cf_print_text_creations(view_count);
  for (u32 i = 0; i < objects.count; i++)
    cf_print_text_object(f, &objects.objects[i]);
  cf_print_text_accesses(f, view_count, &objects);
  cf_print_text_sites(f, view_count);
  cf_print_text_line_map(f, view_count);
  char suggestion[1024];
  cf_suggest(suggestion, sizeof(suggestion), f, &objects,
             cf_thread_part_size(f, view_count), view_count);
  efsan_report_line("  suggestion: %s\n", suggestion);
  static const char unoptimised[] =
      " for code built without optimisation, whose stores to its locals "
      "wait behind the line";
  // A thread that bumps an atomic others bump too is bounded by the
  // profile's atomics, not its plain stores.
  const char *line = f->locked ? "an atomic both threads bump" : "one line";
  if (cf_at_bound(f) && f->bound_loop_work) {
    efsan_report_line(
        "  estimate: the threads keep taking the line from each other, so "
        "each is claimed at the bound of what a thread loses to %s, "
        "%u%% of its time beside the other, as this machine's profile "
        "measured it for loops with %u instructions per write, as the "
        "compiler counted this one's (%u-%u%% over the profile's rounds; "
        "docs/CacheFrag.md, \"The machine profile\")\n",
        line, (f->cap_ppm + 5000) / 10000, f->bound_loop_work,
        (f->low_cap_ppm + 5000) / 10000, (f->high_cap_ppm + 5000) / 10000);
  } else if (cf_at_bound(f) && f->locked && cf_profile_has(CF_PROFILE_RMW)) {
    efsan_report_line(
        "  estimate: the threads keep taking the line from each other, so "
        "each is claimed at the bound of what a thread loses to %s, %u%% "
        "of its time beside the other, as this machine's profile measured "
        "it (%u-%u%% over the profile's rounds); work between the adds "
        "moves it (docs/CacheFrag.md, \"The machine profile\")\n",
        line, (f->cap_ppm + 5000) / 10000, (f->low_cap_ppm + 5000) / 10000,
        (f->high_cap_ppm + 5000) / 10000);
  } else if (cf_at_bound(f) && cf_profile_has(CF_PROFILE_HAMMERED)) {
    double low, high;
    if (f->unoptimised)
      cf_contended_unoptimised_range(&low, &high);
    else
      cf_contended_range(&low, &high);
    efsan_report_line(
        "  estimate: the threads keep taking the line from each other, so "
        "each is claimed at the bound of what a thread loses to one line, "
        "%u%% of its time beside the other, as this machine's profile "
        "measured it%s (%u-%u%%); a loop's shape moves it (docs/CacheFrag.md, "
        "\"The machine profile\")\n",
        (f->cap_ppm + 5000) / 10000, f->unoptimised ? unoptimised : "",
        (u32)(low * 100 + 0.5), (u32)(high * 100 + 0.5));
  } else if (cf_at_bound(f)) {
    efsan_report_line(
        "  estimate: the threads keep taking the line from each other, so "
        "each is claimed at the bound of what a thread loses to %s, "
        "%u%% of its time beside the other, a default%s (the machine "
        "decides; efsan-calibrate measures this one: docs/CacheFrag.md, "
        "\"The machine profile\")\n",
        line, (f->cap_ppm + 5000) / 10000,
        f->unoptimised ? unoptimised
        : f->locked    ? ""
                       : ": fixes of such lines measured 6-95%");
  }
}


// Names the cold fields that share a line with hot ones (only those: a
// cold field kilobytes away from the hot ones costs them nothing).
static void cf_print_text_hot_cold_note(const struct cf_struct_usage *u,
                                        const struct cf_struct_shape *shape) {
  char names[512];
  uptr at = 0, listed = 0;
  names[0] = 0;
  for (u32 f = 0; f < u->num_fields && at < sizeof(names); f++) {
    if (!cf_cold_near_hot(u, f, shape->max))
      continue;
    const char *member = u->field_names ? u->field_names[f] : 0;
    if (listed++ == 8) {
      efsan_snprintf(names + at, sizeof(names) - at, ", ...");
      break;
    }
    if (member)
      efsan_snprintf(names + at, sizeof(names) - at, "%s%s",
                     at ? ", " : "", member);
    else
      efsan_snprintf(names + at, sizeof(names) - at, "%sfield %u",
                     at ? ", " : "", f);
    at += efsan_internal_strlen(names + at);
  }
  efsan_report_line("    note: hot/cold mix: %u cold field(s) share cache lines "
                    "with hot ones (%s); move them to a separate struct so "
                    "the hot fields fill fewer lines\n",
                    shape->cold_near_hot, names);
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
                 u[i].size, u[i].num_fields, cf_scaled(u[i].total));
    for (u32 f = 0; f < u[i].num_fields; f++) {
      u64 count = u[i].counts[f];
      enum cf_heat heat = cf_field_heat_reported(&u[i], f, shape.max);
      const char *name = heat == CF_HEAT_HOT        ? "hot"
                         : heat == CF_HEAT_COLD     ? "cold"
                         : heat == CF_HEAT_PADDING  ? "unused: padding?"
                         : heat == CF_HEAT_UNUSED   ? "unused"
                         : heat == CF_HEAT_NOT_SEEN ? "not seen"
                                                    : "warm";
      // An escaping field's accesses through the escaped address are not
      // counted: none seen is "not seen", some seen a lower bound.
      char tag[64] = "";
      if (heat == CF_HEAT_FEW_SAMPLES)
        efsan_snprintf(tag, sizeof(tag), "%s",
                       cf_field_escapes(&u[i], f)
                           ? " (lower bound: address escapes)"
                           : "");
      else if (cf_field_escapes(&u[i], f))
        efsan_snprintf(tag, sizeof(tag), " (%s%s address escapes)", name,
                       heat == CF_HEAT_NOT_SEEN ? ":" : "; lower bound:");
      else if (heat != CF_HEAT_WARM)
        efsan_snprintf(tag, sizeof(tag), " (%s)", name);
      const char *member = u[i].field_names ? u[i].field_names[f] : 0;
      efsan_report_line("    field %u%s%s offset %u size %u type %s count %llu%s\n",
                        f, member ? " " : "", member ? member : "",
                        u[i].field_offsets[f], u[i].field_sizes[f],
                        u[i].field_type_names[f], cf_scaled(count), tag);
    }
    if (cf_hot_cold_mix(&u[i], &shape))
      cf_print_text_hot_cold_note(&u[i], &shape);
    // Grouping only helps if the hot fields would then fit in fewer lines
    // (not for one hot array larger than a line).
    u64 samples = cf_field_samples_at_least(u[i].total);
    if (!cf_struct_judged(&u[i]))
      efsan_report_line("    (%llu sampled access%s: too few to call a field "
                        "hot or cold, or to advise on the layout)\n",
                        samples, samples == 1 ? "" : "es");
    else if (cf_hot_span(&shape) > EFSAN_CACHE_LINE_SIZE &&
        cf_lines(shape.hot_bytes) < cf_lines(cf_hot_span(&shape)))
      efsan_report_line("    note: hot fields span %zu bytes (at least %zu cache "
                   "lines per object); group them together\n",
                   cf_hot_span(&shape),
                   (cf_hot_span(&shape) + EFSAN_CACHE_LINE_SIZE - 1) /
                       EFSAN_CACHE_LINE_SIZE);
  }
  u64 folded_accesses;
  uptr folded = cf_structs_folded(u, n, &folded_accesses);
  if (shown + folded < with_counts)
    efsan_report_line("  (%zu more struct types with accesses not shown; see "
                 "cache_frag_max_structs)\n",
                 with_counts - shown - folded);
  if (folded)
    efsan_report_line("  (%zu C++ library or lambda type%s with %llu accesses "
                      "not shown; cache_frag_struct_library=1 lists them)\n",
                      folded, folded == 1 ? "" : "s",
                      cf_printed_count(folded_accesses, cf_period > 1));
}

//===-- JSON --------------------------------------------------------------===//

// The range the program named that holds the object's first byte, as a key
// after the others: "named_range": {"name", "address", "size", "mapping"};
// nothing outside named ranges.
static void cf_print_json_named_range(const struct cf_object *o) {
  if (!o->range_name)
    return;
  efsan_printf(", \"named_range\": {\"name\": ");
  efsan_json_string(o->range_name);
  efsan_printf(", \"address\": %zu, \"size\": %zu, \"mapping\": ",
               o->range_start, o->range_size);
  if (o->range_in)
    efsan_json_string(o->range_in);
  else
    efsan_printf("null");
  efsan_printf("}");
}

// A stack as a list of {function, file, line}.
static void cf_print_json_object(const struct cf_finding *f,
                                 const struct cf_object *o) {
  efsan_printf("{\"kind\": \"%s\"", cf_object_kind_name(o->kind));
  if (o->kind == CF_OBJECT_GLOBAL) {
    efsan_printf(", \"name\": ");
    efsan_json_string(o->name);
  }
  if (cf_bounded(o))
    efsan_printf(", \"address\": %zu, \"size\": %zu", o->start, o->size);
  else
    efsan_printf(", \"address\": %zu, \"size\": null", o->start);
  if (o->kind == CF_OBJECT_STACK)
    efsan_printf(", \"thread\": %u", o->thread);
  if (o->kind == CF_OBJECT_HEAP) {
    efsan_printf(", \"allocations\": %u, \"alloc_stack\": ",
                 o->allocations);
    efsan_json_stack(o->stack_id);
  }
  cf_print_json_named_range(o);
  // Contended bytes as [first, last] pairs, in the object for bounded
  // objects, in the line otherwise.
  long delta = cf_bounded(o) ? cf_object_delta(f, o) : 0;
  efsan_printf(", \"invalidations\": %llu, \"contended_bytes\": ",
               cf_round(o->invalidations));
  cf_print_json_byte_ranges(o->bytes, delta);
  efsan_printf("}");
}

// The threads of the views in set (bit v: view v) as a JSON list of thread
// indices, -1 for "others".
static void cf_print_json_view_threads(u64 set, u32 view_count) {
  efsan_printf("[");
  bool first = true;
  for (u32 v = 0; v < view_count && v < 64; v++) {
    if (!(set & (1ull << v)))
      continue;
    if (cf_views[v].thread == EFSAN_INTERNAL_THREAD)
      efsan_printf("%s-1", first ? "" : ", ");
    else
      efsan_printf("%s%u", first ? "" : ", ", cf_views[v].thread);
    first = false;
  }
  efsan_printf("]");
}

static void cf_print_json_finding(const struct cf_finding *f, bool last) {
  u32 view_count = cf_finding_views(f);
  struct cf_objects objects;
  cf_attribute(f, view_count, &objects);
  efsan_printf("    {\"kind\": \"%s\", \"line_address\": %zu, \"line_size\": %zu, "
               "\"invalidations\": %llu,\n",
               cf_kind_name(f->kind), f->address, f->length, f->invalidations);
  if (f->has_observed)
    efsan_printf("     \"observed_invalidations\": %llu, ", f->observed);
  else
    efsan_printf("     \"observed_invalidations\": null, ");
  efsan_printf("\"estimated_parallel_invalidations\": %llu, "
               "\"true_sharing_invalidations\": %llu, "
               "\"false_sharing_invalidations\": %llu,\n",
               f->parallel, f->true_invalidations,
               cf_false_part(f->invalidations, f->true_invalidations));
  u64 gain = f->conditional ? 0 : f->lost_ns;
  char loop_work[16] = "null";
  if (f->bound_loop_work)
    efsan_snprintf(loop_work, sizeof(loop_work), "%u", f->bound_loop_work);
  efsan_printf("     \"impact\": {\"estimated_seconds\": %llu.%09llu, "
               "\"share\": %u.%06u, \"wall_seconds\": %llu.%09llu, "
               "\"low_share\": %u.%06u, \"high_share\": %u.%06u, "
               "\"low_seconds\": %llu.%09llu, \"high_seconds\": %llu.%09llu, "
               "\"conditional\": %s, \"hypothetical\": %s, "
               "\"run_seconds\": %llu.%09llu, \"at_bound\": %s, "
               "\"bound_share\": %u.%06u, \"bound_loop_work\": %s, "
               "\"bound_locked\": %s, "
               "\"transfer_ns\": %u, \"threads_seconds\": %llu.%09llu},\n",
               f->lost_ns / 1000000000ull, f->lost_ns % 1000000000ull,
               f->share_ppm / 1000000, f->share_ppm % 1000000,
               f->wall_ns / 1000000000ull, f->wall_ns % 1000000000ull,
               f->low_ppm / 1000000, f->low_ppm % 1000000,
               f->high_ppm / 1000000, f->high_ppm % 1000000,
               f->low_ns / 1000000000ull, f->low_ns % 1000000000ull,
               f->high_ns / 1000000000ull, f->high_ns % 1000000000ull,
               f->conditional ? "true" : "false",
               f->hypothetical ? "true" : "false",
               f->run_ns / 1000000000ull, f->run_ns % 1000000000ull,
               cf_at_bound(f) ? "true" : "false", f->cap_ppm / 1000000,
               f->cap_ppm % 1000000, loop_work,
               f->locked ? "true" : "false", cf_transfer_ns(),
               f->threads_ns / 1000000000ull, f->threads_ns % 1000000000ull);
  if (f->kind == CF_PREDICTED_128 || f->kind == CF_PREDICTED_SHIFTED)
    efsan_printf("     \"prediction\": \"%s\",\n",
                 f->kind == CF_PREDICTED_128 ? "128-byte-line" : "start-offset");
  efsan_printf("     \"threads\": [");
  bool first = true;
  for (u32 v = 0; v < view_count; v++) {
    if (cf_views[v].thread == EFSAN_INTERNAL_THREAD || !cf_views[v].involved)
      continue;
    efsan_printf("%s%u", first ? "" : ", ", cf_views[v].thread);
    first = false;
  }
  efsan_printf("],\n     \"thread_start_functions\": [");
  first = true;
  for (u32 v = 0; v < view_count; v++) {
    if (cf_views[v].thread == EFSAN_INTERNAL_THREAD || !cf_views[v].involved)
      continue;
    const char *function = cf_thread_function(cf_views[v].thread);
    efsan_printf("%s{\"thread\": %u, \"function\": ", first ? "" : ", ",
                 cf_views[v].thread);
    if (function)
      efsan_json_string(function);
    else
      efsan_printf("null");
    // Only where the program named the thread (pthread_setname_np).
    const char *given = efsan_thread_given_name(cf_views[v].thread);
    if (given) {
      efsan_printf(", \"name\": ");
      efsan_json_string(given);
    }
    efsan_printf("}");
    first = false;
  }
  efsan_printf("],\n     \"thread_creations\": [");
  struct cf_creation_group groups[CF_MAX_VIEWS];
  u32 group_count = cf_creation_groups(view_count, groups);
  first = true;
  for (u32 g = 0; g < group_count; g++) {
    for (u32 i = 0; i < groups[g].count; i++) {
      efsan_printf("%s{\"thread\": %u, \"created_by\": ", first ? "" : ", ",
                   groups[g].threads[i]);
      if (groups[g].creator == EFSAN_INTERNAL_THREAD)
        efsan_printf("null");
      else
        efsan_printf("%u", groups[g].creator);
      efsan_printf(", \"stack\": ");
      efsan_json_stack(groups[g].stack_id);
      efsan_printf("}");
      first = false;
    }
  }
  efsan_printf("],\n     \"object\": ");
  cf_print_json_object(f, &objects.objects[0]);
  efsan_printf(",\n     \"objects\": [");
  for (u32 i = 0; i < objects.count; i++) {
    efsan_printf("%s", i ? ", " : "");
    cf_print_json_object(f, &objects.objects[i]);
  }
  efsan_printf("],\n     \"accesses\": [");
  first = true;
  for (u32 v = 0; v < view_count; v++) {
    for (u32 s = 0; s < cf_views[v].shape_count; s++) {
      struct cf_view_shape *shape = &cf_views[v].shapes[s];
      efsan_printf("%s\n        {\"thread\": ", first ? "" : ",");
      if (cf_views[v].thread == EFSAN_INTERNAL_THREAD)
        efsan_printf("-1");
      else
        efsan_printf("%u", cf_views[v].thread);
      efsan_printf(", \"offset\": %u, \"length\": %u, ", shape->offset,
                   shape->length);
      const struct cf_object *holder =
          cf_object_holding(&objects, f->address + shape->offset);
      if (holder)
        efsan_printf("\"object_offset\": %zu, ",
                     (uptr)(f->address + shape->offset - holder->start));
      else
        efsan_printf("\"object_offset\": null, ");
      efsan_printf("\"reads\": %llu, \"writes\": %llu}",
                   (u64)shape->reads * cf_period, (u64)shape->writes * cf_period);
      first = false;
    }
  }
  cf_print_json_sites(f, view_count);
  efsan_printf("],\n     \"access_sites_other\": %llu,\n     \"line_map\": [",
               cf_other_site_samples * cf_period);
  struct cf_map_range ranges[CF_VIEW_MAX_BYTES];
  u32 range_count = cf_line_map(f, view_count, ranges);
  for (u32 i = 0; i < range_count; i++) {
    const struct cf_map_range *r = &ranges[i];
    efsan_printf("%s\n        {\"offset\": %zu, \"length\": %zu, ", i ? "," : "",
                 r->offset, r->length);
    if (cf_bounded(&r->object)) {
      efsan_printf("\"object\": {\"kind\": \"%s\", ",
                   cf_object_kind_name(r->object.kind));
      if (r->object.kind == CF_OBJECT_GLOBAL) {
        efsan_printf("\"name\": ");
        efsan_json_string(r->object.name);
        efsan_printf(", ");
      }
      efsan_printf("\"address\": %zu, \"size\": %zu}, \"object_offset\": %zu, ",
                   r->object.start, r->object.size,
                   (uptr)(f->address + r->offset - r->object.start));
    } else {
      efsan_printf("\"object\": null, \"object_offset\": null, ");
    }
    efsan_printf("\"member\": ");
    if (r->member[0])
      efsan_json_string(r->member);
    else
      efsan_printf("null");
    efsan_printf(", ");
    for (int kind = 0; kind < 2; kind++) {
      efsan_printf("%s\"%s\": ", kind ? ", " : "", kind ? "writers" : "readers");
      cf_print_json_view_threads(kind ? r->writers : r->readers, view_count);
    }
    cf_print_json_named_range(&r->object);
    efsan_printf("}");
  }
  // The named members on the line and who used them.
  efsan_printf("],\n     \"members\": [");
  bool first_member = true;
  for (u32 i = 0; i < range_count; i++) {
    const struct cf_map_range *r = &ranges[i];
    if (!r->member[0])
      continue;
    efsan_printf("%s\n        {\"name\": ", first_member ? "" : ",");
    efsan_json_string(r->member);
    efsan_printf(", \"offset\": %zu, \"size\": %zu, \"threads\": ", r->offset,
                 r->length);
    cf_print_json_view_threads(r->readers | r->writers, view_count);
    efsan_printf("}");
    first_member = false;
  }
  uptr part_size = cf_thread_part_size(f, view_count);
  char suggestion[1024];
  cf_suggest(suggestion, sizeof(suggestion), f, &objects, part_size,
             view_count);
  efsan_printf("],\n     \"fix\": {\"thread_part_bytes\": ");
  if (part_size)
    efsan_printf("%zu", part_size);
  else
    efsan_printf("null");
  efsan_printf(", \"estimated_gain_seconds\": %llu.%09llu, \"text\": ",
               gain / 1000000000ull, gain % 1000000000ull);
  efsan_json_string(suggestion);
  efsan_printf("},\n     \"suggestion\": ");
  efsan_json_string(suggestion);
  efsan_printf("}%s\n", last ? "" : ",");
}

static void cf_print_json_structs(struct cf_struct_usage *u, uptr n) {
  uptr shown = cf_structs_shown(u, n);
  efsan_printf("  \"structs\": [");
  for (uptr i = 0; i < shown; i++) {
    struct cf_struct_shape shape;
    cf_struct_shape(&u[i], &shape);
    efsan_printf("%s\n    {\"name\": ", i ? "," : "");
    efsan_json_string(u[i].name);
    efsan_printf(", \"size\": %u, \"accesses\": %llu, \"hot_cold_mix\": %s, "
                 "\"hot_span\": %zu, \"sampled_accesses\": %llu, "
                 "\"layout_judged\": %s,\n     \"fields\": [",
                 u[i].size, u[i].total * cf_period,
                 cf_hot_cold_mix(&u[i], &shape) ? "true" : "false", cf_hot_span(&shape),
                 cf_field_samples_at_least(u[i].total),
                 cf_struct_judged(&u[i]) ? "true" : "false");
    for (u32 f = 0; f < u[i].num_fields; f++) {
      u64 count = u[i].counts[f];
      const char *member = u[i].field_names ? u[i].field_names[f] : 0;
      efsan_printf("%s\n       {\"index\": %u, \"name\": ", f ? "," : "", f);
      if (member)
        efsan_json_string(member);
      else
        efsan_printf("null");
      efsan_printf(", \"offset\": %u, \"size\": %u, \"type\": ",
                   u[i].field_offsets[f], u[i].field_sizes[f]);
      efsan_json_string(u[i].field_type_names[f]);
      efsan_printf(", \"count\": %llu, \"heat\": \"%s\", "
                   "\"shares_line_with_hot\": %s, \"address_escapes\": %s}",
                   count * cf_period,
                   cf_heat_names[cf_field_heat_reported(&u[i], f, shape.max)],
                   cf_cold_near_hot(&u[i], f, shape.max) ? "true" : "false",
                   cf_field_escapes(&u[i], f) ? "true" : "false");
    }
    efsan_printf("]}");
  }
  u64 folded_accesses;
  uptr folded = cf_structs_folded(u, n, &folded_accesses);
  efsan_printf("%s],\n  \"folded_library_structs\": {\"types\": %zu, "
               "\"accesses\": %llu}\n",
               shown ? "\n  " : "", folded, folded_accesses);
}

// "2 findings and 1 struct type suppressed (suppressions=FILE)", only when
// something was.
static void cf_print_text_suppressed(uptr findings, uptr structs) {
  char what[128];
  if (findings && structs)
    efsan_snprintf(what, sizeof(what), "%zu finding%s and %zu struct type%s",
                   findings, findings == 1 ? "" : "s", structs,
                   structs == 1 ? "" : "s");
  else if (findings)
    efsan_snprintf(what, sizeof(what), "%zu finding%s", findings,
                   findings == 1 ? "" : "s");
  else if (structs)
    efsan_snprintf(what, sizeof(what), "%zu struct type%s", structs,
                   structs == 1 ? "" : "s");
  else
    return;
  efsan_report_line("%s suppressed (suppressions=%s)\n", what,
                    efsan_flags.suppressions);
}

//===-- The report ----------------------------------------------------------===//

// Where the prices of a shared line come from: this machine's profile
// (efsan-calibrate's measurements), or the defaults and why there is none.
static void cf_print_text_profile(void) {
  if (!cf_profile_found()) {
    efsan_report_line("Machine profile: none for %s (%s): line transfers "
                      "measured by this run; a thread loses at most %u%% of "
                      "its time to a line another thread keeps writing (%u%% "
                      "in code built without optimisation), %u%% to an "
                      "atomic both bump (the defaults).\n",
                      cf_profile_machine(), cf_profile_missing(),
                      (u32)(CF_CONTENDED_SHARE * 100 + 0.5),
                      (u32)(CF_CONTENDED_UNOPTIMISED_SHARE * 100 + 0.5),
                      (u32)(CF_CONTENDED_RMW_SHARE * 100 + 0.5));
    return;
  }
  double low, high, rmw_low, rmw_high;
  cf_contended_range(&low, &high);
  cf_contended_rmw_range(false, &rmw_low, &rmw_high);
  u32 n = cf_profile_count(CF_PROFILE_HAMMERED);
  char removed[128] = "";
  if (cf_profile_has(CF_PROFILE_RMW_REMOVED))
    efsan_snprintf(removed, sizeof(removed), ", %u%% against private copies",
                   (u32)(cf_contended_rmw_share(true) * 100 + 0.5));
  double after_work;
  if (cf_contended_rmw_share_for_work(true, CF_WORK_RMW_1, 0, &after_work)) {
    uptr used = efsan_internal_strlen(removed);
    efsan_snprintf(removed + used, sizeof(removed) - used,
                   ", %u%% with a step of work between adds",
                   (u32)(after_work * 100 + 0.5));
  }
  efsan_report_line("Machine profile: %s (updated %s, %u measurement%s): a "
                    "thread loses at most %u%% of its time to a line another "
                    "thread keeps writing (%u-%u%% measured; %u%% in code "
                    "built without optimisation), %u%% to an "
                    "atomic both bump (%u-%u%%%s); line transfers as above.\n",
                    cf_profile_where(), cf_profile_when(), n,
                    n == 1 ? "" : "s",
                    (u32)(cf_contended_share() * 100 + 0.5),
                    (u32)(low * 100 + 0.5), (u32)(high * 100 + 0.5),
                    (u32)(cf_contended_unoptimised_share() * 100 + 0.5),
                    (u32)(cf_contended_rmw_share(false) * 100 + 0.5),
                    (u32)(rmw_low * 100 + 0.5), (u32)(rmw_high * 100 + 0.5),
                    removed);
  u32 free_rounds = cf_profile_rounds_without_cost();
  u32 state_rounds = cf_profile_state_rounds();
  char state[160];
  if (state_rounds)
    efsan_snprintf(state, sizeof(state),
                   "this run met the state of %u of its rounds (line "
                   "transfers as above): the claims below are at their "
                   "median",
                   state_rounds);
  else
    efsan_snprintf(state, sizeof(state),
                   "this run could not tell which state it met: the claims "
                   "below are at the profile's median");
  if (free_rounds)
    efsan_report_line(
        "Machine profile: in %u of its %u rounds a line both threads keep "
        "writing cost a thread at most %u%% of its time (its two CPUs "
        "behaved as one core then), in the others up to %u%%: on this "
        "machine what a fix of such a line gains depends on the state it is "
        "in when the program runs; %s, with their range over both "
        "states.\n",
        free_rounds, n, (u32)(CF_FREE_LOSS * 100 + 0.5),
        (u32)(high * 100 + 0.5), state);
}

// A bound and its range, as JSON's fractions (6 decimals).
static void cf_print_json_shares(const char *key, double point, double low,
                                 double high) {
  u32 p = (u32)(point * 1000000 + 0.5), l = (u32)(low * 1000000 + 0.5),
      h = (u32)(high * 1000000 + 0.5);
  efsan_printf("\"%s\": {\"point\": %u.%06u, \"low\": %u.%06u, \"high\": "
               "%u.%06u}",
               key, p / 1000000, p % 1000000, l / 1000000, l % 1000000,
               h / 1000000, h % 1000000);
}

static void cf_print_json_profile(void) {
  efsan_printf("  \"machine\": ");
  efsan_json_string(cf_profile_machine());
  efsan_printf(",\n");
  if (!cf_profile_found()) {
    efsan_printf("  \"machine_profile\": null,\n  \"machine_profile_missing\": ");
    efsan_json_string(cf_profile_missing());
    efsan_printf(",\n");
    return;
  }
  u32 transfer_low, transfer_high;
  cf_transfer_range(&transfer_low, &transfer_high);
  efsan_printf("  \"machine_profile\": {\"path\": ");
  efsan_json_string(cf_profile_where());
  efsan_printf(", \"updated\": ");
  efsan_json_string(cf_profile_when());
  efsan_printf(", \"measurements\": %u, \"rounds_without_cost\": %u, "
               "\"state_rounds\": %u, "
               "\"transfer_ns\": {\"low\": %u, \"high\": %u}, ",
               cf_profile_count(CF_PROFILE_HAMMERED),
               cf_profile_rounds_without_cost(), cf_profile_state_rounds(),
               transfer_low, transfer_high);
  double low, high;
  cf_contended_range(&low, &high);
  cf_print_json_shares("contended_share", cf_contended_share(), low, high);
  efsan_printf(", ");
  cf_contended_rmw_range(false, &low, &high);
  cf_print_json_shares("contended_rmw_share", cf_contended_rmw_share(false),
                       low, high);
  efsan_printf(", ");
  cf_contended_rmw_range(true, &low, &high);
  cf_print_json_shares("contended_rmw_removed_share",
                       cf_contended_rmw_share(true), low, high);
  // The atomics after a step of work, at the compiler's count the runtime
  // places them at (the bare ones at CF_WORK_RMW_BARE).
  for (int removed = 0; removed < 2; removed++) {
    double point;
    efsan_printf(removed ? ", \"contended_rmw_removed_work_1_share\": "
                         : ", \"contended_rmw_work_1_share\": ");
    if (!cf_contended_rmw_share_for_work(removed, CF_WORK_RMW_1, 0, &point)) {
      efsan_printf("null");
      continue;
    }
    cf_contended_rmw_share_for_work(removed, CF_WORK_RMW_1, 1, &low);
    cf_contended_rmw_share_for_work(removed, CF_WORK_RMW_1, 2, &high);
    efsan_printf("{\"loop_work\": %u, ", CF_WORK_RMW_1);
    cf_print_json_shares("share", point, low, high);
    efsan_printf("}");
  }
  efsan_printf(", ");
  cf_contended_unoptimised_range(&low, &high);
  cf_print_json_shares("contended_unoptimised_share",
                       cf_contended_unoptimised_share(), low, high);
  // The loops with work between writes, at the compiler's counts the
  // runtime places them at: what a bound_loop_work reads between.
  u32 works[CF_PROFILE_LOOP_POINTS];
  u32 points = cf_contended_loop_points(works);
  double point;
  efsan_printf(", \"contended_loop_shares\": ");
  if (!points) {
    efsan_printf("null},\n");
    return;
  }
  for (u32 i = 0; i < points; i++) {
    cf_contended_share_for_work(works[i], 0, &point);
    cf_contended_share_for_work(works[i], 1, &low);
    cf_contended_share_for_work(works[i], 2, &high);
    efsan_printf("%s{\"loop_work\": %u, ", i ? ", " : "[", works[i]);
    cf_print_json_shares("share", point, low, high);
    efsan_printf("}");
  }
  efsan_printf("]},\n");
}

// The most the findings' total may claim of the run: their bounds, each
// weighted by its claim (sum_ns_bound: the sum of ns * bound ppm), of the
// run's time, and never less than the largest finding.
static u64 cf_held_total(double sum_ns_bound, u64 sum_ns, u64 largest_ns) {
  if (!sum_ns)
    return 0;
  u64 most = cf_round(sum_ns_bound / (double)sum_ns / 1000000 *
                      (double)cf_run_ns);
  return most > largest_ns ? most : largest_ns;
}

void efsan_cache_frag_report(void) {
  // The program's CPU time ends here: what follows is the report's (a
  // ping-pong it runs included).
  cf_note_report_start();
  u64 process = efsan_process_cpu_ns(), measuring = cf_machine_cpu_ns();
  cf_json = efsan_report_json();
  // Threads that exit from now on give nothing back: the report reads
  // every record.
  cf_lines_stop_reclaiming();
  cf_period = cf_sample_period();
  uptr views_bytes = CF_MAX_VIEWS * sizeof(struct cf_view);
  cf_views = (struct cf_view *)efsan_mmap(views_bytes);

  efsan_regions_refresh();
  cf_region_count = efsan_regions_snapshot(&cf_regions, &cf_region_capacity);

  u32 record_count;
  struct cf_line_record *records = cf_records(&record_count);
  uptr findings_capacity = 2 * (uptr)record_count + 1;
  uptr findings_bytes = findings_capacity * sizeof(struct cf_finding);
  struct cf_finding *findings = (struct cf_finding *)efsan_mmap(findings_bytes);
  uptr record_findings_bytes = ((uptr)record_count + 1) * sizeof(struct cf_finding);
  cf_record_findings = (struct cf_finding *)efsan_mmap(record_findings_bytes);
  cf_machine_settle(record_count > 0);
  // The program's own CPU time: less the transfer's measurement and the
  // threads' sampled paths (docs/design/CacheFragImpact.md, "The tool's own
  // time").
  u64 sampled_path = cf_tool_ns(), tool = measuring + sampled_path;
  cf_run_ns = process > tool ? process - tool : process;
  u64 waits = cf_prepare_side_by_side();
  cf_run_ns = cf_run_ns > waits ? cf_run_ns - waits : 0;
  uptr n = cf_collect_findings(findings, records, record_count);
  // Suppressed findings are left out of everything below (the expected
  // gain, the SUMMARY counts), and counted.
  uptr suppressed_findings = n;
  n = cf_suppress_findings(findings, n);
  suppressed_findings -= n;
  cf_sort_findings(findings, n);
  // A portability note (a 128-byte prediction on a CPU that does not pair
  // lines) gains nothing here: it is no finding, is not counted as one, and
  // is listed after the findings (cf_sort_findings ranks notes last).
  uptr counts[4] = {0, 0, 0, 0}, notes = 0;
  for (uptr i = 0; i < n; i++) {
    if (findings[i].conditional)
      notes++;
    else
      counts[findings[i].kind]++;
  }
  uptr shown = n;
  if (efsan_flags.cache_frag_max_findings &&
      shown > (uptr)efsan_flags.cache_frag_max_findings)
    shown = (uptr)efsan_flags.cache_frag_max_findings;

  struct cf_struct_usage *structs;
  uptr struct_capacity;
  uptr struct_count = cf_structs_collect(&structs, &struct_capacity);
  // The types listed: all but the suppressed, which follow them.
  uptr suppressed_structs;
  uptr listed_structs =
      cf_suppress_structs(structs, struct_count, &suppressed_structs);
  cf_sort_structs(structs, listed_structs);
  // Every type with accesses, the program's and the library's alike: a
  // program type without any sorts between them.
  uptr structs_with_counts = 0;
  for (uptr i = 0; i < listed_structs; i++)
    if (structs[i].total)
      structs_with_counts++;

  // Lines whose threads had all exited, with nothing to report, gave their
  // records back: they were tracked all the same.
  u64 tracked = cf_retired_records(), handed_over = cf_summarized_lines();
  if (efsan_verbosity() >= 1) {
    cf_lines_print_stats();
    cf_print_sampling_stats();
  }
  for (u32 i = 0; i < record_count; i++)
    if (cf_load(&records[i].line))
      tracked++;
  char min_share[32], run[32], program_cpu[32], program_share[32],
      program_wall[32], process_cpu[32], sampled_cpu[32], measuring_cpu[32],
      waits_cpu[32];
  cf_format_percent(min_share, sizeof(min_share),
                    (u64)efsan_cache_frag_min_share_ppm());
  efsan_format_duration(run, sizeof(run), cf_run_ns);
  efsan_format_duration(process_cpu, sizeof(process_cpu), process);
  efsan_format_duration(sampled_cpu, sizeof(sampled_cpu), sampled_path);
  efsan_format_duration(measuring_cpu, sizeof(measuring_cpu), measuring);
  efsan_format_duration(waits_cpu, sizeof(waits_cpu), waits);
  // What fixing every finding shown would gain in this run: they are
  // different lines, so their gains add up, but no thread loses more than
  // its bound of its time to lines it keeps taking, whichever they are: the
  // findings' bounds, each weighted by what it claims (a line written by a
  // loop with work between its writes has a lower bound than one a memset
  // touched in passing; the largest of them let an AMD VM's reused block
  // claim 0.94 where its lines were held to 0.77 and the fix gained
  // 0.54-0.72). Sharing this run did not have (a layout it predicts) is
  // priced on its own and not in it. Each finding is held to its bound of
  // the run (impact.c), so the total is at least the largest finding and at
  // most their sum.
  u64 gain_ns = 0, gain_wall_ns = 0, largest_wall_ns = 0;
  u64 gain_low_ns = 0, gain_high_ns = 0; // at the profile's range of prices
  u64 largest_ns = 0, largest_low_ns = 0, largest_high_ns = 0;
  double capped = 0, low_capped = 0, high_capped = 0; // sum of ns * bound
  uptr elsewhere = 0; // predictions of a layout this run did not have
  for (uptr i = 0; i < n; i++)
    elsewhere += findings[i].hypothetical && !findings[i].conditional;
  for (uptr i = 0; i < shown; i++) {
    const struct cf_finding *f = &findings[i];
    if (f->hypothetical)
      continue;
    gain_ns += f->lost_ns;
    gain_low_ns += f->low_ns;
    gain_high_ns += f->high_ns;
    gain_wall_ns += f->wall_ns;
    if (f->wall_ns > largest_wall_ns)
      largest_wall_ns = f->wall_ns;
    largest_ns = f->lost_ns > largest_ns ? f->lost_ns : largest_ns;
    largest_low_ns = f->low_ns > largest_low_ns ? f->low_ns : largest_low_ns;
    largest_high_ns =
        f->high_ns > largest_high_ns ? f->high_ns : largest_high_ns;
    capped += (double)f->lost_ns * f->cap_ppm;
    low_capped += (double)f->low_ns * f->low_cap_ppm;
    high_capped += (double)f->high_ns * f->high_cap_ppm;
  }
  u64 most = cf_held_total(capped, gain_ns, largest_ns);
  if (gain_ns > most) {
    gain_wall_ns = (u64)((double)gain_wall_ns * most / gain_ns);
    if (gain_wall_ns < largest_wall_ns)
      gain_wall_ns = largest_wall_ns;
    gain_ns = most;
  }
  // Each end of the range is the findings' ends summed and held by the
  // bound at its own prices, as the claim is by the bound at the point's
  // (unheld, a profile's two states gave a total of 0-115% of the run).
  u64 low_most = cf_held_total(low_capped, gain_low_ns, largest_low_ns);
  u64 high_most = cf_held_total(high_capped, gain_high_ns, largest_high_ns);
  if (gain_low_ns > low_most)
    gain_low_ns = low_most;
  if (gain_high_ns > high_most)
    gain_high_ns = high_most;
  u64 gain_ppm = cf_share_ppm(gain_ns, cf_run_ns);
  u32 gain_low_ppm = (u32)cf_share_ppm(
      gain_low_ns < gain_ns ? gain_low_ns : gain_ns, cf_run_ns);
  u32 gain_high_ppm = (u32)cf_share_ppm(
      gain_high_ns > gain_ns ? gain_high_ns : gain_ns, cf_run_ns);
  char program_range[80];
  cf_format_share_range(program_range, sizeof(program_range), gain_low_ppm,
                        gain_high_ppm);
  efsan_format_duration(program_cpu, sizeof(program_cpu), gain_ns);
  cf_format_percent(program_share, sizeof(program_share), gain_ppm);
  efsan_format_duration(program_wall, sizeof(program_wall), gain_wall_ns);

  if (cf_json) {
    int share = efsan_cache_frag_min_share_ppm();
    efsan_printf("{\n  ");
    efsan_json_print_identity("cache-frag", ",\n  ");
    efsan_printf(",\n  \"sampled\": %s,\n  \"sample_period\": %llu,\n"
                 "  \"transfer_ns\": %u,\n  \"transfer_source\": ",
                 cf_period > 1 ? "true" : "false", cf_period, cf_transfer_ns());
    efsan_json_string(cf_transfer_source());
    efsan_printf(",\n  \"line_pairs\": %s,\n  \"line_pairs_source\": ",
                 cf_lines_paired() ? "true" : "false");
    efsan_json_string(cf_pairing_source());
    efsan_printf(",\n");
    cf_print_json_profile();
    efsan_json_alloc_stack_sampling("  ");
    efsan_printf("  \"process_cpu_seconds\": %llu.%09llu,\n"
                 "  \"tool_cpu_seconds\": {\"sampled_path\": %llu.%09llu, "
                 "\"transfer_measurement\": %llu.%09llu, "
                 "\"polls_beyond_side_by_side\": %llu.%09llu},\n",
                 process / 1000000000ull, process % 1000000000ull,
                 sampled_path / 1000000000ull, sampled_path % 1000000000ull,
                 measuring / 1000000000ull, measuring % 1000000000ull,
                 waits / 1000000000ull, waits % 1000000000ull);
    efsan_printf("  \"run_cpu_seconds\": %llu.%09llu,\n"
                 "  \"expected_gain\": {\"cpu_seconds\": %llu.%09llu, "
                 "\"share\": %llu.%06llu, \"wall_seconds\": %llu.%09llu, "
                 "\"low_share\": %u.%06u, \"high_share\": %u.%06u},\n"
                 "  \"min_share\": %d.%06d,\n  \"hidden_findings\": %zu,\n"
                 "  \"suppressed_findings\": %zu,\n"
                 "  \"suppressed_structs\": %zu,\n"
                 "  \"report_threshold\": %d,\n"
                 "  \"tracked_lines\": %llu,\n  \"untracked_lines\": %llu,\n"
                 "  \"handed_over_lines\": %llu,\n"
                 "  \"findings\": [%s",
                 cf_run_ns / 1000000000ull, cf_run_ns % 1000000000ull,
                 gain_ns / 1000000000ull, gain_ns % 1000000000ull,
                 gain_ppm / 1000000, gain_ppm % 1000000,
                 gain_wall_ns / 1000000000ull, gain_wall_ns % 1000000000ull,
                 gain_low_ppm / 1000000, gain_low_ppm % 1000000,
                 gain_high_ppm / 1000000, gain_high_ppm % 1000000,
                 share / 1000000, share % 1000000, cf_hidden_findings,
                 suppressed_findings, suppressed_structs,
                 efsan_flags.cache_frag_report_threshold, tracked,
                 cf_untracked_lines(), handed_over, shown ? "\n" : "");
    for (uptr i = 0; i < shown; i++)
      cf_print_json_finding(&findings[i], i + 1 == shown);
    efsan_printf("%s],\n", shown ? "  " : "");
    cf_print_json_structs(structs, listed_structs);
    efsan_printf("}\n");
  } else {
    efsan_report_line("EfficiencySanitizer: cache-frag report: false sharing "
                      "and struct field usage\n");
    u32 weight = cf_max_sample_weight();
    if (cf_period > 1 && weight > 1)
      efsan_report_line("Counts are sampled: each thread samples one access in "
                        "%llu on average, up to %u times fewer while it runs "
                        "alone or finds nothing shared, each sample then "
                        "counted as many times; counts shown are samples "
                        "times %llu.\n",
                        cf_period, weight, cf_period);
    else if (cf_period > 1)
      efsan_report_line("Counts are sampled: each thread samples one access in "
                        "%llu on average; counts shown are samples times %llu.\n",
                        cf_period, cf_period);
    else
      efsan_report_line("Counts are exact: every access was seen "
                        "(cache_frag_sample_period=1).\n");
    // The process's time as measured, and what of it is the program's:
    // the denominator of every share.
    char polls[96] = "";
    if (waits)
      efsan_snprintf(polls, sizeof(polls),
                     ", polls beyond what the threads would wait side by "
                     "side %s",
                     waits_cpu);
    efsan_report_line("The run's CPU time: %s, the program's own, which every "
                      "share below is of (the process measured %s: the tool's "
                      "sampled path and start-up took %s, its line-transfer "
                      "measurement %s%s).\n",
                      run, process_cpu, sampled_cpu, measuring_cpu, polls);
    efsan_report_line("Cache lines tracked in detail: %llu; a line is reported "
                      "when fixing it saves at least %s of the run's CPU time "
                      "and its invalidations number at least %d.\n",
                      tracked, min_share,
                      efsan_flags.cache_frag_report_threshold);
    efsan_print_alloc_stack_sampling("");
    if (handed_over)
      efsan_report_line("Cache lines used by several threads in turn, never at "
                        "the same time (heap blocks reused, data handed on): "
                        "%llu; each hand-over costs one line transfer.\n",
                        handed_over);
    efsan_report_line("A line moving between cores costs %u ns (%s); "
                      "128-byte line pairs: %s (%s).\n",
                      cf_transfer_ns(), cf_transfer_source(),
                      cf_lines_paired() ? "yes" : "no", cf_pairing_source());
    cf_print_text_profile();
    if (cf_untracked_lines())
      efsan_report_line("WARNING: %llu more lines needed tracking but were not "
                        "tracked (cache_frag_max_tracked_lines=%d)\n",
                        cf_untracked_lines(),
                        efsan_flags.cache_frag_max_tracked_lines);
    if (n == notes)
      efsan_report_line("No false sharing, true sharing or predicted false "
                        "sharing above the report threshold.\n");
    else if (n == notes + elsewhere)
      efsan_report_line("No false sharing or true sharing above the report "
                        "threshold in this run.\n");
    else
      efsan_report_line("Fixing the findings below saves %s of CPU time (%s of "
                        "the run%s; about %s of wall time).\n",
                        program_cpu, program_share, program_range,
                        program_wall);
    if (elsewhere)
      efsan_report_line("Predicted false sharing at another start offset is "
                        "not in this run's total: the run did not have it; "
                        "each is priced as if its layout happened, as a share "
                        "of the CPU time the run would then take.\n");
    uptr note = 0;
    for (uptr i = 0; i < shown; i++) {
      char label[32];
      if (findings[i].conditional) {
        if (!note)
          efsan_report_line("Portability notes (not findings: no gain on "
                            "this CPU, a gain where lines pair):\n");
        efsan_snprintf(label, sizeof(label), "note %zu:", ++note);
      } else {
        efsan_snprintf(label, sizeof(label), "#%zu", i + 1);
      }
      cf_print_text_finding(label, &findings[i]);
    }
    if (cf_hidden_findings)
      efsan_report_line("(%zu more lines are shared but fixing any of them "
                        "saves less than %s of the run; see "
                        "cache_frag_min_share)\n",
                        cf_hidden_findings, min_share);
    if (shown < n)
      efsan_report_line("(%zu more findings not shown; see "
                        "cache_frag_max_findings)\n",
                        n - shown);
    cf_print_text_structs(structs, listed_structs, structs_with_counts);
    cf_print_text_suppressed(suppressed_findings, suppressed_structs);
    // Like every sanitizer's SUMMARY line, not prefixed (scripts look for it
    // at the start of a line); the PID at its end names the process.
    char noted[48] = "";
    if (notes)
      efsan_snprintf(noted, sizeof(noted), "%zu portability note%s; ", notes,
                     notes == 1 ? "" : "s");
    efsan_printf("SUMMARY: EfficiencySanitizer: cache-frag: %zu false sharing, "
                 "%zu true sharing, %zu predicted false sharing; %s%zu struct "
                 "types with field accesses in process %d\n",
                 counts[CF_FALSE_SHARING], counts[CF_TRUE_SHARING],
                 counts[CF_PREDICTED_128] + counts[CF_PREDICTED_SHIFTED],
                 noted, structs_with_counts, efsan_getpid());
  }
  cf_structs_release(structs, struct_count, struct_capacity);
  efsan_munmap(findings, findings_bytes);
  efsan_munmap(cf_record_findings, record_findings_bytes);
  efsan_munmap(cf_views, views_bytes);
}

