//===-- efsan.c - efsan runtime: init, tool dispatch, ABI entry points ----===//
//
// The entry points the instrumentation pass calls (docs/InstrumentationABI.md)
// and the process-wide state they dispatch on. The working-set tool marks the
// shadow; the cache-frag tool counts accesses down to its next sample
// (efsan_cache_frag.c).
//
//===----------------------------------------------------------------------===//
#include "efsan_internal.h"
#include "efsan_cache_frag.h"
#include "efsan_working_set.h"

int efsan_active_tool;
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
  if (tool_started && efsan_active_tool == EFSAN_TOOL_CACHE_FRAG)
    efsan_cache_frag_thread_created(index, creation_stack);
  return index;
}

static const char *tool_name(int tool) {
  switch (tool) {
  case EFSAN_TOOL_CACHE_FRAG:
    return "cache-frag";
  case EFSAN_TOOL_WORKING_SET:
    return "working-set";
  default:
    return "none";
  }
}

static void start_tool(int tool) {
  if (tool != EFSAN_TOOL_CACHE_FRAG && tool != EFSAN_TOOL_WORKING_SET)
    efsan_fatal("unknown tool id %d (the program and the runtime disagree; "
                "rebuild with the same efsan)", tool);
  efsan_active_tool = tool;
  efsan_cache_frag_check_flags();
  efsan_shadow_reserve();
  efsan_regions_init();
  efsan_vreport(1, "EfficiencySanitizer: tool %s, shadow [0x%llx, 0x%llx)\n",
                tool_name(tool), EFSAN_SHADOW_OFFSET, EFSAN_SHADOW_END);
  if (tool == EFSAN_TOOL_WORKING_SET) {
    efsan_ws_init();
    efsan_publish_inline_compares();
  } else
    efsan_cache_frag_init();
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
  if (tool == EFSAN_TOOL_CACHE_FRAG && module_info)
    efsan_cache_frag_module_init(module_info);
}

EFSAN_INTERFACE void __efsan_exit(void *module_info) {
  if (efsan_active_tool == EFSAN_TOOL_CACHE_FRAG && module_info)
    efsan_cache_frag_module_exit(module_info);
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

static void print_report(bool at_exit) {
  efsan_report_begin(at_exit);
  if (efsan_active_tool == EFSAN_TOOL_WORKING_SET)
    efsan_ws_report(at_exit);
  else if (efsan_active_tool == EFSAN_TOOL_CACHE_FRAG)
    efsan_cache_frag_report();
  efsan_report_end();
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
  if (efsan_active_tool == EFSAN_TOOL_WORKING_SET)
    efsan_ws_stop_sampler();
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
  if (efsan_active_tool != EFSAN_TOOL_WORKING_SET)
    return 0;
  return efsan_ws_sample_count();
}

//===-- Threads and fork ---------------------------------------------------===//

void efsan_core_thread_start(uptr stack_lo, uptr stack_hi,
                             uptr start_routine) {
  if (!tool_started)
    return;
  if (stack_lo < stack_hi)
    efsan_regions_set(stack_lo, stack_hi, EFSAN_REGION_STACK);
  if (efsan_active_tool == EFSAN_TOOL_WORKING_SET)
    efsan_ws_objects_thread_start(efsan_thread_index, stack_lo, stack_hi,
                                  start_routine);
  if (efsan_active_tool == EFSAN_TOOL_CACHE_FRAG)
    efsan_cache_frag_thread_start(efsan_thread_handle(), stack_lo, stack_hi,
                                  start_routine);
}

void efsan_core_thread_exit(void) {
  if (efsan_active_tool == EFSAN_TOOL_CACHE_FRAG)
    efsan_cache_frag_thread_exit();
}

void efsan_core_thread_joined(uptr handle) {
  if (tool_started && efsan_active_tool == EFSAN_TOOL_CACHE_FRAG)
    efsan_cache_frag_thread_joined(handle);
}

void efsan_core_sync_release(uptr addr) {
  if (tool_started && efsan_active_tool == EFSAN_TOOL_CACHE_FRAG)
    efsan_cache_frag_sync_release(addr);
}

void efsan_core_lock_held(int delta) {
  if (tool_started && efsan_active_tool == EFSAN_TOOL_CACHE_FRAG)
    efsan_cache_frag_lock_held(delta);
}

void efsan_core_sync_acquire(uptr addr) {
  if (tool_started && efsan_active_tool == EFSAN_TOOL_CACHE_FRAG)
    efsan_cache_frag_sync_acquire(addr);
}

void efsan_core_fork_prepare(void) {
  if (!tool_started)
    return;
  if (efsan_active_tool == EFSAN_TOOL_WORKING_SET)
    efsan_ws_fork_prepare();
  efsan_regions_lock();
}

void efsan_core_fork_parent(void) {
  if (!tool_started)
    return;
  efsan_regions_unlock();
  if (efsan_active_tool == EFSAN_TOOL_WORKING_SET)
    efsan_ws_fork_parent();
}

void efsan_core_fork_child(void) {
  if (!tool_started)
    return;
  efsan_regions_unlock();
  // Only the forking thread lives on in the child, and it is not exiting.
  exit_claimed = 0;
  this_thread_ends_process = false;
  if (efsan_active_tool == EFSAN_TOOL_WORKING_SET) {
    efsan_shadow_forget_all();
    if (efsan_ws_objects_enabled())
      efsan_heap_fork_child();
    efsan_ws_fork_child();
  }
  else if (efsan_active_tool == EFSAN_TOOL_CACHE_FRAG)
    efsan_cache_frag_fork_child();
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
  if (efsan_active_tool == EFSAN_TOOL_CACHE_FRAG)
    efsan_cache_frag_alloc(addr, size, stack_id);
  else if (efsan_ws_objects_enabled())
    efsan_heap_insert(addr, size, stack_id);
}

void efsan_core_free(uptr addr) {
  if (!addr || !tool_started)
    return;
  if (efsan_active_tool == EFSAN_TOOL_CACHE_FRAG) {
    efsan_cache_frag_free(addr);
  } else if (efsan_ws_objects_enabled()) {
    struct efsan_heap_block unused;
    efsan_heap_remove(addr, &unused);
  }
}

bool efsan_core_wants_alloc_stacks(void) {
  return efsan_active_tool == EFSAN_TOOL_CACHE_FRAG ||
         efsan_ws_objects_enabled();
}

//===-- Access entry points ------------------------------------------------===//

static inline __attribute__((always_inline)) void on_access(uptr addr,
                                                            uptr size,
                                                            bool is_write) {
  if (EFSAN_LIKELY(efsan_active_tool == EFSAN_TOOL_WORKING_SET)) {
    efsan_ws_mark_range(addr, size);
    return;
  }
  // Inlined into the entry points: the return address is the instrumented
  // code's.
  if (efsan_active_tool == EFSAN_TOOL_CACHE_FRAG)
    efsan_cache_frag_access(addr, size, is_write,
                            (uptr)__builtin_return_address(0));
}

void efsan_core_cache_frag_range(uptr addr, uptr size, bool is_write,
                                 uptr pc) {
  if (size && efsan_active_tool == EFSAN_TOOL_CACHE_FRAG)
    efsan_cache_frag_libc_range(addr, size, is_write, pc);
}

bool efsan_core_cache_frag_range_wanted(void) {
  return efsan_active_tool == EFSAN_TOOL_CACHE_FRAG &&
         efsan_cache_frag_libc_range_sampled();
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

// The tool is tested once for both ranges (efsan_ws_mark_range takes n = 0
// on its rare path).
static inline __attribute__((always_inline)) void on_copy(uptr dest, uptr src,
                                                          uptr n) {
  if (EFSAN_LIKELY(efsan_active_tool == EFSAN_TOOL_WORKING_SET)) {
    efsan_ws_mark_range(src, n);
    efsan_ws_mark_range(dest, n);
  } else if (n) {
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
