//===-- efsan_cache_frag_struct_usage.c - struct field usage judgments ----===//
//
// The judgments the struct field usage report prints
// (efsan_cache_frag_findings.h): each field's heat (hot, warm, cold,
// padding, unused, not seen), a struct's shape (hot span, cold fields
// beside hot ones), whether its layout can be judged and whether its hot
// and cold fields mix, and the order and folding of the types listed. It
// does not count the accesses (efsan_cache_frag_structs.c) nor print
// anything (efsan_cache_frag_report.c). docs/CacheFrag.md, "Struct field
// usage".
//
//===----------------------------------------------------------------------===//
#include "efsan_cache_frag_findings.h"

// A field is hot with at least a tenth of the busiest field's count and cold
// with less than a hundredth (never-accessed fields are cold).
static bool cf_field_hot(u64 count, u64 max) { return count && count * 10 >= max; }
static bool cf_field_cold(u64 count, u64 max) { return count * 100 < max; }

// Only the debug info tells padding apart: a field that holds no source
// member is padding the compiler added. A never-accessed member, even a byte
// array that looks like padding, is cold: guessing "padding" from the type
// called hot buffers unused when their accesses were not counted, and gives
// no better advice for a real `char pad[N]` member than "cold" does.
static bool cf_field_padding(const struct cf_struct_usage *u, u32 field) {
  return !u->counts[field] && u->field_names && !u->field_names[field];
}

// Without debug info a never-accessed byte array ("[N x i8]") may be padding
// the compiler added as well as a member: it is only shown as unused, and
// not counted as cold, so that no note tells to move padding out.
static bool cf_field_unknown_bytes(const struct cf_struct_usage *u,
                                   u32 field) {
  if (u->counts[field] || u->field_names)
    return false;
  const char *type = u->field_type_names[field];
  uptr n = efsan_internal_strlen(type);
  return n > 7 && type[0] == '[' &&
         efsan_internal_strcmp(type + n - 6, " x i8]") == 0;
}

const char *const cf_heat_names[] = {"hot",    "warm",   "cold",
                                     "padding", "unused", "not_seen",
                                     "too_few_samples"};

// A field whose address escapes (the pass flagged it in some module) may be
// accessed where no count is kept: with none counted it is "not seen", never
// cold; with some, its count is a lower bound. Either way no layout advice
// rests on it (cf_struct_shape, cf_cold_near_hot).
bool cf_field_escapes(const struct cf_struct_usage *u, u32 field) {
  return u->escapes[field];
}

enum cf_heat cf_field_heat(const struct cf_struct_usage *u, u32 field,
                                  u64 max) {
  if (cf_field_hot(u->counts[field], max))
    return CF_HEAT_HOT;
  if (cf_field_padding(u, field))
    return CF_HEAT_PADDING;
  if (cf_field_escapes(u, field) && !u->counts[field])
    return CF_HEAT_NOT_SEEN;
  if (cf_field_unknown_bytes(u, field))
    return CF_HEAT_UNUSED;
  return cf_field_cold(u->counts[field], max) ? CF_HEAT_COLD : CF_HEAT_WARM;
}


// The heat the report prints. With too few samples of the type a field's
// count is chance (pbzip2's queue: one sample, so one field "hot" and ten
// "cold"), so hot, warm and cold are not claimed; padding, unused and not
// seen rest on the type and the pass, not on the counts, and stay.
enum cf_heat cf_field_heat_reported(const struct cf_struct_usage *u,
                                    u32 field, u64 max) {
  enum cf_heat heat = cf_field_heat(u, field, max);
  bool by_count = heat == CF_HEAT_HOT || heat == CF_HEAT_WARM ||
                  heat == CF_HEAT_COLD;
  return by_count && !cf_struct_judged(u) ? CF_HEAT_FEW_SAMPLES : heat;
}

bool cf_cold_near_hot(const struct cf_struct_usage *u, u32 field, u64 max) {
  if (cf_field_heat_reported(u, field, max) != CF_HEAT_COLD ||
      !u->field_sizes[field] || cf_field_escapes(u, field))
    return false;
  uptr first = u->field_offsets[field] / EFSAN_CACHE_LINE_SIZE;
  uptr last = (u->field_offsets[field] + u->field_sizes[field] - 1) /
              EFSAN_CACHE_LINE_SIZE;
  for (u32 f = 0; f < u->num_fields; f++) {
    if (!u->field_sizes[f] || cf_field_heat(u, f, max) != CF_HEAT_HOT ||
        cf_field_escapes(u, f))
      continue;
    uptr hot_first = u->field_offsets[f] / EFSAN_CACHE_LINE_SIZE;
    uptr hot_last =
        (u->field_offsets[f] + u->field_sizes[f] - 1) / EFSAN_CACHE_LINE_SIZE;
    if (hot_first <= last && first <= hot_last)
      return true;
  }
  return false;
}

void cf_struct_shape(const struct cf_struct_usage *u,
                            struct cf_struct_shape *shape) {
  efsan_internal_memset(shape, 0, sizeof(*shape));
  for (u32 f = 0; f < u->num_fields; f++)
    if (u->counts[f] > shape->max)
      shape->max = u->counts[f];
  shape->hot_begin = ~(uptr)0;
  for (u32 f = 0; f < u->num_fields; f++) {
    if (cf_field_escapes(u, f))
      continue;
    enum cf_heat heat = cf_field_heat(u, f, shape->max);
    if (heat == CF_HEAT_HOT) {
      shape->hot++;
      shape->hot_bytes += u->field_sizes[f];
      if (u->field_offsets[f] < shape->hot_begin)
        shape->hot_begin = u->field_offsets[f];
      if (u->field_offsets[f] + u->field_sizes[f] > shape->hot_end)
        shape->hot_end = u->field_offsets[f] + u->field_sizes[f];
    } else if (heat == CF_HEAT_COLD) {
      shape->cold++;
      shape->cold_bytes += u->field_sizes[f];
    }
  }
  for (u32 f = 0; f < u->num_fields; f++)
    shape->cold_near_hot += cf_cold_near_hot(u, f, shape->max);
  if (!shape->hot)
    shape->hot_begin = 0;
}

uptr cf_lines(uptr bytes) {
  return (bytes + EFSAN_CACHE_LINE_SIZE - 1) / EFSAN_CACHE_LINE_SIZE;
}

// The advice to move the cold fields out is only given when doing so makes
// the object span fewer cache lines: never for a struct that fits one line
// (its hot fields share that line already), nor when the cold fields are too
// small to free a line (an 8-byte cold field in a 280-byte struct).
// Layout advice needs counts that mean something: with a few sampled
// accesses a field's heat is chance (pbzip2's queue: 3 samples, "11 cold
// fields").
#define CF_MIN_STRUCT_SAMPLES 32

bool cf_struct_judged(const struct cf_struct_usage *u) {
  return cf_period == 1 ||
         cf_field_samples_at_least(u->total) >= CF_MIN_STRUCT_SAMPLES;
}

bool cf_hot_cold_mix(const struct cf_struct_usage *u,
                            const struct cf_struct_shape *shape) {
  return cf_struct_judged(u) && shape->hot && shape->cold_near_hot &&
         u->size > EFSAN_CACHE_LINE_SIZE &&
         cf_lines(u->size - shape->cold_bytes) < cf_lines(u->size);
}

uptr cf_hot_span(const struct cf_struct_shape *shape) {
  return shape->hot_end - shape->hot_begin;
}

// Busiest first; the order of equal totals is by name so that reports are
// reproducible.
static bool cf_starts_with(const char *s, const char *prefix) {
  return !efsan_internal_strncmp(s, prefix, efsan_internal_strlen(prefix));
}

// The C++ library's types and lambdas: a user cannot change their layout,
// and a small C++ program's report would be mostly them. Told only by
// what a C type cannot be called, so that no C struct is ever one, whatever
// its tag (struct _MdfdVec, struct anon): a name qualified in the library's
// namespaces (C has no "::"), or a lambda's closure type, which clang calls
// "class.anon" (C types are never "class.") or "(lambda at ...)", or after
// its scope ("main::$_0").
static bool cf_library_struct(const char *name) {
  bool llvm_class = cf_starts_with(name, "class.");
  if (cf_starts_with(name, "struct.") || llvm_class ||
      cf_starts_with(name, "union."))
    name = name[0] == 'u' ? name + 6 : name[0] == 's' ? name + 7 : name + 6;
  if (cf_starts_with(name, "std::") || cf_starts_with(name, "__gnu_cxx::") ||
      cf_starts_with(name, "__cxxabiv1::") || cf_starts_with(name, "(lambda"))
    return true;
  if (llvm_class &&
      (!efsan_internal_strcmp(name, "anon") || cf_starts_with(name, "anon.")))
    return true;
  // clang 19 names a closure type in IR after its scope: "main::$_0",
  // "ns::f()::$_3" ("$_" and a number after "::", which no C tag has), or,
  // in a template or an inline function, as the demangler spells it:
  // "void A::run<T>(T*, int)::'lambda'(Token const*)", "'lambda0'(...)".
  for (const char *p = name; *p; p++)
    if (cf_starts_with(p, "(lambda at ") ||
        cf_starts_with(p, "::'lambda") ||
        cf_starts_with(p, "::(anonymous class)") ||
        (cf_starts_with(p, "::$_") && p[4] >= '0' && p[4] <= '9'))
      return true;
  return false;
}

static bool cf_struct_listed(const struct cf_struct_usage *u) {
  return efsan_flags.cache_frag_struct_library || !cf_library_struct(u->name);
}

// Listed types first (the program's own, unless the library's are asked
// for), busiest first.
void cf_sort_structs(struct cf_struct_usage *u, uptr n) {
  for (uptr i = 1; i < n; i++) {
    struct cf_struct_usage item = u[i];
    bool listed = cf_struct_listed(&item);
    uptr j = i;
    for (; j > 0; j--) {
      const struct cf_struct_usage *before = &u[j - 1];
      bool before_listed = cf_struct_listed(before);
      if (before_listed != listed) {
        if (before_listed)
          break;
        u[j] = u[j - 1];
        continue;
      }
      if (before->total > item.total ||
          (before->total == item.total &&
           efsan_internal_strcmp(before->name, item.name) <= 0))
        break;
      u[j] = u[j - 1];
    }
    u[j] = item;
  }
}

uptr cf_structs_shown(const struct cf_struct_usage *u, uptr n) {
  uptr shown = 0;
  while (shown < n && u[shown].total && cf_struct_listed(&u[shown]))
    shown++;
  uptr limit = (uptr)efsan_flags.cache_frag_max_structs;
  return limit && shown > limit ? limit : shown;
}

// The library types with accesses that are not listed, and their accesses.
uptr cf_structs_folded(const struct cf_struct_usage *u, uptr n,
                              u64 *accesses) {
  uptr folded = 0;
  *accesses = 0;
  for (uptr i = 0; i < n; i++)
    if (u[i].total && !cf_struct_listed(&u[i])) {
      folded++;
      *accesses += u[i].total * cf_period;
    }
  return folded;
}
