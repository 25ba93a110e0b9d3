//===-- efsan_openmp.cpp - OpenMP parallel regions of efsan ---------------===//
//
// Names the threads an OpenMP runtime starts after the parallel region that
// started them: the #pragma's source line, instead of the runtime's own
// thread-creation frames (libomp and libgomp are built without frame
// pointers, so a stack taken in pthread_create ends inside them).
//
// While a thread enters a parallel region it remembers the region's call
// site in the program (the return address of the runtime's entry point and a
// frame pointer of the program to unwind from); a pthread_create on that
// thread meanwhile takes its creation stack from there and records the
// region as the new thread's (efsan_openmp_thread_region).
// - clang's libomp: an OMPT tool (the OpenMP 5 tool interface, found by
//   libomp through the exported ompt_start_tool) with the parallel-begin and
//   parallel-end callbacks. The region entry __kmpc_fork_call is variadic and
//   cannot be wrapped.
// - GCC's libgomp (and the GOMP entry points of libomp, which serve
//   GCC-built code): the GOMP_parallel* entry points are intercepted.
// Only for the cache-frag tool, whose reports name threads; a program that
// names its own OMPT tool (OMP_TOOL_LIBRARIES) keeps it, unnamed.
//
//===----------------------------------------------------------------------===//
#include "efsan.h"
#include "efsan_glue.h"
#include "interception/interception.h"
#include "sanitizer_common/sanitizer_allocator_internal.h"
#include "sanitizer_common/sanitizer_common.h"
#include "sanitizer_common/sanitizer_libc.h"

using namespace __sanitizer;
using namespace __efsan;

//===-- The regions a thread is entering --------------------------------------===//

namespace {
struct RegionEntry {
  uptr pc;        // return address of the runtime's entry, in the program
  uptr frame;     // frame to unwind the program's stack from (0: none)
  bool from_gomp; // pushed by a GOMP_* interceptor
  bool ompt_seen; // ... whose parallel-begin callback came too (libomp)
};
} // namespace

// Regions nest (a parallel region inside another on the same thread); deeper
// ones than this are counted but not remembered.
static const int kMaxNesting = 8;
static __thread RegionEntry entered_regions[kMaxNesting]
    __attribute__((tls_model("initial-exec")));
static __thread int entered_depth __attribute__((tls_model("initial-exec")));

static void PushRegion(uptr pc, uptr frame, bool from_gomp) {
  int depth = entered_depth++;
  if (depth < 0 || depth >= kMaxNesting)
    return;
  entered_regions[depth] = {pc, frame, from_gomp, false};
}

static void PopRegion() {
  if (entered_depth > 0)
    entered_depth--;
}

static RegionEntry *InnermostRegion() {
  int depth = entered_depth;
  if (depth <= 0 || depth > kMaxNesting)
    return nullptr;
  return &entered_regions[depth - 1];
}

// The region each thread was started for, by thread index (0: none or not
// an OpenMP thread). Threads beyond the table stay unnamed.
static const u32 kMaxNamedThreads = 1 << 14;
static uptr thread_regions[kMaxNamedThreads];

bool __efsan::OpenMPRegionBeingEntered(uptr *pc, uptr *frame) {
  const RegionEntry *entry = InnermostRegion();
  if (!entry)
    return false;
  *pc = entry->pc;
  *frame = entry->frame;
  return true;
}

void __efsan::OpenMPThreadCreated(u32 thread, uptr region_pc) {
  if (thread < kMaxNamedThreads)
    __atomic_store_n(&thread_regions[thread], region_pc, __ATOMIC_RELAXED);
}

extern "C" uptr efsan_openmp_thread_region(u32 thread) {
  return thread < kMaxNamedThreads
             ? __atomic_load_n(&thread_regions[thread], __ATOMIC_RELAXED)
             : 0;
}

// "omp parallel at FILE:LINE" (FILE without its directories: the creation
// stack has the path), or the function's name when the line is unknown.
// Reports only, one region per name: the names stay for the life of the
// process.
extern "C" const char *efsan_thread_name(u32 thread) {
  uptr pc = efsan_openmp_thread_region(thread);
  if (!pc)
    return nullptr;
  static struct {
    uptr pc;
    const char *name;
  } names[16];
  static u32 name_count;
  for (u32 i = 0; i < name_count; i++)
    if (names[i].pc == pc)
      return names[i].name;
  struct efsan_frame frame;
  char buffer[256];
  if (efsan_symbolize_pc(pc, &frame, 1) && frame.file && frame.line) {
    const char *slash = internal_strrchr(frame.file, '/');
    internal_snprintf(buffer, sizeof(buffer), "omp parallel at %s:%d",
                      slash ? slash + 1 : frame.file, frame.line);
  } else {
    internal_snprintf(buffer, sizeof(buffer), "omp parallel in %s",
                      efsan_symbolize_pc(pc, &frame, 1) ? frame.function
                                                        : "(unknown)");
  }
  uptr length = internal_strlen(buffer) + 1;
  char *name = (char *)InternalAlloc(length);
  internal_memcpy(name, buffer, length);
  if (name_count < sizeof(names) / sizeof(names[0]))
    names[name_count++] = {pc, name};
  return name;
}

static bool NamingThreads() {
  return efsan_tool_hooks.names_openmp_threads;
}

//===-- libomp: an OMPT tool ---------------------------------------------------===//
// The few types of the OpenMP 5.0 tool interface (omp-tools.h) that this
// tool uses, declared here so that the runtime builds without libomp's
// headers.

namespace {
union OmptData {
  u64 value;
  void *ptr;
};
struct OmptFrame {
  OmptData exit_frame;
  OmptData enter_frame; // the runtime's frame entered from the program
  int exit_frame_flags;
  int enter_frame_flags;
};
typedef void (*OmptInterfaceFn)(void);
typedef OmptInterfaceFn (*OmptLookup)(const char *name);
typedef int (*OmptSetCallback)(int event, OmptInterfaceFn callback);
struct OmptStartToolResult {
  int (*initialize)(OmptLookup lookup, int initial_device, OmptData *tool);
  void (*finalize)(OmptData *tool);
  OmptData tool_data;
};
} // namespace

// Event numbers and frame flags of the OpenMP 5.0 specification.
static const int kOmptCallbackParallelBegin = 3;
static const int kOmptCallbackParallelEnd = 4;
static const int kOmptFrameFramepointer = 0x20;

static void OnParallelBegin(OmptData *encountering_task,
                            const OmptFrame *encountering_frame,
                            OmptData *parallel, unsigned requested_threads,
                            int flags, const void *codeptr_ra) {
  RegionEntry *entry = InnermostRegion();
  if (entry && entry->from_gomp && !entry->ompt_seen) {
    // libomp serving a GOMP_* call we intercepted: its return address is in
    // the interceptor; the interceptor's entry already names the region.
    entry->ompt_seen = true;
    return;
  }
  // The frame libomp entered from the program: unwinding from it yields the
  // program's frames above the region's call site.
  uptr frame = 0;
  if (encountering_frame &&
      (encountering_frame->enter_frame_flags & kOmptFrameFramepointer))
    frame = (uptr)encountering_frame->enter_frame.ptr;
  PushRegion((uptr)codeptr_ra, frame, false);
}

static void OnParallelEnd(OmptData *parallel, OmptData *encountering_task,
                          int flags, const void *codeptr_ra) {
  RegionEntry *entry = InnermostRegion();
  if (entry && entry->from_gomp && entry->ompt_seen) {
    entry->ompt_seen = false;
    return;
  }
  PopRegion();
}

static int OmptInitialize(OmptLookup lookup, int initial_device,
                          OmptData *tool) {
  OmptSetCallback set_callback =
      (OmptSetCallback)lookup("ompt_set_callback");
  if (!set_callback)
    return 0;
  set_callback(kOmptCallbackParallelBegin, (OmptInterfaceFn)OnParallelBegin);
  set_callback(kOmptCallbackParallelEnd, (OmptInterfaceFn)OnParallelEnd);
  return 1;
}

static void OmptFinalize(OmptData *tool) {}

// libomp looks this up at start-up; a null result means no tool.
extern "C" SANITIZER_INTERFACE_ATTRIBUTE OmptStartToolResult *
ompt_start_tool(unsigned omp_version, const char *runtime_version) {
  static OmptStartToolResult tool = {OmptInitialize, OmptFinalize, {0}};
  if (!NamingThreads() || GetEnv("OMP_TOOL_LIBRARIES"))
    return nullptr;
  return &tool;
}

//===-- libgomp: the GOMP_parallel entry points ---------------------------------===//
// Each runs the whole region (team start, the outlined function on the
// calling thread, the end barrier) before it returns.

// REAL is null when no OpenMP runtime was loaded at start-up: a library
// loaded later may bring one, and its GOMP_* calls bind to these wrappers,
// which the executable exports. A library loaded with RTLD_LOCAL is not in
// RTLD_NEXT's scope: the runtimes are then asked for by name.
extern "C" void *dlsym(void *handle, const char *symbol);
extern "C" void *dlopen(const char *file, int mode);
static void *const RTLD_NEXT = (void *)-1l;
static const int RTLD_LAZY = 1, RTLD_NOLOAD = 4;

static void *FindGompEntry(const char *name) {
  if (void *entry = dlsym(RTLD_NEXT, name))
    return entry;
  static const char *const runtimes[] = {"libgomp.so.1", "libomp.so.5",
                                         "libomp.so"};
  for (const char *runtime : runtimes) {
    void *handle = dlopen(runtime, RTLD_LAZY | RTLD_NOLOAD);
    if (void *entry = handle ? dlsym(handle, name) : nullptr)
      return entry;
  }
  return nullptr;
}

#define EFSAN_GOMP_REAL(name)                                                  \
  (REAL(name) ? REAL(name)                                                     \
              : (REAL(name) = (decltype(REAL(name)))FindGompEntry(#name)))

#define EFSAN_GOMP_REGION(name, call)                                          \
  if (!EFSAN_GOMP_REAL(name)) {                                                \
    Report("EfficiencySanitizer: " #name " called but no OpenMP runtime "      \
           "provides it\n");                                                   \
    Die();                                                                     \
  }                                                                            \
  if (!NamingThreads())                                                        \
    return REAL(name) call;                                                    \
  PushRegion(GET_CALLER_PC(), GET_CURRENT_FRAME(), true);                      \
  REAL(name) call;                                                             \
  PopRegion();

typedef void (*GompFn)(void *);

INTERCEPTOR(void, GOMP_parallel, GompFn fn, void *data, unsigned threads,
            unsigned flags) {
  EFSAN_GOMP_REGION(GOMP_parallel, (fn, data, threads, flags))
}

#define EFSAN_GOMP_PARALLEL_LOOP(name)                                         \
  INTERCEPTOR(void, name, GompFn fn, void *data, unsigned threads, long start, \
              long end, long incr, long chunk, unsigned flags) {               \
    EFSAN_GOMP_REGION(name, (fn, data, threads, start, end, incr, chunk,       \
                             flags))                                           \
  }
EFSAN_GOMP_PARALLEL_LOOP(GOMP_parallel_loop_static)
EFSAN_GOMP_PARALLEL_LOOP(GOMP_parallel_loop_dynamic)
EFSAN_GOMP_PARALLEL_LOOP(GOMP_parallel_loop_guided)
EFSAN_GOMP_PARALLEL_LOOP(GOMP_parallel_loop_nonmonotonic_dynamic)
EFSAN_GOMP_PARALLEL_LOOP(GOMP_parallel_loop_nonmonotonic_guided)

INTERCEPTOR(void, GOMP_parallel_loop_runtime, GompFn fn, void *data,
            unsigned threads, long start, long end, long incr,
            unsigned flags) {
  EFSAN_GOMP_REGION(GOMP_parallel_loop_runtime,
                    (fn, data, threads, start, end, incr, flags))
}

INTERCEPTOR(void, GOMP_parallel_sections, GompFn fn, void *data,
            unsigned threads, unsigned count, unsigned flags) {
  EFSAN_GOMP_REGION(GOMP_parallel_sections, (fn, data, threads, count, flags))
}

// The GCC 4.2 ABI: the team starts here and the region ends in
// GOMP_parallel_end, after the calling thread ran the outlined function.
INTERCEPTOR(void, GOMP_parallel_start, GompFn fn, void *data,
            unsigned threads) {
  EFSAN_GOMP_REGION(GOMP_parallel_start, (fn, data, threads))
}

void __efsan::InitializeOpenMPInterceptors() {
  INTERCEPT_FUNCTION(GOMP_parallel);
  INTERCEPT_FUNCTION(GOMP_parallel_loop_static);
  INTERCEPT_FUNCTION(GOMP_parallel_loop_dynamic);
  INTERCEPT_FUNCTION(GOMP_parallel_loop_guided);
  INTERCEPT_FUNCTION(GOMP_parallel_loop_nonmonotonic_dynamic);
  INTERCEPT_FUNCTION(GOMP_parallel_loop_nonmonotonic_guided);
  INTERCEPT_FUNCTION(GOMP_parallel_loop_runtime);
  INTERCEPT_FUNCTION(GOMP_parallel_sections);
  INTERCEPT_FUNCTION(GOMP_parallel_start);
}
