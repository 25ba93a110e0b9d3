//===-- efsan_runtime_blocks.cpp - efsan glue: the runtime's own blocks ----===//
//
// The memory libc allocates for the runtime's own calls into it (dlsym's
// error messages while the interceptors are installed, the TLS of the
// runtime's threads, a thread's attributes when its stack is looked up) and
// the runtime's small records handed to new threads. Not the program's heap,
// whose layout must stay the plain build's (efsan_interceptors.cpp's
// RuntimeAllocations says why), and not sanitizer_common's internal
// allocator either: its first allocation sets it up (a quarter of a
// megabyte of tables written) and the first block of each of its size
// classes fills a megabyte region with free lists, which was most of what
// the runtime added to the start of a short process.
//
// Here: one range reserved at the first allocation (so that free() tells a
// runtime block by one compare), power-of-two classes from 64 bytes with a
// free list each, carved from the range as needed; pages never touched cost
// nothing. Each block starts with a header saying its class and where the
// block begins (an aligned block's start may be further in).
//
//===----------------------------------------------------------------------===//
#include "efsan_glue.h"
#include "sanitizer_common/sanitizer_common.h"
#include "sanitizer_common/sanitizer_libc.h"
#include "sanitizer_common/sanitizer_mutex.h"
#include "sanitizer_common/sanitizer_posix.h"

#include <sys/mman.h>

using namespace __sanitizer;
using namespace __efsan;

uptr __efsan::runtime_blocks_beg;
uptr __efsan::runtime_blocks_size;

namespace {
// Virtual space only (MAP_NORESERVE): what libc allocates for the runtime
// is a few kilobytes a thread.
const uptr kReservedBytes = 64 << 20;
const uptr kMinClassLog = 6;
const uptr kMaxClassLog = 26;
const uptr kHeaderBytes = 16;

struct Header {
  u32 class_log;
  u32 offset; // from the block's start to the pointer handed out
};

struct FreeBlock {
  FreeBlock *next;
};

StaticSpinMutex blocks_mu;
char *reserved;
uptr carved;
FreeBlock *free_lists[kMaxClassLog + 1];

Header *HeaderOf(const void *p) {
  return (Header *)((uptr)p - kHeaderBytes);
}

// A block of 2^class_log bytes, or null when the range is used up.
char *TakeBlock(uptr class_log) {
  if (FreeBlock *block = free_lists[class_log]) {
    free_lists[class_log] = block->next;
    return (char *)block;
  }
  if (!reserved) {
    uptr res = internal_mmap(nullptr, kReservedBytes, PROT_READ | PROT_WRITE,
                             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1,
                             0);
    if (internal_iserror(res))
      return nullptr;
    reserved = (char *)res;
    runtime_blocks_beg = res;
    __atomic_store_n(&runtime_blocks_size, kReservedBytes, __ATOMIC_RELEASE);
  }
  uptr size = (uptr)1 << class_log;
  if (size > kReservedBytes - carved)
    return nullptr;
  char *block = reserved + carved;
  carved += size;
  return block;
}
} // namespace

void *__efsan::RuntimeBlockAlloc(uptr size, uptr alignment) {
  if (alignment < kHeaderBytes)
    alignment = kHeaderBytes;
  uptr need = size + kHeaderBytes + (alignment - kHeaderBytes);
  if (need < size)
    return nullptr;
  uptr class_log = kMinClassLog;
  while (class_log <= kMaxClassLog && ((uptr)1 << class_log) < need)
    class_log++;
  if (class_log > kMaxClassLog)
    return nullptr;
  char *block;
  {
    SpinMutexLock lock(&blocks_mu);
    block = TakeBlock(class_log);
  }
  if (!block)
    return nullptr;
  uptr p = RoundUpTo((uptr)block + kHeaderBytes, alignment);
  *HeaderOf((void *)p) = {(u32)class_log, (u32)(p - (uptr)block)};
  return (void *)p;
}

void __efsan::RuntimeBlockFree(void *p) {
  Header header = *HeaderOf(p);
  FreeBlock *block = (FreeBlock *)((uptr)p - header.offset);
  SpinMutexLock lock(&blocks_mu);
  block->next = free_lists[header.class_log];
  free_lists[header.class_log] = block;
}

uptr __efsan::RuntimeBlockSize(const void *p) {
  Header header = *HeaderOf(p);
  return ((uptr)1 << header.class_log) - header.offset;
}

void __efsan::RuntimeBlocksLock() { blocks_mu.Lock(); }
void __efsan::RuntimeBlocksUnlock() { blocks_mu.Unlock(); }
