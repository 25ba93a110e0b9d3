//===-- efsan_cache_frag_suppress.c - what suppressions=FILE hides --------===//
//
// Which findings and struct types of the cache-frag report a suppressions
// file hides (docs/CacheFrag.md, "Suppressions"). A finding of kind T
// (false_sharing, true_sharing, predicted_false_sharing) is suppressed when a
// suppression of type T matches one of the names the report gives it: a
// named range's name (__efsan_name_range), a global object's name, a function or source file of a heap object's
// allocation stack (the frames the report prints), or a function or source
// file of one of its access sites. A struct type is suppressed when a
// "struct:" suppression matches its name as the report prints it. The file
// itself, its format and the matching of patterns are the glue's
// (efsan_suppressions.cpp); the report counts what was hidden
// (efsan_cache_frag_report.c).
//
//===----------------------------------------------------------------------===//
#include "efsan_cache_frag_findings.h"

static enum efsan_suppression_type cf_suppression_type(u8 kind) {
  switch (kind) {
  case CF_FALSE_SHARING:
    return EFSAN_SUPPRESS_FALSE_SHARING;
  case CF_TRUE_SHARING:
    return EFSAN_SUPPRESS_TRUE_SHARING;
  default:
    return EFSAN_SUPPRESS_PREDICTED_FALSE_SHARING;
  }
}

static bool cf_frame_suppressed(enum efsan_suppression_type type,
                                const struct efsan_frame *frame) {
  return efsan_suppressed_name(type, frame->function) ||
         efsan_suppressed_file(type, frame->file);
}

static bool cf_object_suppressed(enum efsan_suppression_type type,
                                 const struct cf_object *o) {
  if (efsan_suppressed_name(type, o->range_name))
    return true;
  if (o->kind == CF_OBJECT_GLOBAL)
    return efsan_suppressed_name(type, o->name);
  if (o->kind != CF_OBJECT_HEAP || !o->stack_id)
    return false;
  struct efsan_frame frames[CF_MAX_FRAMES];
  uptr n = efsan_symbolize_stack(o->stack_id, frames, CF_MAX_FRAMES);
  for (uptr i = 0; i < n; i++)
    if (cf_frame_suppressed(type, &frames[i]))
      return true;
  return false;
}

static bool cf_finding_suppressed(const struct cf_finding *f) {
  enum efsan_suppression_type type = cf_suppression_type(f->kind);
  // Without a suppression of its type nothing is symbolized for it here.
  if (!efsan_suppressions_of(type))
    return false;
  u32 view_count = cf_finding_views(f);
  struct cf_objects objects;
  cf_attribute(f, view_count, &objects);
  for (u32 i = 0; i < objects.count; i++)
    if (cf_object_suppressed(type, &objects.objects[i]))
      return true;
  uptr sites = cf_collect_sites(f, view_count);
  for (uptr i = 0; i < sites; i++)
    if (cf_frame_suppressed(type, &cf_sites[i].frame))
      return true;
  return false;
}

uptr cf_suppress_findings(struct cf_finding *findings, uptr n) {
  uptr kept = 0;
  for (uptr i = 0; i < n; i++)
    if (!cf_finding_suppressed(&findings[i]))
      findings[kept++] = findings[i];
  return kept;
}

uptr cf_suppress_structs(struct cf_struct_usage *u, uptr n,
                         uptr *suppressed_with_accesses) {
  *suppressed_with_accesses = 0;
  if (!efsan_suppressions_of(EFSAN_SUPPRESS_STRUCT))
    return n;
  // The suppressed types go after the others, in place: every entry stays
  // in the array, which cf_structs_release frees whole.
  uptr kept = 0;
  for (uptr i = 0; i < n; i++) {
    if (efsan_suppressed_name(EFSAN_SUPPRESS_STRUCT, u[i].name)) {
      if (u[i].total)
        (*suppressed_with_accesses)++;
      continue;
    }
    struct cf_struct_usage item = u[i];
    for (uptr j = i; j > kept; j--)
      u[j] = u[j - 1];
    u[kept++] = item;
  }
  return kept;
}
