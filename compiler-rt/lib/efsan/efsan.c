//===-- efsan.c - efsan runtime: init, tool dispatch, ABI entry points ----===//
//
// The entry points the instrumentation pass calls (docs/InstrumentationABI.md)
// and the process-wide state around them. The active tool is reached through
// its table of hooks (efsan_tool.h); this file names no tool's function.
//
//===----------------------------------------------------------------------===//
#include "efsan_internal.h"
#include "efsan_tool.h"

int efsan_active_tool;

// Before a tool starts, an access or range that reaches the runtime (an
// instrumented library's code run by another module's constructor before
// its own) is dropped: these two hooks are called without a test.
static void ignore_access(uptr addr, uptr size, bool is_write, uptr pc) {
  (void)addr, (void)size, (void)is_write, (void)pc;
}
struct efsan_tool_hooks efsan_tool_hooks = {
    .name = "none",
    .access = ignore_access,
    .libc_range = ignore_access,
};
__thread u32 efsan_thread_index __attribute__((tls_model("initial-exec")));

static bool tool_started;
// Heap range of this thread's last malloc hint (see efsan_core_malloc).
static __thread uptr thread_heap_lo __attribute__((tls_model("initial-exec")));
static __thread uptr thread_heap_hi __attribute__((tls_model("initial-exec")));
static __thread u32 thread_heap_generation
    __attribute__((tls_model("initial-exec")));
u32 efsan_next_thread_index = 1;
enum { FINISH_NOT_STARTED, FINISH_WRITING, FINISH_DONE };
static int finish_state;
// Set once a thread has started ending the process (exit() or main's return).
static int exit_claimed;
static __thread bool this_thread_ends_process
    __attribute__((tls_model("initial-exec")));

u32 efsan_core_next_thread_index(u32 creation_stack) {
  u32 index = __atomic_fetch_add(&efsan_next_thread_index, 1, __ATOMIC_RELAXED);
  if (tool_started && efsan_tool_hooks.thread_created)
    efsan_tool_hooks.thread_created(index, creation_stack);
  return index;
}

static const char *tool_name(int tool) {
  const struct efsan_tool_hooks *hooks = efsan_find_tool(tool);
  return hooks ? hooks->name : "none";
}

static void start_tool(int tool) {
  const struct efsan_tool_hooks *hooks = efsan_find_tool(tool);
  if (!hooks)
    efsan_fatal("unknown tool id %d (the program and the runtime disagree; "
                "rebuild with the same efsan)", tool);
  efsan_active_tool = tool;
  // The hooks are in place from here, as the tool id: the runtime's own
  // start-up below runs with the tool's range policy. Events that need a
  // started tool also test tool_started.
  efsan_tool_hooks = *hooks;
  for (uptr i = 0; i < efsan_tool_count; i++)
    if (efsan_all_tools[i]->check_flags)
      efsan_all_tools[i]->check_flags();
  efsan_shadow_reserve();
  efsan_regions_init();
  efsan_vreport(1, "EfficiencySanitizer: tool %s, shadow [0x%llx, 0x%llx)\n",
                hooks->name, EFSAN_SHADOW_OFFSET, EFSAN_SHADOW_END);
  efsan_tool_hooks.init();
  tool_started = true;
}

void efsan_core_init(int tool) {
  if (tool != EFSAN_TOOL_NONE && !tool_started)
    start_tool(tool);
}

// Every instrumented module's constructor. The executable's tool was already
// started from .preinit_array; a module loaded later (or an instrumented
// library in an uninstrumented program) starts it here.
EFSAN_INTERFACE void __efsan_init(int tool, void *module_info) {
  efsan_glue_init();
  if (!tool_started)
    start_tool(tool);
  else if (tool != efsan_active_tool)
    efsan_fatal("a module instrumented for %s was loaded into a program "
                "instrumented for %s; use one -fsanitize=efficiency-* tool "
                "for all modules", tool_name(tool), tool_name(efsan_active_tool));
  if (module_info && efsan_tool_hooks.module_init)
    efsan_tool_hooks.module_init(module_info);
}

EFSAN_INTERFACE void __efsan_module_fini(void *module_info) {
  if (module_info && efsan_tool_hooks.module_exit)
    efsan_tool_hooks.module_exit(module_info);
}

void efsan_format_frame(char *buffer, uptr size, const struct efsan_frame *frame) {
  char place[kEfsanMaxPlace];
  place[0] = 0;
  // Line 0: the compiler merged accesses of several lines into one.
  if (frame->file && frame->line)
    efsan_snprintf(place, sizeof(place), " %s:%d", frame->file, frame->line);
  else if (frame->file)
    efsan_snprintf(place, sizeof(place), " %s", frame->file);
  uptr function = efsan_internal_strlen(frame->function);
  uptr tail = efsan_internal_strlen(place);
  // A C++ name can take kilobytes (templates): it is cut, not the place.
  if (function + tail >= size && size > tail + 4)
    efsan_snprintf(buffer, size, "%.*s...%s", (int)(size - tail - 4),
                   frame->function, place);
  else
    efsan_snprintf(buffer, size, "%s%s", frame->function, place);
}

bool efsan_same_place(const struct efsan_frame *a, const struct efsan_frame *b) {
  if (a->line != b->line || !a->file != !b->file ||
      (a->file && efsan_internal_strcmp(a->file, b->file)))
    return false;
  return !efsan_internal_strcmp(a->function, b->function);
}

uptr efsan_site_index(const struct efsan_frame *frames, uptr count) {
  uptr site = 0;
  while (site < count && frames[site].allocation_wrapper)
    site++;
  return site < count ? site : 0;
}

bool efsan_symbolize_site(u32 stack_id, struct efsan_frame *site) {
  struct efsan_frame frames[EFSAN_MAX_COMPARED_FRAMES];
  uptr n = stack_id ? efsan_symbolize_stack(stack_id, frames,
                                            EFSAN_MAX_COMPARED_FRAMES)
                    : 0;
  if (!n)
    return false;
  *site = frames[efsan_site_index(frames, n)];
  return true;
}

static bool starts_with(const char *s, const char *prefix) {
  return s && !efsan_internal_strncmp(s, prefix, efsan_internal_strlen(prefix));
}

const char *efsan_runtime_memory_owner(u32 stack_id) {
  struct efsan_frame frames[EFSAN_MAX_COMPARED_FRAMES];
  uptr n = stack_id ? efsan_symbolize_stack(stack_id, frames,
                                            EFSAN_MAX_COMPARED_FRAMES)
                    : 0;
  if (!n)
    return 0;
  // glibc's loader: its sources are under elf/ ("allocate_dtv
  // ./elf/../elf/dl-tls.c:401", a new thread's TLS vector), its functions
  // _dl_*; without debug info, its module.
  bool library = true;
  for (uptr i = 0; i < n; i++) {
    const char *function = frames[i].function, *file = frames[i].file;
    if (starts_with(file, "./elf/") || starts_with(function, "_dl_") ||
        starts_with(function, "allocate_dtv") ||
        starts_with(function, "ld-linux"))
      return "the dynamic loader";
    // A block the C++ library allocates for itself (its exception
    // emergency pool, locale data at start-up): every frame is in it.
    library &= starts_with(function, "libstdc++.so") ||
               starts_with(function, "libc++.so") ||
               starts_with(function, "libc++abi.so");
  }
  return library ? "the C++ library" : 0;
}

bool efsan_stacks_alike(u32 a, u32 b, uptr callers) {
  if (a == b)
    return true;
  struct efsan_frame fa[EFSAN_MAX_COMPARED_FRAMES], fb[EFSAN_MAX_COMPARED_FRAMES];
  uptr na = efsan_symbolize_stack(a, fa, EFSAN_MAX_COMPARED_FRAMES);
  uptr nb = efsan_symbolize_stack(b, fb, EFSAN_MAX_COMPARED_FRAMES);
  uptr site = efsan_site_index(fa, na);
  if (site != efsan_site_index(fb, nb))
    return false;
  uptr printed = site + 1 + callers;
  if (na > printed)
    na = printed;
  if (nb > printed)
    nb = printed;
  if (na != nb)
    return false;
  for (uptr i = 0; i < na; i++)
    if (!efsan_same_place(&fa[i], &fb[i]))
      return false;
  return true;
}

// Reports are written one at a time (efsan_report_begin's lock).
static bool report_json;

bool efsan_report_json(void) { return report_json; }

static void write_report(bool at_exit, bool json_file) {
  report_json =
      json_file || !efsan_internal_strcmp(efsan_flags.report_format, "json");
  if (efsan_tool_hooks.report) {
    efsan_maps_hold();
    efsan_tool_hooks.report(at_exit);
    efsan_maps_release();
  }
}

// The root of a process tree says where its descendants' reports are, in a
// text report (a JSON one has them in "process_tree").
static void print_tree_line(void) {
  struct efsan_process_tree tree;
  if (report_json || !efsan_process_tree(&tree) || !tree.root ||
      !tree.descendant_reports)
    return;
  u32 n = tree.descendant_reports;
  // Text reports in log files: the merge needs them as JSON.
  if (tree.log_path)
    efsan_report_line("EfficiencySanitizer: %u process%s started by this one "
                      "reported so far, in %s.PID files (with "
                      "report_format=json, efsan-view --merge %s.* merges "
                      "them)\n",
                      n, n == 1 ? "" : "es", tree.log_path, tree.log_path);
  else
    efsan_report_line("EfficiencySanitizer: %u process%s started by this one "
                      "reported so far, in %s/ (merge them: efsan-view "
                      "--merge %s)\n",
                      n, n == 1 ? "" : "es", tree.directory, tree.directory);
}

static void print_report(bool at_exit) {
  write_report(at_exit, efsan_report_begin(at_exit));
  print_tree_line();
  efsan_report_end();
  // The root's own JSON beside its descendants': not a second end of the
  // run (at_exit false: the last period and phase are closed already).
  if (at_exit && efsan_report_begin_root_copy()) {
    write_report(false, true);
    efsan_report_end();
  }
}

void efsan_core_finish(void) {
  // Exactly once, whichever thread calls exit() first.
  int state = FINISH_NOT_STARTED;
  if (!__atomic_compare_exchange_n(&finish_state, &state, FINISH_WRITING,
                                   false, __ATOMIC_ACQ_REL,
                                   __ATOMIC_ACQUIRE)) {
    // Another thread writes the final report (exit, or a terminating signal
    // with report_on_signals): returning would let this one end the process
    // in the middle of it.
    while (__atomic_load_n(&finish_state, __ATOMIC_ACQUIRE) != FINISH_DONE)
      efsan_sleep_ms(1);
    return;
  }
  if (efsan_tool_hooks.finish)
    efsan_tool_hooks.finish();
  if (efsan_flags.report_at_exit)
    print_report(true);
  __atomic_store_n(&finish_state, FINISH_DONE, __ATOMIC_RELEASE);
}

void efsan_core_before_exit(void) {
  // exit() again from one of this thread's own atexit handlers: the outer
  // exit writes the report after it.
  if (this_thread_ends_process)
    return;
  if (!__atomic_exchange_n(&exit_claimed, 1, __ATOMIC_ACQ_REL)) {
    this_thread_ends_process = true;
    return;
  }
  // glibc's exit() is not thread-safe: only one thread runs the atexit list
  // (and so the report), and any other thread in exit() goes straight on to
  // _exit, which would end the process in the middle of the report. Wait
  // until it is written; the first thread then ends the process.
  while (__atomic_load_n(&finish_state, __ATOMIC_ACQUIRE) != FINISH_DONE)
    efsan_sleep_ms(1);
}

EFSAN_INTERFACE void __efsan_report(void) { print_report(false); }

EFSAN_INTERFACE unsigned int __efsan_get_sample_count(void) {
  if (!efsan_tool_hooks.sample_count)
    return 0;
  return efsan_tool_hooks.sample_count();
}

//===-- Threads and fork ---------------------------------------------------===//

void efsan_core_thread_start(uptr stack_lo, uptr stack_hi,
                             uptr start_routine) {
  if (!tool_started)
    return;
  if (stack_lo < stack_hi)
    efsan_regions_set(stack_lo, stack_hi, EFSAN_REGION_STACK);
  if (efsan_tool_hooks.thread_start)
    efsan_tool_hooks.thread_start(efsan_thread_index, efsan_thread_handle(),
                                  stack_lo, stack_hi, start_routine);
}

void efsan_core_thread_exit(void) {
  if (efsan_tool_hooks.thread_exit)
    efsan_tool_hooks.thread_exit();
}

void efsan_core_thread_joined(uptr handle) {
  if (tool_started && efsan_tool_hooks.thread_joined)
    efsan_tool_hooks.thread_joined(handle);
}

void efsan_core_sync_release(uptr addr) {
  if (tool_started && efsan_tool_hooks.sync_release)
    efsan_tool_hooks.sync_release(addr);
}

void efsan_core_lock_held(int delta) {
  if (tool_started && efsan_tool_hooks.lock_held)
    efsan_tool_hooks.lock_held(delta);
}

void efsan_core_sync_acquire(uptr addr) {
  if (tool_started && efsan_tool_hooks.sync_acquire)
    efsan_tool_hooks.sync_acquire(addr);
}

void efsan_core_fork_prepare(void) {
  if (tool_started)
    efsan_regions_lock();
}

void efsan_core_fork_parent(void) {
  if (tool_started)
    efsan_regions_unlock();
}

void efsan_core_fork_child(void) {
  if (!tool_started)
    return;
  efsan_regions_unlock();
  // Only the forking thread lives on in the child, and it is not exiting.
  exit_claimed = 0;
  this_thread_ends_process = false;
  if (efsan_tool_hooks.fork_child)
    efsan_tool_hooks.fork_child();
}

//===-- Memory events from interceptors ------------------------------------===//

void efsan_core_mmap(uptr addr, uptr size, bool accessible) {
  // An inaccessible reservation (PROT_NONE, often terabytes) cannot be
  // touched: registering it would make every scan walk its shadow. Parts
  // made accessible later are found in /proc/self/maps at the next sample.
  if (tool_started && size && accessible)
    efsan_regions_set(addr, addr + size, EFSAN_REGION_OTHER);
}

bool efsan_core_range_is_shadow(uptr addr, uptr size) {
  if (!tool_started)
    return false;
  uptr end = addr + size;
  if (end < addr) // wraps around: overlaps everything
    return true;
  return addr < EFSAN_SHADOW_END && end > EFSAN_SHADOW_OFFSET;
}

void efsan_core_library_loaded(void) {
  if (tool_started)
    efsan_regions_refresh();
}

void efsan_core_malloc(uptr addr, uptr size, u32 stack_id) {
  if (!tool_started || !addr)
    return;
  // Each thread remembers the heap range of its last hint (threads mostly
  // allocate from their own malloc arena), then the shared cache is asked;
  // only a block outside both takes the registry lock.
  uptr end = addr + (size ? size : 1);
  u32 generation =
      __atomic_load_n(&efsan_regions_generation, __ATOMIC_ACQUIRE);
  if (addr < thread_heap_lo || end > thread_heap_hi ||
      generation != thread_heap_generation) {
    if (generation != thread_heap_generation) {
      thread_heap_generation = generation;
      thread_heap_lo = thread_heap_hi = 0;
    }
    if (!efsan_regions_find_known_heap(addr, end, &thread_heap_lo,
                                       &thread_heap_hi)) {
      uptr page = efsan_page_size();
      efsan_regions_set_heap(addr & ~(page - 1),
                             (end + page - 1) & ~(page - 1), &thread_heap_lo,
                             &thread_heap_hi);
    }
  }
  if (efsan_tool_hooks.heap_alloc)
    efsan_tool_hooks.heap_alloc(addr, size, stack_id);
}

void efsan_core_free(uptr addr) {
  if (addr && tool_started && efsan_tool_hooks.heap_free)
    efsan_tool_hooks.heap_free(addr);
}

bool efsan_core_wants_alloc_stacks(void) {
  return efsan_tool_hooks.wants_alloc_stacks &&
         efsan_tool_hooks.wants_alloc_stacks();
}

//===-- Allocation stacks ----------------------------------------------------===//
//
// Unwinding and keeping the stack of every allocation made a C++ program
// that allocates 11 million blocks a second (cppcheck) run 2.2x under
// cache-frag and 2.8x under the working set, a fifth of the time in the
// unwinder and the stack depot. The first alloc_stacks_exact allocations of
// the process get theirs (a program's long-lived structures are mostly made
// by then, and a test's every block); after them, one allocation per
// alloc_stack_sample_bytes allocated on average, the gaps drawn at random
// (uniform in [1, 2 x the mean]) so that no allocation pattern keeps in step
// with them: a block of twice that size or more always gets its stack, a
// small one with a chance in proportion to its size. The others are heap
// blocks like any (cache-frag judges their lifetimes as before), with no
// site. The budget is handed to threads 1024 allocations at a time, and the
// count of blocks left without a stack is added up per thread: a counter
// every malloc bumped would move its line between the cores each time.
#define ALLOC_BUDGET_CHUNK 1024u
static u64 alloc_budget_taken;
static u64 alloc_unsampled;
static bool alloc_sampling_began;
static __thread u32 thread_alloc_budget
    __attribute__((tls_model("initial-exec")));
static __thread bool thread_alloc_sampling
    __attribute__((tls_model("initial-exec")));
static __thread long long thread_alloc_bytes_left
    __attribute__((tls_model("initial-exec")));
static __thread u32 thread_alloc_unsampled
    __attribute__((tls_model("initial-exec")));
static __thread u64 thread_alloc_random
    __attribute__((tls_model("initial-exec")));

static long long alloc_sample_gap(void) {
  u64 x = thread_alloc_random;
  if (!x)
    x = 0x9e3779b97f4a7c15ull ^ (uptr)&thread_alloc_random ^
        efsan_monotonic_ns();
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  thread_alloc_random = x ? x : 1;
  u64 range = 2 * (u64)efsan_flags.alloc_stack_sample_bytes;
  return 1 + (long long)(((unsigned __int128)x * range) >> 64);
}

bool efsan_core_wants_alloc_stack(uptr size) {
  if (!efsan_core_wants_alloc_stacks())
    return false;
  if (thread_alloc_budget) {
    thread_alloc_budget--;
    return true;
  }
  if (!thread_alloc_sampling) {
    u64 exact = (u64)efsan_flags.alloc_stacks_exact;
    if (!exact)
      return true;
    u64 taken = __atomic_fetch_add(&alloc_budget_taken, ALLOC_BUDGET_CHUNK,
                                   __ATOMIC_RELAXED);
    if (taken < exact) {
      u64 chunk = exact - taken < ALLOC_BUDGET_CHUNK ? exact - taken
                                                     : ALLOC_BUDGET_CHUNK;
      thread_alloc_budget = (u32)chunk - 1;
      return true;
    }
    thread_alloc_sampling = true;
    if (!__atomic_load_n(&alloc_sampling_began, __ATOMIC_RELAXED))
      __atomic_store_n(&alloc_sampling_began, true, __ATOMIC_RELAXED);
    thread_alloc_bytes_left = alloc_sample_gap();
  }
  thread_alloc_bytes_left -= (long long)size;
  if (thread_alloc_bytes_left > 0) {
    if (++thread_alloc_unsampled == ALLOC_BUDGET_CHUNK) {
      __atomic_fetch_add(&alloc_unsampled, ALLOC_BUDGET_CHUNK,
                         __ATOMIC_RELAXED);
      thread_alloc_unsampled = 0;
    }
    return false;
  }
  thread_alloc_bytes_left += alloc_sample_gap();
  if (thread_alloc_bytes_left <= 0)
    thread_alloc_bytes_left = alloc_sample_gap();
  return true;
}

// Threads still running hold up to 1023 each not added yet: the count is a
// lower bound, and "some" is what the report must say right.
static u64 efsan_alloc_stacks_unsampled(void) {
  return __atomic_load_n(&alloc_unsampled, __ATOMIC_RELAXED) +
         thread_alloc_unsampled;
}

bool efsan_alloc_stacks_sampled(void) {
  return __atomic_load_n(&alloc_sampling_began, __ATOMIC_RELAXED);
}

void efsan_print_alloc_stack_sampling(const char *indent) {
  if (!efsan_alloc_stacks_sampled())
    return;
  efsan_report_line("%sAllocation stacks are sampled: the first %d "
                    "allocations have theirs, then one per %d bytes "
                    "allocated on average (at least %llu blocks have none; "
                    "alloc_stacks_exact=0 keeps every one).\n",
                    indent, efsan_flags.alloc_stacks_exact,
                    efsan_flags.alloc_stack_sample_bytes,
                    efsan_alloc_stacks_unsampled());
}

void efsan_json_alloc_stack_sampling(const char *indent) {
  bool sampled = efsan_alloc_stacks_sampled();
  efsan_printf("%s\"allocation_stacks\": {\"exact_allocations\": %d, "
               "\"sample_bytes\": %d, \"sampled\": %s, "
               "\"unsampled_at_least\": %llu},\n",
               indent, efsan_flags.alloc_stacks_exact,
               efsan_flags.alloc_stack_sample_bytes,
               sampled ? "true" : "false",
               sampled ? efsan_alloc_stacks_unsampled() : 0ull);
}

//===-- Access entry points ------------------------------------------------===//

// Inlined into the entry points: the return address is the instrumented
// code's. size is never 0.
static inline __attribute__((always_inline)) void on_access(uptr addr,
                                                            uptr size,
                                                            bool is_write) {
  efsan_tool_hooks.access(addr, size, is_write,
                          (uptr)__builtin_return_address(0));
}

#define EFSAN_ACCESS_ENTRY(size)                                               \
  EFSAN_INTERFACE void __efsan_load##size(void *addr) {                        \
    on_access((uptr)addr, size, false);                                        \
  }                                                                            \
  EFSAN_INTERFACE void __efsan_store##size(void *addr) {                       \
    on_access((uptr)addr, size, true);                                         \
  }
EFSAN_ACCESS_ENTRY(1)
EFSAN_ACCESS_ENTRY(2)
EFSAN_ACCESS_ENTRY(4)
EFSAN_ACCESS_ENTRY(8)
EFSAN_ACCESS_ENTRY(16)

#define EFSAN_UNALIGNED_ENTRY(size)                                            \
  EFSAN_INTERFACE void __efsan_unaligned_load##size(void *addr) {              \
    on_access((uptr)addr, size, false);                                        \
  }                                                                            \
  EFSAN_INTERFACE void __efsan_unaligned_store##size(void *addr) {             \
    on_access((uptr)addr, size, true);                                         \
  }
EFSAN_UNALIGNED_ENTRY(2)
EFSAN_UNALIGNED_ENTRY(4)
EFSAN_UNALIGNED_ENTRY(8)
EFSAN_UNALIGNED_ENTRY(16)

EFSAN_INTERFACE void __efsan_loadN(void *addr, uptr size) {
  if (size)
    on_access((uptr)addr, size, false);
}

EFSAN_INTERFACE void __efsan_storeN(void *addr, uptr size) {
  if (size)
    on_access((uptr)addr, size, true);
}

static inline __attribute__((always_inline)) void on_copy(uptr dest, uptr src,
                                                          uptr n) {
  if (n) {
    on_access(src, n, false);
    on_access(dest, n, true);
  }
}

EFSAN_INTERFACE void *__efsan_memcpy(void *dest, const void *src, uptr n) {
  on_copy((uptr)dest, (uptr)src, n);
  return efsan_real_memcpy(dest, src, n);
}

EFSAN_INTERFACE void *__efsan_memmove(void *dest, const void *src, uptr n) {
  on_copy((uptr)dest, (uptr)src, n);
  return efsan_real_memmove(dest, src, n);
}

EFSAN_INTERFACE void *__efsan_memset(void *dest, int c, uptr n) {
  if (n)
    on_access((uptr)dest, n, true);
  return efsan_real_memset(dest, c, n);
}
