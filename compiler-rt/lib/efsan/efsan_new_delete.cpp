//===-- efsan_new_delete.cpp - operator new and delete of efsan -----------===//
//
// The runtime defines the replaceable global operator new and delete (all the
// usual overloads, as ASan's runtime does) so that a C++ heap block's
// allocation stack starts in the program's code. libstdc++'s operator new is
// built without frame pointers: a stack taken by the malloc interceptor,
// below it, loses every frame of the program between operator new and main.
// Taken here, frame 0 is operator new's caller (the program's function or
// std::allocator code inlined into it), compiled with frame pointers.
//
// The memory still comes from libc (malloc, or aligned_alloc for the
// align_val_t overloads, as libstdc++ does), so the program's heap layout is
// unchanged.
//
// Failure: the runtime is built without exceptions, but the throwing
// overloads must behave as the standard ones: they call the new_handler and
// retry while there is one, then throw std::bad_alloc through libstdc++'s
// std::__throw_bad_alloc (the runtime's frames have unwind tables, so the
// exception passes through them). Both are weak references: with a C++
// library that has no std::__throw_bad_alloc (libc++'s is in std::__1) the
// runtime reports the failure in one line and dies instead. The nothrow
// overloads run the same new_handler loop and return nullptr.
//
// Linked only into C++ programs (libclang_rt.efsan_cxx, whole-archive): the
// executable's definitions, exported through the archive's dynamic list,
// override libstdc++'s for the program and its shared libraries.
//
//===----------------------------------------------------------------------===//
#include "efsan_glue.h"
#include "interception/interception.h"
#include "sanitizer_common/sanitizer_common.h"
#include "sanitizer_common/sanitizer_internal_defs.h"
#include "sanitizer_common/sanitizer_stacktrace.h"

#include <stddef.h>

using namespace __sanitizer;
using namespace __efsan;

// <new> is not included: the runtime builds without the C++ library's
// headers. These are the standard declarations.
namespace std {
struct nothrow_t {};
enum class align_val_t : size_t {};
using new_handler = void (*)();
// libstdc++ (and libc++) define it; weak, so that a missing one is null.
SANITIZER_WEAK_ATTRIBUTE new_handler get_new_handler() noexcept;
// libstdc++'s: throws std::bad_alloc.
[[noreturn]] SANITIZER_WEAK_ATTRIBUTE void __throw_bad_alloc();
} // namespace std

// The loop of the standard operator new: while libc has no memory, the
// new_handler may free some (or throw); without one, the allocation fails.
static void *AllocateOrRetry(uptr size, uptr alignment, u32 stack_id,
                             bool nothrow) {
  for (;;) {
    void *p = AllocateForNew(size, alignment, stack_id);
    if (LIKELY(p))
      return p;
    std::new_handler handler =
        &std::get_new_handler ? std::get_new_handler() : nullptr;
    if (!handler)
      break;
    handler();
  }
  if (nothrow)
    return nullptr;
  if (&std::__throw_bad_alloc)
    std::__throw_bad_alloc();
  Printf("==%d==ERROR: EfficiencySanitizer: out of memory: operator new of %zu "
         "bytes failed and no std::bad_alloc can be thrown\n",
         (int)internal_getpid(), size);
  Die();
}

// A macro, not a function: the stack must be taken in operator new itself,
// so that its frame 0 is operator new's caller.
#define EFSAN_NEW(alignment, nothrow)                                          \
  return AllocateOrRetry(                                                      \
      size, alignment,                                                         \
      CaptureAllocationStack(GET_CALLER_PC(), GET_CURRENT_FRAME(), size),      \
      nothrow)

#define CXX_OPERATOR_ATTRIBUTE INTERCEPTOR_ATTRIBUTE NOINLINE

CXX_OPERATOR_ATTRIBUTE void *operator new(size_t size) {
  EFSAN_NEW(0, false);
}
CXX_OPERATOR_ATTRIBUTE void *operator new[](size_t size) {
  EFSAN_NEW(0, false);
}
CXX_OPERATOR_ATTRIBUTE void *operator new(size_t size,
                                          std::nothrow_t const &) noexcept {
  EFSAN_NEW(0, true);
}
CXX_OPERATOR_ATTRIBUTE void *operator new[](size_t size,
                                            std::nothrow_t const &) noexcept {
  EFSAN_NEW(0, true);
}
CXX_OPERATOR_ATTRIBUTE void *operator new(size_t size,
                                          std::align_val_t align) {
  EFSAN_NEW((uptr)align, false);
}
CXX_OPERATOR_ATTRIBUTE void *operator new[](size_t size,
                                            std::align_val_t align) {
  EFSAN_NEW((uptr)align, false);
}
CXX_OPERATOR_ATTRIBUTE void *operator new(size_t size, std::align_val_t align,
                                          std::nothrow_t const &) noexcept {
  EFSAN_NEW((uptr)align, true);
}
CXX_OPERATOR_ATTRIBUTE void *operator new[](size_t size,
                                            std::align_val_t align,
                                            std::nothrow_t const &) noexcept {
  EFSAN_NEW((uptr)align, true);
}

// Every delete frees to libc: the block may have come from malloc or
// aligned_alloc, and glibc's free takes both.
CXX_OPERATOR_ATTRIBUTE void operator delete(void *ptr) noexcept {
  FreeForDelete(ptr);
}
CXX_OPERATOR_ATTRIBUTE void operator delete[](void *ptr) noexcept {
  FreeForDelete(ptr);
}
CXX_OPERATOR_ATTRIBUTE void operator delete(void *ptr,
                                            std::nothrow_t const &) noexcept {
  FreeForDelete(ptr);
}
CXX_OPERATOR_ATTRIBUTE void operator delete[](void *ptr,
                                              std::nothrow_t const &) noexcept {
  FreeForDelete(ptr);
}
CXX_OPERATOR_ATTRIBUTE void operator delete(void *ptr, size_t) noexcept {
  FreeForDelete(ptr);
}
CXX_OPERATOR_ATTRIBUTE void operator delete[](void *ptr, size_t) noexcept {
  FreeForDelete(ptr);
}
CXX_OPERATOR_ATTRIBUTE void operator delete(void *ptr,
                                            std::align_val_t) noexcept {
  FreeForDelete(ptr);
}
CXX_OPERATOR_ATTRIBUTE void operator delete[](void *ptr,
                                              std::align_val_t) noexcept {
  FreeForDelete(ptr);
}
CXX_OPERATOR_ATTRIBUTE void operator delete(void *ptr, std::align_val_t,
                                            std::nothrow_t const &) noexcept {
  FreeForDelete(ptr);
}
CXX_OPERATOR_ATTRIBUTE void operator delete[](void *ptr, std::align_val_t,
                                              std::nothrow_t const &) noexcept {
  FreeForDelete(ptr);
}
CXX_OPERATOR_ATTRIBUTE void operator delete(void *ptr, size_t,
                                            std::align_val_t) noexcept {
  FreeForDelete(ptr);
}
CXX_OPERATOR_ATTRIBUTE void operator delete[](void *ptr, size_t,
                                              std::align_val_t) noexcept {
  FreeForDelete(ptr);
}
