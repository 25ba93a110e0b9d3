//===-- efsan-ld.c - link an efsan executable with the plain build's layout ===//
//
// clang (native or through efsan-clang) runs this in place of ld when it
// links the efsan runtime into an executable. A tool that diagnoses how data
// lies on cache lines must not move that data: linked the usual way, the
// runtime's .data and .bss come before the program's, and the executable's
// .got.plt has other entries (the runtime calls libc through it; the
// program's calls to malloc or pthread_create bind to the interceptors and
// need none), so every global of the program would sit at another offset
// within its line than in the plain build.
//
// So the link runs twice. A probe link, without the runtime, gives the
// program's data the address the plain build gives it (its calls into the
// runtime left unresolved; their PLT slots, which the plain build does not
// have, are taken off). The real link then puts the runtime's data in
// sections of its own (.efsan.data before the program's .data, .efsan.bss
// after its .bss) and starts the program's .data at the probe's offset within
// its page. Anything the probe cannot settle leaves the link as it was, with
// a warning. docs/Driver.md, "The program's layout".
//
//   efsan-ld <ld arguments>       (ld: the first `ld` on PATH other than this)
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *program_name = "efsan-ld";

// One line, in the linker's manner: "efsan-ld: error: ...".
static void vdiag(const char *kind, const char *fmt, va_list ap) {
  fprintf(stderr, "%s: %s: ", program_name, kind);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
}

static void fatal(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vdiag("error", fmt, ap);
  va_end(ap);
  exit(1);
}

static void warn(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vdiag("warning", fmt, ap);
  va_end(ap);
}

static void *xmalloc(size_t size) {
  void *p = malloc(size ? size : 1);
  if (!p)
    fatal("out of memory");
  return p;
}

struct arg_list {
  char **v;
  size_t n, cap;
};

static void push(struct arg_list *l, const char *arg) {
  if (l->n + 2 > l->cap) {
    l->cap = l->cap ? 2 * l->cap : 64;
    l->v = realloc(l->v, l->cap * sizeof(char *));
    if (!l->v)
      fatal("out of memory");
  }
  l->v[l->n++] = (char *)arg;
  l->v[l->n] = NULL;
}

static bool starts_with(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

//===-- Arguments --------------------------------------------------------===//

// A response file (@file) in the GNU tools' syntax: whitespace separates,
// quotes group, a backslash escapes the next character.
static void expand_response_file(const char *arg, struct arg_list *out) {
  FILE *f = fopen(arg + 1, "r");
  if (!f) { // ld itself takes it for a file name then
    push(out, arg);
    return;
  }
  char *word = NULL;
  size_t len = 0, cap = 0;
  bool in_word = false;
  int quote = 0, c;
  while ((c = fgetc(f)) != EOF) {
    if (!quote && (c == ' ' || c == '\t' || c == '\n' || c == '\r')) {
      if (in_word) {
        word[len] = 0;
        push(out, word);
        word = NULL;
        len = cap = 0;
        in_word = false;
      }
      continue;
    }
    if (c == '\\') {
      int next = fgetc(f);
      if (next == EOF)
        break;
      c = next;
    } else if (quote && c == quote) {
      quote = 0;
      continue;
    } else if (!quote && (c == '\'' || c == '"')) {
      quote = c;
      in_word = true;
      continue;
    }
    if (len + 2 > cap) {
      cap = cap ? 2 * cap : 64;
      word = realloc(word, cap);
      if (!word)
        fatal("out of memory");
    }
    word[len++] = (char)c;
    in_word = true;
  }
  if (in_word) {
    if (!word)
      word = xmalloc(1);
    word[len] = 0;
    push(out, word);
  }
  fclose(f);
}

static bool is_efsan_runtime_archive(const char *arg) {
  const char *base = base_name(arg);
  size_t len = strlen(base);
  return starts_with(base, "libclang_rt.efsan") && len > 2 &&
         strcmp(base + len - 2, ".a") == 0;
}

// The runtime's export list (clang: --dynamic-list=<runtime>.a.syms).
static bool is_efsan_dynamic_list(const char *arg) {
  return starts_with(arg, "--dynamic-list=") &&
         starts_with(base_name(arg), "libclang_rt.efsan");
}

// What the link is about to do, as far as the layout is concerned.
struct link_line {
  struct arg_list args;     // every argument, response files expanded
  const char *output;       // -o
  bool has_runtime;         // a static efsan runtime is linked
  bool layout_unsupported;  // -r, -shared, a linker script of the user's
};

static void read_link_line(int argc, char **argv, struct link_line *line) {
  memset(line, 0, sizeof(*line));
  line->output = "a.out";
  struct arg_list *args = &line->args;
  for (int i = 1; i < argc; ++i) {
    if (argv[i][0] == '@')
      expand_response_file(argv[i], args);
    else
      push(args, argv[i]);
  }
  for (size_t i = 0; i < args->n; ++i) {
    const char *a = args->v[i];
    if ((strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) &&
        i + 1 < args->n)
      line->output = args->v[++i];
    else if (starts_with(a, "--output="))
      line->output = a + strlen("--output=");
    else if (starts_with(a, "-o") && a[2])
      line->output = a + 2;
    else if (is_efsan_runtime_archive(a))
      line->has_runtime = true;
    else if (strcmp(a, "-r") == 0 || strcmp(a, "--relocatable") == 0 ||
             strcmp(a, "-shared") == 0 || strcmp(a, "-Bshareable") == 0 ||
             strcmp(a, "-T") == 0 || starts_with(a, "--script") ||
             (starts_with(a, "-T") && a[2] && !starts_with(a, "-Tbss") &&
              !starts_with(a, "-Tdata") && !starts_with(a, "-Ttext")))
      line->layout_unsupported = true;
  }
}

//===-- Running ld -------------------------------------------------------===//

static bool is_executable_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

// The first `ld` on PATH that is not this program (clang finds it the same
// way when no -fuse-ld or --ld-path names another).
static char *find_real_ld(void) {
  char self[PATH_MAX];
  if (!realpath("/proc/self/exe", self))
    self[0] = 0;
  const char *path = getenv("PATH");
  if (!path || !*path)
    path = "/usr/local/bin:/usr/bin:/bin";
  char *copy = strdup(path);
  for (char *dir = strtok(copy, ":"); dir; dir = strtok(NULL, ":")) {
    char candidate[PATH_MAX], resolved[PATH_MAX];
    snprintf(candidate, sizeof(candidate), "%s/ld", *dir ? dir : ".");
    if (!is_executable_file(candidate))
      continue;
    if (realpath(candidate, resolved) && strcmp(resolved, self) == 0)
      continue;
    char *found = strdup(candidate);
    free(copy);
    return found;
  }
  fatal("cannot find the linker: no 'ld' on PATH");
  return NULL;
}

// Runs ld; quiet: its output goes nowhere (the probe's diagnostics are the
// real link's to give).
static int run(const char *ld, struct arg_list *args, bool quiet) {
  args->v[0] = (char *)ld;
  pid_t pid = fork();
  if (pid < 0)
    fatal("cannot fork: %s", strerror(errno));
  if (pid == 0) {
    if (quiet) {
      int null = open("/dev/null", O_WRONLY);
      if (null >= 0) {
        dup2(null, 1);
        dup2(null, 2);
      }
    }
    execv(ld, args->v);
    fprintf(stderr, "%s: error: cannot run '%s': %s\n", program_name, ld,
            strerror(errno));
    _exit(127);
  }
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      fatal("waitpid: %s", strerror(errno));
  if (WIFEXITED(status))
    return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

//===-- The probe's layout -----------------------------------------------===//

struct elf_file {
  const unsigned char *data;
  size_t size;
  const Elf64_Shdr *sections;
  unsigned count;
  const char *names;
};

static bool open_elf(const char *path, struct elf_file *elf) {
  int fd = open(path, O_RDONLY);
  if (fd < 0)
    return false;
  struct stat st;
  if (fstat(fd, &st) != 0 || st.st_size < (off_t)sizeof(Elf64_Ehdr)) {
    close(fd);
    return false;
  }
  void *map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (map == MAP_FAILED)
    return false;
  elf->data = map;
  elf->size = st.st_size;
  const Elf64_Ehdr *eh = map;
  if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
      eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shentsize != sizeof(Elf64_Shdr) ||
      eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > elf->size ||
      eh->e_shstrndx >= eh->e_shnum)
    return false;
  elf->sections = (const Elf64_Shdr *)(elf->data + eh->e_shoff);
  elf->count = eh->e_shnum;
  const Elf64_Shdr *names = &elf->sections[eh->e_shstrndx];
  if (names->sh_offset + names->sh_size > elf->size)
    return false;
  elf->names = (const char *)elf->data + names->sh_offset;
  return true;
}

static const Elf64_Shdr *find_section(const struct elf_file *elf,
                                      const char *name) {
  for (unsigned i = 0; i < elf->count; ++i)
    if (strcmp(elf->names + elf->sections[i].sh_name, name) == 0)
      return &elf->sections[i];
  return NULL;
}

static bool in_file(const struct elf_file *elf, const Elf64_Shdr *s) {
  return s->sh_type == SHT_NOBITS || s->sh_offset + s->sh_size <= elf->size;
}

// The probe left the program's calls into the runtime unresolved: ld gave
// each a .got.plt slot that neither the plain build nor the real link has
// (and, resolving them to nothing, no relocation). The plain build's slots
// are the others: one per function of a shared library the program calls,
// one per IFUNC.
static bool is_runtime_symbol(const char *name) {
  return starts_with(name, "__efsan_") || starts_with(name, "__esan_") ||
         starts_with(name, "__ubsan_") || starts_with(name, "__sanitizer_");
}

static bool count_plain_plt_slots(const struct elf_file *elf, uint64_t *slots) {
  *slots = 0;
  const Elf64_Shdr *rela = find_section(elf, ".rela.plt");
  if (!rela)
    return true;
  if (!in_file(elf, rela) || rela->sh_link >= elf->count)
    return false;
  const Elf64_Shdr *dynsym = &elf->sections[rela->sh_link];
  if (dynsym->sh_link >= elf->count || !in_file(elf, dynsym))
    return false;
  const Elf64_Shdr *dynstr = &elf->sections[dynsym->sh_link];
  if (!in_file(elf, dynstr))
    return false;
  const Elf64_Rela *r = (const Elf64_Rela *)(elf->data + rela->sh_offset);
  const Elf64_Sym *syms = (const Elf64_Sym *)(elf->data + dynsym->sh_offset);
  size_t nsyms = dynsym->sh_size / sizeof(Elf64_Sym);
  for (size_t i = 0; i < rela->sh_size / sizeof(Elf64_Rela); ++i) {
    unsigned type = ELF64_R_TYPE(r[i].r_info);
    if (type == R_X86_64_IRELATIVE) {
      ++*slots;
      continue;
    }
    if (type != R_X86_64_JUMP_SLOT)
      continue;
    size_t sym = ELF64_R_SYM(r[i].r_info);
    if (sym >= nsyms || syms[sym].st_name >= dynstr->sh_size)
      return false;
    const char *name =
        (const char *)elf->data + dynstr->sh_offset + syms[sym].st_name;
    if (!is_runtime_symbol(name))
      ++*slots;
  }
  return true;
}

static uint64_t align_up(uint64_t value, uint64_t align) {
  return align > 1 ? (value + align - 1) / align * align : value;
}

// What the real link reproduces of the plain build's layout.
struct plain_layout {
  // Where the program's .data starts, when the real link must move it there:
  // when a .got.plt comes before it (lazy binding), whose size differs.
  bool data_follows_got_plt;
  uint64_t data_start;
  // Where its .bss starts: the runtime's .data comes between.
  uint64_t bss_start;
  // Whether the program has thread-locals of its own (the runtime makes up
  // for the TLS module it adds to a program that has none).
  bool has_tls;
};

static bool has_tls_segment(const struct elf_file *elf) {
  const Elf64_Ehdr *eh = (const Elf64_Ehdr *)elf->data;
  if (eh->e_phentsize != sizeof(Elf64_Phdr) ||
      eh->e_phoff + (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr) > elf->size)
    return false;
  const Elf64_Phdr *ph = (const Elf64_Phdr *)(elf->data + eh->e_phoff);
  for (unsigned i = 0; i < eh->e_phnum; ++i)
    if (ph[i].p_type == PT_TLS && ph[i].p_memsz)
      return true;
  return false;
}

// Where the last allocated section below `address` ends.
static uint64_t end_of_data_below(const struct elf_file *elf, uint64_t address) {
  uint64_t end = 0;
  for (unsigned i = 0; i < elf->count; ++i) {
    const Elf64_Shdr *s = &elf->sections[i];
    if ((s->sh_flags & SHF_ALLOC) && !(s->sh_flags & SHF_TLS) &&
        s->sh_addr < address && s->sh_addr + s->sh_size <= address &&
        s->sh_addr + s->sh_size > end)
      end = s->sh_addr + s->sh_size;
  }
  return end;
}

// The plain build's layout as the probe shows it: false if it does not.
// The probe's sections up to .data are the plain build's, but for the
// runtime's .got.plt slots (relro aligns the end of what comes before to a
// page); what follows moves with .data.
static bool read_plain_layout(const char *probe, struct plain_layout *layout) {
  memset(layout, 0, sizeof(*layout));
  struct elf_file elf;
  if (!open_elf(probe, &elf))
    return false;
  bool ok = false;
  const Elf64_Shdr *data = find_section(&elf, ".data");
  const Elf64_Shdr *bss = find_section(&elf, ".bss");
  const Elf64_Shdr *got_plt = find_section(&elf, ".got.plt");
  uint64_t slots;
  if (data && bss && bss->sh_addr > data->sh_addr &&
      count_plain_plt_slots(&elf, &slots)) {
    ok = true;
    layout->has_tls = has_tls_segment(&elf);
    layout->data_start = data->sh_addr;
    if (got_plt && got_plt->sh_addr < data->sh_addr) {
      uint64_t end = got_plt->sh_addr + got_plt->sh_size;
      uint64_t plain_end = got_plt->sh_addr + 8 * (3 + slots);
      layout->data_follows_got_plt = true;
      if (plain_end <= end && align_up(end, data->sh_addralign) == data->sh_addr)
        layout->data_start = align_up(plain_end, data->sh_addralign);
    }
    uint64_t moved = data->sh_addr - layout->data_start;
    layout->bss_start =
        align_up(end_of_data_below(&elf, bss->sh_addr) - moved, bss->sh_addralign);
  }
  munmap((void *)elf.data, elf.size);
  return ok;
}

//===-- The script -------------------------------------------------------===//

// The runtime's sections as its archives name them; the pass puts its own
// counters in .bss.efsan.* (so that a program's .bss is the plain build's
// too).
#define RUNTIME_FILES "*libclang_rt.efsan*.a:*"
static const char kBssScript[] =
    "SECTIONS\n"
    "{\n"
    "  .efsan.bss : { " RUNTIME_FILES "(.bss .bss.* COMMON) *(.bss.efsan.*) }\n"
    "}\n"
    "INSERT AFTER .bss;\n";

// A temporary file holding text, in $TMPDIR, else /tmp; null if neither
// takes one (the link then goes on without the layout).
static char *write_script(const char *text) {
  const char *dirs[] = {getenv("TMPDIR"), "/tmp"};
  for (unsigned i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
    if (!dirs[i] || !*dirs[i])
      continue;
    char *path = xmalloc(PATH_MAX);
    snprintf(path, PATH_MAX, "%s/efsan-ld-XXXXXX", dirs[i]);
    int fd = mkstemp(path);
    if (fd < 0) {
      free(path);
      continue;
    }
    size_t len = strlen(text);
    bool written = write(fd, text, len) == (ssize_t)len;
    close(fd);
    if (written)
      return path;
    unlink(path);
    free(path);
  }
  return NULL;
}

// The real link's script: its path (a temporary file), and whether the
// program has thread-locals of its own; null, and why, where the plain
// build's layout cannot be had.
static char *plan_layout(const char *ld, const struct link_line *line,
                         bool *has_tls, const char **why) {
  // The probe: the program without the runtime, and without debug info
  // (which does not move anything that is loaded).
  char *probe_output = write_script("");
  char *bss_script = write_script(kBssScript);
  struct plain_layout layout;
  bool known = false;
  if (probe_output && bss_script) {
    struct arg_list probe = {0};
    push(&probe, ld);
    for (size_t i = 0; i < line->args.n; ++i) {
      const char *a = line->args.v[i];
      if (is_efsan_runtime_archive(a) || is_efsan_dynamic_list(a))
        continue;
      if ((strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) &&
          i + 1 < line->args.n) {
        ++i;
        continue;
      }
      if (starts_with(a, "--output=") || (starts_with(a, "-o") && a[2]))
        continue;
      push(&probe, a);
    }
    push(&probe, "-o");
    push(&probe, probe_output);
    push(&probe, "--unresolved-symbols=ignore-all");
    push(&probe, "--strip-debug");
    push(&probe, "-T");
    push(&probe, bss_script);
    known = run(ld, &probe, true) == 0 &&
            read_plain_layout(probe_output, &layout);
    *why = "the layout probe failed";
  } else {
    *why = "no temporary file for the layout probe ($TMPDIR, /tmp)";
  }
  if (probe_output)
    unlink(probe_output);
  if (bss_script)
    unlink(bss_script);
  if (!known)
    return NULL;

  // The program's .data and .bss at the probe's offsets within their pages,
  // the runtime's data between them and after the .bss. (An assignment
  // inserted before .data lands after the previous output section: after
  // relro's end only when .got.plt is that section.)
  char script[1024];
  int len = 0;
  if (layout.data_follows_got_plt)
    len = snprintf(script, sizeof(script),
                   "SECTIONS { . = ALIGN(0x1000) + 0x%llx; }\n"
                   "INSERT BEFORE .data;\n",
                   (unsigned long long)(layout.data_start & 0xfff));
  snprintf(script + len, sizeof(script) - len,
           "SECTIONS\n"
           "{\n"
           "  .efsan.data : { " RUNTIME_FILES "(.data .data.rel .data.rel.local) }\n"
           "  . = ALIGN(0x1000) + 0x%llx;\n"
           "}\n"
           "INSERT BEFORE .bss;\n"
           "%s",
           (unsigned long long)(layout.bss_start & 0xfff), kBssScript);
  *has_tls = layout.has_tls;
  char *path = write_script(script);
  if (!path)
    *why = "no temporary file for the layout script ($TMPDIR, /tmp)";
  return path;
}

int main(int argc, char **argv) {
  struct link_line line;
  read_link_line(argc, argv, &line);
  char *ld = find_real_ld();

  struct arg_list plain = {0};
  push(&plain, ld);
  for (size_t i = 0; i < line.args.n; ++i)
    push(&plain, line.args.v[i]);
  if (!line.has_runtime || line.layout_unsupported)
    return run(ld, &plain, false);

  bool has_tls = false;
  const char *why = NULL;
  char *script = plan_layout(ld, &line, &has_tls, &why);
  if (!script) {
    warn("%s: %s keeps the runtime's data before the program's", why,
         line.output);
    return run(ld, &plain, false);
  }
  push(&plain, "-T");
  push(&plain, script);
  // Read by the runtime (efsan_interceptors.cpp, "A new thread's DTV").
  push(&plain, has_tls ? "--defsym=__efsan_link_layout=3"
                       : "--defsym=__efsan_link_layout=1");
  int status = run(ld, &plain, false);
  unlink(script);
  return status;
}
