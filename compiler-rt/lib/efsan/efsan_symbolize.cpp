//===-- efsan_symbolize.cpp - efsan glue: stacks and symbols ---------------===//
//
// What efsan.h promises the C core about code and data addresses: stack
// capture for allocations and thread creations (each thread's bounds learned
// at its start), symbolization of stacks and code addresses (inlined frames,
// the runtime's and the C++ library's leading frames left out), the
// program's allocation wrappers (registered by the modules, named by the
// option alloc_wrappers) and the marks on their frames, and names of
// globals and functions from the modules' ELF symbol tables, which start no
// symbolizer process, and a std::thread's start function named by the
// lambda or functor it runs. Not here: output, flags, start-up
// (efsan_rtl.cpp).
//
//===----------------------------------------------------------------------===//
#include "efsan.h"
#include "efsan_glue.h"
#include "sanitizer_common/sanitizer_common.h"
#include "sanitizer_common/sanitizer_file.h"
#include "sanitizer_common/sanitizer_libc.h"
#include "sanitizer_common/sanitizer_linux.h"
#include "sanitizer_common/sanitizer_placement_new.h"
#include "sanitizer_common/sanitizer_posix.h"
#include "sanitizer_common/sanitizer_stackdepot.h"
#include "sanitizer_common/sanitizer_stacktrace.h"
#include "sanitizer_common/sanitizer_symbolizer.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>

using namespace __sanitizer;
using namespace __efsan;

//===-- Stacks ----------------------------------------------------------------===//

// The fast unwinder needs the current thread's stack bounds. A thread the
// program created gets them from its start (efsan_thread_starting); the main
// thread's come from the runtime's reading of /proc/self/maps at start-up
// (GetMainThreadStack), which takes no libc lock. A thread
// that started any other way has none, and its stacks are empty: asking
// pthread_getattr_np from here could deadlock (see SetThreadStackBounds).
static __thread uptr thread_stack_top, thread_stack_bottom;

void __efsan::SetThreadStackBounds(uptr bottom, uptr top) {
  thread_stack_bottom = bottom;
  thread_stack_top = top;
}

void __sanitizer::BufferedStackTrace::UnwindImpl(uptr pc, uptr bp,
                                                 void *context,
                                                 bool request_fast,
                                                 u32 max_depth) {
  if (!thread_stack_top && efsan_thread_index == 0)
    GetMainThreadStack(&thread_stack_top, &thread_stack_bottom);
  if (!thread_stack_top)
    return;
  Unwind(max_depth, pc, bp, context, thread_stack_top, thread_stack_bottom,
         StackTrace::WillUseFastUnwind(request_fast));
}

// Enough return addresses for what a report compares of a stack (at most
// EFSAN_MAX_COMPARED_FRAMES, 16, the C++ library's and the allocation
// wrappers' leading frames included) and shows of it (the site and three
// callers). Each allocation pays for every frame it keeps, twice (the
// unwind, then the depot's hash and compare): 64 frames of a deeply
// recursive C++ program made its allocations a quarter of cache-frag's CPU,
// and 24 (cppcheck, whose recursion made stacks alike in their first 16
// frames distinct in the depot) 7-8% more than 16.
static const u32 kEfsanStackDepth = 16;

namespace __efsan {
// Stack of the caller's caller: frame 0 is the function that called the
// function that calls this (an interceptor's caller, for example).
// Set while this thread captures a stack: captures do not nest (an
// allocation in a signal handler that interrupted one records no stack).
static __thread bool capturing_stack;

// Set in a forked child until its first capture: buckets of the stack
// depot's hash table that another thread of the parent held at fork stay
// locked until then (efsan_interceptors.cpp's fork).
static atomic_uint8_t depot_buckets_inherited;
static StaticSpinMutex depot_unlock_mu;

void StackDepotInheritedLocked() {
  atomic_store(&depot_buckets_inherited, 1, memory_order_release);
}

// The child's half of sanitizer_common's fork protocol, late: lock what
// the parent locks before fork and unlock it as a child does, which frees
// every bucket left locked.
static void UnlockInheritedStackDepot() {
  SpinMutexLock lock(&depot_unlock_mu);
  if (!atomic_load(&depot_buckets_inherited, memory_order_acquire))
    return;
  StackDepotLockBeforeFork();
  StackDepotUnlockAfterFork(/*fork_child=*/true);
  atomic_store(&depot_buckets_inherited, 0, memory_order_release);
}

// The stacks this thread captured last, by a 64-bit hash of their return
// addresses: a program allocates at the same few stacks over and over, and
// the depot's lookup of one (its 32-bit hash, then a bucket of a table of
// megabytes, a cache miss) cost an allocation of a C++ program more than
// the unwind did. 64 of them, a kilobyte of static TLS: glibc takes a
// thread's static TLS out of its stack, and a program that asks for small
// stacks must still get its threads (512 of them helped cppcheck no more). Two stacks of one hash would share an id: with a 64-bit
// hash, for a million distinct stacks, about one chance in 30 million.
namespace {
struct RecentStack {
  u64 hash;
  u32 id;
};
const uptr kRecentStacksLog = 6;
} // namespace
static __thread RecentStack recent_stacks[1 << kRecentStacksLog];

// The multiplications are off the chain from one address to the next (a
// rotate and an xor are): a deep stack hashes at two cycles a frame.
static u64 HashOfStack(const BufferedStackTrace &stack) {
  u64 h = stack.size;
  for (uptr i = 0; i < stack.size; i++) {
    u64 mixed = (stack.trace[i] + i) * 0x9e3779b97f4a7c15ull;
    h ^= mixed;
    h = (h << 23) | (h >> 41);
  }
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return h | 1; // 0 is an empty entry
}

// The C++ library's code, found at the first capture (0, 0 when none is
// loaded then: a library loaded later is not looked for again).
static uptr cxx_code_begin, cxx_code_end, cxx_eh_frame_hdr;
static atomic_uint8_t cxx_code_looked;

// A stack that starts in the C++ library (operator new called by a
// std::string growing), which has no frame pointers: its frames are
// stepped out of by their call frame information (efsan_cfi_unwind.cpp)
// and the program's frames below them unwound by frame pointers again.
// Left as it is if a step fails.
static void UnwindThroughCxxLibrary(BufferedStackTrace *stack, uptr caller_pc,
                                    uptr caller_frame) {
  if (!atomic_load(&cxx_code_looked, memory_order_acquire)) {
    uptr begin = 0, end = 0, hdr = 0;
    FindCxxLibraryCode(&begin, &end, &hdr);
    cxx_code_begin = begin;
    cxx_code_end = end;
    cxx_eh_frame_hdr = hdr;
    atomic_store(&cxx_code_looked, 1, memory_order_release);
  }
  if (caller_pc < cxx_code_begin || caller_pc >= cxx_code_end ||
      !cxx_eh_frame_hdr)
    return;
  if (!thread_stack_top && efsan_thread_index == 0)
    GetMainThreadStack(&thread_stack_top, &thread_stack_bottom);
  uptr bottom = thread_stack_bottom, top = thread_stack_top;
  if (caller_frame < bottom || caller_frame + 16 > top || (caller_frame & 7))
    return;
  uptr pcs[kEfsanStackDepth];
  uptr n = 0, pc = caller_pc, sp = caller_frame + 16,
       bp = *(uptr *)caller_frame;
  while (n < kEfsanStackDepth && pc >= cxx_code_begin && pc < cxx_code_end) {
    pcs[n++] = pc;
    if (!CfiStep(&pc, &sp, &bp, cxx_eh_frame_hdr, bottom, top))
      return;
  }
  if (n < kEfsanStackDepth) {
    BufferedStackTrace rest;
    rest.Unwind(pc, bp, nullptr, /*request_fast=*/true, kEfsanStackDepth - n);
    for (uptr i = 0; i < rest.size && n < kEfsanStackDepth; i++)
      pcs[n++] = rest.trace[i];
  }
  stack->Init(pcs, n);
}

NOINLINE u32 CaptureCallerStack(uptr caller_pc, uptr caller_frame) {
  if (capturing_stack)
    return 0;
  if (UNLIKELY(atomic_load(&depot_buckets_inherited, memory_order_acquire)))
    UnlockInheritedStackDepot();
  capturing_stack = true;
  BufferedStackTrace stack;
  stack.Unwind(caller_pc, caller_frame, nullptr,
               common_flags()->fast_unwind_on_malloc, kEfsanStackDepth);
  UnwindThroughCxxLibrary(&stack, caller_pc, caller_frame);
  capturing_stack = false;
  if (!stack.size)
    return 0;
  u64 hash = HashOfStack(stack);
  RecentStack &recent = recent_stacks[hash >> (64 - kRecentStacksLog)];
  if (recent.hash == hash)
    return recent.id;
  u32 id = StackDepotPut(stack);
  recent = {hash, id};
  return id;
}
} // namespace __efsan

extern "C" NOINLINE u32 efsan_capture_stack(void) {
  return CaptureCallerStack(GET_CALLER_PC(), GET_CURRENT_FRAME());
}

//===-- The symbolizer's start ------------------------------------------------===//

// sanitizer_common starts llvm-symbolizer on the first lookup that needs it,
// and its child closes every descriptor below the soft RLIMIT_NOFILE one
// system call at a time before the exec: 20,000 of them, 10 ms of CPU, with
// `ulimit -n` 20000. The first code or data lookup of a process runs with the
// soft limit lowered to just above the highest descriptor open, which the
// child inherits (the symbolizer opens a few files: it keeps
// kSymbolizerDescriptors of room), and put back at once after it. Only one
// thread ever lowers it, so no other can save the lowered limit as its own.
static const int kSymbolizerDescriptors = 256;
static int first_lookup_pid;

// The highest descriptor open in this process, -1 if /proc says nothing.
static int HighestOpenDescriptor() {
  uptr opened = internal_open("/proc/self/fd", O_RDONLY | O_DIRECTORY);
  if (internal_iserror(opened))
    return -1;
  fd_t dir = (fd_t)opened;
  struct Entry {  // getdents64's record
    u64 ino;
    s64 off;
    u16 reclen;
    u8 type;
    char name[1];
  };
  int highest = -1;
  alignas(8) char buffer[4096];
  for (;;) {
    uptr n = internal_getdents(dir, (struct linux_dirent *)buffer,
                               sizeof(buffer));
    if (internal_iserror(n) || n == 0)
      break;
    for (uptr at = 0; at < n;) {
      const Entry *entry = (const Entry *)(buffer + at);
      at += entry->reclen;
      int fd = 0;
      const char *c = entry->name;
      if (*c < '0' || *c > '9')
        continue;
      for (; *c >= '0' && *c <= '9'; c++)
        fd = fd * 10 + (*c - '0');
      if (fd > highest)
        highest = fd;
    }
  }
  internal_close(dir);
  return highest;
}

namespace {
class FirstLookupLimit {
 public:
  FirstLookupLimit() {
    int pid = (int)internal_getpid();
    if (__atomic_exchange_n(&first_lookup_pid, pid, __ATOMIC_RELAXED) == pid)
      return;
    int highest = HighestOpenDescriptor();
    if (highest < 0 || getrlimit(RLIMIT_NOFILE, &saved_) != 0)
      return;
    rlim_t enough = (rlim_t)highest + 1 + kSymbolizerDescriptors;
    if (saved_.rlim_cur == RLIM_INFINITY || saved_.rlim_cur <= enough)
      return;
    struct rlimit lowered = saved_;
    lowered.rlim_cur = enough;
    lowered_ = setrlimit(RLIMIT_NOFILE, &lowered) == 0;
  }
  ~FirstLookupLimit() {
    if (lowered_)
      setrlimit(RLIMIT_NOFILE, &saved_);
  }

 private:
  struct rlimit saved_;
  bool lowered_ = false;
};
} // namespace

// Names and files are kept for the process's life (frames hold them), in a
// bump allocator: each first block of one of the internal allocator's size
// classes costs a short process a region of free lists (efsan_modules.cpp).
static StaticSpinMutex kept_strings_mu;
static LowLevelAllocator kept_strings;

const char *__efsan::KeepString(const char *s, uptr length) {
  SpinMutexLock lock(&kept_strings_mu);
  char *copy = (char *)kept_strings.Allocate(length + 1);
  internal_memcpy(copy, s, length);
  copy[length] = 0;
  return copy;
}

const char *__efsan::KeepString(const char *s) {
  return s ? KeepString(s, internal_strlen(s)) : nullptr;
}

// A frame without a function name (a library without symbols): its module
// and the offset in it, "libevent-2.1.so.7+0x215a4", as the other sanitizers
// print it.
static const char *ModuleAndOffset(uptr pc) {
  Module module;
  if (!FindModule(pc, &module))
    return "<unknown>";
  char buffer[kMaxPathLength + 32];
  internal_snprintf(buffer, sizeof(buffer), "%s+0x%zx",
                    StripModuleName(module.path), pc - module.base);
  return KeepString(buffer);
}

// Inlined frames kept of one code address.
static const uptr kMaxInlinedFrames = 32;

// A function of the C++ library's headers (std::vector's constructor,
// std::allocator<T>::allocate...), inlined into the program or instantiated
// in it.
// A function template's demangled name starts with its return type ("void
// std::_Construct<...>(...)", "std::vector<int> make()"): the function's
// qualified name is the last word before the parameter list, outside
// template arguments and parentheses ("(anonymous namespace)::" is part of
// the name).
static bool IsCxxLibraryFunction(const char *function) {
  if (!function)
    return false;
  const char *name = function;
  int depth = 0;
  for (const char *p = function; *p; p++) {
    if (*p == '(' && depth == 0 &&
        internal_strncmp(p, "(anonymous namespace)", 21)) {
      // The parameter list: unless it is operator()'s own parentheses.
      if (p - function >= 8 && !internal_strncmp(p - 8, "operator", 8))
        continue;
      break;
    }
    if (*p == '<' || *p == '(' || *p == '[')
      depth++;
    else if ((*p == '>' || *p == ')' || *p == ']') && depth > 0)
      depth--;
    else if (*p == ' ' && depth == 0 && p[1] && p[1] != '(')
      name = p + 1;
  }
  return internal_strncmp(name, "std::", 5) == 0 ||
         internal_strncmp(name, "__gnu_cxx::", 11) == 0;
}

// The number of frames before the first one of the program's own code that
// are C++ library frames; 0 if there is no such program frame.
static uptr LeadingCxxLibraryFrames(const StackTrace &stack) {
  uptr count = 0;
  for (uptr i = 0; i < stack.size; i++) {
    uptr pc = StackTrace::GetPreviousInstructionPc(stack.trace[i]);
    FirstLookupLimit limit;
    CodeFrame frames[kMaxInlinedFrames];
    uptr n = SymbolizeCodeAt(pc, frames, kMaxInlinedFrames);
    if (!n)
      return count;
    for (uptr k = 0; k < n; k++, count++)
      if (!IsCxxLibraryFunction(frames[k].function))
        return count;
  }
  return 0;
}

//===-- Allocation wrappers -----------------------------------------------===//

// The program's allocation wrappers: those the pass found by their shape
// (each module's constructor registers its own) and those the option
// alloc_wrappers names. A heap object is named by the first frame of its
// allocation stack outside them. Names are kept as given (a C++ linkage
// name is demangled when first compared, at report time, not in the
// module constructor).
namespace {
struct AllocationWrapper {
  const char *name;
  const char *demangled; // null until compared, then the name if not mangled
};
const uptr kMaxAllocationWrappers = 4096;
AllocationWrapper allocation_wrappers[kMaxAllocationWrappers];
uptr allocation_wrapper_count;
StaticSpinMutex allocation_wrappers_mu;
bool option_wrappers_added;
} // namespace

static void AddAllocationWrapper(const char *name, uptr length) {
  for (uptr i = 0; i < allocation_wrapper_count; i++)
    if (internal_strlen(allocation_wrappers[i].name) == length &&
        !internal_strncmp(allocation_wrappers[i].name, name, length))
      return;
  if (allocation_wrapper_count == kMaxAllocationWrappers)
    return;
  // Kept for the process's life: from a bump allocator, not from the
  // internal allocator's smallest classes, each of which a short process
  // pays a region of free lists for (efsan_modules.cpp).
  static LowLevelAllocator names;
  char *copy = (char *)names.Allocate(length + 1);
  internal_memcpy(copy, name, length);
  copy[length] = 0;
  allocation_wrappers[allocation_wrapper_count++] = {copy, nullptr};
}

extern "C" SANITIZER_INTERFACE_ATTRIBUTE void
__efsan_register_alloc_wrappers(const char *const *names, uptr count) {
  SpinMutexLock lock(&allocation_wrappers_mu);
  for (uptr i = 0; i < count; i++)
    AddAllocationWrapper(names[i], internal_strlen(names[i]));
}

// alloc_wrappers=name,name (efsan_flags.cpp checked the list).
static void AddOptionWrappers() {
  if (option_wrappers_added)
    return;
  option_wrappers_added = true;
  for (const char *p = efsan_flags.alloc_wrappers; *p;) {
    const char *end = internal_strchr(p, ',');
    uptr length = end ? (uptr)(end - p) : internal_strlen(p);
    AddAllocationWrapper(p, length);
    p += length + (end ? 1 : 0);
  }
}

// A symbolized name is the wrapper's if it is its name, its demangled
// name, or (for a name given without parameters) that name followed by the
// parameter list ("xmalloc" for "xmalloc(unsigned long)").
static bool NamesWrapper(const char *function, AllocationWrapper &wrapper) {
  if (!wrapper.demangled)
    wrapper.demangled =
        wrapper.name[0] == '_' && wrapper.name[1] == 'Z'
            ? KeepString(Symbolizer::GetOrInit()->Demangle(wrapper.name))
            : wrapper.name;
  if (!internal_strcmp(function, wrapper.name) ||
      !internal_strcmp(function, wrapper.demangled))
    return true;
  uptr length = internal_strlen(wrapper.name);
  return !internal_strncmp(function, wrapper.name, length) &&
         function[length] == '(';
}

static bool IsAllocationWrapper(const char *function) {
  SpinMutexLock lock(&allocation_wrappers_mu);
  AddOptionWrappers();
  for (uptr i = 0; i < allocation_wrapper_count; i++)
    if (NamesWrapper(function, allocation_wrappers[i]))
      return true;
  return false;
}

// Marks the leading frames of allocation wrappers, if a frame outside them
// follows (a stack cut inside the wrappers keeps its first frame as site).
static void MarkAllocationWrappers(struct efsan_frame *frames, uptr count) {
  uptr wrappers = 0;
  while (wrappers < count && IsAllocationWrapper(frames[wrappers].function))
    wrappers++;
  if (wrappers == count)
    return;
  for (uptr i = 0; i < wrappers; i++)
    frames[i].allocation_wrapper = true;
}

// The frames of the code at pc, innermost (inlined) first, after skipping
// *skip of them; a frame of the runtime itself is left out.
static uptr SymbolizeCode(uptr pc, struct efsan_frame *frames, uptr max_frames,
                          uptr *skip) {
  uptr count = 0;
  FirstLookupLimit limit;
  CodeFrame code[kMaxInlinedFrames];
  uptr n = SymbolizeCodeAt(pc, code, kMaxInlinedFrames);
  if (!n) {
    if (max_frames)
      frames[count++] = {pc, ModuleAndOffset(pc), nullptr, 0};
    return count;
  }
  for (uptr k = 0; k < n && count < max_frames; k++) {
    if (*skip) {
      --*skip;
      continue;
    }
    const CodeFrame &info = code[k];
    // The runtime's own frames (main's wrapper below main) are not the
    // program's.
    if (info.function &&
        (!internal_strncmp(info.function, "__efsan::", 9) ||
         !internal_strncmp(info.function, "__sanitizer::", 13)))
      continue;
    frames[count].pc = pc;
    frames[count].function = info.function ? info.function : ModuleAndOffset(pc);
    frames[count].file = info.file;
    frames[count].line = info.line;
    frames[count].allocation_wrapper = false;
    count++;
  }
  return count;
}

static const char *FunctionSymbol(uptr pc, bool *runtime);

// Whether pc is in the code of a loaded module. A return address elsewhere
// (on the stack, in the heap) is no frame: the frame-pointer unwinder picked
// it up after code built without frame pointers (libffi's call into a
// library under Python's ctypes), and what follows it is a guess too.
static bool InModuleCode(uptr pc) {
  Module module;
  bool executable;
  return FindModule(pc, &module, &executable) && executable;
}

extern "C" uptr efsan_symbolize_stack(u32 stack_id, struct efsan_frame *frames,
                                      uptr max_frames) {
  if (!stack_id)
    return 0;
  StackTrace stack = StackDepotGet(stack_id);
  // The stack ends at main: the frames below it (libc's start-up) say
  // nothing about the program, and symbolizing them makes the symbolizer
  // load libc's tables (about 70 ms at exit). It also ends before the
  // runtime's own frames: a thread's start routine is called by the
  // runtime's trampoline (below it, libc's start_thread), and a runtime
  // function deeper down is a stale return address the frame-pointer
  // unwinder picked up after code built without frame pointers (a library
  // that called malloc): what follows it is a guess. Both are found in the
  // symbol table, without the symbolizer. So is a return address outside
  // the modules' code (InModuleCode).
  for (uptr i = 0; i < stack.size; i++) {
    bool runtime;
    uptr pc = StackTrace::GetPreviousInstructionPc(stack.trace[i]);
    const char *name = FunctionSymbol(pc, &runtime);
    if (runtime || (i > 0 && !InModuleCode(pc))) {
      stack.size = i;
      break;
    }
    if (name && !internal_strcmp(name, "main")) {
      stack.size = i + 1;
      break;
    }
  }
  // A C++ allocation starts in operator new's caller, often six frames of
  // std::vector and std::allocator before the program's line: those are
  // left out, so that the stack (and the line a report names) starts where
  // the program allocates.
  uptr skip = LeadingCxxLibraryFrames(stack);
  uptr count = 0;
  for (uptr i = 0; i < stack.size && count < max_frames; i++)
    count += SymbolizeCode(StackTrace::GetPreviousInstructionPc(stack.trace[i]),
                           frames + count, max_frames - count, &skip);
  MarkAllocationWrappers(frames, count);
  return count;
}

extern "C" uptr efsan_symbolize_pc(uptr pc, struct efsan_frame *frames,
                                   uptr max_frames) {
  uptr skip = 0;
  return pc ? SymbolizeCode(StackTrace::GetPreviousInstructionPc(pc), frames,
                            max_frames, &skip)
            : 0;
}

// Globals (and thread start functions) are looked up in the ELF symbol
// table of the module that holds them first: naming a global then starts no symbolizer process (tens of
// milliseconds at exit, most of a short program's overhead). The module's
// file stays mapped for the next lookup.
namespace {
struct MappedModule {
  char path[kMaxPathLength];
  uptr bias = 0;
  const u8 *file = nullptr;
  uptr file_size = 0;
};
MappedModule mapped_module;
} // namespace

static const u8 *MapModuleOf(uptr addr, uptr *bias, uptr *file_size) {
  Module m;
  if (!FindModule(addr, &m))
    return nullptr;
  if (!mapped_module.file || internal_strcmp(mapped_module.path, m.path)) {
    if (mapped_module.file)
      UnmapOrDie((void *)mapped_module.file, mapped_module.file_size);
    mapped_module.file = (const u8 *)MapFileToMemory(m.path,
                                                     &mapped_module.file_size);
    internal_strncpy(mapped_module.path, m.path, sizeof(mapped_module.path) - 1);
    mapped_module.bias = m.base;
  }
  *bias = mapped_module.bias;
  *file_size = mapped_module.file_size;
  return mapped_module.file;
}

// The sanitizer runtime's own source files (linked into the program): their
// file-local symbols follow an STT_FILE symbol with one of these names.
static bool RuntimeSourceFile(const char *name) {
  static const char *const kPrefixes[] = {"efsan", "sanitizer_", "sancov_",
                                          "interception_", "ubsan_"};
  for (const char *prefix : kPrefixes)
    if (!internal_strncmp(name, prefix, internal_strlen(prefix)))
      return true;
  return false;
}

// Calls visit(raw name, start, size, runtime_local) for every defined symbol
// of the given type in the .symtab of the module holding addr, until it
// returns true; runtime_local says the symbol is a file-local one of the
// sanitizer runtime's own sources. Returns false if the module has no
// readable symbol table.
template <typename Visit>
static bool ForEachElfSymbol(uptr addr, unsigned type, Visit visit) {
  uptr bias, file_size;
  const u8 *file = MapModuleOf(addr, &bias, &file_size);
  if (!file || file_size < sizeof(Elf64_Ehdr))
    return false;
  const Elf64_Ehdr *eh = (const Elf64_Ehdr *)file;
  if (internal_memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
      eh->e_ident[EI_CLASS] != ELFCLASS64 ||
      eh->e_shoff + (uptr)eh->e_shnum * sizeof(Elf64_Shdr) > file_size)
    return false;
  const Elf64_Shdr *sections = (const Elf64_Shdr *)(file + eh->e_shoff);
  for (uptr i = 0; i < eh->e_shnum; i++) {
    const Elf64_Shdr *symtab = &sections[i];
    if (symtab->sh_type != SHT_SYMTAB || symtab->sh_link >= eh->e_shnum)
      continue;
    const Elf64_Shdr *strtab = &sections[symtab->sh_link];
    if (symtab->sh_offset + symtab->sh_size > file_size ||
        strtab->sh_offset + strtab->sh_size > file_size)
      return false;
    const Elf64_Sym *syms = (const Elf64_Sym *)(file + symtab->sh_offset);
    uptr count = symtab->sh_size / sizeof(Elf64_Sym);
    bool runtime_file = false;
    for (uptr k = 0; k < count; k++) {
      const Elf64_Sym *sym = &syms[k];
      if (ELF64_ST_TYPE(sym->st_info) == STT_FILE &&
          sym->st_name < strtab->sh_size)
        runtime_file = RuntimeSourceFile(
            (const char *)(file + strtab->sh_offset + sym->st_name));
      if (ELF64_ST_TYPE(sym->st_info) != type || !sym->st_size ||
          sym->st_shndx == SHN_UNDEF || sym->st_name >= strtab->sh_size)
        continue;
      bool runtime_local =
          runtime_file && ELF64_ST_BIND(sym->st_info) == STB_LOCAL;
      if (visit((const char *)(file + strtab->sh_offset + sym->st_name),
                bias + sym->st_value, (uptr)sym->st_size, runtime_local))
        break;
    }
    return true;
  }
  return false;
}

static bool LookupElfSymbol(uptr addr, unsigned type, const char **name,
                            uptr *start, uptr *size) {
  bool found = false;
  ForEachElfSymbol(addr, type, [&](const char *raw, uptr lo, uptr length,
                                   bool runtime_local) {
    if (addr < lo || addr - lo >= length)
      return false;
    // C++ names as the symbolizer would print them (ns::counters).
    *name = KeepString(raw[0] == '_' && raw[1] == 'Z'
                       ? Symbolizer::GetOrInit()->Demangle(raw)
                       : raw);
    *start = lo;
    *size = length;
    found = true;
    return true;
  });
  return found;
}

// The runtime's own data (linked into the executable) is not the program's:
// a line a program's string literal shares with it must not be named after
// it in the working set's data structures.
static bool RuntimeSymbol(const char *raw) {
  // Asked of every symbol of a module's table, thousands in an executable
  // the runtime is linked into: lengths known, and most names ruled out by
  // their first character.
  struct Prefix {
    const char *text;
    uptr length;
  };
#define PREFIX(text) {text, sizeof(text) - 1}
  static const Prefix kPrefixes[] = {
      PREFIX("__efsan"),          PREFIX("_ZN7__efsan"),
      PREFIX("_ZZN7__efsan"),     PREFIX("__sanitizer"),
      PREFIX("_ZN11__sanitizer"), PREFIX("_ZZN11__sanitizer"),
      PREFIX("_ZTVN11__sanitizer"), PREFIX("__interception"),
      PREFIX("_ZN14__interception"), PREFIX("__ubsan"),
      PREFIX("_ZN7__ubsan"),      PREFIX("_ZZN7__ubsan")};
#undef PREFIX
  if (raw[0] != '_')
    return false;
  for (const Prefix &prefix : kPrefixes)
    if (raw[1] == prefix.text[1] &&
        !internal_strncmp(raw, prefix.text, prefix.length))
      return true;
  return false;
}

extern "C" bool efsan_for_each_global_symbol(uptr addr,
                                             efsan_symbol_visitor visit,
                                             void *arg) {
  return ForEachElfSymbol(addr, STT_OBJECT,
                          [&](const char *raw, uptr lo, uptr length,
                              bool runtime_local) {
                            if (!runtime_local && !RuntimeSymbol(raw))
                              visit(lo, length, arg);
                            return false;
                          });
}

extern "C" const char *efsan_global_name(uptr start) {
  const char *name;
  uptr lo, size;
  return LookupElfSymbol(start, STT_OBJECT, &name, &lo, &size) ? name
                                                               : nullptr;
}

// The function holding pc, from the symbol table of its module (null if
// none), and whether it is one of the runtime's (file-local in its sources,
// or named as its functions are).
static const char *FunctionSymbol(uptr pc, bool *runtime) {
  const char *name = nullptr;
  *runtime = false;
  if (!pc)
    return nullptr;
  ForEachElfSymbol(pc, STT_FUNC, [&](const char *raw, uptr lo, uptr length,
                                     bool runtime_local) {
    if (pc < lo || pc - lo >= length)
      return false;
    *runtime = runtime_local || RuntimeSymbol(raw) ||
               !internal_strncmp(raw, "efsan_", 6);
    name = KeepString(raw[0] == '_' && raw[1] == 'Z'
                      ? Symbolizer::GetOrInit()->Demangle(raw)
                      : raw);
    return true;
  });
  return name;
}

extern "C" const char *efsan_function_name(uptr pc) {
  bool runtime;
  return FunctionSymbol(pc, &runtime);
}

// A std::thread's _M_run, "std::thread::_State_impl<std::thread::_Invoker<
// std::tuple<CALLABLE, ARGS...> > >::_M_run()": the callable's type, cut
// into buffer; false for any other name.
static bool StdThreadCallable(const char *name, char *buffer, uptr size) {
  static const char kPrefix[] =
      "std::thread::_State_impl<std::thread::_Invoker<std::tuple<";
  if (!name || internal_strncmp(name, kPrefix, sizeof(kPrefix) - 1))
    return false;
  const char *begin = name + sizeof(kPrefix) - 1, *p = begin;
  int depth = 0;
  for (; *p; p++) {
    if (*p == '<' || *p == '(')
      depth++;
    else if ((*p == '>' || *p == ')') && depth-- == 0)
      break;
    else if (*p == ',' && depth == 0)
      break;
  }
  uptr length = p - begin;
  if (!*p || !length || length >= size)
    return false;
  internal_memcpy(buffer, begin, length);
  buffer[length] = 0;
  return true;
}

// The code a std::thread runs, for a report: the first frame of the
// program's own code (not the C++ library's) within its _M_run, where the
// lambda's or functor's call is inlined ("main::$_0::operator()() const
// f.cpp:12"); else the callable's type ("main::$_0"). Looked up at report
// time (symbolizer calls), once per _M_run.
static const char *StdThreadFunction(uptr run, const char *callable) {
  static uptr last_run;
  static const char *last_name;
  if (run == last_run && last_name)
    return last_name;
  const char *found = nullptr;
  // _M_run is short: its first bytes reach the callable's inlined code,
  // or the call to it (at -O0, where the callable's frame is its own). Only
  // its own bytes: past its end lies another function (a std::thread that
  // runs a function pointer calls it indirectly, and the code that follows
  // _M_run was taken for the thread's).
  uptr run_length = 0;
  ForEachElfSymbol(run, STT_FUNC, [&](const char *, uptr lo, uptr length,
                                      bool) {
    if (run < lo || run - lo >= length)
      return false;
    run_length = length - (run - lo);
    return true;
  });
  if (run_length > 256)
    run_length = 256;
  for (uptr offset = 0; offset < run_length && !found; offset += 4) {
    FirstLookupLimit limit;
    CodeFrame frames[kMaxInlinedFrames];
    uptr n = SymbolizeCodeAt(run + offset, frames, kMaxInlinedFrames);
    for (uptr k = 0; k < n && !found; k++) {
      const CodeFrame &info = frames[k];
      // The program's own line: not in a C++ library header (its code
      // inlined into the callable keeps the callable's name).
      if (!info.function || !info.file || IsCxxLibraryFunction(info.function) ||
          internal_strstr(info.file, "/c++/") ||
          !internal_strncmp(info.file, "/usr/include/", 13))
        continue;
      char buffer[1024];
      internal_snprintf(buffer, sizeof(buffer), "%s %s:%d", info.function,
                        info.file, info.line);
      found = KeepString(buffer);
    }
  }
  // Not inlined (-O0): the callable's own operator(), found by name in the
  // module's symbol table (a lambda's is "_ZZ4mainENK3$_0clEv": only names
  // with operator()'s "cl" are demangled), named with its first line.
  uptr callable_length = internal_strlen(callable);
  if (!found)
    ForEachElfSymbol(run, STT_FUNC, [&](const char *raw, uptr lo, uptr,
                                        bool) {
      if (raw[0] != '_' || raw[1] != 'Z' || !internal_strstr(raw, "cl"))
        return false;
      const char *name = Symbolizer::GetOrInit()->Demangle(raw);
      if (!name || internal_strncmp(name, callable, callable_length) ||
          internal_strncmp(name + callable_length, "::operator()(", 13))
        return false;
      FirstLookupLimit limit;
      CodeFrame frames[kMaxInlinedFrames];
      uptr n = SymbolizeCodeAt(lo, frames, kMaxInlinedFrames);
      char buffer[1024];
      if (n && frames[n - 1].file)
        internal_snprintf(buffer, sizeof(buffer), "%s %s:%d", name,
                          frames[n - 1].file, frames[n - 1].line);
      else
        internal_snprintf(buffer, sizeof(buffer), "%s", name);
      found = KeepString(buffer);
      return true;
    });
  last_run = run;
  last_name = found ? found : KeepString(callable);
  return last_name;
}

// std::async's thread runs its shared state's _M_run, a member function of
// the state (std::__future_base::_Async_state_impl<...>::_M_run()): the
// raw name tells it without demangling.
extern "C" bool efsan_is_async_state_run(uptr pc) {
  static const char kAsyncRun[] = "_ZNSt13__future_base17_Async_state_impl";
  bool found = false;
  ForEachElfSymbol(pc, STT_FUNC, [&](const char *raw, uptr lo, uptr, bool) {
    if (lo != pc)
      return false;
    found = !internal_strncmp(raw, kAsyncRun, sizeof(kAsyncRun) - 1);
    return true;
  });
  return found;
}

extern "C" const char *efsan_start_function_name(uptr pc) {
  bool runtime;
  const char *name = FunctionSymbol(pc, &runtime);
  char callable[512];
  if (StdThreadCallable(name, callable, sizeof(callable)))
    return StdThreadFunction(pc, callable);
  return name;
}

extern "C" bool efsan_symbolize_global(uptr addr, const char **name,
                                       uptr *start, uptr *size) {
  if (LookupElfSymbol(addr, STT_OBJECT, name, start, size))
    return true;
  DataInfo info;
  FirstLookupLimit limit;
  if (!SymbolizeDataAt(addr, &info) || !info.name)
    return false;
  *name = KeepString(info.name);
  *start = info.start;
  *size = info.size;
  return true;
}
