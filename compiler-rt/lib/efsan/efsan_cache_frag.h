//===-- efsan_cache_frag.h - cache-frag tool hooks ---------------*- C -*-===//
// The cache-frag tool's table of hooks (efsan_tool.h) and the functions it
// holds, defined across efsan_cache_frag*.c. The core reaches them only
// through the table, and only when the active tool is cache-frag.
//===----------------------------------------------------------------------===//
#ifndef EFSAN_CACHE_FRAG_H
#define EFSAN_CACHE_FRAG_H

#include "efsan.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const struct efsan_tool_hooks efsan_cache_frag_tool;

void efsan_cache_frag_init(void);
void efsan_cache_frag_module_init(void *module_info);
void efsan_cache_frag_module_exit(void *module_info);
// pc: where in the code the access was (an access site of the report).
void efsan_cache_frag_access(uptr addr, uptr size, bool is_write, uptr pc);
// A libc interceptor is about to report a range: true if it is sampled
// (then it goes to efsan_cache_frag_libc_range).
bool efsan_cache_frag_libc_range_sampled(void);
void efsan_cache_frag_libc_range(uptr addr, uptr size, bool is_write,
                                 uptr pc);
void efsan_cache_frag_alloc(uptr addr, uptr size, u32 alloc_stack_id);
void efsan_cache_frag_free(uptr addr);
// On the creating thread, for the index the new thread will have.
void efsan_cache_frag_thread_created(u32 thread, u32 creation_stack);
// The calling thread took (+1) or let go of (-1) a mutex or spin lock.
void efsan_cache_frag_lock_held(int delta);
// Who created the thread (a thread index, EFSAN_INTERNAL_THREAD if unknown)
// and where (stack depot id, 0 if unknown).
u32 efsan_cache_frag_thread_creator(u32 thread, u32 *creation_stack);
// On the new thread (its index); handle is its pthread_t, [stack_lo,
// stack_hi) its stack, start_routine the function it runs.
void efsan_cache_frag_thread_start(u32 thread, uptr handle, uptr stack_lo,
                                   uptr stack_hi, uptr start_routine);
// The function a thread started at (0 if unknown: the main thread).
uptr efsan_cache_frag_thread_start_routine(u32 thread);
// The stack of a thread started so far (false if unknown).
bool efsan_cache_frag_thread_stack(u32 thread, uptr *lo, uptr *hi);
void efsan_cache_frag_thread_exit(void);
// After pthread_join(handle) returned 0, on the joining thread.
void efsan_cache_frag_thread_joined(uptr handle);
// Lock release / acquisition by the calling thread (efsan_core_sync_*).
void efsan_cache_frag_sync_release(uptr addr);
void efsan_cache_frag_sync_acquire(uptr addr);
// Validates the cache_frag_* options (whatever the tool: a typo must not
// wait for the day the other tool is used).
void efsan_cache_frag_check_flags(void);
// cache_frag_min_share in parts per million, -1 if malformed.
int efsan_cache_frag_min_share_ppm(void);
void efsan_cache_frag_fork_child(void);
void efsan_cache_frag_report(void);

#ifdef __cplusplus
}
#endif

#endif // EFSAN_CACHE_FRAG_H
