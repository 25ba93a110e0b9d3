//===-- efsan_rtl.cpp - efsan glue: start-up, exit, the door to the C core ===//
//
// Implements what efsan.h promises the C core on top of sanitizer_common
// (output, memory, locks, threads, time; stacks and symbols are in
// efsan_symbolize.cpp) and runs the
// runtime's start-up from .preinit_array (a constructor in the shared
// runtime): flags, interceptors, TLS size, the
// exit report hook, then the C core for the program's tool.
//
//===----------------------------------------------------------------------===//
#include "efsan.h"
#include "efsan_glue.h"
#include "interception/interception.h"
#include "sanitizer_common/sanitizer_allocator_internal.h"
#include "sanitizer_common/sanitizer_atomic.h"
#include "sanitizer_common/sanitizer_interface_internal.h"
#include "sanitizer_common/sanitizer_common.h"
#include "sanitizer_common/sanitizer_flags.h"
#include "sanitizer_common/sanitizer_libc.h"
#include "sanitizer_common/sanitizer_linux.h"
#include "sanitizer_common/sanitizer_mutex.h"
#include "sanitizer_common/sanitizer_posix.h"
#include "sanitizer_common/sanitizer_file.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <signal.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/resource.h>

using namespace __sanitizer;

// The tool the executable was instrumented for (weak: absent in a program
// with no instrumented code, e.g. when only a dlopen'ed library is).
extern "C" SANITIZER_WEAK_ATTRIBUTE const int __efsan_which_tool;

namespace __efsan {
bool glue_inited;
static bool glue_init_running;
} // namespace __efsan
using namespace __efsan;

//===-- Output ------------------------------------------------------------===//
namespace __sanitizer {
int VSNPrintf(char *buff, int buff_length, const char *format, va_list args);
}

// Formats into a stack buffer, or an internal mapping when longer, and
// hands the text to sanitizer_common (which owns log_path and its PID suffix).
template <typename Print>
static void FormatAndPrint(const char *format, va_list args, Print print) {
  char local[1024];
  va_list copy;
  va_copy(copy, args);
  int needed = VSNPrintf(local, sizeof(local), format, args);
  if (needed < (int)sizeof(local)) {
    print(local);
  } else {
    InternalMmapVector<char> big(needed + 1);
    VSNPrintf(big.data(), needed + 1, format, copy);
    print(big.data());
  }
  va_end(copy);
}

//===-- Report destination ---------------------------------------------------===//
// efsan's reports go where sanitizer_common's report_file points (stderr,
// stdout or log_path.PID), but efsan writes them itself, for three reasons:
// - log_path.PID is opened at start-up, so a path that cannot be written is
//   an error before main instead of a fatal error (exit 1, stdout lost) at
//   exit; after fork the child's file is opened here too, falling back to
//   stderr instead of dying.
// - The log file is opened with O_NOFOLLOW: a symlink planted at the name is
//   never followed.
// - stderr (or stdout) is written only while fd 2 (fd 1) is still the file it
//   was at start-up: a program (a daemon, typically) that closes fd 2 and
//   opens a file of its own gets that file as fd 2, and a report there would
//   corrupt the program's data. A report meant for stderr then goes to a copy
//   of the start-up stderr the runtime keeps (close-on-exec, a high number):
//   programs that check their writes at exit close stderr before the
//   runtime's exit handler runs (xz, gnulib's close_stdout in coreutils,
//   grep, tar...), and their reports were lost. A program that puts another
//   file on fd 2 gets its report on the start-up stderr the same way. A
//   forked child closes the copy, so that a daemon that detaches from its
//   terminal does not hold a pipe to it open.

struct FileIdentity {
  bool open;
  u64 device, inode;
};

static FileIdentity IdentityOf(fd_t fd) {
  struct stat st;
  if (internal_iserror(internal_fstat(fd, &st)))
    return {false, 0, 0};
  return {true, (u64)st.st_dev, (u64)st.st_ino};
}

static FileIdentity startup_stderr, startup_stdout;
// The copy of the start-up stderr, or kInvalidFd.
static fd_t stderr_copy = kInvalidFd;
static constexpr int kStderrCopyMinFd = 250;
// The log file as opened: a program that closes every descriptor (as
// daemons do) may get the log's number back for a file of its own.
static FileIdentity log_file_identity;

static bool SameFile(const FileIdentity &a, const FileIdentity &b) {
  return a.open && b.open && a.device == b.device && a.inode == b.inode;
}

static bool IsStartupFile(fd_t fd) {
  return SameFile(IdentityOf(fd),
                  fd == kStdoutFd ? startup_stdout : startup_stderr);
}

// fd 2 while it is the start-up stderr, else the copy of it while the
// program has not closed or replaced that; kInvalidFd when neither.
static fd_t StartupStderrFd() {
  if (IsStartupFile(kStderrFd))
    return kStderrFd;
  if (stderr_copy != kInvalidFd &&
      SameFile(IdentityOf(stderr_copy), startup_stderr))
    return stderr_copy;
  return kInvalidFd;
}

// Errors and warnings that must reach the terminal whatever log_path says.
static void WriteToStartupStderr(const char *text, uptr length) {
  fd_t fd = StartupStderrFd();
  if (fd != kInvalidFd)
    WriteToFile(fd, text, length);
}

// log_path.PID as sanitizer_common names it (log_exe_name, log_suffix).
static void LogFileName(char *name, uptr size) {
  const char *exe = GetProcessName();
  if (common_flags()->log_exe_name && exe)
    internal_snprintf(name, size, "%s.%s.%zu", report_file.path_prefix, exe,
                      (uptr)internal_getpid());
  else
    internal_snprintf(name, size, "%s.%zu", report_file.path_prefix,
                      (uptr)internal_getpid());
  if (common_flags()->log_suffix)
    internal_strlcat(name, common_flags()->log_suffix, size);
}

// Opens this process's log file; returns the errno on failure.
static int OpenLogFile(char *name, uptr size) {
  LogFileName(name, size);
  uptr fd = internal_open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC |
                                    O_NOFOLLOW, 0660);
  int err;
  if (internal_iserror(fd, &err))
    return err;
  report_file.fd = (fd_t)fd;
  report_file.fd_pid = internal_getpid();
  internal_strncpy(report_file.full_path, name, sizeof(report_file.full_path));
  log_file_identity = IdentityOf((fd_t)fd);
  return 0;
}

// Called with report_file.mu held. If the program closed the log file's
// descriptor (and perhaps reused its number), the log is opened again by
// name, appending; the descriptor now holding that number is left alone.
static void ReopenLogFileIfClosed() {
  if (SameFile(IdentityOf(report_file.fd), log_file_identity))
    return;
  uptr fd = internal_open(report_file.full_path,
                          O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC |
                              O_NOFOLLOW,
                          0660);
  if (internal_iserror(fd)) {
    report_file.fd = kStderrFd;
    return;
  }
  report_file.fd = (fd_t)fd;
  log_file_identity = IdentityOf((fd_t)fd);
}

static bool UsesLogFile() {
  return report_file.fd != kStderrFd && report_file.fd != kStdoutFd;
}

// Called with report_file.mu held: a forked child writes its own file.
static void ReopenLogFileInChild() {
  if (report_file.fd != kInvalidFd)
    internal_close(report_file.fd);
  report_file.fd = kInvalidFd;
  char name[kMaxPathLength];
  int err = OpenLogFile(name, sizeof(name));
  if (!err)
    return;
  report_file.fd = kStderrFd;
  char warning[kMaxPathLength + 128];
  int length = internal_snprintf(
      warning, sizeof(warning),
      "==%zu==EfficiencySanitizer: WARNING: cannot open log file '%s' (errno "
      "%d); the report goes to stderr\n",
      internal_getpid(), name, err);
  WriteToStartupStderr(warning, Min((uptr)length, sizeof(warning) - 1));
}

// One report at a time (the report at exit, __efsan_report calls).
static StaticSpinMutex report_lock;
// The file of the report being written, when it has one of its own; only
// the thread writing that report writes there (a line another thread logs
// meanwhile must not land inside the JSON document).
static fd_t own_report_fd = kInvalidFd;
static u32 own_reports_opened;
static __thread bool writes_own_report;

static void WriteReportText(const char *text) {
  uptr length = internal_strlen(text);
  SpinMutexLock lock(report_file.mu);
  if (writes_own_report && own_report_fd != kInvalidFd) {
    WriteToFile(own_report_fd, text, length);
    return;
  }
  if (UsesLogFile() &&
      (report_file.fd == kInvalidFd ||
       report_file.fd_pid != (uptr)internal_getpid()))
    ReopenLogFileInChild();
  else if (UsesLogFile())
    ReopenLogFileIfClosed();
  if (UsesLogFile() || IsStartupFile(report_file.fd))
    WriteToFile(report_file.fd, text, length);
  else if (report_file.fd == kStderrFd)
    WriteToStartupStderr(text, length);
}

// Before anything is printed (option errors included).
static void RecordStartupStdio() {
  startup_stderr = IdentityOf(kStderrFd);
  startup_stdout = IdentityOf(kStdoutFd);
  if (startup_stderr.open) {
    long fd = RawSyscall3(SYS_fcntl, kStderrFd, F_DUPFD_CLOEXEC,
                          kStderrCopyMinFd);
    if (fd >= 0)
      stderr_copy = (fd_t)fd;
  }
}

[[noreturn]] static void LogPathError(const char *what, const char *name,
                                      int err) {
  InternalScopedString error;
  error.AppendF("EfficiencySanitizer: ERROR: ESAN_OPTIONS: log_path: %s '%s' "
                "(errno %d)\n",
                what, name, err);
  WriteToStartupStderr(error.data(), error.length());
  internal__exit(1);
}

// As sanitizer_common does for log_path, but a failure is a one-line error.
static void CreateParentDirectories(char *path) {
  for (uptr i = 1; path[i]; i++) {
    if (path[i] != '/')
      continue;
    path[i] = 0;
    // libc's mkdir: start-up, before any of the program's code runs.
    if (!DirExists(path) && mkdir(path, 0755) && errno != EEXIST)
      LogPathError("cannot create the directory", path, errno);
    path[i] = '/';
  }
}

static void SetUpReportDestination() {
  const char *path = common_flags()->log_path;
  if (!path || !internal_strcmp(path, "stderr") ||
      !internal_strcmp(path, "stdout")) {
    __sanitizer_set_report_path(path);
    return;
  }
  SpinMutexLock lock(report_file.mu);
  if (internal_strlen(path) > sizeof(report_file.path_prefix) - 100)
    LogPathError("the path is too long", path, ENAMETOOLONG);
  internal_strncpy(report_file.path_prefix, path,
                   sizeof(report_file.path_prefix));
  CreateParentDirectories(report_file.path_prefix);
  char name[kMaxPathLength];
  if (int err = OpenLogFile(name, sizeof(name)))
    LogPathError("cannot open the log file", name, err);
}

// Called with report_lock held: a descendant in a process tree writes
// TREE_DIR/PID.json at exit, TREE_DIR/PID.N.json for a report while it runs.
// If that file cannot be written, the report goes where it would without
// the tree.
static bool BeginTreeReport(bool at_exit) {
  SpinMutexLock lock(report_file.mu);
  char name[kMaxPathLength];
  int fd = OpenTreeReport(at_exit ? 0 : own_reports_opened + 1, name,
                          sizeof(name));
  if (fd < 0) {
    InternalScopedString warning;
    warning.AppendF("==%zu==EfficiencySanitizer: WARNING: cannot write the "
                    "report to '%s' (errno %d); it goes to stderr\n",
                    internal_getpid(), name, -fd);
    WriteToStartupStderr(warning.data(), warning.length());
    return false;
  }
  if (!at_exit)
    own_reports_opened++;
  own_report_fd = (fd_t)fd;
  writes_own_report = true;
  return true;
}

extern "C" bool efsan_report_begin(bool at_exit) {
  report_lock.Lock();
  CountDescendantReports();
  if (WritesToTreeDirectory() && BeginTreeReport(at_exit))
    return true;
  if (at_exit || internal_strcmp(efsan_flags.report_format, "json"))
    return false;
  SpinMutexLock lock(report_file.mu);
  if (!UsesLogFile())
    return false; // stderr/stdout: the documents follow each other
  char name[kMaxPathLength];
  LogFileName(name, sizeof(name));
  uptr used = internal_strlen(name);
  internal_snprintf(name + used, sizeof(name) - used, ".%u",
                    ++own_reports_opened);
  uptr fd = internal_open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC |
                                    O_NOFOLLOW, 0660);
  if (internal_iserror(fd)) {
    InternalScopedString warning;
    warning.AppendF("==%zu==EfficiencySanitizer: WARNING: cannot open '%s'; "
                    "this report is not written\n",
                    internal_getpid(), name);
    WriteToStartupStderr(warning.data(), warning.length());
    // Not into P.PID: that file is the report at exit's alone.
    own_report_fd = (fd_t)internal_open("/dev/null", O_WRONLY | O_CLOEXEC);
  } else {
    own_report_fd = (fd_t)fd;
  }
  writes_own_report = true;
  return false;
}

extern "C" bool efsan_report_begin_root_copy(void) {
  if (!RootWritesTreeCopy())
    return false;
  report_lock.Lock();
  SpinMutexLock lock(report_file.mu);
  char name[kMaxPathLength];
  int fd = OpenTreeReport(0, name, sizeof(name));
  if (fd < 0) {
    report_lock.Unlock();
    return false;
  }
  own_report_fd = (fd_t)fd;
  writes_own_report = true;
  return true;
}

extern "C" void efsan_report_end(void) {
  {
    SpinMutexLock lock(report_file.mu);
    if (own_report_fd != kInvalidFd)
      internal_close(own_report_fd);
    own_report_fd = kInvalidFd;
    writes_own_report = false;
  }
  report_lock.Unlock();
}

static void PrintReportText(const char *text) { WriteReportText(text); }

static void PrintReportLine(const char *text) {
  char prefix[32];
  internal_snprintf(prefix, sizeof(prefix), "==%zu==", internal_getpid());
  InternalScopedString line;
  line.Append(prefix);
  line.Append(text);
  WriteReportText(line.data());
}

extern "C" void efsan_vprintf(const char *format, va_list args) {
  FormatAndPrint(format, args, PrintReportText);
}

extern "C" void efsan_printf(const char *format, ...) {
  va_list args;
  va_start(args, format);
  efsan_vprintf(format, args);
  va_end(args);
}

extern "C" void efsan_report_line(const char *format, ...) {
  va_list args;
  va_start(args, format);
  FormatAndPrint(format, args, PrintReportLine);
  va_end(args);
}

// Verbose diagnostics. With report_format=json, or while this thread writes
// a report into a file of its own, they go to stderr, so that the report
// files hold nothing but their JSON documents.
static void PrintDiagnosticLine(const char *text) {
  if (!writes_own_report &&
      internal_strcmp(efsan_flags.report_format, "json")) {
    PrintReportLine(text);
    return;
  }
  InternalScopedString line;
  line.AppendF("==%zu==%s", internal_getpid(), text);
  WriteToStartupStderr(line.data(), line.length());
}

extern "C" void efsan_vreport(int level, const char *format, ...) {
  if (Verbosity() < level)
    return;
  va_list args;
  va_start(args, format);
  FormatAndPrint(format, args, PrintDiagnosticLine);
  va_end(args);
}

extern "C" int efsan_snprintf(char *buffer, uptr length, const char *format,
                              ...) {
  va_list args;
  va_start(args, format);
  int needed = VSNPrintf(buffer, (int)length, format, args);
  va_end(args);
  return needed < (int)length ? needed : (int)length - 1;
}

extern "C" void efsan_fatal(const char *format, ...) {
  va_list args;
  va_start(args, format);
  // Errors go to stderr whatever log_path says: the user must see them.
  FormatAndPrint(format, args, [](const char *text) {
    InternalScopedString line;
    line.AppendF("==%zu==EfficiencySanitizer: ERROR: %s\n", internal_getpid(),
                 text);
    WriteToStartupStderr(line.data(), line.length());
  });
  va_end(args);
  Die();
}

extern "C" void efsan_warn(const char *format, ...) {
  va_list args;
  va_start(args, format);
  FormatAndPrint(format, args, [](const char *text) {
    InternalScopedString line;
    line.AppendF("==%zu==EfficiencySanitizer: WARNING: %s\n",
                 internal_getpid(), text);
    WriteToStartupStderr(line.data(), line.length());
  });
  va_end(args);
}

extern "C" int efsan_verbosity(void) { return Verbosity(); }
extern "C" int efsan_exitcode(void) { return common_flags()->exitcode; }

//===-- Memory and libc replacements ----------------------------------------===//

extern "C" void *efsan_mmap(uptr size) {
  return MmapOrDie(RoundUpTo(size, GetPageSizeCached()), "efsan");
}

extern "C" void *efsan_mmap_noreserve(uptr size) {
  return MmapNoReserveOrDie(RoundUpTo(size, GetPageSizeCached()), "efsan");
}

extern "C" void efsan_munmap(void *addr, uptr size) {
  UnmapOrDie(addr, RoundUpTo(size, GetPageSizeCached()));
}

static const int kMapFixedNoReplace = 0x100000;
static const int kMadviseNoHugePage = 15;
static const int kMadviseDontDump = 16;
static const int kMadviseDontNeed = 4;
static const int kErrnoExists = 17;
static const long kSyscallMincore = 27; // x86-64

// sanitizer_common has no internal_mincore; a raw syscall keeps libc (and
// so the interceptors) out of the sampler's hot loop.
long __efsan::RawSyscall3(long nr, long a, long b, long c) {
  long ret;
  asm volatile("syscall"
               : "=a"(ret)
               : "a"(nr), "D"(a), "S"(b), "d"(c)
               : "rcx", "r11", "memory");
  return ret;
}

extern "C" int efsan_mmap_fixed_noreserve(uptr addr, uptr size) {
  uptr res = internal_mmap((void *)addr, size, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
                               kMapFixedNoReplace,
                           -1, 0);
  int err;
  if (internal_iserror(res, &err))
    return err;
  if (res != addr) {
    // A kernel before 4.17 treats MAP_FIXED_NOREPLACE as a hint.
    internal_munmap((void *)res, size);
    return kErrnoExists;
  }
  internal_madvise(addr, size, kMadviseNoHugePage);
  internal_madvise(addr, size, kMadviseDontDump);
  return 0;
}

extern "C" void efsan_madvise_dontneed(uptr addr, uptr size) {
  internal_madvise(addr, size, kMadviseDontNeed);
}

extern "C" int efsan_mincore(uptr addr, uptr size, u8 *vec) {
  return RawSyscall3(kSyscallMincore, (long)addr, (long)size, (long)vec) < 0
             ? -1
             : 0;
}

extern "C" void *efsan_internal_memset(void *s, int c, uptr n) {
  return internal_memset(s, c, n);
}
extern "C" void *efsan_internal_memcpy(void *d, const void *s, uptr n) {
  return internal_memcpy(d, s, n);
}
extern "C" void *efsan_internal_memmove(void *d, const void *s, uptr n) {
  return internal_memmove(d, s, n);
}
extern "C" uptr efsan_internal_strlen(const char *s) {
  return internal_strlen(s);
}
extern "C" int efsan_internal_strcmp(const char *a, const char *b) {
  return internal_strcmp(a, b);
}
extern "C" int efsan_internal_strncmp(const char *a, const char *b, uptr n) {
  return internal_strncmp(a, b, n);
}
extern "C" uptr efsan_page_size(void) { return GetPageSizeCached(); }
extern "C" int efsan_getpid(void) { return internal_getpid(); }
extern "C" const char *efsan_executable_path(void) {
  // CacheBinaryName ran in efsan_glue_init; this copies that start-up
  // reading. Reports are written one at a time, so one buffer serves all.
  static char path[kMaxPathLength];
  if (!path[0])
    ReadBinaryNameCached(path, sizeof(path));
  return path;
}

// /proc/self/maps is read into one buffer that lives as long as the process:
// the sampler reads it at every sample, and mapping and unmapping a buffer
// each time would cost TLB shootdowns on every core running the program.
static char *maps_buffer;
static uptr maps_capacity;
static StaticSpinMutex maps_lock;
// efsan_maps_hold's count, and the length of the reading it keeps (0: none
// yet).
static int maps_holds;
static uptr maps_held_length;

static uptr ReadProcMapsNow();
static void NoteMainThreadStack();

static uptr ReadProcMaps() {
  if (maps_holds && maps_held_length)
    return maps_held_length;
  uptr length = ReadProcMapsNow();
  if (length)
    NoteMainThreadStack();
  if (maps_holds)
    maps_held_length = length;
  return length;
}

namespace __efsan {
// Only the forking thread survives fork: another thread may have held
// maps_lock (reading /proc/self/maps, or a report's hold) at that moment,
// and the child's first report, or its sampler, would wait for it forever.
// Before the tools restart the child's sampler.
void MapsAfterForkInChild() {
  maps_lock.Init();
  maps_holds = 0;
  maps_held_length = 0;
}
} // namespace __efsan

extern "C" void efsan_maps_hold(void) {
  SpinMutexLock lock(&maps_lock);
  maps_holds++;
}

extern "C" void efsan_maps_release(void) {
  SpinMutexLock lock(&maps_lock);
  if (--maps_holds == 0)
    maps_held_length = 0;
}

static uptr ReadProcMapsNow() {
  for (;;) {
    if (!maps_capacity) {
      maps_capacity = 1 << 16;
      maps_buffer = (char *)MmapOrDie(maps_capacity, "efsan maps");
    }
    fd_t fd = OpenFile("/proc/self/maps", RdOnly);
    if (fd == kInvalidFd)
      return 0;
    uptr used = 0;
    for (;;) {
      uptr n = internal_read(fd, maps_buffer + used, maps_capacity - used - 1);
      if (internal_iserror(n) || n == 0)
        break;
      used += n;
      if (used == maps_capacity - 1)
        break;
    }
    CloseFile(fd);
    if (used < maps_capacity - 1) {
      maps_buffer[used] = 0;
      return used;
    }
    // Did not fit: read it again into a buffer twice as large.
    UnmapOrDie(maps_buffer, maps_capacity);
    maps_capacity *= 2;
    maps_buffer = (char *)MmapOrDie(maps_capacity, "efsan maps");
  }
}

static uptr ParseMapsHex(const char **p) {
  uptr value = 0;
  for (;; (*p)++) {
    char c = **p;
    if (c >= '0' && c <= '9')
      value = value * 16 + (c - '0');
    else if (c >= 'a' && c <= 'f')
      value = value * 16 + (c - 'a' + 10);
    else
      return value;
  }
}

static const char *SkipField(const char *p) {
  while (*p && *p != ' ' && *p != '\n')
    p++;
  while (*p == ' ')
    p++;
  return p;
}

// Lines are "lo-hi perms offset dev inode [path]".
// One line of /proc/self/maps: "lo-hi perms offset major:minor inode [path]".
struct MapsLine {
  uptr lo, hi;
  int prot;     // EFSAN_PROT_*
  bool shared;  // an 's' in the permissions
  efsan_mapping_id id;
  const char *path;  // "" for anonymous memory
};

// Calls visit for each mapping of maps_buffer, read last (maps_lock held).
// Each line is cut at its end for the visit and put back after it, so that
// the buffer can be visited again.
template <typename Visit>
static void ForEachMapsLine(Visit visit) {
  char *line = maps_buffer;
  while (*line) {
    char *end = line;
    while (*end && *end != '\n')
      end++;
    char cut = *end;
    *end = 0;
    MapsLine m;
    const char *p = line;
    m.lo = ParseMapsHex(&p);
    m.hi = *p == '-' ? (p++, ParseMapsHex(&p)) : 0;
    while (*p == ' ')
      p++;
    m.prot = 0;
    if (p[0] == 'r')
      m.prot |= EFSAN_PROT_READ;
    if (p[0] && p[1] == 'w')
      m.prot |= EFSAN_PROT_WRITE;
    if (p[0] && p[1] && p[2] == 'x')
      m.prot |= EFSAN_PROT_EXEC;
    m.shared = p[0] && p[1] && p[2] && p[3] == 's';
    p = SkipField(p);
    m.id.offset = ParseMapsHex(&p);
    p = SkipField(p);
    m.id.dev_major = (u32)ParseMapsHex(&p);
    if (*p == ':')
      p++;
    m.id.dev_minor = (u32)ParseMapsHex(&p);
    p = SkipField(p);
    u64 inode = 0;
    for (; *p >= '0' && *p <= '9'; p++)
      inode = inode * 10 + (*p - '0');
    m.id.inode = inode;
    m.path = SkipField(p);
    if (m.lo < m.hi)
      visit(m);
    *end = cut;
    if (!cut)
      break;
    line = end + 1;
  }
}

// The main thread's stack, as sanitizer_common's GetThreadStackTopAndBottom
// finds it (the [stack] mapping's end, down by RLIMIT_STACK but not into the
// mapping below it), from the runtime's own readings of /proc/self/maps: the
// first is made at start-up, and sanitizer_common's reads the file twice
// more at the first stack capture.
static uptr main_stack_top, main_stack_bottom;

static void NoteMainThreadStack() {
  if (main_stack_top)
    return;
  uptr previous_end = 0, top = 0;
  ForEachMapsLine([&](const MapsLine &m) {
    if (top)
      return;
    if (!internal_strcmp(m.path, "[stack]"))
      top = m.hi;
    else
      previous_end = m.hi;
  });
  if (!top)
    return;
  struct rlimit limit;
  uptr size = 1ul << 30;
  if (!getrlimit(RLIMIT_STACK, &limit) && limit.rlim_cur < size)
    size = limit.rlim_cur;
  if (size > top - previous_end)
    size = top - previous_end;
  main_stack_bottom = top - size;
  main_stack_top = top;
}

void __efsan::GetMainThreadStack(uptr *top, uptr *bottom) {
  SpinMutexLock lock(&maps_lock);
  if (!main_stack_top)
    ReadProcMaps();
  *top = main_stack_top;
  *bottom = main_stack_bottom;
}

static void VisitMappings(efsan_mapping_visitor visit, void *arg) {
  ForEachMapsLine(
      [&](const MapsLine &m) { visit(m.lo, m.hi, m.prot, m.path, arg); });
}

extern "C" void efsan_for_each_mapping(efsan_mapping_visitor visit,
                                       void *arg) {
  SpinMutexLock lock(&maps_lock);
  if (ReadProcMaps())
    VisitMappings(visit, arg);
}

extern "C" void efsan_for_each_mapping_twice(efsan_mapping_visitor first,
                                             efsan_mapping_visitor second,
                                             void *arg) {
  SpinMutexLock lock(&maps_lock);
  if (!ReadProcMaps())
    return;
  VisitMappings(first, arg);
  VisitMappings(second, arg);
}

extern "C" void
efsan_for_each_shared_mapping(efsan_shared_mapping_visitor visit, void *arg) {
  SpinMutexLock lock(&maps_lock);
  if (!ReadProcMaps())
    return;
  ForEachMapsLine([&](const MapsLine &m) {
    if (m.shared)
      visit(m.lo, m.hi, &m.id, m.path, arg);
  });
}

//===-- Locking, threads, time ----------------------------------------------===//

static_assert(sizeof(StaticSpinMutex) <= sizeof(efsan_mutex),
              "efsan_mutex too small");

extern "C" void efsan_mutex_lock(efsan_mutex *m) {
  reinterpret_cast<StaticSpinMutex *>(m)->Lock();
}
extern "C" bool efsan_mutex_trylock(efsan_mutex *m) {
  return reinterpret_cast<StaticSpinMutex *>(m)->TryLock();
}
extern "C" void efsan_mutex_unlock(efsan_mutex *m) {
  reinterpret_cast<StaticSpinMutex *>(m)->Unlock();
}

struct SidelineStart {
  void (*fn)(void *);
  void *arg;
};

static void *SidelineThreadMain(void *raw) {
  SidelineStart start = *static_cast<SidelineStart *>(raw);
  RuntimeBlockFree(raw);
  efsan_thread_index = EFSAN_INTERNAL_THREAD;
  start.fn(start.arg);
  return nullptr;
}

extern "C" bool efsan_start_sideline_thread(void (*fn)(void *), void *arg) {
  SidelineStart *start =
      static_cast<SidelineStart *>(RuntimeBlockAlloc(sizeof(SidelineStart)));
  if (!start)
    return false;
  start->fn = fn;
  start->arg = arg;
  // Signals stay blocked in the new thread: it never takes the program's.
  // glibc allocates its TLS (the DTV) on this thread.
  RuntimeAllocations ours;
  if (!internal_start_thread(SidelineThreadMain, start)) {
    RuntimeBlockFree(start);
    return false;
  }
  return true;
}

extern "C" void efsan_sleep_ms(u32 ms) { SleepForMillis(ms); }
extern "C" void efsan_sleep_us(u32 us) { internal_usleep(us); }
extern "C" u64 efsan_monotonic_ns(void) { return MonotonicNanoTime(); }
static u64 CpuClockNs(clockid_t clock) {
  struct timespec ts;
  if (internal_iserror(internal_clock_gettime(clock, &ts)))
    return 0;
  return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}
extern "C" u64 efsan_thread_cpu_ns(void) {
  return CpuClockNs(CLOCK_THREAD_CPUTIME_ID);
}
extern "C" u64 efsan_process_cpu_ns(void) {
  return CpuClockNs(CLOCK_PROCESS_CPUTIME_ID);
}

// The CPU clock of another thread of the process, by its kernel id: the
// clock id glibc's pthread_getcpuclockid computes (a negative id: ~tid << 3,
// per-thread, scheduler time).
extern "C" u64 efsan_thread_cpu_ns_of(u32 tid) {
  if (!tid)
    return 0;
  return CpuClockNs((clockid_t)((~(u64)tid << 3) | 4 | 2));
}
extern "C" u32 efsan_gettid(void) { return (u32)GetTid(); }

// membarrier(2), raw (no libc wrapper in Debian 12's glibc).
static const long kMembarrierSyscall = 324;
static const long kMembarrierPrivateExpedited = 1 << 3;
static const long kMembarrierRegisterPrivateExpedited = 1 << 4;
extern "C" bool efsan_membarrier_register(void) {
  return RawSyscall3(kMembarrierSyscall, kMembarrierRegisterPrivateExpedited, 0,
                     0) == 0;
}
extern "C" bool efsan_membarrier(void) {
  return RawSyscall3(kMembarrierSyscall, kMembarrierPrivateExpedited, 0, 0) ==
         0;
}

// sched_getaffinity / sched_setaffinity of the calling thread, without libc
// (x86-64 Linux, like the rest of the runtime).
extern "C" bool efsan_get_affinity(u64 *mask, uptr words) {
  internal_memset(mask, 0, words * sizeof(u64));
  return RawSyscall3(204 /* sched_getaffinity */, 0,
                     (long)(words * sizeof(u64)), (long)mask) > 0;
}
extern "C" bool efsan_set_affinity(const u64 *mask, uptr words) {
  return RawSyscall3(203 /* sched_setaffinity */, 0,
                     (long)(words * sizeof(u64)), (long)mask) == 0;
}

extern "C" sptr efsan_read_file(const char *path, char *buffer, uptr size) {
  fd_t fd = OpenFile(path, RdOnly);
  if (fd == kInvalidFd)
    return -1;
  uptr total = 0, read = 0;
  while (total + 1 < size &&
         ReadFromFile(fd, buffer + total, size - 1 - total, &read) && read)
    total += read;
  CloseFile(fd);
  buffer[total] = 0;
  return (sptr)total;
}

// Unset in a set-user-ID program: its environment is the caller's.
extern "C" const char *efsan_getenv(const char *name) {
  return __efsan::secure_execution ? nullptr : GetEnv(name);
}

// Missing directories of path's parent are made (as mkdir -p); the data
// goes to a file of this process's own and is renamed over path, so that a
// reader never sees half of it and two writers never mix theirs.
extern "C" bool efsan_write_file_replacing(const char *path, const char *data,
                                           uptr length) {
  char dir[kMaxPathLength];
  uptr n = internal_strlen(path);
  if (!n || n + 32 >= sizeof(dir))
    return false;
  internal_memcpy(dir, path, n + 1);
  for (char *slash = dir + 1; *slash; slash++) {
    if (*slash != '/')
      continue;
    *slash = 0;
    RawSyscall3(SYS_mkdir, (long)dir, 0755, 0);
    *slash = '/';
  }
  char temporary[kMaxPathLength];
  internal_snprintf(temporary, sizeof(temporary), "%s.%d.tmp", path,
                    (int)internal_getpid());
  uptr fd = internal_open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
                          0644);
  if (internal_iserror(fd))
    return false;
  uptr written = 0;
  while (written < length) {
    uptr w = internal_write((fd_t)fd, data + written, length - written);
    if (internal_iserror(w) || !w)
      break;
    written += w;
  }
  internal_close((fd_t)fd);
  if (written != length || internal_rename(temporary, path) != 0) {
    internal_unlink(temporary);
    return false;
  }
  return true;
}

extern "C" u64 efsan_realtime_seconds(void) {
  struct timespec ts;
  if (internal_iserror(internal_clock_gettime(CLOCK_REALTIME, &ts)))
    return 0;
  return (u64)ts.tv_sec;
}

extern "C" void efsan_exit_now(int status) { internal__exit(status); }

//===-- Start-up and exit ----------------------------------------------------===//

static bool writing_exit_report;

// A symbolizer that dies makes writes to its pipe raise SIGPIPE, which would
// kill the program at exit. SIGPIPE stays blocked while the report is
// written, and one raised meanwhile is discarded.
// Raw system calls: the libc functions are intercepted and would count the
// signal sets on this stack as the program's memory.
static bool SigpipePending() {
  u64 pending = 0;
  syscall(SYS_rt_sigpending, &pending, sizeof(pending));
  return pending & (1ULL << (SIGPIPE - 1));
}

void __efsan::FinishAtExit() {
  u64 only_sigpipe = 1ULL << (SIGPIPE - 1), old_mask = 0;
  syscall(SYS_rt_sigprocmask, SIG_BLOCK, &only_sigpipe, &old_mask,
          sizeof(old_mask));
  bool pending_before = SigpipePending();
  writing_exit_report = true;
  efsan_core_finish();
  writing_exit_report = false;
  if (!pending_before && SigpipePending()) {
    struct timespec no_wait = {0, 0};
    syscall(SYS_rt_sigtimedwait, &only_sigpipe, nullptr, &no_wait,
            sizeof(only_sigpipe));
  }
  syscall(SYS_rt_sigprocmask, SIG_SETMASK, &old_mask, nullptr,
          sizeof(old_mask));
}

extern "C" int fflush(void *stream);

// A fatal error inside sanitizer_common while the report is written at exit
// (e.g. the symbolizer cannot be run) must not change how the program ends:
// flush its stdio as exit() would and end with the status it asked for,
// instead of Die()'s exitcode.
static void KeepProgramExitOnDie() {
  if (!writing_exit_report)
    return;
  static const char kCutShort[] =
      "EfficiencySanitizer: WARNING: the report was cut short by the error "
      "above\n";
  WriteToStartupStderr(kCutShort, sizeof(kCutShort) - 1);
  fflush(nullptr);
  internal__exit(program_exit_status);
}

bool __efsan::IsExecutableFile(const char *path) {
  struct stat st;
  return !internal_iserror(internal_stat(path, &st)) && S_ISREG(st.st_mode) &&
         (st.st_mode & 0111);
}

// external_symbolizer_path (or ESAN_SYMBOLIZER_PATH) is only used when a
// report is written at exit, where sanitizer_common dies on a path it does
// not know. Checked at start-up instead, like any other bad option.
static void CheckSymbolizerPath() {
  const char *path = common_flags()->external_symbolizer_path;
  if (!path || !path[0] || internal_strchr(path, '%'))
    return;
  const char *name = StripModuleName(path);
  const char *why = nullptr;
  if (internal_strncmp(name, "llvm-symbolizer", 15) &&
      internal_strcmp(name, "addr2line"))
    why = "is not llvm-symbolizer or addr2line";
  else if (!IsExecutableFile(path))
    why = "is not an executable file";
  if (!why)
    return;
  InternalScopedString error;
  error.AppendF("EfficiencySanitizer: ERROR: ESAN_OPTIONS: invalid value for "
                "option 'external_symbolizer_path': '%s' %s\n",
                path, why);
  WriteToStartupStderr(error.data(), error.length());
  internal__exit(1);
}

//===-- Reports on signals (report_on_signals, report_signal) ---------------===//
// The handler only records the signal and wakes a sideline thread (a futex
// wake is async-signal-safe); that thread writes the report with the
// program still running, so the report never runs inside a signal handler
// on top of code that may hold the locks it needs. For a terminating signal
// the thread then restores the default action and sends the signal again.
//
// efsan's handler stands in for the default action only: it is installed
// where the action is the default, the program sees the default action there
// (sigaction, signal), a handler or SIG_IGN the program sets replaces it, and
// SIG_DFL set again brings it back. So a program that installs its own
// handler only where the action is still the default (Python's
// KeyboardInterrupt, shells) does so as without efsan, and its own handler
// always wins.

extern "C" void __efsan_report(void);

static u32 signal_events;        // futex word: bumped by every handled signal
static int terminating_signal;   // SIGTERM/SIGINT/SIGHUP received, or 0
static u32 pending_report_dumps; // report_signal received, not yet written

static const int kMaxSignal = 64;
// The signals efsan reports on (by its options). Where its handler is
// installed, it stands in for the default action.
static bool report_signal_wanted[kMaxSignal + 1];
// What the program last set with SIG_DFL there (its flags and mask), which
// it gets back when it asks.
static struct sigaction program_default_action[kMaxSignal + 1];

static bool IsReportSignal(int signal) {
  return signal >= 1 && signal <= kMaxSignal && report_signal_wanted[signal];
}

static void WakeSignalReporter() {
  __atomic_fetch_add(&signal_events, 1, __ATOMIC_RELEASE);
  syscall(SYS_futex, &signal_events, FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr,
          0);
}

static void OnReportSignal(int signal) {
  int saved_errno = errno;
  if (signal == efsan_flags.report_signal) {
    __atomic_fetch_add(&pending_report_dumps, 1, __ATOMIC_RELAXED);
  } else {
    int none = 0;
    __atomic_compare_exchange_n(&terminating_signal, &none, signal, false,
                                __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  }
  WakeSignalReporter();
  errno = saved_errno;
}

// libc's sigaction (the name is the interceptor's, below), also before
// start-up has installed the interceptors.
DECLARE_REAL(int, sigaction, int signum, const struct sigaction *act,
             struct sigaction *oldact)
static int LibcSigaction(int signum, const struct sigaction *act,
                         struct sigaction *oldact);

static void SignalReporterMain(void *) {
  for (;;) {
    u32 seen = __atomic_load_n(&signal_events, __ATOMIC_ACQUIRE);
    if (int signal = __atomic_load_n(&terminating_signal, __ATOMIC_RELAXED)) {
      FinishAtExit();
      struct sigaction default_action = {};
      default_action.sa_handler = SIG_DFL;
      LibcSigaction(signal, &default_action, nullptr);
      // To the process: delivered to a program thread (this one blocks all
      // signals), whose default action ends the process.
      kill(internal_getpid(), signal);
      return;
    }
    for (u32 dumps = __atomic_exchange_n(&pending_report_dumps, 0,
                                         __ATOMIC_RELAXED);
         dumps; dumps--)
      __efsan_report();
    syscall(SYS_futex, &signal_events, FUTEX_WAIT_PRIVATE, seen, nullptr,
            nullptr, 0);
  }
}

// Signal sets without libc's sigfillset and sigaddset, which are intercepted
// and would count the sets (on the runtime's stack) as the program's memory.
static void FillSignalSet(sigset_t *set) {
  internal_memset(set, 0xff, sizeof(*set));
}
static void OnlySignalInSet(sigset_t *set, int signal) {
  internal_memset(set, 0, sizeof(*set));
  set->__val[(signal - 1) / 64] |= 1UL << ((signal - 1) % 64);
}

static struct sigaction ReportAction() {
  struct sigaction action = {};
  action.sa_handler = OnReportSignal;
  action.sa_flags = SA_RESTART;
  FillSignalSet(&action.sa_mask);
  return action;
}

static bool signal_reporter_wanted;

// Installs the handler where the signal still has its default action: a
// signal the program was started with ignored (nohup) stays ignored.
static void HandleIfDefault(int signal) {
  struct sigaction old_action;
  report_signal_wanted[signal] = true;
  if (LibcSigaction(signal, nullptr, &old_action) ||
      (old_action.sa_flags & SA_SIGINFO) || old_action.sa_handler != SIG_DFL)
    return;
  struct sigaction action = ReportAction();
  if (LibcSigaction(signal, &action, nullptr))
    return;
  program_default_action[signal] = old_action;
  signal_reporter_wanted = true;
}

static void StartSignalReporter() {
  if (signal_reporter_wanted &&
      !efsan_start_sideline_thread(SignalReporterMain, nullptr))
    efsan_fatal("cannot start the thread that writes reports on signals");
}

static void SetUpReportSignals() {
  if (efsan_flags.report_signal)
    HandleIfDefault(efsan_flags.report_signal);
  if (efsan_flags.report_on_signals) {
    HandleIfDefault(SIGTERM);
    HandleIfDefault(SIGINT);
    HandleIfDefault(SIGHUP);
  }
  StartSignalReporter();
}

// sigaction as the program sees it: SIG_DFL where efsan's handler stands in.
static int ProgramSigaction(int signum, const struct sigaction *act,
                            struct sigaction *oldact) {
  if (!IsReportSignal(signum))
    return LibcSigaction(signum, act, oldact);
  // Copied first: act and oldact may be the same.
  struct sigaction requested, previous;
  if (act)
    requested = *act;
  bool to_default = act && requested.sa_handler == SIG_DFL;
  struct sigaction report_action = ReportAction();
  int result = LibcSigaction(
      signum, act ? (to_default ? &report_action : &requested) : nullptr,
      &previous);
  if (result)
    return result;
  // Whether efsan's handler stood in is the kernel's to say: sigset() or
  // sysv_signal(), which are not intercepted, may have replaced it.
  bool stood_in = previous.sa_handler == OnReportSignal;
  if (oldact)
    *oldact = stood_in ? program_default_action[signum] : previous;
  if (to_default) {
    program_default_action[signum] = requested;
    // The first handler of a process where every signal efsan reports on
    // was ignored at start-up: the thread is not running yet.
    if (!signal_reporter_wanted) {
      signal_reporter_wanted = true;
      StartSignalReporter();
    }
  }
  return 0;
}

INTERCEPTOR(int, sigaction, int signum, const struct sigaction *act,
            struct sigaction *oldact) {
  return ProgramSigaction(signum, act, oldact);
}

static int LibcSigaction(int signum, const struct sigaction *act,
                         struct sigaction *oldact) {
  if (!REAL(sigaction))
    INTERCEPT_FUNCTION(sigaction);
  return REAL(sigaction)(signum, act, oldact);
}

typedef void (*SignalHandler)(int);

// glibc's signal(): BSD semantics (SA_RESTART, the signal blocked in its
// handler), through the sigaction above where efsan stands in.
INTERCEPTOR(SignalHandler, signal, int signum, SignalHandler handler) {
  if (!IsReportSignal(signum)) {
    if (!REAL(signal))
      INTERCEPT_FUNCTION(signal);
    return REAL(signal)(signum, handler);
  }
  if (handler == SIG_ERR) {
    errno = EINVAL;
    return SIG_ERR;
  }
  struct sigaction action = {}, old_action;
  action.sa_handler = handler;
  OnlySignalInSet(&action.sa_mask, signum);
  action.sa_flags = SA_RESTART;
  if (ProgramSigaction(signum, &action, &old_action))
    return SIG_ERR;
  return old_action.sa_handler;
}

namespace __sanitizer {
// sanitizer_common's internal_sigaction, past the interceptor.
int real_sigaction(int signum, const void *act, void *oldact) {
  return LibcSigaction(signum, (const struct sigaction *)act,
                       (struct sigaction *)oldact);
}
} // namespace __sanitizer

static void InitializeSignalInterceptors() {
  INTERCEPT_FUNCTION(sigaction);
  INTERCEPT_FUNCTION(signal);
}

namespace __efsan {
void GlueAfterForkInChild() {
  // Only the forking thread survives fork: a lock another thread held while
  // writing a report would never be released.
  report_lock.Init();
  report_file.mu->Init();
  SymbolizerAfterForkInChild();
  if (stderr_copy != kInvalidFd) {
    internal_close(stderr_copy);
    stderr_copy = kInvalidFd;
  }
  own_report_fd = kInvalidFd;
  writes_own_report = false;
  ProcessTreeAfterFork((int)internal_getppid());
  // The signal handlers survive fork; the thread they wake does not.
  signal_events = 0;
  terminating_signal = 0;
  pending_report_dumps = 0;
  StartSignalReporter();
}
} // namespace __efsan

// UBSan's handlers live in this runtime (efsan_ubsan.cpp).
extern "C" void efsan_init_ubsan(void);

extern "C" void efsan_glue_init(void) {
  if (glue_inited || glue_init_running)
    return;
  glue_init_running = true;
  SanitizerToolName = "EfficiencySanitizer";
  CacheBinaryName();
  RecordStartupStdio();
  InitializeFlags();
  InitializeSuppressions();
  SetUpReportDestination();
  InitializeProcessTree();
  // Here only in the shared runtime: while .preinit_array runs, libc has no
  // environment yet (__libc_start_main's interceptor exports it then).
  ExportProcessTree();
  CheckSymbolizerPath();
  AddDieCallback(KeepProgramExitOnDie);
  // The runtime's own libc calls go through the interceptors, so they must
  // be in place before anything below calls libc (InitTlsSize calls confstr).
  InitializeInterceptors();
  InitializeSignalInterceptors();
  InitTlsSize();
  efsan_init_ubsan();
  // Registered before the program's own atexit handlers and before ld.so's
  // destructor runner, so the report comes after both (atexit is LIFO).
  Atexit(FinishAtExit);
  glue_inited = true;
  glue_init_running = false;
  efsan_core_init(&__efsan_which_tool ? __efsan_which_tool : EFSAN_TOOL_NONE);
  SetUpReportSignals();
}

#if EFSAN_DYNAMIC
// The shared runtime (LD_PRELOAD): a shared object has no .preinit_array.
// Its constructor runs before those of the program and of the libraries
// loaded after it; an interceptor called earlier, from the constructor of a
// library it depends on, finds libc's function (or the early arena) all the
// same.
__attribute__((constructor)) static void efsan_start_shared_runtime() {
  efsan_glue_init();
}
#else
// Runs before any shared library's or the program's constructors.
__attribute__((section(".preinit_array"), used)) static void (*const
                                                             efsan_preinit)(
    void) = efsan_glue_init;
#endif
