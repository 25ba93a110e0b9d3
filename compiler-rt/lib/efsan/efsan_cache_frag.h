//===-- efsan_cache_frag.h - cache-frag tool hooks ---------------*- C -*-===//
// The calls the shared runtime makes into the cache-frag tool (efsan_cache_frag*.c).
// Made only when the active tool is cache-frag.
//===----------------------------------------------------------------------===//
#ifndef EFSAN_CACHE_FRAG_H
#define EFSAN_CACHE_FRAG_H

#include "efsan.h"

#ifdef __cplusplus
extern "C" {
#endif

void efsan_cache_frag_init(void);
void efsan_cache_frag_module_init(void *module_info);
void efsan_cache_frag_module_exit(void *module_info);
void efsan_cache_frag_access(uptr addr, uptr size, int is_write);
void efsan_cache_frag_alloc(uptr addr, uptr size, u32 alloc_stack_id);
void efsan_cache_frag_free(uptr addr);
void efsan_cache_frag_thread_start(void);
void efsan_cache_frag_thread_exit(void);
void efsan_cache_frag_fork_child(void);
void efsan_cache_frag_report(void);

#ifdef __cplusplus
}
#endif

#endif // EFSAN_CACHE_FRAG_H
