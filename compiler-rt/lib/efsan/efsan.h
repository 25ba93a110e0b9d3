//===-- efsan.h - the door between efsan's C core and its C++ glue -*- C -*-===//
//
// The C core (efsan_*.c: shadow, working set, cache-frag, reports) cannot include
// sanitizer_common's C++ headers, so everything it needs from sanitizer_common
// (output, fatal errors, internal memory, threads, stacks, symbolization, flags)
// is declared here and implemented by the glue (efsan_*.cpp). The calls the
// glue makes into the core (init, interceptor events, report at exit) are here
// too. Nothing in this header is part of the public interface; programs use
// <sanitizer/efsan_interface.h>.
//
// Rule for core code: never call libc for the runtime's own work. libc calls
// go through efsan's interceptors and would count the runtime's own memory
// traffic; use the efsan_internal_* functions below instead.
//
//===----------------------------------------------------------------------===//
#ifndef EFSAN_H
#define EFSAN_H

#ifdef __cplusplus
extern "C" {
#else
#include <stdbool.h>
// The same rule for the calls the compiler makes itself (a struct copied or
// cleared, a loop turned into memcpy): they go to sanitizer_common's own
// versions, as in its C++ files (sanitizer_redefine_builtins.h). Through
// the interceptors, the working-set timeline's struct copies on the sampler
// thread counted its stack and the runtime's tables as the program's
// "anonymous memory" (15 lines in docs/examples/phases.c), and cache-frag's
// report and model copies were ranges its countdown could sample.
__asm__("memcpy = __sanitizer_internal_memcpy");
__asm__("memmove = __sanitizer_internal_memmove");
__asm__("memset = __sanitizer_internal_memset");
#endif

#include <stdarg.h>

// The same types as sanitizer_common's (identical typedefs, so C++ files that
// see both names compile).
typedef unsigned long uptr;
typedef signed long sptr;
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;

#define EFSAN_CACHE_LINE_SIZE 64
#define EFSAN_CACHE_LINE_SHIFT 6

// Shadow mapping, as docs/InstrumentationABI.md: one byte per cache line.
#define EFSAN_SHADOW_OFFSET 0x7fff8000ULL
#define EFSAN_SHADOW_END 0x2007fff8000ULL
#define EFSAN_APP_END 0x800000000000ULL /* end of the 47-bit user space */
static inline u8 *efsan_shadow_of(uptr addr) {
  return (u8 *)((addr >> EFSAN_CACHE_LINE_SHIFT) + EFSAN_SHADOW_OFFSET);
}
static inline uptr efsan_app_of_shadow(const u8 *shadow) {
  return ((uptr)shadow - EFSAN_SHADOW_OFFSET) << EFSAN_CACHE_LINE_SHIFT;
}

// Working set's changed-page map (docs/InstrumentationABI.md): one byte per
// 4 KiB page of shadow, set whenever a byte of that page gains bit 0, so that
// the sampler visits only the shadow that changed. It lives in the shadow of
// the shadow, which no application address maps to, inside the shadow
// reservation: [EFSAN_DIRTY_MAP, + 512 MiB). The sampler keeps one byte of
// its own per shadow page right after it (EFSAN_PENDING_MAP).
#define EFSAN_SHADOW_PAGE_SHIFT 12
#define EFSAN_DIRTY_MAP 0x82000000ULL
#define EFSAN_DIRTY_MAP_SIZE                                                   \
  ((EFSAN_SHADOW_END - EFSAN_SHADOW_OFFSET) >> EFSAN_SHADOW_PAGE_SHIFT)
#define EFSAN_PENDING_MAP (EFSAN_DIRTY_MAP + EFSAN_DIRTY_MAP_SIZE)
static inline u8 *efsan_dirty_byte_of(const u8 *shadow) {
  return (u8 *)((((uptr)shadow - EFSAN_SHADOW_OFFSET) >>
                 EFSAN_SHADOW_PAGE_SHIFT) + EFSAN_DIRTY_MAP);
}

// Tool ids (docs/InstrumentationABI.md "Tools").
enum efsan_tool {
  EFSAN_TOOL_NONE = 0,
  EFSAN_TOOL_CACHE_FRAG = 1,
  EFSAN_TOOL_WORKING_SET = 2,
};
// The tool of this process, fixed at init (from __efsan_which_tool).
extern int efsan_active_tool;

//===-- Flags -------------------------------------------------------------===//
// ESAN_OPTIONS values, one field per EFSAN_FLAG in efsan_flags.inc. Filled in
// by the glue before any tool code runs; read-only afterwards. The common
// flags (verbosity, log_path, exitcode, ...) live in sanitizer_common and are
// reached through the accessors below.
struct efsan_flags {
#define EFSAN_FLAG(Type, Name, DefaultValue, Description) Type Name;
#include "efsan_flags.inc"
#undef EFSAN_FLAG
};
extern struct efsan_flags efsan_flags;
int efsan_verbosity(void);
int efsan_exitcode(void);

//===-- Suppressions --------------------------------------------------------===//
// suppressions=FILE (efsan_suppressions.cpp): sanitizer_common's suppressions,
// one "type:pattern" a line, read at start-up (a file that cannot be read or
// parsed ends the program before main). A pattern matches anywhere in a name
// unless anchored with ^ or $; * matches any run of characters. The working
// set has no findings: its reports consult none of these types.
enum efsan_suppression_type {
  EFSAN_SUPPRESS_FALSE_SHARING,           // "false_sharing"
  EFSAN_SUPPRESS_TRUE_SHARING,            // "true_sharing"
  EFSAN_SUPPRESS_PREDICTED_FALSE_SHARING, // "predicted_false_sharing"
  EFSAN_SUPPRESS_STRUCT,                  // "struct"
};
// Is there a suppression of this type at all? Matching a finding symbolizes
// its sites, which a report without such suppressions need not pay.
bool efsan_suppressions_of(enum efsan_suppression_type type);
// Does a suppression of this type match name (a global's, a function's, a
// struct type's)? Null or empty names match nothing.
bool efsan_suppressed_name(enum efsan_suppression_type type, const char *name);
// The same for a source file: its path as the debug info gives it, then its
// last component (so that "^main.c$" matches /src/main.c).
bool efsan_suppressed_file(enum efsan_suppression_type type, const char *path);

//===-- Output ------------------------------------------------------------===//
// Printf to the report destination: stderr, or log_path.PID with log_path=P.
// The format language is sanitizer_common's: %d %u %x %zu %zd %llu %lld %p %s
// %c %% with widths and '-' / '0'; there is no %f (print fixed point as
// integers). Each call is one write(2).
void efsan_printf(const char *format, ...) __attribute__((format(printf, 1, 2)));
void efsan_vprintf(const char *format, va_list args);
// Same as efsan_printf but prefixed with "==PID==" (sanitizer Report()).
void efsan_report_line(const char *format, ...) __attribute__((format(printf, 1, 2)));
// Around each whole report (both tools): reports are written one at a time,
// and with report_format=json and log_path=P a report written while the
// program runs (__efsan_report) goes to a file of its own, P.PID.N (N = 1,
// 2, ...), so that every file holds exactly one JSON document; the report at
// exit goes to P.PID.
// With the process tree on (tree_reports), a process other than the tree's
// root writes each report to a file of its own in the tree's directory
// (efsan_tree.cpp): efsan_report_begin then returns true, and that report is
// JSON whatever report_format says (efsan-view --merge reads it).
bool efsan_report_begin(bool at_exit);
void efsan_report_end(void);
// After the root's report at exit: true (and a report to write, then
// efsan_report_end) when its descendants have reported, so that its JSON
// report joins theirs in the tree's directory.
bool efsan_report_begin_root_copy(void);
// The process in its tree (efsan_tree.cpp); false when the tree is off
// (tree_reports=0, setuid programs).
struct efsan_process_tree {
  bool root;       // the tree's first instrumented process (or its exec)
  bool forked;     // a forked child that has not called exec since
  int root_pid, parent_pid;
  const char *name;      // the program's name, or what it renamed itself to
  const char *directory; // where processes without log_path write
  const char *log_path;  // log_path=P (the files P.PID), or null
  u32 descendant_reports; // root: reports of its descendants found so far
};
bool efsan_process_tree(struct efsan_process_tree *tree);
// snprintf with the same format language, no libc.
int efsan_snprintf(char *buffer, uptr length, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
// Prints "==PID==EfficiencySanitizer: ERROR: <message>" (one line; the format
// should not end in a newline) to stderr and exits with status 1.
void efsan_fatal(const char *format, ...)
    __attribute__((noreturn, format(printf, 1, 2)));
// Prints "==PID==EfficiencySanitizer: WARNING: <message>" (one line, the
// format without a newline) to stderr whatever log_path says: a misuse of
// the interface the program should hear of, outside any report.
void efsan_warn(const char *format, ...) __attribute__((format(printf, 1, 2)));
// Prints only when verbosity >= level, prefixed like efsan_report_line.
void efsan_vreport(int level, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

//===-- Memory and libc replacements ----------------------------------------===//
// Anonymous private mapping, zero-filled, page-granular; dies on failure.
void *efsan_mmap(uptr size);
void efsan_munmap(void *addr, uptr size);
// The same with MAP_NORESERVE: for large tables of which only the parts
// used become resident.
void *efsan_mmap_noreserve(uptr size);
// Read-write anonymous MAP_NORESERVE mapping at exactly addr, never replacing
// an existing mapping (MAP_FIXED_NOREPLACE), without transparent huge pages.
// Returns 0 or an errno value.
int efsan_mmap_fixed_noreserve(uptr addr, uptr size);
// madvise(MADV_DONTNEED): the range reads as zero again and is not resident.
void efsan_madvise_dontneed(uptr addr, uptr size);
// mincore(2) without the interceptor; returns 0 on success.
int efsan_mincore(uptr addr, uptr size, u8 *vec);
void *efsan_internal_memset(void *s, int c, uptr n);
void *efsan_internal_memcpy(void *dest, const void *src, uptr n);
void *efsan_internal_memmove(void *dest, const void *src, uptr n);
// libc's own (fast) memcpy/memmove/memset, bypassing the interceptors: the
// operation without any marking.
void *efsan_real_memcpy(void *dest, const void *src, uptr n);
void *efsan_real_memmove(void *dest, const void *src, uptr n);
void *efsan_real_memset(void *dest, int c, uptr n);
// The working set's inline compares (docs/Pass.md, "memcmp and bcmp"): once
// the tool starts, libc's memcmp and bcmp go into __efsan_ws_memcmp and
// __efsan_ws_bcmp, which instrumented code calls directly after checking both
// ranges itself. Only when the interceptors would mark the same lines: with
// intercept_memcmp=0 or strict_memcmp=0 they stay null, and instrumented code
// calls the interceptors.
void efsan_publish_inline_compares(void);
// Cache-frag's direct libc calls (docs/Pass.md, "libc string calls"): once
// the tool starts, libc's string functions go into __efsan_cf_<name>, which
// instrumented code calls when none of the call's ranges is the thread's
// sampled access; each stays null where its interceptor's flag is off or
// the program defines the function itself.
void efsan_publish_direct_libc_calls(void);
uptr efsan_internal_strlen(const char *s);
int efsan_internal_strcmp(const char *a, const char *b);
int efsan_internal_strncmp(const char *a, const char *b, uptr n);
uptr efsan_page_size(void);
// Calls visit for every mapping of /proc/self/maps in address order. prot is
// a mask of EFSAN_PROT_*; path is "" for anonymous memory.
#define EFSAN_PROT_READ 1
#define EFSAN_PROT_WRITE 2
#define EFSAN_PROT_EXEC 4
typedef void (*efsan_mapping_visitor)(uptr lo, uptr hi, int prot,
                                      const char *path, void *arg);
void efsan_for_each_mapping(efsan_mapping_visitor visit, void *arg);
// The same, every mapping to first and then every mapping to second, from
// one reading of /proc/self/maps (each reading costs a short process tens of
// microseconds).
void efsan_for_each_mapping_twice(efsan_mapping_visitor first,
                                  efsan_mapping_visitor second, void *arg);
// The same for the shared mappings only (MAP_SHARED of a file, of anonymous
// memory or /dev/zero, SysV shm: an 's' in the permissions), with what names
// their memory in every process that maps it, wherever it is mapped there:
// the file's device and inode (the kernel's shmem object's for anonymous
// and SysV memory) and the offset in the file of lo.
struct efsan_mapping_id {
  u32 dev_major, dev_minor;
  u64 inode, offset;
};
typedef void (*efsan_shared_mapping_visitor)(uptr lo, uptr hi,
                                             const struct efsan_mapping_id *id,
                                             const char *path, void *arg);
void efsan_for_each_shared_mapping(efsan_shared_mapping_visitor visit,
                                   void *arg);
// Between these, the visits above share one reading of /proc/self/maps: a
// report reads it once, not at each of its parts (the program's threads
// may still map memory meanwhile; a report is a moment's view anyway).
void efsan_maps_hold(void);
void efsan_maps_release(void);
int efsan_getpid(void);
// Reads at most size - 1 bytes of a (small) file into buffer and ends them
// with a NUL; returns the length, or -1 if the file cannot be opened.
sptr efsan_read_file(const char *path, char *buffer, uptr size);
// An environment variable's value, or null (also in a set-user-ID program).
const char *efsan_getenv(const char *name);
// Writes a whole file in one go: it replaces path (renamed from a file of
// this process's own, so readers see the old or the new file, never half of
// one), making missing directories first. False on any failure.
bool efsan_write_file_replacing(const char *path, const char *data,
                                uptr length);
// Seconds since the epoch (CLOCK_REALTIME), 0 if unknown.
u64 efsan_realtime_seconds(void);
// Ends the process at once with status (no atexit handlers, no report).
void efsan_exit_now(int status) __attribute__((noreturn));
// The program's path as the kernel gave it (/proc/self/exe, read at start-up,
// so neither argv[0] nor a later exec, rename or chroot changes it); never
// null.
const char *efsan_executable_path(void);

//===-- Locking, threads, time ----------------------------------------------===//
// A spin lock that yields; zero-initialised means unlocked. Not recursive.
typedef struct efsan_mutex {
  u64 opaque;
} efsan_mutex;
void efsan_mutex_lock(efsan_mutex *m);
// Takes the lock if it is free; never waits.
bool efsan_mutex_trylock(efsan_mutex *m);
void efsan_mutex_unlock(efsan_mutex *m);

// Starts a runtime thread with all signals blocked (it never runs program
// code or takes the program's signals). Its efsan_thread_index is
// EFSAN_INTERNAL_THREAD. Returns false if threads are not available.
bool efsan_start_sideline_thread(void (*fn)(void *arg), void *arg);
void efsan_sleep_ms(u32 ms);
void efsan_sleep_us(u32 us);
u64 efsan_monotonic_ns(void);
// CPU time the calling thread has used (CLOCK_THREAD_CPUTIME_ID), and the
// whole process (CLOCK_PROCESS_CPUTIME_ID).
u64 efsan_thread_cpu_ns(void);
u64 efsan_process_cpu_ns(void);
// The CPU time of the live thread with kernel id tid (0 if unknown), and the
// calling thread's kernel id.
u64 efsan_thread_cpu_ns_of(u32 tid);
u32 efsan_gettid(void);
// A memory barrier run by every thread of the process (membarrier's
// private expedited command): after it, each thread's earlier stores are
// visible to the caller. Register once (and again in a forked child); false
// when the kernel has none.
bool efsan_membarrier_register(void);
bool efsan_membarrier(void);
// The calling thread's CPU affinity mask (bit c of word c / 64: CPU c), and
// setting it; false on failure.
bool efsan_get_affinity(u64 *mask, uptr words);
bool efsan_set_affinity(const u64 *mask, uptr words);

// Stable index of the current thread: 0 for the main thread, then 1, 2, ... in
// pthread_create order (a forked child keeps the forking thread's index).
// Runtime threads have EFSAN_INTERNAL_THREAD. Reading it is one TLS load.
#define EFSAN_INTERNAL_THREAD 0xffffffffu
extern __thread u32 efsan_thread_index __attribute__((tls_model("initial-exec")));
// Number of thread indices handed out so far (main thread included); inline,
// since cache-frag's sampled path asks it at every sample.
extern u32 efsan_next_thread_index;
static inline u32 efsan_thread_count(void) {
  return __atomic_load_n(&efsan_next_thread_index, __ATOMIC_RELAXED);
}
// pthread_self() of the calling thread.
uptr efsan_thread_handle(void);

//===-- Stacks and symbols --------------------------------------------------===//
// Stack depot id of the caller's stack (fast frame-pointer unwind, at most
// 64 frames, starting at the caller of efsan_capture_stack). 0 if none.
u32 efsan_capture_stack(void);
struct efsan_frame {
  uptr pc;
  const char *function; // never null ("<unknown>" if the symbolizer failed)
  const char *file;     // null if unknown
  int line;             // 0 if unknown
  // One of the program's allocation wrappers (xmalloc...) before the first
  // frame that is not one, the site a report names (efsan_site_index).
  bool allocation_wrapper;
};
// Symbolizes the stack with depot id stack_id into at most max_frames frames
// (inlined frames expanded, runtime frames skipped, and the C++ library's
// frames before the program's first one skipped); returns the count. The
// leading frames of allocation wrappers are marked when a frame outside them
// follows within max_frames. The strings stay valid for the life of the
// process.
uptr efsan_symbolize_stack(u32 stack_id, struct efsan_frame *frames,
                           uptr max_frames);
// Symbolizes the code address pc (a return address: the call before it is
// looked up) into at most max_frames frames, innermost inlined one first.
uptr efsan_symbolize_pc(uptr pc, struct efsan_frame *frames, uptr max_frames);
// Looks up the global variable containing addr with the symbolizer's data
// lookup (symbol table). On success fills name (valid for the life of the
// process), start and size and returns true.
bool efsan_symbolize_global(uptr addr, const char **name, uptr *start,
                            uptr *size);
// Calls visit(start, size, arg) for every global variable in the ELF symbol
// table (.symtab, no symbolizer process) of the module holding addr; false if
// that module has no symbol table. Addresses are the loaded ones.
typedef void (*efsan_symbol_visitor)(uptr start, uptr size, void *arg);
bool efsan_for_each_global_symbol(uptr addr, efsan_symbol_visitor visit,
                                  void *arg);
// The (demangled) name of the global starting at start, from the symbol
// table only; null if none.
const char *efsan_global_name(uptr start);
// The name of the function at pc from its module's symbol table (no
// symbolizer process), demangled; null if none.
const char *efsan_function_name(uptr pc);
// The name of a thread's start function at pc, for reports: as
// efsan_function_name, but a std::thread's (its state's _M_run) is named by
// the lambda or functor it runs, with its file:line where the debug info
// has it ("main::$_0::operator()() const f.cpp:12"). May start the
// symbolizer.
const char *efsan_start_function_name(uptr pc);
// The end of the live heap block of at most 4 KiB that holds addr
// (efsan_heap.c), or 0 if the heap table has none (it is kept only when a
// tool asks for heap blocks); marks nothing.
uptr efsan_heap_block_end(uptr addr);
// pc is the start of std::async's state's _M_run (efsan_symbolize.cpp).
bool efsan_is_async_state_run(uptr pc);

// The call site (a return address) of the OpenMP parallel region the thread
// with that index was started for, 0 if it is not an OpenMP runtime's thread
// (efsan_openmp.cpp).
uptr efsan_openmp_thread_region(u32 thread);
// The name reports give the thread with that index instead of its start
// routine's ("omp parallel at FILE:LINE" for an OpenMP runtime's thread), or
// null. For reports only (it may start the symbolizer).
const char *efsan_thread_name(u32 thread);
// The name the program gave the thread with that index
// (pthread_setname_np, prctl(PR_SET_NAME)), or null.
const char *efsan_thread_given_name(u32 thread);

//===-- Glue -> core --------------------------------------------------------===//
// Idempotent: parses ESAN_OPTIONS, installs the interceptors, then calls
// efsan_core_init(__efsan_which_tool). Normally run from .preinit_array.
void efsan_glue_init(void);
// Next thread index in creation order (called by pthread_create).
// The calling thread took (+1) or let go of (-1) a mutex or spin lock.
void efsan_core_lock_held(int delta);
// creation_stack: stack depot id of the pthread_create call, or 0.
u32 efsan_core_next_thread_index(u32 creation_stack);
// Called once from .preinit_array (or the first __efsan_init) after the flags
// are parsed and the interceptors are installed.
void efsan_core_init(int tool);
// Program is about to end (atexit machinery ran): write the final report once.
void efsan_core_finish(void);
// Called by every thread that is about to enter libc's exit() (exit calls,
// main's return, the last thread's exit). The first returns at once; any
// other waits until the report is written, so that it cannot end the process
// in the middle of the report.
void efsan_core_before_exit(void);
// Thread lifecycle, called on the new thread itself (start) and before it
// exits (exit). stack_lo/hi is the thread's stack.
void efsan_core_thread_start(uptr stack_lo, uptr stack_hi, uptr start_routine);
void efsan_core_thread_exit(void);
// pthread_join(handle) returned 0 (called on the joining thread).
void efsan_core_thread_joined(uptr handle);
// The calling thread releases / has acquired the lock (mutex, spin lock,
// semaphore) at addr.
void efsan_core_sync_release(uptr addr);
void efsan_core_sync_acquire(uptr addr);
// In the child right after fork (only the calling thread survives).
void efsan_core_fork_child(void);
// Before fork in the parent / after it in the parent: keep the sampler from
// holding locks across fork.
void efsan_core_fork_prepare(void);
void efsan_core_fork_parent(void);
// Memory events from interceptors. (munmap needs none: unmapped ranges stay
// in the registry, so their lines keep counting.)
// accessible: the mapping's protection is not PROT_NONE.
void efsan_core_mmap(uptr addr, uptr size, bool accessible);
// True if [addr, addr+size) overlaps efsan's shadow (reserved at start-up):
// a MAP_FIXED mapping there is refused with EINVAL, as TSan and MSan do.
bool efsan_core_range_is_shadow(uptr addr, uptr size);
void efsan_core_malloc(uptr addr, uptr size, u32 stack_id);
void efsan_core_free(uptr addr);
// Is an allocation stack worth capturing for efsan_core_malloc (cache-frag,
// and the working set's objects)?
bool efsan_core_wants_alloc_stacks(void);
// And for this allocation of `size` bytes: past alloc_stacks_exact
// allocations, one per alloc_stack_sample_bytes allocated on average gets
// its stack (efsan.c, "Allocation stacks").
bool efsan_core_wants_alloc_stack(uptr size);
// Whether allocation stacks began to be sampled; a report says so once,
// with how many blocks went without theirs (text: one line after `indent`;
// JSON: the "allocation_stacks" member and its comma).
bool efsan_alloc_stacks_sampled(void);
void efsan_print_alloc_stack_sampling(const char *indent);
void efsan_json_alloc_stack_sampling(const char *indent);
// A shared library was loaded (dlopen): its mappings join the registry now.
void efsan_core_library_loaded(void);
// The active tool's hooks (efsan_tool.h), for the inline range checks below.
#include "efsan_tool.h"
// The thread's sampling countdown (the ABI's, docs/InstrumentationABI.md),
// which ranges count down under EFSAN_RANGES_SAMPLED.
extern __thread long long __efsan_cache_frag_countdown
    __attribute__((tls_model("initial-exec")));
// Would a range be recorded now? False for a sampling tool outside its
// sampled accesses, so that interceptors skip sizing the range (a strlen) at
// all. Inline, with the common case decided by one load of the range policy:
// the interceptors call this and efsan_core_access_range around every libc
// string and memory function. Under EFSAN_RANGES_SAMPLED a range that is not
// the thread's sampled access costs a decrement of the countdown here,
// inline: two calls into the runtime per range were a tenth of string_scan's
// time under cache-frag (issue 24). Only the range that runs the countdown
// out goes to the tool, which ends the period there. efsan_core_access_range
// records a range only after this returned true for it (the interceptors
// test it first, as they must anyway to skip sizing the range).
static inline bool efsan_core_ranges_wanted(void) {
  if (__builtin_expect(efsan_tool_hooks.ranges == EFSAN_RANGES_ALL, 1))
    return true;
  if (efsan_tool_hooks.ranges != EFSAN_RANGES_SAMPLED)
    return false;
  if (__builtin_expect(__efsan_cache_frag_countdown > 1, 1)) {
    __efsan_cache_frag_countdown--;
    return false;
  }
  return efsan_tool_hooks.libc_range_sampled();
}
// Under EFSAN_RANGES_SAMPLED, counts n ranges off the thread's countdown at
// once when none of them is its sampled access (true): what n calls of
// efsan_core_ranges_wanted() returning false would do, without the calls,
// for the interceptors of short, frequent calls (memcmp). False otherwise,
// and for a tool that records every range.
static inline bool efsan_core_ranges_skipped(long long n) {
  if (efsan_tool_hooks.ranges != EFSAN_RANGES_SAMPLED ||
      __efsan_cache_frag_countdown <= n)
    return false;
  __efsan_cache_frag_countdown -= n;
  return true;
}
// Ranges libc read or wrote on the program's behalf; pc is the caller of the
// libc function.
static inline void efsan_core_access_range(uptr addr, uptr size,
                                           bool is_write, uptr pc) {
  efsan_tool_hooks.libc_range(addr, size, is_write, pc);
}

#ifdef __cplusplus
} // extern "C"
#endif

#endif // EFSAN_H
