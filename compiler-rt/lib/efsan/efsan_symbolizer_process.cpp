//===-- efsan_symbolizer_process.cpp - efsan glue: one llvm-symbolizer per process ===//
//
// The llvm-symbolizer process that turns this process's code and data
// addresses into functions, files and lines. sanitizer_common keeps one such
// process for the whole life of the program and a forked child inherits the
// parent's pipes: when a server's workers (or 16 children of one parent) exit
// together, each writes its questions into the same pipe and reads whichever
// answer comes first, so frames are lost ("Can't read from symbolizer") or a
// child waits forever for an answer a sibling took. Here each process talks
// to a symbolizer it started itself: a forked child closes the parent's
// socket and starts its own on its first lookup. The socket is
// close-on-exec, so a program the process runs does not hold the symbolizer
// open, and written with MSG_NOSIGNAL, so a symbolizer that died costs a
// restart, not a SIGPIPE that would end the program. The socket calls are
// system calls, not libc's: libc's are intercepted, and the working set
// would count the runtime's buffers as the program's memory.
//
// Answers are kept on disk (the symbol_cache option), one file per build of
// a module (its GNU build ID, or its path, inode, size and time without
// one): a server's workers, a test suite's processes and the next run of
// the same binary find their frames there, and a process whose report the
// file covers starts no symbolizer at all, which is most of what a short
// process otherwise pays for its report. A file only grows: each answer is
// appended with one write(), which concurrent processes do not interleave.
//
// Only the llvm-symbolizer protocol is spoken; with another symbolizer
// (addr2line) or none set, lookups go through sanitizer_common as before.
//
//===----------------------------------------------------------------------===//
#include "efsan_glue.h"
#include "sanitizer_common/sanitizer_common.h"
#include "sanitizer_common/sanitizer_dense_map.h"
#include "sanitizer_common/sanitizer_file.h"
#include "sanitizer_common/sanitizer_flags.h"
#include "sanitizer_common/sanitizer_libc.h"
#include "sanitizer_common/sanitizer_mutex.h"
#include "sanitizer_common/sanitizer_placement_new.h"
#include "sanitizer_common/sanitizer_posix.h"
#include "sanitizer_common/sanitizer_symbolizer.h"
#include "sanitizer_common/sanitizer_symbolizer_internal.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

using namespace __sanitizer;

namespace {

// A symbolizer that dies (a bad debug section, OOM) is started again this
// many times; after that lookups give module+offset only.
const int kMaxStarts = 5;

struct ErrnoKeeper {
  int saved = errno;
  ~ErrnoKeeper() { errno = saved; }
};


// The cache directory, made if missing; null if there is none to use.
const char *CacheDirectory() {
  static char directory[kMaxPathLength];
  static int state;  // 0: not looked at, 1: usable, 2: none
  if (state)
    return state == 1 ? directory : nullptr;
  state = 2;
  const char *option = efsan_flags.symbol_cache;
  if (__efsan::secure_execution || !option || !option[0])
    return nullptr;
  InternalScopedString path;
  if (internal_strcmp(option, "auto")) {
    path.Append(option);
  } else if (const char *xdg = GetEnv("XDG_CACHE_HOME"); xdg && xdg[0] == '/') {
    path.AppendF("%s/efsan/symbols", xdg);
  } else if (const char *home = GetEnv("HOME"); home && home[0] == '/') {
    path.AppendF("%s/.cache/efsan/symbols", home);
  } else {
    return nullptr;
  }
  if (path.length() + 128 >= sizeof(directory))
    return nullptr;
  // Each missing component is made, as mkdir -p does.
  char *p = internal_strncpy(directory, path.data(), sizeof(directory));
  for (char *slash = p + 1; *slash; slash++) {
    if (*slash != '/')
      continue;
    *slash = 0;
    syscall(SYS_mkdir, directory, 0755);
    *slash = '/';
  }
  syscall(SYS_mkdir, directory, 0755);
  if (syscall(SYS_access, directory, W_OK | X_OK) != 0)
    return nullptr;
  state = 1;
  return directory;
}

// What this process and the processes before it were told of one module.
class ModuleAnswers {
 public:
  explicit ModuleAnswers(const __efsan::Module &module) {
    module_ = module.path;
    OpenFile(module);
  }

  bool For(const char *module) const {
    return !internal_strcmp(module_, module);
  }

  const char *Find(const char *kind, uptr offset) {
    auto *entry = answers_.find(Key(kind, offset));
    return entry ? entry->second : nullptr;
  }

  // Keeps answer (a symbolizer's, ending with an empty line) here and in
  // the file.
  const char *Keep(const char *kind, uptr offset, const char *answer) {
    const char *kept = __efsan::KeepString(answer);
    answers_[Key(kind, offset)] = kept;
    Append(kind, offset, kept);
    return kept;
  }

 private:
  void Append(const char *kind, uptr offset, const char *answer) {
    if (!file_[0])
      return;
    InternalScopedString record;
    record.AppendF("%s 0x%zx %zu\n%s", kind, offset, internal_strlen(answer),
                   answer);
    if (record.length() > kMaxRecord)
      return;
    uptr fd = internal_open(file_, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
                            0644);
    if (internal_iserror(fd))
      return;
    internal_write((fd_t)fd, record.data(), record.length());
    internal_close((fd_t)fd);
  }

  // Records of this size or less are written whole by one write().
  static const uptr kMaxRecord = 4096;
  // A file past this size (a corrupt or runaway one) is not read.
  static const uptr kMaxFile = 64 << 20;

  static u64 Key(const char *kind, uptr offset) {
    return ((u64)offset << 1) | (kind[0] == 'D');
  }

  void OpenFile(const __efsan::Module &module) {
    file_[0] = 0;
    const char *dir = CacheDirectory();
    if (!dir)
      return;
    InternalScopedString name;
    name.AppendF("%s/", dir);
    if (module.build_id_size) {
      for (uptr i = 0; i < module.build_id_size; i++)
        name.AppendF("%02x", module.build_id[i]);
    } else {
      // No build ID: the file's identity stands in for it.
      struct stat st;
      if (internal_iserror(internal_stat(module.path, &st)))
        return;
      name.AppendF("%s-%llx-%llx-%llx-%llx.%llx", StripModuleName(module.path),
                   (unsigned long long)st.st_dev, (unsigned long long)st.st_ino,
                   (unsigned long long)st.st_size,
                   (unsigned long long)st.st_mtim.tv_sec,
                   (unsigned long long)st.st_mtim.tv_nsec);
    }
    // The answers differ with these flags.
    name.AppendF(".%s%s", common_flags()->demangle ? "d" : "",
                 common_flags()->symbolize_inline_frames ? "i" : "");
    if (name.length() >= sizeof(file_))
      return;
    internal_strncpy(file_, name.data(), sizeof(file_));
    Load();
  }

  // Records are "CODE 0x<offset> <length>" or "DATA ...", a newline and
  // the symbolizer's answer of that length, which ends with an empty line.
  // A file that is anything else after its last good record (a process
  // killed in its write, a full disk, a stranger's file) is removed after
  // it is read: the answers are found again and kept anew.
  void Load() {
    char *data = nullptr;
    uptr size = 0, length = 0;
    if (!ReadFileToBuffer(file_, &data, &size, &length, kMaxFile))
      return;
    const char *at = data, *end = data + length;
    while (at < end) {
      const char *kind = nullptr;
      if (end - at > 7 && !internal_strncmp(at, "CODE 0x", 7))
        kind = "CODE";
      else if (end - at > 7 && !internal_strncmp(at, "DATA 0x", 7))
        kind = "DATA";
      if (!kind)
        break;
      const char *p = at + 7;
      uptr offset = 0, answer_length = 0;
      if (!ParseNumber(&p, end, 16, &offset) || p == end || *p++ != ' ' ||
          !ParseNumber(&p, end, 10, &answer_length) || p == end ||
          *p++ != '\n')
        break;
      if (answer_length < 2 || answer_length > (uptr)(end - p) ||
          p[answer_length - 1] != '\n' || p[answer_length - 2] != '\n')
        break;
      answers_[Key(kind, offset)] = __efsan::KeepString(p, answer_length);
      at = p + answer_length;
    }
    UnmapOrDie(data, size);
    if (at == end)
      return;
    internal_unlink(file_);
    answers_.forEach([this](DenseMap<u64, const char *>::value_type &entry) {
      Append(entry.first & 1 ? "DATA" : "CODE", entry.first >> 1, entry.second);
      return true;
    });
  }

  // At least one digit of base at *p, up to end.
  static bool ParseNumber(const char **p, const char *end, int base,
                          uptr *value) {
    const char *start = *p;
    *value = 0;
    for (; *p < end; ++*p) {
      char c = **p;
      int digit = c >= '0' && c <= '9'                 ? c - '0'
                  : base == 16 && c >= 'a' && c <= 'f' ? c - 'a' + 10
                                                       : -1;
      if (digit < 0)
        break;
      *value = *value * base + digit;
    }
    return *p != start && *p - start <= 16;
  }

  const char *module_;
  char file_[kMaxPathLength];
  DenseMap<u64, const char *> answers_;
};

class SymbolizerProcess {
 public:
  // The answer to one "CODE" or "DATA" question, or null if there is none.
  const char *Ask(const char *kind, const char *module, uptr offset) {
    if (owner_pid_ != (int)internal_getpid())
      ForgetInherited();
    InternalScopedString question;
    question.AppendF("%s \"%s\" 0x%zx\n", kind, module, offset);
    while (starts_ < kMaxStarts || socket_ != kInvalidFd) {
      if (socket_ == kInvalidFd && !Start())
        continue;
      if (Send(question.data(), question.length()) && Receive())
        return answer_.data();
      Stop();
    }
    return nullptr;
  }

 private:
  // The parent's symbolizer is the parent's: its socket is closed here, not
  // shut down, so the parent keeps talking to it.
  void ForgetInherited() {
    if (socket_ != kInvalidFd)
      internal_close(socket_);
    socket_ = kInvalidFd;
    server_pid_ = -1;
    starts_ = 0;
    owner_pid_ = (int)internal_getpid();
  }

  bool Start() {
    starts_++;
    int pair[2];
    if (syscall(SYS_socketpair, AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0)
      return false;
    const char *argv[] = {
        common_flags()->external_symbolizer_path,
        common_flags()->demangle ? "--demangle" : "--no-demangle",
        common_flags()->symbolize_inline_frames ? "--inlines" : "--no-inlines",
        "--default-arch=x86_64",
        nullptr};
    // The symbolizer's stdin and stdout are one socket, but StartSubprocess
    // moves and closes each descriptor it is given: it gets two. It closes
    // both here once the symbolizer has them.
    int out = (int)syscall(SYS_fcntl, pair[1], F_DUPFD_CLOEXEC, 3);
    if (out < 0) {
      internal_close(pair[0]);
      internal_close(pair[1]);
      return false;
    }
    pid_t pid = StartSubprocess(argv[0], argv, GetEnviron(), pair[1], out);
    if (pid <= 0) {
      internal_close(pair[0]);
      return false;
    }
    socket_ = pair[0];
    server_pid_ = pid;
    return true;
  }

  void Stop() {
    if (socket_ == kInvalidFd)
      return;
    internal_close(socket_);
    socket_ = kInvalidFd;
    if (server_pid_ > 0) {
      int status;
      internal_waitpid(server_pid_, &status, 0);
    }
    server_pid_ = -1;
  }

  bool Send(const char *data, uptr length) {
    while (length) {
      ssize_t sent =
          syscall(SYS_sendto, socket_, data, length, MSG_NOSIGNAL, nullptr, 0);
      if (sent < 0) {
        if (errno == EINTR)
          continue;
        return false;
      }
      data += sent;
      length -= sent;
    }
    return true;
  }

  // llvm-symbolizer ends each answer with an empty line.
  bool Receive() {
    answer_.clear();
    for (;;) {
      uptr have = answer_.size();
      answer_.resize(have + 4096);
      uptr got = internal_read(socket_, answer_.data() + have, 4096);
      int err;
      if (internal_iserror(got, &err)) {
        answer_.resize(have);
        if (err == EINTR)
          continue;
        return false;
      }
      answer_.resize(have + got);
      if (got == 0)
        return false;
      uptr n = answer_.size();
      if (n >= 2 && answer_[n - 1] == '\n' && answer_[n - 2] == '\n')
        break;
    }
    answer_.push_back('\0');
    return true;
  }

  fd_t socket_ = kInvalidFd;
  pid_t server_pid_ = -1;
  int owner_pid_ = 0;
  int starts_ = 0;
  InternalMmapVector<char> answer_;
};

StaticSpinMutex symbolizer_mu;
alignas(SymbolizerProcess) char symbolizer_storage[sizeof(SymbolizerProcess)];
SymbolizerProcess *symbolizer;

bool SpeaksLlvmSymbolizer() {
  const char *path = common_flags()->external_symbolizer_path;
  return path && path[0] &&
         !internal_strncmp(StripModuleName(path), "llvm-symbolizer", 15);
}

SymbolizerProcess *TheSymbolizer() {
  if (!symbolizer)
    symbolizer = new (symbolizer_storage) SymbolizerProcess();
  return symbolizer;
}


// The answers kept for module, read from its cache file the first time.
ModuleAnswers *AnswersFor(const __efsan::Module &module) {
  static ModuleAnswers *known[256];
  static uptr count;
  // Never freed: from a bump allocator, not a size class of the internal
  // allocator (efsan_modules.cpp says why). Called under symbolizer_mu.
  static LowLevelAllocator storage;
  for (uptr i = 0; i < count; i++)
    if (known[i]->For(module.path))
      return known[i];
  if (count == ARRAY_SIZE(known))
    return nullptr;
  void *memory = storage.Allocate(sizeof(ModuleAnswers));
  return known[count++] = new (memory) ModuleAnswers(module);
}

// The answer for kind ("CODE" or "DATA") at offset in module: kept, or
// asked and kept.
const char *Answer(const char *kind, const __efsan::Module &module,
                   uptr offset) {
  ModuleAnswers *answers = AnswersFor(module);
  if (answers)
    if (const char *kept = answers->Find(kind, offset))
      return kept;
  const char *answer = TheSymbolizer()->Ask(kind, module.path, offset);
  if (answer && answers)
    return answers->Keep(kind, offset, answer);
  return answer;
}

// What llvm-symbolizer does not know it prints as "??".
const char *KeepKnown(const char *begin, const char *end) {
  if (end - begin == 2 && begin[0] == '?' && begin[1] == '?')
    return nullptr;
  return __efsan::KeepString(begin, end - begin);
}

// A location line, "file:line:column" or "file:line". A file name may hold
// colons of its own: the numbers are taken from the end.
void ParseLocation(const char *begin, const char *end,
                   __efsan::CodeFrame *frame) {
  int numbers[2];
  int count = 0;
  const char *file_end = end;
  while (count < 2) {
    const char *digits = file_end;
    while (digits > begin && digits[-1] >= '0' && digits[-1] <= '9')
      digits--;
    if (digits == file_end || digits - 1 <= begin || digits[-1] != ':')
      break;
    int value = 0;
    for (const char *p = digits; p < file_end; p++)
      value = value * 10 + (*p - '0');
    numbers[count++] = value;
    file_end = digits - 1;
  }
  frame->line = count ? numbers[count - 1] : 0;
  frame->file = KeepKnown(begin, file_end);
}

// llvm-symbolizer's answer to a CODE question: two lines a frame (the
// function, then its location), innermost first, ended by an empty line.
uptr ParseCodeAnswer(const char *answer, __efsan::CodeFrame *frames,
                     uptr max_frames) {
  uptr count = 0;
  const char *p = answer;
  while (count < max_frames && *p && *p != '\n') {
    const char *function_end = internal_strchr(p, '\n');
    if (!function_end)
      break;
    const char *location = function_end + 1;
    const char *location_end = internal_strchr(location, '\n');
    if (!location_end)
      break;
    __efsan::CodeFrame &frame = frames[count++];
    frame = {KeepKnown(p, function_end), nullptr, 0};
    ParseLocation(location, location_end, &frame);
    p = location_end + 1;
  }
  return count;
}

// The frames sanitizer_common's own symbolizer gives (another symbolizer
// than llvm-symbolizer set, or none).
uptr FramesOfSanitizerSymbolizer(uptr pc, __efsan::CodeFrame *frames,
                                 uptr max_frames) {
  SymbolizedStackHolder holder(Symbolizer::GetOrInit()->SymbolizePC(pc));
  uptr count = 0;
  for (const SymbolizedStack *frame = holder.get(); frame && count < max_frames;
       frame = frame->next)
    frames[count++] = {__efsan::KeepString(frame->info.function),
                       __efsan::KeepString(frame->info.file),
                       (int)frame->info.line};
  return count;
}

} // namespace

// A lookup in the middle of the run (a report on a signal) must not change
// the errno the program's thread sees: the symbolizer's socket calls and the
// cache directory's mkdir are libc's syscall(), which sets it.
uptr __efsan::SymbolizeCodeAt(uptr pc, CodeFrame *frames, uptr max_frames) {
  ErrnoKeeper keep_errno;
  if (!max_frames)
    return 0;
  if (!SpeaksLlvmSymbolizer())
    return FramesOfSanitizerSymbolizer(pc, frames, max_frames);
  Module module;
  if (!FindModule(pc, &module))
    return 0;
  SpinMutexLock lock(&symbolizer_mu);
  const char *answer = Answer("CODE", module, pc - module.base);
  uptr count = answer ? ParseCodeAnswer(answer, frames, max_frames) : 0;
  if (!count)
    frames[count++] = {nullptr, nullptr, 0};
  return count;
}

bool __efsan::SymbolizeDataAt(uptr addr, DataInfo *info) {
  ErrnoKeeper keep_errno;
  if (!SpeaksLlvmSymbolizer())
    return Symbolizer::GetOrInit()->SymbolizeData(addr, info);
  Module module;
  if (!FindModule(addr, &module))
    return false;
  uptr offset = addr - module.base;
  info->Clear();
  info->module = internal_strdup(module.path);
  info->module_offset = offset;
  SpinMutexLock lock(&symbolizer_mu);
  const char *answer = Answer("DATA", module, offset);
  if (!answer)
    return false;
  ParseSymbolizeDataOutput(answer, info);
  info->start += addr - offset;
  return true;
}

// Only the forking thread lives on: a lookup another thread was making
// holds the lock forever.
void __efsan::SymbolizerAfterForkInChild() { symbolizer_mu.Init(); }
