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
// Only the llvm-symbolizer protocol is spoken; with another symbolizer
// (addr2line) or none set, lookups go through sanitizer_common as before.
//
//===----------------------------------------------------------------------===//
#include "efsan_glue.h"
#include "sanitizer_common/sanitizer_common.h"
#include "sanitizer_common/sanitizer_file.h"
#include "sanitizer_common/sanitizer_flags.h"
#include "sanitizer_common/sanitizer_libc.h"
#include "sanitizer_common/sanitizer_mutex.h"
#include "sanitizer_common/sanitizer_placement_new.h"
#include "sanitizer_common/sanitizer_posix.h"
#include "sanitizer_common/sanitizer_symbolizer.h"
#include "sanitizer_common/sanitizer_symbolizer_internal.h"

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

class SymbolizerProcess {
 public:
  // The answer to one "CODE" or "DATA" question, or null if there is none.
  const char *Ask(const char *kind, const char *module, uptr offset) {
    // A lookup in the middle of the run (a report on a signal) must not
    // change the errno the program's thread sees.
    ErrnoKeeper keep_errno;
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

} // namespace

SymbolizedStack *__efsan::SymbolizeCodeAt(uptr pc) {
  if (!SpeaksLlvmSymbolizer())
    return Symbolizer::GetOrInit()->SymbolizePC(pc);
  SymbolizedStack *stack = SymbolizedStack::New(pc);
  const LoadedModule *module =
      Symbolizer::GetOrInit()->FindModuleForAddress(pc);
  if (!module)
    return stack;
  stack->info.FillModuleInfo(*module);
  SpinMutexLock lock(&symbolizer_mu);
  if (const char *answer = TheSymbolizer()->Ask(
          "CODE", stack->info.module, stack->info.module_offset))
    ParseSymbolizePCOutput(answer, stack);
  return stack;
}

bool __efsan::SymbolizeDataAt(uptr addr, DataInfo *info) {
  if (!SpeaksLlvmSymbolizer())
    return Symbolizer::GetOrInit()->SymbolizeData(addr, info);
  const char *module_name;
  uptr offset;
  if (!Symbolizer::GetOrInit()->GetModuleNameAndOffsetForPC(addr, &module_name,
                                                             &offset))
    return false;
  info->Clear();
  info->module = internal_strdup(module_name);
  info->module_offset = offset;
  SpinMutexLock lock(&symbolizer_mu);
  const char *answer = TheSymbolizer()->Ask("DATA", module_name, offset);
  if (!answer)
    return false;
  ParseSymbolizeDataOutput(answer, info);
  info->start += addr - offset;
  return true;
}

// Only the forking thread lives on: a lookup another thread was making
// holds the lock forever.
void __efsan::SymbolizerAfterForkInChild() { symbolizer_mu.Init(); }
