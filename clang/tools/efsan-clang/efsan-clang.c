//===-- efsan-clang.c - -fsanitize=efficiency-* for a stock clang ---------===//
//
// efsan-clang and efsan-clang++ take clang's command line, with clang's own
// spelling of the EfficiencySanitizer flags (-fsanitize=efficiency-working-set,
// -fsanitize=efficiency-cache-frag, the `efficiency` group for -fno-sanitize=,
// mixed lists such as -fsanitize=undefined,efficiency-working-set), and run
// Debian's clang 19 with what a clang that knew these flags would add itself:
// the pass plugin at compile time, the runtime when linking an executable.
// Every other argument reaches clang untouched and in order, so CC=efsan-clang
// works with make, configure and CMake.
//
// The rules below mirror clang's SanitizerArgs (argument order, groups,
// incompatible sanitizers, unsupported targets, diagnostics) and CommonArgs
// (the runtime link line), so that this driver and the native clang built from
// llvm-patches/ behave alike; docs/Driver.md is the user-facing description.
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "efsan_version.h" // generated at build time (cmake/EfsanVersion.cmake)

#ifndef EFSAN_CLANG_PATH
#error "EFSAN_CLANG_PATH must name the clang 19 binary to run"
#endif
#ifndef EFSAN_CLANG_RESOURCE_SUBDIR
#error "EFSAN_CLANG_RESOURCE_SUBDIR must be the resource dir below the prefix (lib/clang/19)"
#endif

#define EFSAN_PLUGIN_SUBPATH "lib/EfficiencySanitizer.so"
#define EFSAN_RUNTIME_SUBDIR EFSAN_CLANG_RESOURCE_SUBDIR "/lib/linux"
#define EFSAN_RUNTIME_NAME "libclang_rt.efsan-x86_64.a"
#define EFSAN_CXX_RUNTIME_NAME "libclang_rt.efsan_cxx-x86_64.a"
// Only our public header lives there: an -idirafter of a full resource
// include dir would make clang's own #include_next (stdatomic.h, ...) find
// a second copy of the same header.
#define EFSAN_INCLUDE_SUBDIR "lib/efsan/include"

static const char *program_name = "efsan-clang";

// clang's diagnostic format: "<program>: error: <message>".
static void vdiag_error(const char *fmt, va_list ap) {
  fprintf(stderr, "%s: error: ", program_name);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
}

static void diag_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vdiag_error(fmt, ap);
  va_end(ap);
}

static void fatal(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vdiag_error(fmt, ap);
  va_end(ap);
  exit(1);
}

static void *xrealloc(void *p, size_t n) {
  p = realloc(p, n);
  if (!p)
    fatal("out of memory");
  return p;
}

static char *xasprintf(const char *fmt, ...) {
  va_list ap;
  char *s;
  va_start(ap, fmt);
  if (vasprintf(&s, fmt, ap) < 0)
    fatal("out of memory");
  va_end(ap);
  return s;
}

static bool starts_with(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

static bool ends_with(const char *s, const char *suffix) {
  size_t ls = strlen(s), lx = strlen(suffix);
  return ls >= lx && strcmp(s + ls - lx, suffix) == 0;
}

//===-- Argument vectors ---------------------------------------------------===//

struct arg_list {
  char **v;
  size_t n, cap;
};

static void push(struct arg_list *l, const char *s) {
  if (l->n + 2 > l->cap) {
    l->cap = l->cap ? 2 * l->cap : 64;
    l->v = xrealloc(l->v, l->cap * sizeof(*l->v));
  }
  l->v[l->n++] = (char *)s;
  l->v[l->n] = NULL;
}

//===-- clang's option table -----------------------------------------------===//
//
// To tell an input file from the value of an option ("-o prog", "-x c",
// "-MF dep.d") the driver uses clang's own option table, which Debian installs
// as clang/Driver/Options.inc: every option whose value may be the next
// argument is there with its kind.

enum option_kind {
  OPT_KIND_Group, OPT_KIND_Input, OPT_KIND_Unknown, OPT_KIND_Flag,
  OPT_KIND_Joined, OPT_KIND_Values, OPT_KIND_Separate, OPT_KIND_RemainingArgs,
  OPT_KIND_RemainingArgsJoined, OPT_KIND_CommaJoined, OPT_KIND_MultiArg,
  OPT_KIND_JoinedOrSeparate, OPT_KIND_JoinedAndSeparate
};

struct clang_option {
  const char *name; // with its first prefix: "-o", "--sysroot"
  enum option_kind kind;
  unsigned num_values; // MultiArg only
};

static const struct clang_option clang_options[] = {
#define OPTION(PREFIX, NAME, ID, KIND, GROUP, ALIAS, ALIASARGS, FLAGS,         \
               VISIBILITY, PARAM, ...)                                          \
  {NAME, OPT_KIND_##KIND, PARAM},
#include "clang/Driver/Options.inc"
#undef OPTION
};

// Options may be spelled with one or two dashes ("-target"/"--target" style
// prefixes); a spelling clang does not accept is diagnosed by clang itself.
static bool option_name_matches(const char *name, const char *arg) {
  if (name[0] != '-')
    return false; // clang-cl "/..." spellings and <input>/<unknown>
  const char *bare_name = name + (name[1] == '-' ? 2 : 1);
  const char *bare_arg = arg + (arg[1] == '-' ? 2 : 1);
  return strcmp(bare_name, bare_arg) == 0;
}

// How many of the following arguments belong to option `arg`.
static unsigned option_value_count(const char *arg) {
  if (arg[0] != '-' || arg[1] == '\0')
    return 0;
  for (size_t i = 0; i < sizeof(clang_options) / sizeof(clang_options[0]); ++i) {
    const struct clang_option *o = &clang_options[i];
    switch (o->kind) {
    case OPT_KIND_Separate:
    case OPT_KIND_JoinedOrSeparate:
      if (option_name_matches(o->name, arg))
        return 1;
      break;
    case OPT_KIND_MultiArg:
      if (option_name_matches(o->name, arg))
        return o->num_values;
      break;
    case OPT_KIND_JoinedAndSeparate:
      if (o->name[0] == '-' && starts_with(arg, o->name))
        return 1;
      break;
    default:
      break;
    }
  }
  return 0;
}

//===-- Response files -----------------------------------------------------===//
//
// Build systems put long command lines in @files. The driver reads them (GNU
// quoting, as clang does) to see every flag; the file itself is handed to
// clang unchanged unless it holds efficiency flags that stock clang would
// reject.

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  char *buf = NULL;
  size_t n = 0, cap = 0, got;
  do {
    if (n + 4096 + 1 > cap) {
      cap = cap ? 2 * cap : 8192;
      buf = xrealloc(buf, cap);
    }
    got = fread(buf + n, 1, cap - n - 1, f);
    n += got;
  } while (got > 0);
  fclose(f);
  buf[n] = '\0';
  return buf;
}

static void tokenize_gnu(char *text, struct arg_list *out) {
  char *src = text;
  while (*src) {
    while (*src == ' ' || *src == '\t' || *src == '\n' || *src == '\r')
      ++src;
    if (!*src)
      break;
    char *token = src, *dst = src;
    char quote = 0;
    while (*src) {
      char c = *src;
      if (quote) {
        if (c == quote) {
          quote = 0;
          ++src;
        } else if (c == '\\' && quote == '"' && src[1]) {
          *dst++ = src[1];
          src += 2;
        } else {
          *dst++ = *src++;
        }
      } else if (c == '"' || c == '\'') {
        quote = c;
        ++src;
      } else if (c == '\\' && src[1]) {
        *dst++ = src[1];
        src += 2;
      } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        ++src;
        break;
      } else {
        *dst++ = *src++;
      }
    }
    // The terminator may overwrite the separator we just stepped over, never
    // an unread character: dst never runs ahead of src.
    *dst = '\0';
    push(out, token);
  }
}

// Appends `arg` to `out`, replacing @file arguments by their contents,
// recursively (nested names relative to the including file, as clang does).
static void expand_arg(const char *arg, const char *base_dir,
                       struct arg_list *out, unsigned depth) {
  if (arg[0] != '@' || depth > 20) {
    push(out, arg);
    return;
  }
  const char *name = arg + 1;
  char *path = (name[0] == '/' || !base_dir) ? strdup(name)
                                              : xasprintf("%s/%s", base_dir, name);
  char *text = read_file(path);
  if (!text) { // clang treats an unreadable @file as an input file name
    push(out, arg);
    free(path);
    return;
  }
  char *dir_copy = strdup(path);
  char *dir = strdup(dirname(dir_copy));
  free(dir_copy);
  struct arg_list tokens = {0};
  tokenize_gnu(text, &tokens);
  for (size_t i = 0; i < tokens.n; ++i)
    expand_arg(tokens.v[i], dir, out, depth + 1);
  free(tokens.v);
  free(path);
}

//===-- Sanitizer kinds ----------------------------------------------------===//
//
// Only the kinds the efficiency tools interact with are told apart; everything
// else is clang's business and reaches it untouched.

enum {
  KIND_WORKING_SET = 1u << 0,
  KIND_CACHE_FRAG = 1u << 1,
  KIND_ADDRESS = 1u << 2,
  KIND_KERNEL_ADDRESS = 1u << 3,
  KIND_HWADDRESS = 1u << 4,
  KIND_KERNEL_HWADDRESS = 1u << 5,
  KIND_MEMORY = 1u << 6,
  KIND_KERNEL_MEMORY = 1u << 7,
  KIND_THREAD = 1u << 8,
  KIND_LEAK = 1u << 9,
  KIND_DATAFLOW = 1u << 10,
  KIND_NUMERICAL = 1u << 11,
  KIND_SCUDO = 1u << 12,
  // Kinds whose diagnostics clang's standalone UBSan runtime prints.
  KIND_NEEDS_UBSAN_RT = 1u << 13,
  KIND_FUZZER = 1u << 14,
  KIND_FUZZER_NO_LINK = 1u << 15,
  // Its runtime intercepts pthread_create, as efsan's does.
  KIND_SAFE_STACK = 1u << 16,
  // Kinds needing no runtime, or one that does not hold sanitizer_common.
  KIND_OTHER = 1u << 17,
  KIND_ALL = (1u << 18) - 1,
};
typedef uint32_t kind_mask;

#define KIND_EFFICIENCY (KIND_WORKING_SET | KIND_CACHE_FRAG)

// Sanitizers with their own shadow memory or their own copy of
// sanitizer_common, which cannot share a process with the efsan runtime.
#define KIND_NOT_WITH_EFFICIENCY                                               \
  (KIND_ADDRESS | KIND_KERNEL_ADDRESS | KIND_HWADDRESS |                       \
   KIND_KERNEL_HWADDRESS | KIND_MEMORY | KIND_KERNEL_MEMORY | KIND_THREAD |    \
   KIND_LEAK | KIND_DATAFLOW | KIND_NUMERICAL | KIND_SCUDO | KIND_SAFE_STACK)

static const struct {
  const char *name;
  kind_mask kinds;
} kind_names[] = {
    {"efficiency-working-set", KIND_WORKING_SET},
    {"efficiency-cache-frag", KIND_CACHE_FRAG},
    {"efficiency", KIND_EFFICIENCY},
    {"address", KIND_ADDRESS},
    {"kernel-address", KIND_KERNEL_ADDRESS},
    {"hwaddress", KIND_HWADDRESS},
    {"kernel-hwaddress", KIND_KERNEL_HWADDRESS},
    {"memory", KIND_MEMORY},
    {"kernel-memory", KIND_KERNEL_MEMORY},
    {"thread", KIND_THREAD},
    {"leak", KIND_LEAK},
    {"dataflow", KIND_DATAFLOW},
    {"numerical", KIND_NUMERICAL},
    {"scudo", KIND_SCUDO},
    {"fuzzer", KIND_FUZZER},
    {"all", KIND_ALL},
    // Runtime-free or self-contained kinds; every other name (undefined,
    // integer, nullability, bounds, null, ...) is UBSan's.
    {"fuzzer-no-link", KIND_FUZZER_NO_LINK},
    {"safe-stack", KIND_SAFE_STACK},
    {"shadow-call-stack", KIND_OTHER},
    {"kcfi", KIND_OTHER},
    {"memtag", KIND_OTHER},
    {"memtag-stack", KIND_OTHER},
    {"memtag-heap", KIND_OTHER},
    {"memtag-globals", KIND_OTHER},
    {"pointer-compare", KIND_OTHER},
    {"pointer-subtract", KIND_OTHER},
};

static bool is_efficiency_value(const char *value) {
  return strcmp(value, "efficiency") == 0 ||
         strcmp(value, "efficiency-working-set") == 0 ||
         strcmp(value, "efficiency-cache-frag") == 0;
}

static kind_mask parse_kind(const char *value) {
  for (size_t i = 0; i < sizeof(kind_names) / sizeof(kind_names[0]); ++i)
    if (strcmp(kind_names[i].name, value) == 0)
      return kind_names[i].kinds;
  if (starts_with(value, "cfi"))
    return KIND_OTHER;
  return KIND_NEEDS_UBSAN_RT;
}

// One -fsanitize= or -fno-sanitize= argument, split at its commas.
struct sanitize_arg {
  bool is_add;
  size_t num_values;
  char **values;
};

// The union of the kinds the argument names, as clang's
// expandSanitizerGroups(parseArgValues(...)) without diagnostics.
// "-fsanitize=all" and "-fsanitize=efficiency" name nothing (clang rejects
// both); in -fno-sanitize= they name their whole group.
static kind_mask sanitize_arg_kinds(const struct sanitize_arg *a) {
  kind_mask m = 0;
  for (size_t i = 0; i < a->num_values; ++i) {
    if (a->is_add && (strcmp(a->values[i], "all") == 0 ||
                      strcmp(a->values[i], "efficiency") == 0))
      continue;
    m |= parse_kind(a->values[i]);
  }
  return m;
}

// clang's describeSanitizeArg: "-fsanitize=" and the values of `a` that
// provide one of `mask`, in their order.
static char *describe_sanitize_arg(const struct sanitize_arg *a,
                                   kind_mask mask) {
  size_t len = strlen("-fsanitize=") + 1;
  for (size_t i = 0; i < a->num_values; ++i)
    len += strlen(a->values[i]) + 1;
  char *s = xrealloc(NULL, len);
  strcpy(s, "-fsanitize=");
  bool first = true;
  for (size_t i = 0; i < a->num_values; ++i) {
    struct sanitize_arg one = {true, 1, &a->values[i]};
    if (!(sanitize_arg_kinds(&one) & mask))
      continue;
    if (!first)
      strcat(s, ",");
    strcat(s, a->values[i]);
    first = false;
  }
  return s;
}

// clang's lastArgumentForMask: the last -fsanitize= that turns on a kind of
// `mask` without a later -fno-sanitize= turning it off again.
static char *last_argument_for_mask(const struct sanitize_arg *args, size_t n,
                                    kind_mask mask) {
  for (size_t i = n; i-- > 0;) {
    kind_mask k = sanitize_arg_kinds(&args[i]);
    if (args[i].is_add) {
      if (k & mask)
        return describe_sanitize_arg(&args[i], mask);
    } else {
      mask &= ~k;
    }
  }
  return strdup("-fsanitize=");
}

// Pairs of kinds clang refuses together (its IncompatibleGroups, restricted to
// the kinds told apart here, in clang's order), then the efficiency ones:
// an efficiency tool with a sanitizer that owns the shadow memory or its own
// sanitizer_common, and the two efficiency tools with each other (their
// shadow encodings differ; one runtime runs one tool).
static const struct {
  kind_mask group, incompatible;
} incompatible_kinds[] = {
    {KIND_ADDRESS, KIND_THREAD | KIND_MEMORY},
    {KIND_THREAD, KIND_MEMORY},
    {KIND_LEAK, KIND_THREAD | KIND_MEMORY},
    {KIND_KERNEL_ADDRESS, KIND_ADDRESS | KIND_LEAK | KIND_THREAD | KIND_MEMORY},
    {KIND_HWADDRESS,
     KIND_ADDRESS | KIND_THREAD | KIND_MEMORY | KIND_KERNEL_ADDRESS},
    {KIND_SCUDO, KIND_ADDRESS | KIND_HWADDRESS | KIND_LEAK | KIND_THREAD |
                     KIND_MEMORY | KIND_KERNEL_ADDRESS},
    {KIND_KERNEL_HWADDRESS, KIND_ADDRESS | KIND_HWADDRESS | KIND_LEAK |
                                KIND_THREAD | KIND_MEMORY |
                                KIND_KERNEL_ADDRESS},
    {KIND_KERNEL_MEMORY, KIND_ADDRESS | KIND_HWADDRESS | KIND_LEAK |
                             KIND_THREAD | KIND_MEMORY | KIND_KERNEL_ADDRESS |
                             KIND_SCUDO},
    {KIND_EFFICIENCY, KIND_NOT_WITH_EFFICIENCY},
    {KIND_WORKING_SET, KIND_CACHE_FRAG},
};

//===-- The command line as clang will see it ------------------------------===//

struct invocation {
  bool is_cxx;             // efsan-clang++: clang's g++ driver mode
  bool has_source_input;   // something to compile
  bool has_input;          // anything at all for clang to work on
  bool links;              // clang will run the linker
  bool immediate_query;    // --version, -print-*, --help...: no build
  bool version_query;      // --version: efsan's version after clang's
  bool help_query;         // --help: efsan's options before clang's
  bool shared;             // -shared: the runtime lives in the executable
  bool nostdlib;           // -nostdlib/-nodefaultlibs/-r: no system libs
  bool link_runtime;       // -f[no-]sanitize-link-runtime
  bool link_cxx_runtime;   // -f[no-]sanitize-link-c++-runtime
  bool minimal_runtime;    // -f[no-]sanitize-minimal-runtime
  bool has_coverage;       // -fsanitize-coverage=: UBSan runtime's job
  bool nostdlibxx;         // -nostdlib++: no C++ standard library
  const char *static_arg;  // -static or -static-pie (NULL if neither)
  bool linker_chosen;      // -fuse-ld=, --ld-path=, -B: the user's linker
  bool has_target_option;  // the target may not be the default one
  struct arg_list target_args; // the options that pick the target
  struct sanitize_arg *sanitize_args;
  size_t num_sanitize_args;
  // -fsanitize-ignorelist= files in effect (-fno-sanitize-ignorelist drops
  // the earlier ones), for the pass: stock clang reads them for its own
  // sanitizers only.
  struct arg_list ignorelists;
};

// Files that clang compiles with cc1 (and so through the pass); assembly and
// linker inputs are not.
static bool is_compiled_language(const char *language) {
  return strcmp(language, "none") != 0 && !starts_with(language, "assembler") &&
         strcmp(language, "ir") != 0;
}

static bool is_source_file(const char *path) {
  static const char *const source_suffixes[] = {
      ".c",   ".i",  ".cc", ".cp", ".cxx", ".cpp", ".CPP", ".c++", ".C",
      ".ii",  ".m",  ".mi", ".mm", ".M",   ".mii", ".h",   ".hh",  ".hpp",
      ".hxx", ".H",  ".cppm", ".ixx", ".ll"};
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  const char *dot = strrchr(base, '.');
  if (!dot)
    return false;
  for (size_t i = 0; i < sizeof(source_suffixes) / sizeof(source_suffixes[0]); ++i)
    if (strcmp(dot, source_suffixes[i]) == 0)
      return true;
  return false;
}

static void split_sanitize_values(const char *list, struct sanitize_arg *out) {
  char *copy = strdup(list);
  out->values = NULL;
  out->num_values = 0;
  for (char *save = NULL, *v = strtok_r(copy, ",", &save); v;
       v = strtok_r(NULL, ",", &save)) {
    out->values = xrealloc(out->values, (out->num_values + 1) * sizeof(char *));
    out->values[out->num_values++] = v;
  }
}

static void analyze(const struct arg_list *args, struct invocation *inv) {
  bool compile_only = false;
  const char *language = NULL; // the last -x
  bool after_dash_dash = false;
  inv->link_runtime = true;
  inv->link_cxx_runtime = inv->is_cxx;
  for (size_t i = 1; i < args->n; ++i) {
    const char *a = args->v[i];
    bool is_input = after_dash_dash || a[0] != '-' || strcmp(a, "-") == 0;
    if (is_input) {
      inv->has_input = true;
      if (language && strcmp(language, "none") != 0) {
        if (is_compiled_language(language))
          inv->has_source_input = true;
      } else if (strcmp(a, "-") == 0 || is_source_file(a)) {
        inv->has_source_input = true;
      }
      continue;
    }
    if (strcmp(a, "--") == 0) {
      after_dash_dash = true;
      continue;
    }
    if (strcmp(a, "-c") == 0 || strcmp(a, "-S") == 0 || strcmp(a, "-E") == 0 ||
        strcmp(a, "-M") == 0 || strcmp(a, "-MM") == 0 ||
        strcmp(a, "-fsyntax-only") == 0 || strcmp(a, "--precompile") == 0 ||
        strcmp(a, "-emit-ast") == 0)
      compile_only = true;
    else if (strcmp(a, "-shared") == 0 || strcmp(a, "--shared") == 0)
      inv->shared = true;
    else if (strcmp(a, "-static") == 0 || strcmp(a, "--static") == 0 ||
             strcmp(a, "-static-pie") == 0)
      inv->static_arg = a;
    else if (strcmp(a, "-nostdlib++") == 0)
      inv->nostdlibxx = true;
    else if (starts_with(a, "-fuse-ld=") || starts_with(a, "--ld-path=") ||
             starts_with(a, "-B") || strcmp(a, "--prefix") == 0 ||
             starts_with(a, "--prefix="))
      inv->linker_chosen = true;
    else if (strcmp(a, "-r") == 0 || strcmp(a, "-nostdlib") == 0 ||
             strcmp(a, "--no-standard-libraries") == 0 ||
             strcmp(a, "-nodefaultlibs") == 0) {
      inv->nostdlib = true;
      if (strcmp(a, "-r") == 0)
        inv->shared = true; // a relocatable object is not an executable
    } else if (strcmp(a, "--version") == 0 || strcmp(a, "-dumpversion") == 0 ||
               strcmp(a, "-dumpmachine") == 0 || strcmp(a, "--help") == 0 ||
               strcmp(a, "-help") == 0 || strcmp(a, "--help-hidden") == 0 ||
               starts_with(a, "-print-") || starts_with(a, "--print-")) {
      inv->immediate_query = true;
      inv->version_query |= strcmp(a, "--version") == 0;
      inv->help_query |= strcmp(a, "--help") == 0 || strcmp(a, "-help") == 0;
    }
    else if (strcmp(a, "-fsanitize-link-runtime") == 0)
      inv->link_runtime = true;
    else if (strcmp(a, "-fno-sanitize-link-runtime") == 0)
      inv->link_runtime = false;
    else if (strcmp(a, "-fsanitize-link-c++-runtime") == 0)
      inv->link_cxx_runtime = true;
    else if (strcmp(a, "-fno-sanitize-link-c++-runtime") == 0)
      inv->link_cxx_runtime = false;
    else if (strcmp(a, "-fsanitize-minimal-runtime") == 0)
      inv->minimal_runtime = true;
    else if (strcmp(a, "-fno-sanitize-minimal-runtime") == 0)
      inv->minimal_runtime = false;
    else if (starts_with(a, "-fsanitize-coverage="))
      inv->has_coverage = true;
    else if (starts_with(a, "-fsanitize-ignorelist=") ||
             starts_with(a, "-fsanitize-blacklist="))
      push(&inv->ignorelists, strchr(a, '=') + 1);
    else if (strcmp(a, "-fno-sanitize-ignorelist") == 0 ||
             strcmp(a, "-fno-sanitize-blacklist") == 0)
      inv->ignorelists.n = 0;
    else if (starts_with(a, "-fsanitize=") || starts_with(a, "-fno-sanitize=")) {
      inv->sanitize_args = xrealloc(
          inv->sanitize_args,
          (inv->num_sanitize_args + 1) * sizeof(*inv->sanitize_args));
      struct sanitize_arg *s = &inv->sanitize_args[inv->num_sanitize_args++];
      s->is_add = a[2] == 's';
      split_sanitize_values(strchr(a, '=') + 1, s);
    } else if (starts_with(a, "--target=") || strcmp(a, "-m32") == 0 ||
               strcmp(a, "-m16") == 0 || strcmp(a, "-mx32") == 0 ||
               strcmp(a, "-m64") == 0) {
      inv->has_target_option = true;
      push(&inv->target_args, a);
    } else if ((strcmp(a, "-target") == 0 || strcmp(a, "--target") == 0 ||
                strcmp(a, "-arch") == 0) &&
               i + 1 < args->n) {
      inv->has_target_option = true;
      push(&inv->target_args, a);
      push(&inv->target_args, args->v[i + 1]);
    } else if (strcmp(a, "-x") == 0 && i + 1 < args->n) {
      language = args->v[i + 1];
    } else if (starts_with(a, "-x") && a[2]) {
      language = a + 2;
    }
    i += option_value_count(a);
  }
  inv->links = inv->has_input && !compile_only && !inv->immediate_query;
}

//===-- Which efficiency tool, if any --------------------------------------===//

// The first line clang prints for `query` (-print-target-triple,
// -print-runtime-dir) with the command line's target options, or NULL.
static char *query_clang(const char *clang, const struct invocation *inv,
                         const char *query) {
  int fds[2];
  if (pipe(fds) != 0)
    fatal("cannot create a pipe: %s", strerror(errno));
  pid_t pid = fork();
  if (pid < 0)
    fatal("cannot fork: %s", strerror(errno));
  if (pid == 0) {
    struct arg_list q = {0};
    push(&q, clang);
    for (size_t i = 0; i < inv->target_args.n; ++i)
      push(&q, inv->target_args.v[i]);
    push(&q, query);
    dup2(fds[1], 1);
    close(fds[0]);
    close(fds[1]);
    execv(clang, q.v);
    _exit(127);
  }
  close(fds[1]);
  char buf[256];
  size_t n = 0;
  ssize_t got;
  while (n < sizeof(buf) - 1 && (got = read(fds[0], buf + n, sizeof(buf) - 1 - n)) > 0)
    n += (size_t)got;
  close(fds[0]);
  int status;
  waitpid(pid, &status, 0);
  buf[n] = '\0';
  buf[strcspn(buf, "\r\n")] = '\0';
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || n == 0)
    return NULL; // clang will diagnose the bad target itself
  return strdup(buf);
}

// clang's toolchain triple for the command line's target options; only asked
// of clang when the command line names a target.
static char *query_target_triple(const char *clang, const struct invocation *inv) {
  return query_clang(clang, inv, "-print-target-triple");
}

// The runtime is built for 64-bit x86 Linux with glibc's ABI.
static bool target_supports_efficiency(const char *triple) {
  return starts_with(triple, "x86_64-") && strstr(triple, "-linux") &&
         !strstr(triple, "x32") && !strstr(triple, "android");
}

// Applies clang's rules for -fsanitize=/-fno-sanitize= (last one wins, later
// removals cancel earlier additions, groups expand) and prints clang's
// diagnostics for the efficiency kinds. Returns the enabled kinds, or exits.
static kind_mask resolve_sanitizers(const char *clang,
                                    const struct invocation *inv) {
  const struct sanitize_arg *args = inv->sanitize_args;
  size_t n = inv->num_sanitize_args;
  kind_mask kinds = 0, all_remove = 0, diagnosed = 0;
  bool failed = false;
  bool any_efficiency = false;
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < args[i].num_values; ++j)
      if (args[i].is_add && is_efficiency_value(args[i].values[j]))
        any_efficiency = true;
  if (!any_efficiency)
    return 0;

  const char *triple = "x86_64-pc-linux-gnu";
  if (inv->has_target_option) {
    char *t = query_target_triple(clang, inv);
    if (t)
      triple = t;
  }
  bool supported = target_supports_efficiency(triple);

  for (size_t i = n; i-- > 0;) {
    const struct sanitize_arg *a = &args[i];
    if (!a->is_add) {
      all_remove |= sanitize_arg_kinds(a);
      continue;
    }
    // The group only serves -fno-sanitize= and no_sanitize(): one runtime
    // runs one efficiency tool, so "both" is never a valid request (as
    // clang treats -fsanitize=all).
    for (size_t j = 0; j < a->num_values; ++j)
      if (strcmp(a->values[j], "efficiency") == 0) {
        diag_error("unsupported argument 'efficiency' to option '-fsanitize='");
        failed = true;
      }
    kind_mask add = sanitize_arg_kinds(a) & ~all_remove;
    kind_mask unsupported = supported ? 0 : (add & KIND_EFFICIENCY & ~diagnosed);
    if (unsupported) {
      char *desc = describe_sanitize_arg(a, unsupported);
      diag_error("unsupported option '%s' for target '%s'", desc, triple);
      free(desc);
      diagnosed |= unsupported;
      failed = true;
    }
    if (!supported)
      add &= ~KIND_EFFICIENCY;
    kinds |= add;
  }

  if (kinds & KIND_EFFICIENCY) {
    for (size_t p = 0;
         p < sizeof(incompatible_kinds) / sizeof(incompatible_kinds[0]); ++p) {
      kind_mask group = incompatible_kinds[p].group;
      kind_mask clash = kinds & incompatible_kinds[p].incompatible;
      if (!(kinds & group) || !clash)
        continue;
      char *first = last_argument_for_mask(args, n, group);
      char *second = last_argument_for_mask(args, n, clash);
      diag_error("invalid argument '%s' not allowed with '%s'", first, second);
      free(first);
      free(second);
      kinds &= ~clash;
      failed = true;
    }
  }
  // The runtime needs the dynamic loader (dlsym for its interceptors, TLS
  // sizes): a static executable dies at start-up. Refused at link time, as
  // the native clang does.
  if ((kinds & KIND_EFFICIENCY) && inv->static_arg && inv->links &&
      !inv->shared && inv->link_runtime && !failed) {
    char *tool_arg = last_argument_for_mask(args, n, kinds & KIND_EFFICIENCY);
    diag_error("invalid argument '%s' not allowed with '%s'", tool_arg,
               inv->static_arg);
    free(tool_arg);
    failed = true;
  }
  if (failed)
    exit(1);
  return kinds;
}

//===-- Rewriting the command line -----------------------------------------===//

// `arg` without its efficiency values, or NULL if nothing else is left.
// Stock clang knows none of them; the native clang accepts them in all these
// options (and rejects them in -fsanitize-trap=, which stays as written so
// that stock clang rejects it too).
static const char *strip_efficiency_values(const char *arg, bool *changed) {
  static const char *const options[] = {
      "-fsanitize=", "-fno-sanitize=", "-fsanitize-recover=",
      "-fno-sanitize-recover=", "-fno-sanitize-trap="};
  *changed = false;
  const char *prefix = NULL;
  for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); ++i)
    if (starts_with(arg, options[i]))
      prefix = options[i];
  if (!prefix)
    return arg;
  struct sanitize_arg values;
  split_sanitize_values(arg + strlen(prefix), &values);
  char *out = xrealloc(NULL, strlen(arg) + 1);
  strcpy(out, prefix);
  size_t kept = 0;
  for (size_t i = 0; i < values.num_values; ++i) {
    if (is_efficiency_value(values.values[i])) {
      *changed = true;
      continue;
    }
    if (kept++)
      strcat(out, ",");
    strcat(out, values.values[i]);
  }
  if (!*changed) {
    free(out);
    return arg;
  }
  return kept ? out : NULL;
}

static bool response_file_needs_rewrite(const char *arg) {
  struct arg_list expanded = {0};
  expand_arg(arg, NULL, &expanded, 0);
  bool needed = false;
  for (size_t i = 0; i < expanded.n && !needed; ++i)
    if (strcmp(expanded.v[i], arg) != 0)
      strip_efficiency_values(expanded.v[i], &needed);
  return needed;
}

static void push_passthrough(struct arg_list *out, const char *arg) {
  bool changed;
  if (arg[0] == '@' && response_file_needs_rewrite(arg)) {
    struct arg_list expanded = {0};
    expand_arg(arg, NULL, &expanded, 0);
    for (size_t i = 0; i < expanded.n; ++i) {
      const char *kept = strip_efficiency_values(expanded.v[i], &changed);
      if (kept)
        push(out, kept);
    }
    return;
  }
  const char *kept = strip_efficiency_values(arg, &changed);
  if (kept)
    push(out, kept);
}

//===-- Where the pieces are -----------------------------------------------===//

// <prefix> of bin/efsan-clang: the build tree and an installed tree have the
// same layout below it.
static char *install_prefix(void) {
  char exe[PATH_MAX];
  if (!realpath("/proc/self/exe", exe))
    fatal("cannot find the efsan-clang executable: %s", strerror(errno));
  char *bindir = dirname(exe);
  return strdup(dirname(bindir));
}

static char *require_file(char *path) {
  if (access(path, R_OK) != 0)
    fatal("no such file or directory: '%s'", path);
  return path;
}

// The path of one of clang's own runtimes (libclang_rt.NAME), in the
// per-target layout or the older lib/linux one (Debian's).
static char *clang_runtime(const char *clang, const struct invocation *inv,
                           const char *name) {
  char *dir = query_clang(clang, inv, "-print-runtime-dir");
  if (dir) {
    char *path = xasprintf("%s/libclang_rt.%s.a", dir, name);
    if (access(path, R_OK) == 0)
      return path;
  }
  char *resource = query_clang(clang, inv, "-print-resource-dir");
  if (!resource)
    fatal("cannot find clang's resource directory");
  return require_file(
      xasprintf("%s/lib/linux/libclang_rt.%s-x86_64.a", resource, name));
}

// Where options that must have the last word go: after the user's
// arguments, but before a "--" (everything after it is an input) and before
// an option whose value is missing (clang still reports that one).
static int trailing_options_position(int argc, char **argv) {
  unsigned pending_values = 0;
  int dangling_option = argc;
  for (int i = 1; i < argc; ++i) {
    struct arg_list tokens = {0};
    expand_arg(argv[i], NULL, &tokens, 0);
    for (size_t t = 0; t < tokens.n; ++t) {
      if (pending_values) {
        --pending_values;
        continue;
      }
      if (strcmp(tokens.v[t], "--") == 0) {
        free(tokens.v);
        return i;
      }
      pending_values = option_value_count(tokens.v[t]);
      if (pending_values)
        dangling_option = i;
    }
    free(tokens.v);
  }
  return pending_values ? dangling_option : argc;
}

// Frame pointers in every function compiled: the runtime takes allocation
// stacks with the fast unwinder, which follows them. After the user's
// arguments, so that a build's own -fomit-frame-pointer (x264's CFLAGS) or
// -momit-leaf-frame-pointer does not cost the stacks their callers.
static void push_frame_pointer_options(struct arg_list *out) {
  push(out, "-fno-omit-frame-pointer");
  push(out, "-mno-omit-leaf-frame-pointer");
}

//===-- --version and --help -----------------------------------------------===//

// After clang's own lines: tools that read `cc --version` (configure
// scripts, Meson) take the compiler and its version from the first line.
static void print_version(const char *prefix) {
  printf("efsan version %s (git %s)\n", EFSAN_VERSION, EFSAN_GIT_COMMIT);
  printf("efsan prefix: %s\n", prefix);
}

// Before clang's own options.
static void print_help(void) {
  printf(
      "OVERVIEW: %s: clang with EfficiencySanitizer (efsan %s), performance "
      "sanitizers\n\n"
      "USAGE: %s [options] file...\n\n"
      "EFFICIENCYSANITIZER OPTIONS (the rest are clang's, below):\n"
      "  -fsanitize=efficiency-working-set\n"
      "                          the working-set tool: cache lines the program "
      "touches, over the\n"
      "                          whole run and in snapshots\n"
      "  -fsanitize=efficiency-cache-frag\n"
      "                          the cache-frag tool: false sharing between "
      "threads, struct field\n"
      "                          usage\n"
      "  -fno-sanitize=efficiency[-working-set|-cache-frag]\n"
      "                          turn a tool off again\n"
      "  -fsanitize-ignorelist=<file>\n"
      "                          functions (fun:) and files (src:) not to "
      "instrument\n"
      "  -mllvm -efsan-<option>  an option of the pass\n\n"
      "The program reads ESAN_OPTIONS at run time (ESAN_OPTIONS=help=1 lists "
      "them).\n"
      "Environment: EFSAN_CLANG (the clang to run, default %s),\n"
      "EFSAN_CLANG_VERBOSE=1 (print its command line).\n"
      "Documentation: docs/Driver.md in efsan's sources.\n\n"
      "CLANG'S OPTIONS:\n",
      program_name, EFSAN_VERSION, program_name, EFSAN_CLANG_PATH);
}

// Runs clang with `args` and waits for it: its status, or 1 if it could not
// be run or died.
static int run_clang(const char *clang, char **args) {
  fflush(stdout);
  pid_t pid = fork();
  if (pid < 0)
    fatal("cannot fork: %s", strerror(errno));
  if (pid == 0) {
    execv(clang, args);
    diag_error("cannot run '%s': %s", clang, strerror(errno));
    _exit(1);
  }
  int status;
  if (waitpid(pid, &status, 0) < 0)
    fatal("cannot wait for '%s': %s", clang, strerror(errno));
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

static char *whole_archive(const char *path) {
  return xasprintf("-Wl,--whole-archive,%s,--no-whole-archive", path);
}

int main(int argc, char **argv) {
  const char *slash = strrchr(argv[0], '/');
  program_name = slash ? slash + 1 : argv[0];

  struct invocation inv = {0};
  inv.is_cxx = ends_with(program_name, "++");

  const char *clang = getenv("EFSAN_CLANG");
  if (!clang || !*clang)
    clang = EFSAN_CLANG_PATH;

  struct arg_list args = {0};
  for (int i = 0; i < argc; ++i)
    if (i == 0)
      push(&args, argv[0]);
    else
      expand_arg(argv[i], NULL, &args, 0);
  analyze(&args, &inv);
  kind_mask kinds = resolve_sanitizers(clang, &inv);

  const char *tool = NULL;
  if (kinds & KIND_WORKING_SET)
    tool = "working-set";
  else if (kinds & KIND_CACHE_FRAG)
    tool = "cache-frag";

  // clang is run under our name: it takes its driver mode (C or C++) and the
  // program name in its diagnostics from argv[0], and finds its own
  // resources from its real path.
  struct arg_list out = {0};
  push(&out, argv[0]);

  char *prefix = tool || inv.version_query || inv.has_source_input
                     ? install_prefix()
                     : NULL;
  bool compile = tool && inv.has_source_input && !inv.immediate_query;
  bool link = tool && inv.links && !inv.shared && inv.link_runtime;

  // Added before the user's arguments, so that an explicit later option
  // (another -mllvm -efsan-...) has the last word; frame pointers come after
  // them (push_frame_pointer_options).
  if (compile) {
    char *plugin = require_file(xasprintf("%s/%s", prefix, EFSAN_PLUGIN_SUBPATH));
    push(&out, "-Xclang");
    push(&out, "-load");
    push(&out, "-Xclang");
    push(&out, plugin);
    push(&out, xasprintf("-fpass-plugin=%s", plugin));
    // Through -Xclang, so that it reaches cc1 (where the plugin is loaded)
    // and not the assembler of a .s file compiled in the same command.
    push(&out, "-Xclang");
    push(&out, "-mllvm");
    push(&out, "-Xclang");
    push(&out, xasprintf("-efsan-tool=%s", tool));
    // (-idirafter for <sanitizer/efsan_interface.h> is added below, for
    // every compilation.)
    // The ignorelists, whose efficiency sections the native clang applies
    // in its front end, go to the pass. clang itself still gets the option
    // (for its own sanitizers) and reports a file it cannot read or parse.
    for (size_t i = 0; i < inv.ignorelists.n; ++i) {
      push(&out, "-Xclang");
      push(&out, "-mllvm");
      push(&out, "-Xclang");
      push(&out, xasprintf("-efsan-ignorelist=%s", inv.ignorelists.v[i]));
    }
  }
  // <sanitizer/efsan_interface.h>, after clang's own resource headers, also
  // without a tool: a program that calls the interface where the runtime is
  // linked builds from the same sources without it (docs/Driver.md).
  if (inv.has_source_input && !inv.immediate_query) {
    push(&out, "-idirafter");
    push(&out, xasprintf("%s/%s", prefix, EFSAN_INCLUDE_SUBDIR));
  }

  // The runtime comes before the program's objects and libraries, as clang
  // places its sanitizer runtimes; whole-archive so that its interceptors and
  // initialiser are always linked, with its dynamic list so that the
  // interface symbols are exported to dlopen()ed libraries.
  if (link) {
    char *rt = require_file(
        xasprintf("%s/%s/%s", prefix, EFSAN_RUNTIME_SUBDIR, EFSAN_RUNTIME_NAME));
    push(&out, xasprintf("-Wl,--whole-archive,%s,--no-whole-archive", rt));
    char *syms = xasprintf("%s.syms", rt);
    if (access(syms, R_OK) == 0)
      push(&out, xasprintf("-Wl,--dynamic-list=%s", syms));
    else
      push(&out, "-Wl,--export-dynamic");
    // efsan-ld keeps the program's data where the plain build puts it
    // (docs/Driver.md); a linker the user chose links as it would.
    if (!inv.linker_chosen)
      push(&out, xasprintf("--ld-path=%s",
                           require_file(xasprintf("%s/bin/efsan-ld", prefix))));
    if (inv.link_cxx_runtime) {
      char *cxx_rt = xasprintf("%s/%s/%s", prefix, EFSAN_RUNTIME_SUBDIR,
                               EFSAN_CXX_RUNTIME_NAME);
      if (access(cxx_rt, R_OK) == 0) {
        push(&out, xasprintf("-Wl,--whole-archive,%s,--no-whole-archive", cxx_rt));
        char *cxx_syms = xasprintf("%s.syms", cxx_rt);
        if (access(cxx_syms, R_OK) == 0)
          push(&out, xasprintf("-Wl,--dynamic-list=%s", cxx_syms));
      }
    }
  }

  int trailing_at = compile ? trailing_options_position(argc, argv) : -1;
  for (int i = 1; i < argc; ++i) {
    if (i == trailing_at)
      push_frame_pointer_options(&out);
    // The pass's own options (-mllvm -efsan-...) exist only where the plugin
    // is loaded, in cc1: through -Xclang, so that the assembler of a .s or
    // .S file in the same build (CFLAGS reach those rules too) does not
    // reject them as unknown; with nothing to compile they have no effect.
    const char *pass_option = NULL;
    if (tool && strcmp(argv[i], "-mllvm") == 0 && i + 1 < argc &&
        starts_with(argv[i + 1], "-efsan-"))
      pass_option = argv[++i];
    else if (tool && starts_with(argv[i], "-mllvm=-efsan-"))
      pass_option = argv[i] + strlen("-mllvm=");
    if (!pass_option) {
      push_passthrough(&out, argv[i]);
      continue;
    }
    if (compile) {
      push(&out, "-Xclang");
      push(&out, "-mllvm");
      push(&out, "-Xclang");
      push(&out, pass_option);
    }
  }
  if (trailing_at == argc)
    push_frame_pointer_options(&out);

  if (link) {
    // The efsan runtime carries UBSan's handlers (as tsan's and msan's do);
    // clang's standalone UBSan runtime would bring a second sanitizer_common.
    // libFuzzer's coverage instrumentation also makes clang link it, so
    // -fsanitize=fuzzer(-no-link) counts as coverage here; libFuzzer itself,
    // which -fno-sanitize-link-runtime drops too, is linked below as clang
    // would.
    kind_mask other = kinds & ~KIND_EFFICIENCY;
    bool coverage =
        inv.has_coverage || (other & (KIND_FUZZER | KIND_FUZZER_NO_LINK));
    if (((other & KIND_NEEDS_UBSAN_RT) || coverage) && !inv.minimal_runtime) {
      push(&out, "-fno-sanitize-link-runtime");
      if (other & KIND_FUZZER) {
        push(&out, whole_archive(clang_runtime(clang, &inv, "fuzzer")));
        push(&out,
             whole_archive(clang_runtime(clang, &inv, "fuzzer_interceptors")));
        if (!inv.nostdlib && !inv.nostdlibxx && !inv.is_cxx)
          push(&out, "-lstdc++");
      }
    }
    // The system libraries the runtime needs, after the program's own.
    if (!inv.nostdlib) {
      push(&out, "-Wl,--no-as-needed");
      push(&out, "-lpthread");
      push(&out, "-lrt");
      push(&out, "-lm");
      push(&out, "-ldl");
      push(&out, "-lresolv");
    }
  }

  if (inv.help_query) {
    print_help();
    fflush(stdout); // before clang's text, which execv would lose
  }
  if (getenv("EFSAN_CLANG_VERBOSE")) {
    fprintf(stderr, "%s: running %s", program_name, clang);
    for (size_t i = 1; i < out.n; ++i)
      fprintf(stderr, " %s", out.v[i]);
    fputc('\n', stderr);
  }
  if (inv.version_query) {
    int status = run_clang(clang, out.v);
    print_version(prefix);
    return status;
  }
  execv(clang, out.v);
  fatal("cannot run '%s': %s", clang, strerror(errno));
}
