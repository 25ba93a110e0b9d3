//===-- efsan_interceptors.cpp - libc interceptors of efsan ---------------===//
//
// - sanitizer_common's common interceptors, so that bytes libc reads or
//   writes for the program (memcpy, read, fgets, strlen...) are counted as
//   accesses of the program;
// - pthread_create (stable thread indices, thread stacks as stack regions,
//   thread start/exit hooks; an OpenMP runtime's threads are created at
//   their parallel region, efsan_openmp.cpp; a std::thread at the program's
//   line that constructs it, running its state's _M_run, through libstdc++'s
//   std::thread::_M_start_thread), pthread_setname_np and prctl (thread
//   names), fork (a child has its own sampler and report);
// - mmap (regions) and the malloc family (heap regions; allocation sizes and
//   stacks for the cache-frag tool).
// Signals: the runtime's threads block all of them, so the program's handlers
// and timers are its own; sigaction and signal are intercepted (in
// efsan_rtl.cpp) only to hide the handler that stands in for the default
// action of SIGTERM, SIGINT and SIGHUP (report_on_signals).
//
//===----------------------------------------------------------------------===//
#define SANITIZER_COMMON_NO_REDEFINE_BUILTINS
#include "efsan.h"
#include "efsan_glue.h"
#include "interception/interception.h"
#include "sanitizer_common/sanitizer_allocator_internal.h"
#include "sanitizer_common/sanitizer_atomic.h"
#include "sanitizer_common/sanitizer_common.h"
#include "sanitizer_common/sanitizer_errno.h"
#include "sanitizer_common/sanitizer_flags.h"
#include "sanitizer_common/sanitizer_libc.h"
#include "sanitizer_common/sanitizer_linux.h"
#include "sanitizer_common/sanitizer_platform_limits_posix.h"
#include "sanitizer_common/sanitizer_posix.h"
#include "sanitizer_common/sanitizer_stackdepot.h"
#include "sanitizer_common/sanitizer_stacktrace.h"

using namespace __sanitizer;
using namespace __efsan;

static const int MAP_FIXED = 0x10;
static const int MAP_FIXED_NOREPLACE = 0x100000;
static const int PROT_NONE = 0;

extern "C" int pthread_key_create(unsigned *key, void (*destructor)(void *));
extern "C" int pthread_setspecific(unsigned key, const void *value);
extern "C" unsigned long pthread_self(void);

//===-- Allocation before interception --------------------------------------===//
// dlsym, which installs the interceptors, itself calls calloc; those few
// early allocations come from a static arena and are never freed (later
// ones the runtime causes: RuntimeAllocations below).
static char early_arena[1 << 16] ALIGNED(16);
static uptr early_arena_used;

static bool IsEarly(const void *p) {
  return (const char *)p >= early_arena &&
         (const char *)p < early_arena + sizeof(early_arena);
}

static void *EarlyAlloc(uptr size) {
  uptr start = RoundUpTo(early_arena_used, 16);
  // Not start + size: a huge size would wrap around.
  if (size > sizeof(early_arena) - start)
    return nullptr;
  early_arena_used = start + size;
  return early_arena + start;
}

//===-- The runtime's own allocations ----------------------------------------===//
// libc allocates for the runtime's own calls: dlsym's error messages while
// the interceptors are installed (58 of them, each malloc'ed and freed), the
// TLS of the runtime's threads, a new thread's attributes when its stack is
// looked up. From the program's heap they would shift its blocks (the first
// block 16 bytes into a line where the plain build has it 32 bytes in, and
// two threads' small blocks on one line where the plain build has them on
// two: a false finding). Within a RuntimeAllocations scope, on that thread,
// they are runtime blocks instead (efsan_runtime_blocks.cpp), and free and
// realloc give such blocks back whenever they come.
static __thread int runtime_allocations;

RuntimeAllocations::RuntimeAllocations() { runtime_allocations++; }
RuntimeAllocations::~RuntimeAllocations() { runtime_allocations--; }

// glibc's malloc alignment.
static void *RuntimeAlloc(uptr size, uptr alignment = 16) {
  return RuntimeBlockAlloc(size, alignment);
}

static void ReleaseStandIn(void *block);

static void *RuntimeRealloc(void *old, uptr size) {
  void *p = RuntimeAlloc(size);
  if (p && old) {
    internal_memcpy(p, old, Min(size, RuntimeBlockSize(old)));
    ReleaseStandIn(old);
    RuntimeBlockFree(old);
  }
  return p;
}

//===-- A new thread's DTV ------------------------------------------------===//
// pthread_create callocs the new thread's DTV in the main arena, one 16-byte
// entry per TLS module (and 16 more). The runtime's thread-locals make the
// executable a TLS module of its own in a program that has none: that DTV is
// 16 bytes longer than the plain build's, and every block the program
// allocates after its first thread 16 bytes further on. Then the DTV is a
// runtime block, and a block of the plain build's size stands in for it on
// the heap until it is freed. efsan-ld says whether the program has
// thread-locals (__efsan_link_layout; absent when another linker linked it).
extern "C" SANITIZER_WEAK_ATTRIBUTE char __efsan_link_layout[];
DECLARE_REAL(void *, calloc, uptr count, uptr size)
DECLARE_REAL(void, free, void *p)
static const uptr kLinkedByEfsanLd = 1, kProgramHasTls = 2;
static __thread bool creating_thread;

struct DtvStandIn {
  void *dtv;
  void *stand_in;
};
static StaticSpinMutex dtv_stand_ins_mu;
static DtvStandIn *dtv_stand_ins;
static uptr num_dtv_stand_ins, dtv_stand_ins_capacity;

static bool RuntimeAddsTlsModule() {
  // An absolute symbol (--defsym) whose address PIE code takes relative to
  // where the executable is loaded: a page boundary, which leaves its low
  // bits alone.
  uptr layout = (uptr)__efsan_link_layout & 0xfff;
  return (layout & kLinkedByEfsanLd) && !(layout & kProgramHasTls);
}

static void *AllocateDtv(uptr entries) {
  uptr bytes = entries * 16;
  void *dtv = RuntimeAlloc(bytes);
  if (!dtv)
    return nullptr;
  internal_memset(dtv, 0, bytes);
  void *stand_in = REAL(calloc)(entries - 1, 16);
  SpinMutexLock lock(&dtv_stand_ins_mu);
  if (num_dtv_stand_ins == dtv_stand_ins_capacity) {
    uptr capacity = dtv_stand_ins_capacity ? 2 * dtv_stand_ins_capacity : 64;
    auto *grown = static_cast<DtvStandIn *>(
        RuntimeBlockAlloc(capacity * sizeof(DtvStandIn)));
    if (!grown) { // no stand-in: the heap moves as it did before
      REAL(free)(stand_in);
      return dtv;
    }
    if (dtv_stand_ins) {
      internal_memcpy(grown, dtv_stand_ins,
                      num_dtv_stand_ins * sizeof(DtvStandIn));
      RuntimeBlockFree(dtv_stand_ins);
    }
    dtv_stand_ins = grown;
    dtv_stand_ins_capacity = capacity;
  }
  dtv_stand_ins[num_dtv_stand_ins++] = {dtv, stand_in};
  return dtv;
}

// A runtime block going away (or moving): the heap block that stood in for
// it, if it was a DTV, goes too.
static void ReleaseStandIn(void *block) {
  if (!__atomic_load_n(&num_dtv_stand_ins, __ATOMIC_RELAXED))
    return;
  void *stand_in = nullptr;
  {
    SpinMutexLock lock(&dtv_stand_ins_mu);
    for (uptr i = 0; i < num_dtv_stand_ins; ++i)
      if (dtv_stand_ins[i].dtv == block) {
        stand_in = dtv_stand_ins[i].stand_in;
        dtv_stand_ins[i] = dtv_stand_ins[--num_dtv_stand_ins];
        break;
      }
  }
  if (stand_in)
    REAL(free)(stand_in);
}

//===-- Malloc family ---------------------------------------------------------===//

static void OnAlloc(void *p, uptr size, u32 stack_id) {
  if (p && glue_inited)
    efsan_core_malloc((uptr)p, size, stack_id);
}

static void OnFree(void *p) {
  if (p && glue_inited)
    efsan_core_free((uptr)p);
}

// The allocation stack is only worth its cost when a tool attributes heap
// objects (cache-frag, the working set's data structures).
// Not while a new thread looks up its stack: pthread_getattr_np allocates
// under a lock that the unwinder's own bounds lookup would take again.
static __thread bool looking_up_thread_stack;

u32 __efsan::CaptureReportStack(uptr caller_pc, uptr caller_frame) {
  if (!efsan_core_wants_alloc_stacks() || looking_up_thread_stack)
    return 0;
  return CaptureCallerStack(caller_pc, caller_frame);
}

u32 __efsan::CaptureAllocationStack(uptr caller_pc, uptr caller_frame,
                                    uptr size) {
  if (looking_up_thread_stack || !efsan_core_wants_alloc_stack(size))
    return 0;
  return CaptureCallerStack(caller_pc, caller_frame);
}

#define ALLOC_STACK_ID(size)                                                   \
  CaptureAllocationStack(GET_CALLER_PC(), GET_CURRENT_FRAME(), size)

INTERCEPTOR(void *, malloc, uptr size) {
  if (UNLIKELY(!REAL(malloc)))
    return EarlyAlloc(size);
  if (UNLIKELY(runtime_allocations))
    return RuntimeAlloc(size);
  void *p = REAL(malloc)(size);
  OnAlloc(p, size, ALLOC_STACK_ID(size));
  return p;
}

INTERCEPTOR(void *, calloc, uptr count, uptr size) {
  if (UNLIKELY(!REAL(calloc))) {
    uptr total;
    if (__builtin_mul_overflow(count, size, &total))
      return nullptr;
    return EarlyAlloc(total); // the arena is zero
  }
  if (UNLIKELY(runtime_allocations)) {
    uptr total;
    if (__builtin_mul_overflow(count, size, &total))
      return nullptr;
    void *p = RuntimeAlloc(total);
    if (p)
      internal_memset(p, 0, total);
    return p;
  }
  if (UNLIKELY(creating_thread) && size == 16 && count > 1 &&
      RuntimeAddsTlsModule())
    return AllocateDtv(count);
  void *p = REAL(calloc)(count, size);
  OnAlloc(p, count * size, ALLOC_STACK_ID(count * size));
  return p;
}

INTERCEPTOR(void *, realloc, void *old, uptr size) {
  if (UNLIKELY(IsEarly(old) || !REAL(realloc))) {
    void *p = REAL(malloc) ? REAL(malloc)(size) : EarlyAlloc(size);
    if (p && old) {
      uptr available = early_arena + sizeof(early_arena) - (char *)old;
      internal_memcpy(p, old, Min(size, available));
    }
    return p;
  }
  if (UNLIKELY((old && IsRuntimeBlock(old)) || (!old && runtime_allocations)))
    return RuntimeRealloc(old, size);
  OnFree(old);
  void *p = REAL(realloc)(old, size);
  OnAlloc(p, size, ALLOC_STACK_ID(size));
  return p;
}

INTERCEPTOR(void *, reallocarray, void *old, uptr count, uptr size) {
  uptr total;
  if (__builtin_mul_overflow(count, size, &total)) {
    errno = errno_ENOMEM;
    return nullptr;
  }
  if (UNLIKELY((old && IsRuntimeBlock(old)) || (!old && runtime_allocations)))
    return RuntimeRealloc(old, total);
  OnFree(old);
  void *p = REAL(realloc)(old, total);
  OnAlloc(p, total, ALLOC_STACK_ID(total));
  return p;
}

INTERCEPTOR(void, free, void *p) {
  if (UNLIKELY(!p || IsEarly(p)))
    return;
  if (UNLIKELY(IsRuntimeBlock(p))) {
    ReleaseStandIn(p);
    return RuntimeBlockFree(p);
  }
  OnFree(p);
  REAL(free)(p);
}

INTERCEPTOR(int, posix_memalign, void **out, uptr alignment, uptr size) {
  if (UNLIKELY(runtime_allocations)) {
    *out = RuntimeAlloc(size, alignment > 16 ? alignment : 16);
    return *out ? 0 : errno_ENOMEM;
  }
  int res = REAL(posix_memalign)(out, alignment, size);
  if (res == 0)
    OnAlloc(*out, size, ALLOC_STACK_ID(size));
  return res;
}

INTERCEPTOR(void *, aligned_alloc, uptr alignment, uptr size) {
  if (UNLIKELY(runtime_allocations))
    return RuntimeAlloc(size, alignment > 16 ? alignment : 16);
  void *p = REAL(aligned_alloc)(alignment, size);
  OnAlloc(p, size, ALLOC_STACK_ID(size));
  return p;
}

INTERCEPTOR(void *, memalign, uptr alignment, uptr size) {
  if (UNLIKELY(runtime_allocations))
    return RuntimeAlloc(size, alignment > 16 ? alignment : 16);
  void *p = REAL(memalign)(alignment, size);
  OnAlloc(p, size, ALLOC_STACK_ID(size));
  return p;
}

INTERCEPTOR(void *, valloc, uptr size) {
  void *p = REAL(valloc)(size);
  OnAlloc(p, size, ALLOC_STACK_ID(size));
  return p;
}

INTERCEPTOR(void *, pvalloc, uptr size) {
  void *p = REAL(pvalloc)(size);
  OnAlloc(p, size, ALLOC_STACK_ID(size));
  return p;
}

// operator new and delete (efsan_new_delete.cpp) allocate from libc as
// libstdc++'s do, so the program's heap layout is unchanged; only the stack
// is taken in operator new, whose caller is the program's code.
void *__efsan::AllocateForNew(uptr size, uptr alignment, u32 stack_id) {
  if (size == 0)
    size = 1;
  if (alignment) {
    // Not a power of two, or a size that cannot be rounded up: no memory
    // (libstdc++ throws std::bad_alloc for both).
    if ((alignment & (alignment - 1)) || size > ~(uptr)0 - alignment + 1)
      return nullptr;
    // As libstdc++: aligned_alloc wants a size that is a multiple of the
    // alignment (C11).
    size = RoundUpTo(size, alignment);
  }
  void *p;
  if (UNLIKELY(!REAL(malloc) || !REAL(aligned_alloc))) {
    // Before the interceptors are installed (a constructor that runs first).
    p = EarlyAlloc(alignment ? size + alignment - 1 : size);
    if (p && alignment)
      p = (void *)RoundUpTo((uptr)p, alignment);
  } else if (alignment) {
    p = REAL(aligned_alloc)(alignment, size);
  } else {
    p = REAL(malloc)(size);
  }
  OnAlloc(p, size, stack_id);
  return p;
}

void __efsan::FreeForDelete(void *p) {
  if (UNLIKELY(!p || IsEarly(p)))
    return;
  OnFree(p);
  REAL(free)(p);
}

//===-- Threads -------------------------------------------------------------===//

// The names the program gives its threads (pthread_setname_np,
// prctl(PR_SET_NAME): at most 15 characters), by thread index, for the
// reports, as TSan names threads; and each thread's pthread_t, to find the
// index a pthread_setname_np of another thread names. Mapped on first use.
static const u32 kMaxThreadNames = 1 << 14;
struct ThreadNaming {
  uptr handle;
  char name[16];
};
static ThreadNaming *thread_namings;
static StaticSpinMutex thread_namings_lock;

static ThreadNaming *NamingOf(u32 thread) {
  if (thread >= kMaxThreadNames)
    return nullptr;
  if (!atomic_load((atomic_uintptr_t *)&thread_namings, memory_order_acquire)) {
    SpinMutexLock lock(&thread_namings_lock);
    if (!thread_namings)
      atomic_store((atomic_uintptr_t *)&thread_namings,
                   (uptr)MmapNoReserveOrDie(
                       kMaxThreadNames * sizeof(ThreadNaming), "thread names"),
                   memory_order_release);
  }
  return &thread_namings[thread];
}

static void RecordThreadHandle(u32 thread, uptr handle) {
  if (ThreadNaming *naming = NamingOf(thread))
    atomic_store((atomic_uintptr_t *)&naming->handle, handle,
                 memory_order_release);
}

static u32 ThreadIndexOfHandle(uptr handle) {
  u32 count = efsan_thread_count();
  for (u32 t = 0; t < count && t < kMaxThreadNames && thread_namings; t++)
    if (atomic_load((atomic_uintptr_t *)&thread_namings[t].handle,
                    memory_order_acquire) == handle)
      return t;
  return EFSAN_INTERNAL_THREAD;
}

static void SetThreadName(u32 thread, const char *name) {
  ThreadNaming *naming = NamingOf(thread);
  if (!naming || !name)
    return;
  internal_strncpy(naming->name, name, sizeof(naming->name) - 1);
  naming->name[sizeof(naming->name) - 1] = 0;
}

extern "C" const char *efsan_thread_given_name(u32 thread) {
  if (thread >= kMaxThreadNames || !thread_namings || !thread_namings[thread].name[0])
    return nullptr;
  return thread_namings[thread].name;
}

DECLARE_REAL(void, exit, int status)

static unsigned thread_exit_key;
// Values of thread_exit_key: the thread runs, or it is the last program
// thread and ends the process in its next destructor round.
static void *const kThreadRunning = (void *)1;
static void *const kLastThreadEnding = (void *)2;

// Program threads alive: the thread that ran start-up (main) plus every
// thread from pthread_create that has not exited. efsan's own threads are
// not counted.
static atomic_uint32_t program_threads = {1};

// glibc ends the process with exit(0) when its last thread exits, but
// efsan's sideline thread (the sampler) never exits, so a program whose
// threads all end with pthread_exit would never end. The last program
// thread does what glibc would have done, report included.
static void OnThreadExit(void *state) {
  if (state == kThreadRunning) {
    efsan_core_thread_exit();
    if (atomic_fetch_sub(&program_threads, 1, memory_order_acq_rel) == 1) {
      // One more destructor round first, so that the thread's other keys'
      // destructors run before exit, as they would under glibc.
      pthread_setspecific(thread_exit_key, kLastThreadEnding);
    }
    return;
  }
  if (state == kLastThreadEnding) {
    BeforeExit(0);
    REAL(exit)(0);
  }
}

extern "C" uptr efsan_thread_handle(void) { return (uptr)pthread_self(); }

struct ThreadStart {
  void *(*callback)(void *);
  void *param;
  u32 index;
  uptr function; // what the thread runs, for the reports: callback's address,
                 // or a std::thread's _M_run
};

// A std::thread being started: libstdc++'s std::thread::_M_start_thread
// (built without frame pointers, so a stack captured in pthread_create ends
// in it) calls pthread_create with execute_native_thread_routine and the
// thread's state. Its interceptor keeps the program's stack and the state's
// _M_run for that call.
struct CxxThreadStart {
  void *state;
  u32 stack_id;
  uptr run;
};
static THREADLOCAL CxxThreadStart cxx_thread_start;

// The program's functions start with the stack pointer the plain build
// gives them: a local that threads share lies on the cache lines it lies on
// without the tool. So a new thread enters efsan_thread_trampoline, written in
// assembly below, which keeps its return address in the thread's TLS instead
// of on the stack, lets this function take the start record, and calls the
// thread's function from the stack pointer it was entered with.
struct ThreadEntry {
  void *(*callback)(void *);
  void *param;
};

extern "C" {
__attribute__((visibility("hidden"),
               tls_model("initial-exec"))) THREADLOCAL uptr
    efsan_thread_start_return;

__attribute__((visibility("hidden"))) ThreadEntry
efsan_thread_starting(void *raw) {
  ThreadStart start = *static_cast<ThreadStart *>(raw);
  RuntimeBlockFree(raw);
  efsan_thread_index = start.index;
  uptr stack, stack_size, tls, tls_size;
  looking_up_thread_stack = true;
  {
    RuntimeAllocations ours; // pthread_getattr_np's
    GetThreadStackAndTls(/*main=*/false, &stack, &stack_size, &tls, &tls_size);
  }
  looking_up_thread_stack = false;
  SetThreadStackBounds(stack, stack + stack_size);
  // The key's destructor runs when the thread returns or calls pthread_exit.
  pthread_setspecific(thread_exit_key, kThreadRunning);
  efsan_core_thread_start(stack, stack + stack_size, start.function);
  return {start.callback, start.param};
}

void *efsan_thread_trampoline(void *raw);
} // extern "C"

// Unwinding (pthread_exit, a cancellation) ends here: its return address is
// not on the stack, and glibc's start_thread takes over where it stops.
asm(R"(
  .pushsection .text
  .p2align 4
  .globl efsan_thread_trampoline
  .hidden efsan_thread_trampoline
  .type efsan_thread_trampoline, @function
efsan_thread_trampoline:
  .cfi_startproc
  popq %rax
  .cfi_adjust_cfa_offset -8
  .cfi_undefined rip
  movq efsan_thread_start_return@GOTTPOFF(%rip), %rcx
  movq %rax, %fs:(%rcx)
  callq efsan_thread_starting
  movq %rdx, %rdi
  callq *%rax
  movq efsan_thread_start_return@GOTTPOFF(%rip), %rcx
  pushq %fs:(%rcx)
  .cfi_adjust_cfa_offset 8
  retq
  .cfi_endproc
  .size efsan_thread_trampoline, .-efsan_thread_trampoline
  .popsection
)");

INTERCEPTOR(int, pthread_create, void *thread, void *attr,
            void *(*callback)(void *), void *param) {
  efsan_glue_init();
  ThreadStart *start =
      static_cast<ThreadStart *>(RuntimeBlockAlloc(sizeof(ThreadStart)));
  if (!start)
    return errno_ENOMEM; // no memory for the start record
  start->callback = callback;
  start->param = param;
  start->function = (uptr)callback;
  bool cxx = cxx_thread_start.state && cxx_thread_start.state == param;
  if (cxx && cxx_thread_start.run)
    start->function = cxx_thread_start.run;
  // Indices follow creation order, decided by the creating thread. A thread
  // an OpenMP runtime starts for a parallel region was created at the
  // region's call site in the program.
  uptr region_pc, region_frame;
  bool for_region = OpenMPRegionBeingEntered(&region_pc, &region_frame);
  start->index = efsan_core_next_thread_index(
      for_region ? CaptureReportStack(region_pc, region_frame)
      : cxx      ? cxx_thread_start.stack_id
                 : CaptureReportStack(GET_CALLER_PC(), GET_CURRENT_FRAME()));
  if (for_region)
    OpenMPThreadCreated(start->index, region_pc);
  // Counted before it starts, so that the creator exiting right away is
  // never taken for the last thread.
  atomic_fetch_add(&program_threads, 1, memory_order_relaxed);
  u32 index = start->index;
  creating_thread = true;
  int res = REAL(pthread_create)(thread, attr, efsan_thread_trampoline, start);
  creating_thread = false;
  if (res) {
    atomic_fetch_sub(&program_threads, 1, memory_order_relaxed);
    RuntimeBlockFree(start);
  } else {
    RecordThreadHandle(index, *(uptr *)thread);
  }
  return res;
}

// void std::thread::_M_start_thread(std::unique_ptr<std::thread::_State>,
//                                   void (*)()): the unique_ptr is passed by
// address (it is not trivially copyable). The state is polymorphic: its
// vtable holds the complete and the deleting destructor, then _M_run,
// instantiated in the program for the callable (its name names the lambda
// or functor). The thread deletes the state once it starts: _M_run's
// address is read here.
static void FindStartThread();

// A callable that is a function (a pointer to one, std::bind's, a pointer
// to a member function) is called through a pointer by _M_run, whose code
// then names no function of the program: the thread is named by that
// pointer, a word of the state after its vtable pointer that points into a
// module's code. libstdc++'s tuple lays its elements out last to first, so
// the callable comes after its arguments: the last such word. Only the
// words of the state's heap block, as the heap table knows it (a lambda's
// or functor's captures are data, and the slack of a block may hold a stale
// code pointer), else the vtable pointer and one word. 0: none.
static uptr LastCodePointer(void *object) {
  uptr end = efsan_heap_block_end((uptr)object);
  uptr size = end ? end - (uptr)object : 0;
  if (size < 16)
    size = 16;
  if (size > 256)
    size = 256;
  uptr found = 0;
  for (uptr offset = 8; offset + 8 <= size; offset += 8) {
    uptr word = *(uptr *)((char *)object + offset);
    Module module;
    bool executable = false;
    if (word && FindModule(word, &module, &executable) && executable)
      found = word;
  }
  return found;
}

// std::async's thread runs its shared state's _M_run, with the state (a
// heap block) as the first word of the std::thread's: the program's
// function pointer is the state's last code pointer, at the end of its
// _M_fn (a lambda's state has none: its _M_run is named then).
static uptr CallableFunction(void *object) {
  uptr found = LastCodePointer(object);
  uptr state = *(uptr *)((char *)object + 8);
  if (found && efsan_is_async_state_run(found) && state &&
      efsan_heap_block_end(state))
    if (uptr inner = LastCodePointer((void *)state))
      found = inner;
  return found;
}

INTERCEPTOR(void,
            _ZNSt6thread15_M_start_threadESt10unique_ptrINS_6_StateESt14default_deleteIS1_EEPFvvE,
            void *self, void **state, void (*depend)()) {
#define REAL_START_THREAD                                                      \
  REAL(_ZNSt6thread15_M_start_threadESt10unique_ptrINS_6_StateESt14default_deleteIS1_EEPFvvE)
  efsan_glue_init();
  if (!REAL_START_THREAD)
    FindStartThread();
  void *object = state ? *state : nullptr;
  CxxThreadStart saved = cxx_thread_start;
  cxx_thread_start.state = object;
  cxx_thread_start.stack_id =
      CaptureReportStack(GET_CALLER_PC(), GET_CURRENT_FRAME());
  cxx_thread_start.run = object ? (uptr)(*(void ***)object)[2] : 0;
  if (uptr function = object ? CallableFunction(object) : 0)
    cxx_thread_start.run = function;
  REAL_START_THREAD(self, state, depend);
  cxx_thread_start = saved;
}

extern "C" void *dlsym(void *handle, const char *symbol);
extern "C" void *dlopen(const char *file, int mode);

// REAL is null when no libstdc++ was loaded at start-up (a C program that
// loads a C++ library later): the library's call binds to the wrapper,
// which the executable exports, and libstdc++ is asked for it then (by
// name if it was loaded RTLD_LOCAL, out of RTLD_NEXT's scope).
static void FindStartThread() {
  static const char kName[] = "_ZNSt6thread15_M_start_threadESt10unique_ptrIN"
                              "S_6_StateESt14default_deleteIS1_EEPFvvE";
  void *entry = dlsym((void *)-1l /* RTLD_NEXT */, kName);
  if (!entry) {
    void *handle = dlopen("libstdc++.so.6", 1 /* RTLD_LAZY */ | 4 /* NOLOAD */);
    entry = handle ? dlsym(handle, kName) : nullptr;
  }
  if (!entry) {
    Report("EfficiencySanitizer: std::thread::_M_start_thread called, but no "
           "C++ library defines it\n");
    Die();
  }
  REAL_START_THREAD = (decltype(REAL_START_THREAD))entry;
}
#undef REAL_START_THREAD

INTERCEPTOR(int, pthread_join, void *thread, void **retval) {
  int res = REAL(pthread_join)(thread, retval);
  if (!res)
    efsan_core_thread_joined((uptr)thread);
  return res;
}

DEFINE_INTERNAL_PTHREAD_FUNCTIONS

//===-- Synchronisation -------------------------------------------------------===//
// A lock passes the releasing thread's progress to the next owner, so that
// cache-frag's virtual clocks keep threads that take turns (under a mutex,
// a condition variable, a semaphore) in turn order (efsan_cache_frag.c).
// Nothing else: the calls themselves are unchanged.

#define EFSAN_ACQUIRING(call, object)                                          \
  int res = call;                                                              \
  if (res == 0)                                                                \
    efsan_core_sync_acquire((uptr)(object));                                   \
  return res;
// Mutexes and spin locks are also held: cache-frag tells the accesses made
// while the thread holds one (the report's advice for data under a lock).
#define EFSAN_LOCKING(call, object)                                            \
  int res = call;                                                              \
  if (res == 0) {                                                              \
    efsan_core_sync_acquire((uptr)(object));                                   \
    efsan_core_lock_held(1);                                                   \
  }                                                                            \
  return res;

INTERCEPTOR(int, pthread_mutex_lock, void *m) {
  EFSAN_LOCKING(REAL(pthread_mutex_lock)(m), m)
}
INTERCEPTOR(int, pthread_mutex_trylock, void *m) {
  EFSAN_LOCKING(REAL(pthread_mutex_trylock)(m), m)
}
INTERCEPTOR(int, pthread_mutex_timedlock, void *m, void *abstime) {
  EFSAN_LOCKING(REAL(pthread_mutex_timedlock)(m, abstime), m)
}
INTERCEPTOR(int, pthread_mutex_unlock, void *m) {
  efsan_core_lock_held(-1);
  efsan_core_sync_release((uptr)m);
  return REAL(pthread_mutex_unlock)(m);
}
INTERCEPTOR(int, pthread_spin_lock, void *s) {
  EFSAN_LOCKING(REAL(pthread_spin_lock)(s), s)
}
INTERCEPTOR(int, pthread_spin_trylock, void *s) {
  EFSAN_LOCKING(REAL(pthread_spin_trylock)(s), s)
}
INTERCEPTOR(int, pthread_spin_unlock, void *s) {
  efsan_core_lock_held(-1);
  efsan_core_sync_release((uptr)s);
  return REAL(pthread_spin_unlock)(s);
}
// The wait releases the mutex and takes it again inside libc.
INTERCEPTOR(int, pthread_cond_wait, void *c, void *m) {
  efsan_core_sync_release((uptr)m);
  int res = REAL(pthread_cond_wait)(c, m);
  efsan_core_sync_acquire((uptr)m);
  return res;
}
INTERCEPTOR(int, pthread_cond_timedwait, void *c, void *m, void *abstime) {
  efsan_core_sync_release((uptr)m);
  int res = REAL(pthread_cond_timedwait)(c, m, abstime);
  efsan_core_sync_acquire((uptr)m);
  return res;
}
// Semaphores: sanitizer_common's interceptors, through
// COMMON_INTERCEPTOR_ACQUIRE/RELEASE below.

//===-- Exit ------------------------------------------------------------------===//
// Every way into libc's exit() passes efsan_core_before_exit first: calls of
// exit() here, main's return in MainThenBeforeExit, the last thread in
// OnThreadExit.

namespace __efsan {
int program_exit_status;

void BeforeExit(int status) {
  efsan_core_before_exit();
  // Only the thread that goes on to end the process gets here first.
  program_exit_status = status;
}
} // namespace __efsan

INTERCEPTOR(void, exit, int status) {
  if (UNLIKELY(!REAL(exit))) // before start-up installed the interceptors
    INTERCEPT_FUNCTION(exit);
  BeforeExit(status);
  REAL(exit)(status);
  __builtin_unreachable();
}

// The process that reports: this one since start-up or since the fork that
// made it. Another pid means a vfork (or clone) child that shares our
// memory: writing a report there would be the parent's.
static uptr reporting_pid;
// A fork child (no exec since): its _exit ends a helper process, and it
// reports only when asked (report_forked_child__exit).
static bool in_forked_child;

static void ReportAtUnderscoreExit(int status) {
  if (!glue_inited || internal_getpid() != reporting_pid)
    return;
  if (in_forked_child && !efsan_flags.report_forked_child__exit)
    return;
  BeforeExit(status);
  FinishAtExit();
}

typedef int (*MainFunction)(int, char **, char **);

// glibc calls exit() with main's result from inside libc, past any
// interceptor; MainThenBeforeExit lets main's thread take its turn first. It
// is written in assembly so that main starts with the plain build's stack
// pointer (see efsan_thread_trampoline): it keeps its return address in a global
// while main runs. It is named in the runtime's namespace, so that stack
// symbolization leaves its frame out.
extern "C" {
__attribute__((visibility("hidden"))) MainFunction efsan_program_main;
__attribute__((visibility("hidden"))) uptr efsan_main_return;

__attribute__((visibility("hidden"))) int efsan_main_returned(int status) {
  BeforeExit(status);
  return status;
}
} // extern "C"

namespace __efsan {
int MainThenBeforeExit(int argc, char **argv, char **envp);
} // namespace __efsan

asm(R"(
  .pushsection .text
  .p2align 4
  .globl _ZN7__efsan18MainThenBeforeExitEiPPcS1_
  .hidden _ZN7__efsan18MainThenBeforeExitEiPPcS1_
  .type _ZN7__efsan18MainThenBeforeExitEiPPcS1_, @function
_ZN7__efsan18MainThenBeforeExitEiPPcS1_:
  .cfi_startproc
  popq %rax
  .cfi_adjust_cfa_offset -8
  .cfi_undefined rip
  movq %rax, efsan_main_return(%rip)
  callq *efsan_program_main(%rip)
  movl %eax, %edi
  callq efsan_main_returned
  pushq efsan_main_return(%rip)
  .cfi_adjust_cfa_offset 8
  retq
  .cfi_endproc
  .size _ZN7__efsan18MainThenBeforeExitEiPPcS1_, .-_ZN7__efsan18MainThenBeforeExitEiPPcS1_
  .popsection
)");

// A tail call: glibc's start code, and main under it, run on the stack the
// plain build gives them.
INTERCEPTOR(int, __libc_start_main, MainFunction main, int argc, char **argv,
            void (*init)(void), void (*fini)(void), void (*rtld_fini)(void),
            void *stack_end) {
  efsan_program_main = main;
  ExportProcessTree();
  [[clang::musttail]] return REAL(__libc_start_main)(
      MainThenBeforeExit, argc, argv, init, fini, rtld_fini, stack_end);
}

//===-- Fork ------------------------------------------------------------------===//

INTERCEPTOR(int, fork, void) {
  efsan_glue_init();
  // Nothing the child needs may be locked by a thread that fork drops.
  efsan_core_fork_prepare();
  StackDepotLockBeforeFork();
  InternalAllocatorLock();
  RuntimeBlocksLock();
  int pid = REAL(fork)();
  bool child = pid == 0;
  RuntimeBlocksUnlock();
  InternalAllocatorUnlock();
  // The child's unlocking of the stack depot's hash table reads all of its
  // 4 MiB (1,024 page faults, a millisecond): it is done at the child's
  // first stack capture (UnlockInheritedStackDepot), which a child that
  // only execs never makes.
  StackDepotUnlockAfterFork(/*fork_child=*/false);
  if (child)
    StackDepotInheritedLocked();
  if (child) {
    reporting_pid = internal_getpid();
    in_forked_child = true;
    atomic_store(&program_threads, 1, memory_order_relaxed);
    MapsAfterForkInChild();
    efsan_core_fork_child();
    GlueAfterForkInChild();
  }
  else
    efsan_core_fork_parent();
  return pid;
}

//===-- Mappings ----------------------------------------------------------------===//
// mmap is a common interceptor (COMMON_INTERCEPTOR_MMAP_IMPL below); mremap
// and shmat are not. Each refuses to map over the shadow, as TSan and MSan
// do for mmap.

static const int MREMAP_FIXED = 2;

// new_address is read only with MREMAP_FIXED, when the caller passed it.
INTERCEPTOR(void *, mremap, void *old, uptr old_size, uptr new_size, int flags,
            void *new_address) {
  if (UNLIKELY((flags & MREMAP_FIXED) &&
               efsan_core_range_is_shadow((uptr)new_address, new_size))) {
    errno = errno_EINVAL;
    return (void *)-1;
  }
  return REAL(mremap)(old, old_size, new_size, flags, new_address);
}

// shmat refuses an address where something is mapped, unless SHM_REMAP
// asks it to replace the mapping: then the shadow is protected as above.
static const int SHM_REMAP = 040000;
static const int IPC_STAT = 2;
DECLARE_REAL(int, shmctl, int id, int command, void *buffer)

INTERCEPTOR(void *, shmat, int id, void *addr, int flags) {
  if (UNLIKELY(addr && (flags & SHM_REMAP))) {
    __sanitizer_shmid_ds segment;
    if (REAL(shmctl)(id, IPC_STAT, &segment) == 0 &&
        efsan_core_range_is_shadow((uptr)addr, segment.shm_segsz)) {
      errno = errno_EINVAL;
      return (void *)-1;
    }
  }
  return REAL(shmat)(id, addr, flags);
}

//===-- The common interceptors ----------------------------------------------===//

#define COMMON_INTERCEPT_FUNCTION(name) INTERCEPT_FUNCTION(name)
#define COMMON_INTERCEPT_FUNCTION_VER(name, ver) INTERCEPT_FUNCTION_VER(name, ver)
#define COMMON_INTERCEPT_FUNCTION_VER_UNVERSIONED_FALLBACK(name, ver)           \
  (INTERCEPT_FUNCTION_VER(name, ver) || INTERCEPT_FUNCTION(name))
// The context is the interceptor's caller: the access site of the ranges
// libc reads and writes for it (cache-frag reports).
#define COMMON_INTERCEPTOR_ENTER(ctx, func, ...)                               \
  ctx = (void *)GET_CALLER_PC();                                               \
  (void)ctx;                                                                   \
  if (UNLIKELY(!glue_inited)) {                                                \
    efsan_glue_init();                                                         \
    if (!glue_inited)                                                          \
      return REAL(func)(__VA_ARGS__);                                          \
  }
// Semaphore waits and posts order threads like locks (cache-frag's clocks).
#define COMMON_INTERCEPTOR_ACQUIRE(ctx, u) efsan_core_sync_acquire(u)
#define COMMON_INTERCEPTOR_RELEASE(ctx, u) efsan_core_sync_release(u)
// The size argument is often a strlen: it is evaluated only when the range
// will be recorded (always for working-set; for cache-frag only when the
// range is the thread's sampled access).
#define COMMON_INTERCEPTOR_WRITE_RANGE(ctx, ptr, size)                         \
  do {                                                                         \
    if (efsan_core_ranges_wanted())                                            \
      efsan_core_access_range((uptr)(ptr), (uptr)(size), true, (uptr)ctx);     \
  } while (false)
#define COMMON_INTERCEPTOR_READ_RANGE(ctx, ptr, size)                          \
  do {                                                                         \
    if (efsan_core_ranges_wanted())                                            \
      efsan_core_access_range((uptr)(ptr), (uptr)(size), false, (uptr)ctx);    \
  } while (false)
#define COMMON_INTERCEPTOR_DIR_ACQUIRE(ctx, path)                              \
  do {                                                                         \
  } while (false)
#define COMMON_INTERCEPTOR_FD_ACQUIRE(ctx, fd)                                 \
  do {                                                                         \
  } while (false)
#define COMMON_INTERCEPTOR_FD_RELEASE(ctx, fd)                                 \
  do {                                                                         \
  } while (false)
#define COMMON_INTERCEPTOR_FD_SOCKET_ACCEPT(ctx, fd, newfd)                    \
  do {                                                                         \
  } while (false)
#define COMMON_INTERCEPTOR_SET_THREAD_NAME(ctx, name)                          \
  SetThreadName(efsan_thread_index, name)
#define COMMON_INTERCEPTOR_SET_PTHREAD_NAME(ctx, thread, name)                 \
  SetThreadName((uptr)(thread) == (uptr)pthread_self()                        \
                    ? efsan_thread_index                                       \
                    : ThreadIndexOfHandle((uptr)(thread)),                     \
                name)
#define COMMON_INTERCEPTOR_BLOCK_REAL(name) REAL(name)
// _exit skips atexit handlers, so the report is written here (the
// interceptor's parameter is named status).
#define COMMON_INTERCEPTOR_ON_EXIT(ctx) (ReportAtUnderscoreExit(status), 0)
#define COMMON_INTERCEPTOR_LIBRARY_LOADED(filename, handle)                    \
  efsan_core_library_loaded()
#define COMMON_INTERCEPTOR_NOTHING_IS_INITIALIZED (!glue_inited)
#define COMMON_INTERCEPTOR_MMAP_IMPL(ctx, mmap, addr, sz, prot, flags, fd,     \
                                     off)                                      \
  {                                                                            \
    if (UNLIKELY((flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)) &&                \
                 efsan_core_range_is_shadow((uptr)addr, sz))) {                \
      errno = errno_EINVAL;                                                    \
      return (void *)-1;                                                       \
    }                                                                          \
    void *res = REAL(mmap)(addr, sz, prot, flags, fd, off);                    \
    if (res != (void *)-1)                                                     \
      efsan_core_mmap((uptr)res, RoundUpTo(sz, GetPageSizeCached()),           \
                      prot != PROT_NONE);                                      \
    return res;                                                                \
  }

#include "sanitizer_common/sanitizer_platform_interceptors.h"
// The common interceptors of these string functions size their ranges with
// internal_strlen, a byte loop that costs more than the libc call itself
// (and strstr sizes both strings even when a match makes one unnecessary);
// efsan's own below use libc's strlen. strtok_r and strncpy have no common
// interceptor.
#undef SANITIZER_INTERCEPT_STRSTR
#define SANITIZER_INTERCEPT_STRSTR 0
#undef SANITIZER_INTERCEPT_STRCHR
#define SANITIZER_INTERCEPT_STRCHR 0
#undef SANITIZER_INTERCEPT_STRRCHR
#define SANITIZER_INTERCEPT_STRRCHR 0
#undef SANITIZER_INTERCEPT_STRTOK
#define SANITIZER_INTERCEPT_STRTOK 0
// memcmp and bcmp (below) skip the ranges when cache-frag samples neither:
// word counting calls them once per hash probe.
#undef SANITIZER_INTERCEPT_MEMCMP
#define SANITIZER_INTERCEPT_MEMCMP 0
#undef SANITIZER_INTERCEPT_BCMP
#define SANITIZER_INTERCEPT_BCMP 0
#include "sanitizer_common/sanitizer_common_interceptors_memintrinsics.inc"
#include "sanitizer_common/sanitizer_common_interceptors.inc"

//===-- String functions sized with libc's strlen ---------------------------===//
// Each marks exactly the bytes the function must read or write: up to the
// match or the terminating NUL.

static inline void ReadBytes(void *ctx, const void *p, uptr n) {
  efsan_core_access_range((uptr)p, n, false, (uptr)ctx);
}

INTERCEPTOR(char *, strstr, const char *haystack, const char *needle) {
  if (UNLIKELY(!REAL(strstr))) // called while interceptors are installed
    return internal_strstr(haystack, needle);
  void *ctx;
  COMMON_INTERCEPTOR_ENTER(ctx, strstr, haystack, needle);
  char *match = REAL(strstr)(haystack, needle);
  if (efsan_core_ranges_wanted()) {
    uptr needle_length = REAL(strlen)(needle);
    ReadBytes(ctx, haystack, match ? (uptr)(match - haystack) + needle_length
                              : REAL(strlen)(haystack) + 1);
    ReadBytes(ctx, needle, needle_length + 1);
  }
  return match;
}

INTERCEPTOR(char *, strchr, const char *s, int c) {
  if (UNLIKELY(!REAL(strchr)))
    return internal_strchr(s, c);
  void *ctx;
  COMMON_INTERCEPTOR_ENTER(ctx, strchr, s, c);
  char *found = REAL(strchr)(s, c);
  if (efsan_core_ranges_wanted())
    ReadBytes(ctx, s, (found ? (uptr)(found - s) : REAL(strlen)(s)) + 1);
  return found;
}

INTERCEPTOR(char *, strrchr, const char *s, int c) {
  if (UNLIKELY(!REAL(strrchr)))
    return internal_strrchr(s, c);
  void *ctx;
  COMMON_INTERCEPTOR_ENTER(ctx, strrchr, s, c);
  char *found = REAL(strrchr)(s, c);
  if (efsan_core_ranges_wanted())
    ReadBytes(ctx, s, REAL(strlen)(s) + 1);
  return found;
}

// memcmp and bcmp read both blocks: whole with strict_memcmp (the default),
// else up to the first difference. The two ranges count as two accesses for
// cache-frag, and when neither is the thread's sampled one the call costs
// libc's compare and a test of the countdown (ph_word_count: 1.6x -> 1.3x).
typedef int (*CompareFunction)(const void *, const void *, uptr);

static uptr CompareLength(const void *a, const void *b, uptr size,
                          int result) {
  if (common_flags()->strict_memcmp || result == 0)
    return size;
  const unsigned char *x = (const unsigned char *)a;
  const unsigned char *y = (const unsigned char *)b;
  uptr differs = 0;
  while (x[differs] == y[differs])
    differs++;
  return differs + 1;
}

static int CompareAndMark(void *ctx, CompareFunction compare, const void *a,
                          const void *b, uptr size) {
  int result = compare(a, b, size);
  if (!common_flags()->intercept_memcmp)
    return result;
  if (efsan_core_ranges_wanted())
    ReadBytes(ctx, a, CompareLength(a, b, size, result));
  if (efsan_core_ranges_wanted())
    ReadBytes(ctx, b, CompareLength(a, b, size, result));
  return result;
}

#define EFSAN_COMPARE_INTERCEPTOR(name)                                        \
  INTERCEPTOR(int, name, const void *a, const void *b, uptr size) {            \
    if (UNLIKELY(!glue_inited || !REAL(name)))                                 \
      return internal_memcmp(a, b, size);                                      \
    if (efsan_core_ranges_skipped(2))                                          \
      return REAL(name)(a, b, size);                                           \
    void *ctx;                                                                 \
    COMMON_INTERCEPTOR_ENTER(ctx, name, a, b, size);                           \
    return CompareAndMark(ctx, REAL(name), a, b, size);                        \
  }
EFSAN_COMPARE_INTERCEPTOR(memcmp)
EFSAN_COMPARE_INTERCEPTOR(bcmp)

// Read by every inline compare of the working set's instrumented code: a
// line of their own, apart from anything written while the program runs.
extern "C" {
SANITIZER_INTERFACE_ATTRIBUTE ALIGNED(64) CompareFunction __efsan_ws_memcmp;
SANITIZER_INTERFACE_ATTRIBUTE ALIGNED(64) CompareFunction __efsan_ws_bcmp;
}

// The interceptors mark both ranges whole exactly when both flags are on;
// the inline path marks them whole, so it is offered only then.
extern "C" void efsan_publish_inline_compares(void) {
  if (!common_flags()->intercept_memcmp || !common_flags()->strict_memcmp)
    return;
  __efsan_ws_memcmp = REAL(memcmp);
  __efsan_ws_bcmp = REAL(bcmp);
}

DECLARE_REAL(char *, strtok_r, char *str, const char *delimiters, char **save)

// strtok_r scans from str (or *save) over leading delimiters to the end of
// the token, and overwrites the delimiter that ends it with a NUL.
static char *TokenizeAndMark(void *ctx, char *str, const char *delimiters,
                             char **save) {
  char *from = str ? str : *save;
  char *token = REAL(strtok_r)(str, delimiters, save);
  if (!from || !efsan_core_ranges_wanted())
    return token;
  ReadBytes(ctx, delimiters, REAL(strlen)(delimiters) + 1);
  // glibc leaves *save just past the NUL it wrote, or on the string's NUL:
  // the end of the scan without another pass over the token (strtok is
  // called once per token, so a strlen of each doubled its cost). Checked,
  // with the strlen as the fallback for a libc that does otherwise.
  char *end = *save;
  bool wrote_nul = token && end > token && end[-1] == '\0';
  if (wrote_nul)
    end--;
  if (!end || end < from || *end != '\0') {
    end = token ? token + REAL(strlen)(token) : from + REAL(strlen)(from);
    wrote_nul = token && *save > end;
  }
  ReadBytes(ctx, from, (uptr)(end - from) + 1);
  if (wrote_nul)
    efsan_core_access_range((uptr)end, 1, true, (uptr)ctx);
  return token;
}

INTERCEPTOR(char *, strtok_r, char *str, const char *delimiters, char **save) {
  void *ctx;
  COMMON_INTERCEPTOR_ENTER(ctx, strtok_r, str, delimiters, save);
  char *token = TokenizeAndMark(ctx, str, delimiters, save);
  COMMON_INTERCEPTOR_WRITE_RANGE(ctx, save, sizeof(*save));
  return token;
}

// glibc's strtok is strtok_r with a hidden position; keeping our own
// position tells where the scan starts.
static char *strtok_position;

INTERCEPTOR(char *, strtok, char *str, const char *delimiters) {
  void *ctx;
  COMMON_INTERCEPTOR_ENTER(ctx, strtok, str, delimiters);
  return TokenizeAndMark(ctx, str, delimiters, &strtok_position);
}

INTERCEPTOR(char *, strncpy, char *dest, const char *src, uptr n) {
  if (UNLIKELY(!REAL(strncpy)))
    return internal_strncpy(dest, src, n);
  void *ctx;
  COMMON_INTERCEPTOR_ENTER(ctx, strncpy, dest, src, n);
  char *res = REAL(strncpy)(dest, src, n);
  if (n && efsan_core_ranges_wanted()) {
    ReadBytes(ctx, src, Min(REAL(strnlen)(src, n) + 1, n));
    efsan_core_access_range((uptr)dest, n, true, (uptr)ctx);
  }
  return res;
}

//===-- libc's string functions for cache-frag's direct calls ------------===//

// Cache-frag: the libc string functions the program's code calls directly
// when none of the call's ranges is its sampled access. The pass counts the
// ranges the interceptor would count off the function's copy of the
// countdown and calls libc's function through __efsan_cf_<name>
// (EfficiencySanitizerCountdown.cpp): the interceptor's entry and flag
// tests cost more than a short string call itself (string_scan: 1.19x with
// the interceptors, 1.02x calling libc directly). Each is published only
// where its interceptor counts exactly that many ranges when it samples
// none (its common flag on), and where the program's calls of that name
// reach the interceptor at all: a program that defines its own strlen
// keeps calling it. A null pointer sends the call to the interceptor's
// symbol as before. Each on a line of its own, apart from anything written
// while the program runs.
#define EFSAN_CF_DIRECT_LIBC_CALLS(X)                                         \
  X(strlen, common_flags()->intercept_strlen)                                  \
  X(strnlen, common_flags()->intercept_strlen)                                 \
  X(strchr, true)                                                              \
  X(strrchr, true)                                                             \
  X(strstr, true)                                                              \
  X(memchr, true)                                                              \
  X(memrchr, true)                                                             \
  X(strcmp, common_flags()->intercept_strcmp)                                  \
  X(strncmp, true)                                                             \
  X(strcasecmp, true)                                                          \
  X(strncasecmp, true)                                                         \
  X(strspn, common_flags()->intercept_strspn)                                  \
  X(strcspn, common_flags()->intercept_strspn)                                 \
  X(strpbrk, common_flags()->intercept_strpbrk)                                \
  X(strncpy, true)                                                             \
  X(strtok_r, true)                                                            \
  X(memcmp, common_flags()->intercept_memcmp)                                  \
  X(bcmp, common_flags()->intercept_memcmp)

extern "C" {
#define EFSAN_DEFINE_CF_POINTER(name, published)                               \
  SANITIZER_INTERFACE_ATTRIBUTE ALIGNED(64) void *__efsan_cf_##name;
EFSAN_CF_DIRECT_LIBC_CALLS(EFSAN_DEFINE_CF_POINTER)
#undef EFSAN_DEFINE_CF_POINTER
}

// The address the program's calls of a name reach: the compiler may fold a
// comparison of two distinct functions' addresses to false, but the
// interceptor's name is an alias of its trampoline unless the program
// defines the name itself.
static uptr AddressOf(uptr function) {
  __asm__("" : "+r"(function));
  return function;
}

extern "C" void efsan_publish_direct_libc_calls(void) {
#define EFSAN_PUBLISH_CF_POINTER(name, published)                              \
  if ((published) && REAL(name) &&                                             \
      AddressOf((uptr)&name) == AddressOf((uptr)&TRAMPOLINE(name)))             \
    __efsan_cf_##name = (void *)REAL(name);
  EFSAN_CF_DIRECT_LIBC_CALLS(EFSAN_PUBLISH_CF_POINTER)
#undef EFSAN_PUBLISH_CF_POINTER
}

//===-- libc's mem* without marking, for __efsan_memcpy and friends ---------===//

extern "C" void *efsan_real_memcpy(void *dest, const void *src, uptr n) {
  return LIKELY(REAL(memcpy)) ? REAL(memcpy)(dest, src, n)
                              : internal_memcpy(dest, src, n);
}
extern "C" void *efsan_real_memmove(void *dest, const void *src, uptr n) {
  return LIKELY(REAL(memmove)) ? REAL(memmove)(dest, src, n)
                               : internal_memmove(dest, src, n);
}
extern "C" void *efsan_real_memset(void *dest, int c, uptr n) {
  return LIKELY(REAL(memset)) ? REAL(memset)(dest, c, n)
                              : internal_memset(dest, c, n);
}

namespace __efsan {
void InitializeInterceptors() {
  RuntimeAllocations ours; // dlsym's error messages
  reporting_pid = internal_getpid();
  // The allocator first: everything after may allocate.
  INTERCEPT_FUNCTION(malloc);
  INTERCEPT_FUNCTION(calloc);
  INTERCEPT_FUNCTION(realloc);
  INTERCEPT_FUNCTION(reallocarray);
  INTERCEPT_FUNCTION(free);
  INTERCEPT_FUNCTION(posix_memalign);
  INTERCEPT_FUNCTION(aligned_alloc);
  INTERCEPT_FUNCTION(memalign);
  INTERCEPT_FUNCTION(valloc);
  INTERCEPT_FUNCTION(pvalloc);
  INTERCEPT_FUNCTION(pthread_create);
  INTERCEPT_FUNCTION(pthread_join);
  // Only where a C++ library defines it (no error otherwise).
  INTERCEPT_FUNCTION(
      _ZNSt6thread15_M_start_threadESt10unique_ptrINS_6_StateESt14default_deleteIS1_EEPFvvE);
  INTERCEPT_FUNCTION(pthread_mutex_lock);
  INTERCEPT_FUNCTION(pthread_mutex_trylock);
  INTERCEPT_FUNCTION(pthread_mutex_timedlock);
  INTERCEPT_FUNCTION(pthread_mutex_unlock);
  INTERCEPT_FUNCTION(pthread_spin_lock);
  INTERCEPT_FUNCTION(pthread_spin_trylock);
  INTERCEPT_FUNCTION(pthread_spin_unlock);
  INTERCEPT_FUNCTION_VER(pthread_cond_wait, "GLIBC_2.3.2");
  INTERCEPT_FUNCTION_VER(pthread_cond_timedwait, "GLIBC_2.3.2");
  INTERCEPT_FUNCTION(fork);
  INTERCEPT_FUNCTION(mremap);
  INTERCEPT_FUNCTION(shmat);
  INTERCEPT_FUNCTION(exit);
  INTERCEPT_FUNCTION(__libc_start_main);
  InitializeOpenMPInterceptors();
  InitializeCommonInterceptors();
  INTERCEPT_FUNCTION(strstr);
  INTERCEPT_FUNCTION(memcmp);
  INTERCEPT_FUNCTION(bcmp);
  INTERCEPT_FUNCTION(strchr);
  INTERCEPT_FUNCTION(strrchr);
  INTERCEPT_FUNCTION(strtok_r);
  INTERCEPT_FUNCTION(strtok);
  INTERCEPT_FUNCTION(strncpy);
  pthread_key_create(&thread_exit_key, OnThreadExit);
  // Start-up runs on the main thread: it is counted in program_threads.
  pthread_setspecific(thread_exit_key, kThreadRunning);
}
} // namespace __efsan
