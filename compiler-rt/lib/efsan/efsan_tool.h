//===-- efsan_tool.h - the seam between the core and the tools ---*- C -*-===//
//
// Each tool (working set, cache-frag) fills one table of hooks; the core
// (efsan.c) calls the active tool through it and names no tool's function.
// A hook left null means the tool has nothing to do at that event. The
// table is copied into efsan_tool_hooks when the tool starts, so that the
// calls on the access paths read one global, not a pointer to it.
//
// Part of efsan.h (which includes it after its types), since the glue's
// inline range checks read the active tool's range policy.
//
//===----------------------------------------------------------------------===//
#ifndef EFSAN_TOOL_H
#define EFSAN_TOOL_H

// What the interceptors do with the ranges libc reads and writes on the
// program's behalf (efsan_core_ranges_wanted below).
enum efsan_range_policy {
  EFSAN_RANGES_NONE = 0, // no tool started: no range is recorded
  EFSAN_RANGES_ALL,      // every range goes to the libc_range hook
  // Ranges count down the thread's sampling countdown (the ABI's
  // __efsan_cache_frag_countdown) like the instrumented accesses; the one
  // that runs it out asks range_sampled, and if that says so, goes to the
  // range hook.
  EFSAN_RANGES_SAMPLED,
};

struct efsan_tool_hooks {
  const char *name; // "working-set", as reports and errors spell it
  int id;           // enum efsan_tool, as the pass passes it
  enum efsan_range_policy ranges;
  // The thread names reports give OpenMP runtime threads are wanted (they
  // cost a symbolizer call at each parallel region's first thread).
  bool names_openmp_threads;

  // Start-up, after the shadow and the region registry exist.
  void (*init)(void);
  // Options of the tool checked whichever tool runs, so that a typo does
  // not wait for the day the other tool is used (called for every tool).
  void (*check_flags)(void);
  // An instrumented module's constructor and destructor (its module_info,
  // docs/InstrumentationABI.md; never null when called).
  void (*module_init)(void *module_info);
  void (*module_exit)(void *module_info);

  // Threads: on the creating thread, for the index the new one will have
  // (creation_stack: depot id of the pthread_create call, or 0); on the new
  // thread itself (handle: its pthread_t; [stack_lo, stack_hi) its stack;
  // start_routine the function it runs); before it exits; on the thread
  // whose pthread_join(handle) returned 0.
  void (*thread_created)(u32 thread, u32 creation_stack);
  void (*thread_start)(u32 thread, uptr handle, uptr stack_lo, uptr stack_hi,
                       uptr start_routine);
  void (*thread_exit)(void);
  void (*thread_joined)(uptr handle);
  // The calling thread releases / has acquired the lock at addr; took (+1)
  // or let go of (-1) a mutex or spin lock.
  void (*sync_release)(uptr addr);
  void (*sync_acquire)(uptr addr);
  void (*lock_held)(int delta);
  // In the child right after fork (only the calling thread survives).
  void (*fork_child)(void);

  // Heap blocks (stack_id: the allocation stack, captured only when
  // wants_alloc_stacks says so).
  bool (*wants_alloc_stacks)(void);
  void (*heap_alloc)(uptr addr, uptr size, u32 stack_id);
  void (*heap_free)(uptr addr);

  // Accesses the pass did not check inline (sizes it has no check for,
  // unaligned accesses, memcpy and friends); pc is the instrumented code's.
  // size is never 0.
  void (*access)(uptr addr, uptr size, bool is_write, uptr pc);
  // Ranges libc read or wrote on the program's behalf; pc is the caller of
  // the libc function. size may be 0.
  void (*libc_range)(uptr addr, uptr size, bool is_write, uptr pc);
  // EFSAN_RANGES_SAMPLED only: the countdown ran out on a range; true if it
  // is to be recorded.
  bool (*libc_range_sampled)(void);

  // The program ends: stop the tool's own threads before the final report.
  void (*finish)(void);
  // Writes the tool's report (between efsan_report_begin and _end).
  void (*report)(bool at_exit);
  // __efsan_get_sample_count (docs/InstrumentationABI.md); null: 0.
  u32 (*sample_count)(void);
};

// The active tool's hooks; all zero (no hook, EFSAN_RANGES_NONE) until a
// tool starts.
extern struct efsan_tool_hooks efsan_tool_hooks;

// The tools of this runtime (efsan_tools.c): the table of the tool with that
// id, or null; and every tool's table, for checks that run whatever tool is
// active.
const struct efsan_tool_hooks *efsan_find_tool(int id);
extern const struct efsan_tool_hooks *const efsan_all_tools[];
extern const uptr efsan_tool_count;

#endif // EFSAN_TOOL_H
