//===-- efsan_suppressions.cpp - efsan glue: suppressions=FILE -------------===//
//
// The suppressions file of ESAN_OPTIONS, in the sanitizers' format (one
// "type:pattern" a line, '#' comments), held in sanitizer_common's
// SuppressionContext, and the questions efsan.h lets the C core ask of it.
// sanitizer_common's own reader prints several lines for an unknown type and
// dies with exitcode (0 with exitcode=0, as if the program had run), so the
// file is read and checked here first, at start-up, with an unreadable file,
// a malformed line or an unknown type a one-line option error; the context
// parses only lines that passed. Which findings the cache-frag report leaves
// out is the tool's own (efsan_cache_frag_suppress.c).
//
//===----------------------------------------------------------------------===//
#include "efsan.h"
#include "efsan_glue.h"
#include "sanitizer_common/sanitizer_common.h"
#include "sanitizer_common/sanitizer_file.h"
#include "sanitizer_common/sanitizer_libc.h"
#include "sanitizer_common/sanitizer_placement_new.h"
#include "sanitizer_common/sanitizer_suppressions.h"

using namespace __sanitizer;

namespace __efsan {

// In the order of enum efsan_suppression_type.
static const char *kSuppressionTypes[] = {"false_sharing", "true_sharing",
                                          "predicted_false_sharing", "struct"};
static const int kSuppressionTypeCount =
    sizeof(kSuppressionTypes) / sizeof(kSuppressionTypes[0]);

// Constructed at start-up only when the option names a file (no global
// constructor: the runtime starts before any).
static SuppressionContext *suppressions;
alignas(SuppressionContext) static char
    suppressions_storage[sizeof(SuppressionContext)];

[[noreturn]] static void FileError(const char *file, uptr line,
                                   const char *what, const char *text,
                                   uptr text_length) {
  // A quoted line is cut where a terminal line would end anyway.
  const uptr kMaxQuoted = 80;
  if (text_length > kMaxQuoted)
    text_length = kMaxQuoted;
  ExitWithOptionError("ESAN_OPTIONS: suppressions: %s:%zu: %s '%.*s'", file,
                      line, what, (int)text_length, text);
}

// As sanitizer_common's suppressions (FindFile): a relative name that is not
// found from the current directory is looked for beside the executable.
static const char *FindSuppressionsFile(const char *name, char *buffer,
                                        uptr size) {
  if (FileExists(name) || IsAbsolutePath(name))
    return name;
  InternalMmapVector<char> executable(kMaxPathLength);
  if (!ReadBinaryNameCached(executable.data(), executable.size()))
    return name;
  uptr directory =
      StripModuleName(executable.data()) - executable.data();
  internal_snprintf(buffer, size, "%.*s%s", (int)directory, executable.data(),
                    name);
  return FileExists(buffer) ? buffer : name;
}

// Checks every line of the file as SuppressionContext::Parse splits it
// (blanks and tabs before, blanks, tabs and \r after; '#' starts a comment)
// and appends the good ones to lines, one "type:pattern\n" each.
static void CheckSuppressionLines(const char *file, const char *text,
                                  uptr length,
                                  InternalMmapVector<char> *lines) {
  uptr number = 0;
  for (uptr at = 0; at < length;) {
    number++;
    uptr end = at;
    while (end < length && text[end] != '\n')
      end++;
    uptr next = end + 1;
    while (at < end && (text[at] == ' ' || text[at] == '\t'))
      at++;
    while (end > at && (text[end - 1] == ' ' || text[end - 1] == '\t' ||
                        text[end - 1] == '\r'))
      end--;
    const char *line = text + at;
    uptr line_length = end - at;
    at = next;
    if (!line_length || line[0] == '#')
      continue;
    if (internal_memchr(line, 0, line_length))
      FileError(file, number, "not text: a NUL byte in", line,
                internal_strlen(line));
    const char *colon = (const char *)internal_memchr(line, ':', line_length);
    if (!colon)
      FileError(file, number, "expected 'type:pattern', got", line,
                line_length);
    uptr type_length = colon - line;
    bool known = false;
    for (int t = 0; t < kSuppressionTypeCount && !known; t++)
      known = internal_strlen(kSuppressionTypes[t]) == type_length &&
              !internal_strncmp(kSuppressionTypes[t], line, type_length);
    if (!known)
      ExitWithOptionError(
          "ESAN_OPTIONS: suppressions: %s:%zu: unknown suppression type "
          "'%.*s' (false_sharing, true_sharing, predicted_false_sharing or "
          "struct)",
          file, number, (int)(type_length < 80 ? type_length : 80), line);
    // An empty pattern would match every name: a pattern forgotten, most
    // likely, where '*' says it on purpose.
    uptr pattern_length = line_length - type_length - 1;
    if (!pattern_length)
      FileError(file, number, "an empty pattern (* matches every name) in",
                line, line_length);
    // The parser would keep the blank in the pattern, which no name starts
    // with.
    if (colon[1] == ' ' || colon[1] == '\t')
      FileError(file, number, "a blank after the type's ':' in", line,
                line_length);
    for (uptr i = 0; i < line_length; i++)
      lines->push_back(line[i]);
    lines->push_back('\n');
  }
}

void InitializeSuppressions() {
  const char *name = efsan_flags.suppressions;
  if (!name || !name[0])
    return;
  InternalMmapVector<char> found(kMaxPathLength);
  const char *file = FindSuppressionsFile(name, found.data(), found.size());
  char *text;
  uptr text_capacity, text_length;
  error_t err = 0;
  if (!ReadFileToBuffer(file, &text, &text_capacity, &text_length,
                        kDefaultFileMaxSize, &err))
    ExitWithOptionError("ESAN_OPTIONS: suppressions: cannot read the file "
                        "'%s' (errno %d)",
                        name, err);
  InternalMmapVector<char> lines;
  CheckSuppressionLines(name, text, text_length, &lines);
  UnmapOrDie(text, text_capacity);
  lines.push_back(0);
  suppressions = new (suppressions_storage)
      SuppressionContext(kSuppressionTypes, kSuppressionTypeCount);
  suppressions->Parse(lines.data());
  // efsan_vreport, not VReport: verbosity lines never go into a report file.
  efsan_vreport(1, "EfficiencySanitizer: %zu suppressions read from %s\n",
                suppressions->SuppressionCount(), file);
}

} // namespace __efsan

using namespace __efsan;

extern "C" bool efsan_suppressions_of(enum efsan_suppression_type type) {
  return suppressions &&
         suppressions->HasSuppressionType(kSuppressionTypes[type]);
}

extern "C" bool efsan_suppressed_name(enum efsan_suppression_type type,
                                      const char *name) {
  Suppression *matched;
  return efsan_suppressions_of(type) && name && name[0] &&
         suppressions->Match(name, kSuppressionTypes[type], &matched);
}

extern "C" bool efsan_suppressed_file(enum efsan_suppression_type type,
                                      const char *path) {
  if (!path || !path[0])
    return false;
  const char *last = internal_strrchr(path, '/');
  return efsan_suppressed_name(type, path) ||
         (last && efsan_suppressed_name(type, last + 1));
}
