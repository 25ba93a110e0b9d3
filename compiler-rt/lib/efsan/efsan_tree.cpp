//===-- efsan_tree.cpp - efsan glue: the reports of a process tree -------===//
//
// Owns which process of a tree is its root, the ESAN_TREE variable that tells
// exec'd programs they are in one, the directory the other processes write
// their reports to, and the count of those reports the root gives.
// Does not own writing a report (efsan_rtl.cpp opens the file this names) nor
// what a report holds (the core and the tools).
//
// The first instrumented process of a tree (the root) reports where it always
// did (stderr or log_path). A test driver that compares what its children
// print on stderr, or a build that runs hundreds of instrumented programs,
// needs the others out of the way: every process whose pid is not the root's
// writes DIR/PID.json, whether it was forked (with or without exec) or
// started through system(), popen() or posix_spawn. Exec'd programs learn
// about the tree from the environment: the root puts ESAN_TREE=PID:DIR into
// its own before the program's constructors run, and its children inherit
// it. With log_path every process keeps writing log_path.PID, as before.
//
//===----------------------------------------------------------------------===//
#include "efsan.h"
#include "efsan_glue.h"
#include "sanitizer_common/sanitizer_common.h"
#include "sanitizer_common/sanitizer_file.h"
#include "sanitizer_common/sanitizer_flags.h"
#include "sanitizer_common/sanitizer_libc.h"
#include "sanitizer_common/sanitizer_linux.h"
#include "sanitizer_common/sanitizer_posix.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

using namespace __sanitizer;

extern "C" char **environ;

namespace __efsan {

static const char kTreeEnv[] = "ESAN_TREE";

static bool tree_on;
static int root_pid;
static int parent_pid;
static bool forked_child;
// Where the processes of the tree without log_path write their reports.
static char tree_dir[kMaxPathLength];
// Reports of descendants older than the root are another run's (a directory
// named after a pid the kernel handed out again).
static u64 root_start_seconds;
// ESAN_TREE=PID:DIR, as the root exports it.
static char tree_variable[kMaxPathLength + 64];
static bool exported;
// The root's count of its descendants' reports, taken as each report starts.
static u32 descendant_reports;

static u64 WallSeconds() {
  struct timespec now;
  if (internal_iserror(internal_clock_gettime(CLOCK_REALTIME, &now)))
    return 0;
  return (u64)now.tv_sec;
}

static bool LogPathSet() {
  const char *path = common_flags()->log_path;
  return path && internal_strcmp(path, "stderr") &&
         internal_strcmp(path, "stdout");
}

// "PID:DIR", DIR absolute; false for anything else, which makes this
// process a root of its own.
static bool ParseTreeVariable(const char *value, int *pid, const char **dir) {
  int n = 0;
  const char *p = value;
  for (; *p >= '0' && *p <= '9'; p++) {
    if (n > 100000000)
      return false;
    n = n * 10 + (*p - '0');
  }
  if (p == value || *p != ':' || p[1] != '/' ||
      internal_strlen(p + 1) >= sizeof(tree_dir) - 32)
    return false;
  *pid = n;
  *dir = p + 1;
  return true;
}

// $TMPDIR (when absolute) or /tmp, then efsan.PROGRAM.PID.
static void DefaultTreeDir(int pid) {
  const char *tmp = GetEnv("TMPDIR");
  if (!tmp || tmp[0] != '/' || internal_strlen(tmp) > sizeof(tree_dir) / 2)
    tmp = "/tmp";
  uptr length = internal_strlen(tmp);
  while (length > 1 && tmp[length - 1] == '/')
    length--;
  const char *program = GetProcessName();
  internal_snprintf(tree_dir, sizeof(tree_dir), "%.*s/efsan.%s.%d", (int)length,
                    tmp, program ? program : "program", pid);
}

void InitializeProcessTree() {
  // A setuid program must not write where the user's environment says.
  if (!efsan_flags.tree_reports || secure_execution)
    return;
  tree_on = true;
  int pid = internal_getpid();
  parent_pid = (int)internal_getppid();
  root_start_seconds = WallSeconds();
  const char *value = GetEnv(kTreeEnv);
  const char *dir;
  int from_env;
  if (value && ParseTreeVariable(value, &from_env, &dir)) {
    // A root that execs another program goes on as the root (same pid).
    root_pid = from_env;
    internal_strncpy(tree_dir, dir, sizeof(tree_dir) - 1);
    return;
  }
  root_pid = pid;
  DefaultTreeDir(pid);
  internal_snprintf(tree_variable, sizeof(tree_variable), "%s=%d:%s", kTreeEnv,
                    pid, tree_dir);
}

// environ is null while .preinit_array runs (libc sets it up after): this
// runs from __libc_start_main, before the program's constructors, or from
// the shared runtime's constructor. The array is the runtime's own memory;
// glibc's setenv copies an array it did not allocate before changing it.
void ExportProcessTree() {
  if (!tree_on || exported || !tree_variable[0] || !environ)
    return;
  exported = true;
  uptr n = 0;
  while (environ[n])
    n++;
  // Most environments fit the static array: no system call at start-up.
  static char *small[512];
  char **copy = small;
  if (n + 2 > sizeof(small) / sizeof(small[0]))
    copy = (char **)MmapOrDie(
        RoundUpTo((n + 2) * sizeof(char *), GetPageSizeCached()),
        "efsan environ");
  uptr used = 0;
  uptr name_length = sizeof(kTreeEnv) - 1;
  for (uptr i = 0; i < n; i++)
    if (internal_strncmp(environ[i], kTreeEnv, name_length) ||
        environ[i][name_length] != '=')
      copy[used++] = environ[i];
  copy[used++] = tree_variable;
  copy[used] = nullptr;
  environ = copy;
}

void ProcessTreeAfterFork(int parent) {
  parent_pid = parent;
  forked_child = true;
}

bool InProcessTree() { return tree_on; }

bool WritesToTreeDirectory() {
  return tree_on && internal_getpid() != root_pid && !LogPathSet();
}

// mkdir DIR (and its parents), mode 0700; a DIR already there must be a
// directory of ours, not a symlink someone planted in /tmp.
static int MakeTreeDirectory() {
  char path[kMaxPathLength];
  internal_strncpy(path, tree_dir, sizeof(path) - 1);
  path[sizeof(path) - 1] = 0;
  uptr length = internal_strlen(path);
  for (uptr i = 1; i <= length; i++) {
    if (path[i] != '/' && path[i] != 0)
      continue;
    char saved = path[i];
    path[i] = 0;
    long res = RawSyscall3(SYS_mkdir, (long)path, 0700, 0);
    path[i] = saved;
    if (res < 0 && res != -EEXIST)
      return (int)-res;
  }
  struct stat st;
  if (internal_iserror(internal_lstat(tree_dir, &st)))
    return ENOENT;
  if (!S_ISDIR(st.st_mode) || st.st_uid != getuid())
    return EACCES;
  return 0;
}

int OpenTreeReport(u32 sequence, char *name, uptr size) {
  if (int err = MakeTreeDirectory()) {
    internal_snprintf(name, size, "%s", tree_dir);
    return -err;
  }
  if (sequence)
    internal_snprintf(name, size, "%s/%d.%u.json", tree_dir,
                      (int)internal_getpid(), sequence);
  else
    internal_snprintf(name, size, "%s/%d.json", tree_dir,
                      (int)internal_getpid());
  uptr fd = internal_open(
      name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
  int err;
  if (internal_iserror(fd, &err))
    return -err;
  return (int)fd;
}

// Its own report at exit beside its descendants', so that the merge covers
// the whole tree; only once there are some (a single program leaves no
// directory behind).
bool RootWritesTreeCopy() {
  return tree_on && internal_getpid() == root_pid && descendant_reports &&
         !LogPathSet();
}

struct Dirent64 {
  u64 ino;
  s64 off;
  u16 reclen;
  u8 type;
  char name[1];
};

static bool AllDigits(const char *s, uptr n) {
  if (!n)
    return false;
  for (uptr i = 0; i < n; i++)
    if (s[i] < '0' || s[i] > '9')
      return false;
  return true;
}

static int ParsePid(const char *s, uptr n) {
  int pid = 0;
  for (uptr i = 0; i < n && pid < 100000000; i++)
    pid = pid * 10 + (s[i] - '0');
  return pid;
}

// Does `name` in the directory name a descendant's report at exit: PID.json
// in the tree directory, PREFIX.PID (PREFIX.EXE.PID with log_exe_name, then
// log_suffix) beside the log file?
static bool IsDescendantReport(const char *name, const char *prefix) {
  uptr length = internal_strlen(name);
  const char *digits;
  uptr count;
  if (!prefix) {
    if (length <= 5 || internal_strcmp(name + length - 5, ".json"))
      return false;
    digits = name;
    count = length - 5;
  } else {
    uptr p = internal_strlen(prefix);
    if (length <= p + 1 || internal_strncmp(name, prefix, p) || name[p] != '.')
      return false;
    const char *suffix = common_flags()->log_suffix;
    uptr s = suffix ? internal_strlen(suffix) : 0;
    if (s && (length < p + 1 + s || internal_strcmp(name + length - s, suffix)))
      return false;
    const char *rest = name + p + 1;
    uptr rest_length = length - p - 1 - s;
    if (common_flags()->log_exe_name) {
      const char *dot = nullptr;
      for (uptr i = 0; i < rest_length; i++)
        if (rest[i] == '.')
          dot = rest + i;
      if (!dot)
        return false;
      rest_length -= dot + 1 - rest;
      rest = dot + 1;
    }
    digits = rest;
    count = rest_length;
  }
  return AllDigits(digits, count) && ParsePid(digits, count) != root_pid;
}

static u32 CountIn(const char *dir, const char *prefix) {
  uptr fd = internal_open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (internal_iserror(fd))
    return 0;
  u32 count = 0;
  char buffer[4096];
  char path[kMaxPathLength];
  for (;;) {
    long n =
        RawSyscall3(SYS_getdents64, (long)fd, (long)buffer, sizeof(buffer));
    if (n <= 0)
      break;
    for (uptr at = 0; at < (uptr)n;) {
      const Dirent64 *entry = (const Dirent64 *)(buffer + at);
      at += entry->reclen;
      if (!IsDescendantReport(entry->name, prefix))
        continue;
      internal_snprintf(path, sizeof(path), "%s/%s", dir, entry->name);
      struct stat st;
      if (!internal_iserror(internal_lstat(path, &st)) && S_ISREG(st.st_mode) &&
          (u64)st.st_mtime >= root_start_seconds)
        count++;
    }
  }
  internal_close(fd);
  return count;
}

// The log file's directory and name: log_path=P writes P.PID.
static void SplitLogPath(char *dir, uptr size, const char **base) {
  const char *path = common_flags()->log_path;
  const char *slash = internal_strrchr(path, '/');
  if (!slash) {
    internal_strncpy(dir, ".", size);
    *base = path;
    return;
  }
  uptr length = slash == path ? 1 : slash - path;
  internal_snprintf(dir, size, "%.*s", (int)length, path);
  *base = slash + 1;
}

void CountDescendantReports() {
  if (!tree_on || internal_getpid() != root_pid)
    return;
  descendant_reports = CountIn(tree_dir, nullptr);
  if (LogPathSet()) {
    char dir[kMaxPathLength];
    const char *base;
    SplitLogPath(dir, sizeof(dir), &base);
    descendant_reports += CountIn(dir, base);
  }
}

} // namespace __efsan

using namespace __efsan;

// The program's name as ps shows it when the program renamed itself
// (prctl(PR_SET_NAME), pthread_setname_np on the main thread): forked
// workers of one executable are told apart so. Else the executable's.
static void ProcessName(char *name, uptr size) {
  const char *program = GetProcessName();
  if (!program)
    program = "";
  char comm[64];
  sptr n = efsan_read_file("/proc/self/comm", comm, sizeof(comm));
  if (n > 0 && comm[n - 1] == '\n')
    comm[--n] = 0;
  // The kernel keeps the first 15 bytes of the executable's name.
  if (n <= 0 || !internal_strncmp(comm, program, 15))
    internal_strncpy(name, program, size - 1);
  else
    internal_strncpy(name, comm, size - 1);
  name[size - 1] = 0;
}

extern "C" bool efsan_process_tree(struct efsan_process_tree *tree) {
  if (!tree_on)
    return false;
  static char name[64];
  ProcessName(name, sizeof(name));
  bool root = internal_getpid() == root_pid;
  tree->root = root;
  tree->root_pid = root_pid;
  tree->parent_pid = parent_pid;
  tree->forked = forked_child;
  tree->name = name;
  tree->directory = tree_dir;
  tree->log_path = LogPathSet() ? common_flags()->log_path : nullptr;
  tree->descendant_reports = root ? descendant_reports : 0;
  return true;
}
