//===-- efsan_flags.cpp - ESAN_OPTIONS ------------------------------------===//
//
// efsan's flags (efsan_flags.inc) and sanitizer_common's common flags, parsed
// from ESAN_OPTIONS by sanitizer_common's FlagParser. FlagParser only warns
// about unknown names and prints multi-line errors, so ESAN_OPTIONS is first
// checked here with the same syntax: any unknown name, malformed entry or
// value of the wrong type is a one-line error and exit(1) before main.
//
//===----------------------------------------------------------------------===//
#include "efsan.h"
#include "efsan_glue.h"
#include "sanitizer_common/sanitizer_common.h"
#include "sanitizer_common/sanitizer_file.h"
#include "sanitizer_common/sanitizer_flag_parser.h"
#include "sanitizer_common/sanitizer_flags.h"
#include "sanitizer_common/sanitizer_libc.h"

#include <signal.h>
#include <sys/auxv.h>

using namespace __sanitizer;

namespace __sanitizer {
int VSNPrintf(char *buff, int buff_length, const char *format, va_list args);
}

extern "C" struct efsan_flags efsan_flags;
struct efsan_flags efsan_flags;

namespace __efsan {

static const char kOptionsEnv[] = "ESAN_OPTIONS";

enum FlagType { kBool, kInt, kUptr, kString, kSignalMode };
static FlagType TypeOf(bool *) { return kBool; }
static FlagType TypeOf(int *) { return kInt; }
static FlagType TypeOf(uptr *) { return kUptr; }
static FlagType TypeOf(const char **) { return kString; }
static FlagType TypeOf(HandleSignalMode *) { return kSignalMode; }

struct KnownFlag {
  const char *name;
  FlagType type;
};

static const KnownFlag kKnownFlags[] = {
#define EFSAN_FLAG(Type, Name, DefaultValue, Description)                      \
  {#Name, TypeOf(static_cast<Type *>(nullptr))},
#include "efsan_flags.inc"
#undef EFSAN_FLAG
#define COMMON_FLAG(Type, Name, DefaultValue, Description)                     \
  {#Name, TypeOf(static_cast<Type *>(nullptr))},
#include "sanitizer_common/sanitizer_flags.inc"
#undef COMMON_FLAG
    {"include", kString},
    {"include_if_exists", kString},
};

// Option errors go to stderr, never to log_path (the user must see them), and
// exit with status 1 whatever exitcode says (exitcode=0 must not make a
// program that never ran look successful).
void ExitWithOptionError(const char *format, ...) {
  char message[1024];
  va_list args;
  va_start(args, format);
  int length = VSNPrintf(message, sizeof(message) - 1, format, args);
  va_end(args);
  static const char kPrefix[] = "EfficiencySanitizer: ERROR: ";
  if (length < 0)
    length = 0;
  if (length > (int)sizeof(message) - 2)
    length = sizeof(message) - 2;
  message[length] = '\n';
  WriteToFile(kStderrFd, kPrefix, sizeof(kPrefix) - 1);
  WriteToFile(kStderrFd, message, length + 1);
  internal__exit(1);
}

[[noreturn]] static void OptionError(const char *format, const char *a,
                                     uptr a_len, const char *b, uptr b_len,
                                     const char *why) {
  char what[512];
  internal_snprintf(what, sizeof(what), format, (int)a_len, a, (int)b_len, b);
  ExitWithOptionError("%s: %s%s", kOptionsEnv, what, why);
}

static bool IsSeparator(char c) {
  // The separators FlagParser accepts between flags.
  return c == ' ' || c == ',' || c == ':' || c == '\n' || c == '\t' ||
         c == '\r';
}

static bool ValueHasType(const char *value, uptr len, FlagType type) {
  char buffer[64];
  if (type == kString)
    return true;
  if (len == 0 || len >= sizeof(buffer))
    return false;
  internal_memcpy(buffer, value, len);
  buffer[len] = 0;
  bool b;
  if (type == kBool)
    return ParseBool(buffer, &b);
  if (type == kSignalMode) // exactly what sanitizer_common's parser takes
    return ParseBool(buffer, &b) || !internal_strcmp(buffer, "2") ||
           !internal_strcmp(buffer, "exclusive");
  const char *end;
  s64 number = internal_simple_strtoll(buffer, &end, 10);
  if (*end)
    return false;
  if (type == kUptr)
    return number >= 0;
  return number >= INT32_MIN && number <= INT32_MAX;
}

static const char *TypeName(FlagType type) {
  switch (type) {
  case kBool:
    return " (want 0/1, true/false or yes/no)";
  case kInt:
    return " (want an integer)";
  case kUptr:
    return " (want a non-negative integer)";
  case kSignalMode:
    return " (want 0, 1, 2, no, yes, false, true or exclusive)";
  default:
    return "";
  }
}

static void CheckIncludeFile(const char *value, uptr len) {
  char path[kMaxPathLength];
  if (len >= sizeof(path))
    OptionError("include file name too long: '%.*s'%.*s", value, len, "", 0,
                "");
  internal_memcpy(path, value, len);
  path[len] = 0;
  if (internal_strchr(path, '%')) // %b and friends: expanded by the parser
    return;
  if (!FileExists(path))
    OptionError("cannot read the include file '%.*s'%.*s", value, len, "", 0,
                " (include_if_exists= allows a missing file)");
}

static void CheckOptionsSyntax(const char *options) {
  const char *p = options;
  // The option before, if it takes a list and its value was not quoted:
  // alloc_wrappers=a,b is cut at the comma.
  const char *unquoted_list = nullptr;
  for (;;) {
    while (IsSeparator(*p))
      p++;
    if (!*p)
      return;
    const char *name = p;
    while (*p && *p != '=' && !IsSeparator(*p))
      p++;
    uptr name_len = p - name;
    if (*p != '=' && unquoted_list)
      OptionError("invalid value for option '%.*s': quote a list of several "
                  "names (%.*s='a,b')",
                  unquoted_list, internal_strlen(unquoted_list), unquoted_list,
                  internal_strlen(unquoted_list), "");
    if (*p != '=')
      OptionError("expected '=' after '%.*s'%.*s", name, name_len, "", 0,
                  " (options are name=value, separated by ':')");
    unquoted_list = nullptr;
    p++;
    const char *value = p;
    uptr value_len;
    if (*p == '\'' || *p == '"') {
      char quote = *p++;
      value = p;
      while (*p && *p != quote)
        p++;
      if (!*p)
        OptionError("unterminated quoted value for '%.*s'%.*s", name,
                    name_len, "", 0, "");
      value_len = p - value;
      p++;
      if (*p && !IsSeparator(*p))
        OptionError("expected a separator after the value of '%.*s'%.*s",
                    name, name_len, "", 0, "");
    } else {
      while (*p && !IsSeparator(*p))
        p++;
      value_len = p - value;
    }
    const KnownFlag *known = nullptr;
    for (const KnownFlag &flag : kKnownFlags)
      if (internal_strlen(flag.name) == name_len &&
          !internal_strncmp(flag.name, name, name_len))
        known = &flag;
    if (!known)
      OptionError("unknown option '%.*s'%.*s", name, name_len, "", 0,
                  " (help=1 lists the options)");
    if (!ValueHasType(value, value_len, known->type))
      OptionError("invalid value '%.*s' for option '%.*s'", value, value_len,
                  name, name_len, TypeName(known->type));
    // sanitizer_common dies with exitcode (maybe 0) on a missing include.
    if (!internal_strcmp(known->name, "include"))
      CheckIncludeFile(value, value_len);
    if (!internal_strcmp(known->name, "alloc_wrappers") && value[-1] != '\'' &&
        value[-1] != '"')
      unquoted_list = known->name;
  }
}

[[noreturn]] static void BadValue(const char *name, const char *why) {
  ExitWithOptionError("%s: invalid value for option '%s': %s", kOptionsEnv, name,
               why);
}

// alloc_wrappers: names separated by single commas, each a function name as
// a report prints it (no spaces at its ends, which a quoted list may have).
static void CheckAllocWrappers(const char *list) {
  const uptr kMaxNameLength = 1024;
  for (const char *p = list; *p;) {
    const char *end = internal_strchr(p, ',');
    uptr length = end ? (uptr)(end - p) : internal_strlen(p);
    if (!length)
      BadValue("alloc_wrappers", "an empty name (names are separated by "
                                 "single commas)");
    if (length > kMaxNameLength)
      BadValue("alloc_wrappers", "a name longer than 1024 characters");
    if (p[0] == ' ' || p[length - 1] == ' ')
      BadValue("alloc_wrappers", "a name begins or ends with a space");
    if (!end)
      return;
    p = end + 1;
    if (!*p)
      BadValue("alloc_wrappers", "an empty name (names are separated by "
                                 "single commas)");
  }
}

static void CheckValues() {
  if (efsan_flags.sample_freq < 1)
    BadValue("sample_freq", "must be at least 1 (milliseconds)");
  if (efsan_flags.snapshot_step < 1 || efsan_flags.snapshot_step > 4)
    BadValue("snapshot_step", "must be 1, 2, 3 or 4");
  if (efsan_flags.sampler_max_cpu < 1 || efsan_flags.sampler_max_cpu > 100)
    BadValue("sampler_max_cpu", "must be 1..100 (percent of one core)");
  if (internal_strcmp(efsan_flags.sample_clock, "wall") &&
      internal_strcmp(efsan_flags.sample_clock, "cpu"))
    BadValue("sample_clock", "must be 'wall' or 'cpu'");
  if (efsan_flags.report_objects < 0 ||
      efsan_flags.report_objects > 100)
    BadValue("report_objects", "must be 0..100");
  if (efsan_flags.alloc_stacks_exact < 0 ||
      efsan_flags.alloc_stacks_exact > (1 << 30))
    BadValue("alloc_stacks_exact", "must be 0..1073741824");
  if (efsan_flags.alloc_stack_sample_bytes < 1 ||
      efsan_flags.alloc_stack_sample_bytes > (1 << 30))
    BadValue("alloc_stack_sample_bytes", "must be 1..1073741824");
  if (efsan_flags.mrc_sample_shift < 0 || efsan_flags.mrc_sample_shift > 30)
    BadValue("mrc_sample_shift", "must be 0..30");
  if (efsan_flags.mrc_max_lines < 256 || efsan_flags.mrc_max_lines > 1048576)
    BadValue("mrc_max_lines", "must be 256..1048576");
  if (efsan_flags.snapshot_budget < 1024)
    BadValue("snapshot_budget", "must be 1024 or more");
  if (efsan_flags.snapshot_history < 1 ||
      efsan_flags.snapshot_history > 65536)
    BadValue("snapshot_history", "must be 1..65536");
  if (internal_strcmp(efsan_flags.report_format, "text") &&
      internal_strcmp(efsan_flags.report_format, "json"))
    BadValue("report_format", "must be 'text' or 'json'");
  // An exit status is 8 bits: 300 would silently become 44.
  if (common_flags()->exitcode < 0 || common_flags()->exitcode > 255)
    BadValue("exitcode", "must be 0..255");
  // The signals a handler can take, except those a report cannot help with
  // (SIGKILL, SIGSTOP cannot be caught; a fault signal must not return).
  int report_signal = efsan_flags.report_signal;
  if (report_signal && (report_signal < 1 || report_signal > 64 ||
                        report_signal == SIGKILL || report_signal == SIGSTOP ||
                        report_signal == SIGSEGV || report_signal == SIGBUS ||
                        report_signal == SIGFPE || report_signal == SIGILL))
    BadValue("report_signal", "must be 0 or a signal number that can be "
                              "caught and is not a fault (e.g. 12, SIGUSR2)");
  CheckAllocWrappers(efsan_flags.alloc_wrappers);
  // sanitizer_common enforces the limit with an internal CHECK that fails
  // with no explanation; efsan's tables (hundreds of MiB of reserved address
  // space for cache-frag) would hit any useful limit at start-up.
  if (common_flags()->mmap_limit_mb)
    BadValue("mmap_limit_mb", "only 0 (no limit) is supported by efsan");
}

bool secure_execution;

// A setuid/setgid program (AT_SECURE) must not let the user who runs it
// steer it: log_path would open any file with the program's privileges and
// external_symbolizer_path would run any program with them. All of efsan's
// (and UBSan's) environment options are ignored then, as glibc ignores
// LD_PRELOAD; a one-line warning says so if any was set.
static void CheckSecureExecution() {
  secure_execution = getauxval(AT_SECURE) != 0;
  if (!secure_execution)
    return;
  static const char *const kIgnored[] = {kOptionsEnv, "ESAN_SYMBOLIZER_PATH",
                                         "UBSAN_OPTIONS",
                                         "UBSAN_SYMBOLIZER_PATH"};
  for (const char *name : kIgnored)
    if (GetEnv(name)) {
      static const char kWarning[] =
          "EfficiencySanitizer: WARNING: setuid/setgid program: "
          "ESAN_OPTIONS, ESAN_SYMBOLIZER_PATH and UBSAN_OPTIONS are ignored\n";
      WriteToFile(kStderrFd, kWarning, sizeof(kWarning) - 1);
      return;
    }
}

// The statically linked llvm-symbolizer built with the runtime
// (cmake/symbolizer): it starts in about 15 ms of CPU time where Debian's,
// found in PATH, takes 100-170 ms in the dynamic loader, which every report
// that names an allocation site paid at exit. Used unless a symbolizer is
// named, and only while it is still there (a build directory may be gone).
//
// Linked into a program, the runtime has no place of its own to look from,
// so it carries the symbolizer's path, in a slot of fixed size after a
// marker: the build tree's here, which `cmake --install` overwrites in the
// installed runtime with the installed symbolizer's
// (cmake/set_symbolizer_path.py).
#ifndef EFSAN_BUILT_SYMBOLIZER
#define EFSAN_BUILT_SYMBOLIZER "" // not built: llvm-symbolizer from PATH
#endif
#define EFSAN_SYMBOLIZER_SLOT_MARKER "efsan-symbolizer-path:"
__attribute__((used)) static const char symbolizer_slot[4096] =
    EFSAN_SYMBOLIZER_SLOT_MARKER EFSAN_BUILT_SYMBOLIZER;

static const char *BuiltSymbolizer() {
  const char *slot = symbolizer_slot;
  // What the slot holds is not the compiler's to fold: the installation
  // rewrites it.
  __asm__("" : "+r"(slot));
  const char *path = slot + sizeof(EFSAN_SYMBOLIZER_SLOT_MARKER) - 1;
  if (path[0] && IsExecutableFile(path))
    return path;
  return nullptr;
}

void InitializeFlags() {
  CheckSecureExecution();
  SetCommonFlagsDefaults();
  {
    CommonFlags cf;
    cf.CopyFrom(*common_flags());
    // No deadly-signal handlers: SIGSEGV, SIGBUS... stay the program's (the
    // only handlers efsan installs stand in for the default action of the
    // signals it reports on, efsan_rtl.cpp).
    cf.handle_segv = kHandleSignalNo;
    cf.handle_sigbus = kHandleSignalNo;
    cf.handle_sigfpe = kHandleSignalNo;
    cf.handle_sigill = kHandleSignalNo;
    cf.handle_abort = kHandleSignalNo;
    // Allocation stacks are kept for the reports, which read few of them:
    // the depot's full blocks of frames are compressed (LZW, by the thread
    // that fills one). cppcheck -j2 keeps 414,000 stacks: 91 MB of the
    // depot, 18 MB compressed, at no measurable CPU cost.
    cf.compress_stack_depot = -2;
    cf.external_symbolizer_path =
        secure_execution ? nullptr : GetEnv("ESAN_SYMBOLIZER_PATH");
    if (!cf.external_symbolizer_path && !secure_execution)
      cf.external_symbolizer_path = BuiltSymbolizer();
    OverrideCommonFlags(cf);
  }
#define EFSAN_FLAG(Type, Name, DefaultValue, Description)                      \
  efsan_flags.Name = DefaultValue;
#include "efsan_flags.inc"
#undef EFSAN_FLAG

  FlagParser parser;
#define EFSAN_FLAG(Type, Name, DefaultValue, Description)                      \
  RegisterFlag(&parser, #Name, Description, &efsan_flags.Name);
#include "efsan_flags.inc"
#undef EFSAN_FLAG
  RegisterCommonFlags(&parser);

  if (!secure_execution) {
    if (const char *options = GetEnv(kOptionsEnv))
      CheckOptionsSyntax(options);
    parser.ParseStringFromEnv(kOptionsEnv);
  }
  InitializeCommonFlags();
  CheckValues();
  if (common_flags()->help)
    parser.PrintFlagDescriptions();
}

} // namespace __efsan
