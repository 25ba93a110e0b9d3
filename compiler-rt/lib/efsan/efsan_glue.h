//===-- efsan_glue.h - declarations shared by the C++ glue -----*- C++ -*-===//
//
// Between the glue files only (flags, interceptors, start-up). The C core
// sees none of this; its door is efsan.h.
//
//===----------------------------------------------------------------------===//
#ifndef EFSAN_GLUE_H
#define EFSAN_GLUE_H

#include "efsan.h"
#include "sanitizer_common/sanitizer_internal_defs.h"
#include "sanitizer_common/sanitizer_symbolizer.h"

// UBSan's handlers live in the efsan runtime (efsan_ubsan.cpp); they are set
// up once ESAN_OPTIONS has set the common flags.
extern "C" void efsan_init_ubsan(void);

namespace __efsan {
// True once flags are parsed and interceptors are installed.
extern bool glue_inited;
// The program runs setuid/setgid (AT_SECURE): environment options are
// ignored (efsan_flags.cpp).
extern bool secure_execution;
// The status the program asked to exit with (exit(), main's result, 0 when
// the last thread exits): kept even if writing the report fails.
extern int program_exit_status;
// Every path into libc's exit() calls this first (efsan_core_before_exit).
void BeforeExit(int status);
// Writes the exit report (once, whichever path gets here first: the atexit
// handler, or _exit).
void FinishAtExit();
// In a forked child: report locks another thread may have held at fork are
// released, and the thread that writes reports on signals
// (report_on_signals, report_signal) is started again.
void GlueAfterForkInChild();
// In a forked child, before the tools' own handling (which starts the
// sampler again): the lock of the /proc/self/maps cache, which another
// thread may have held at fork, is released.
void MapsAfterForkInChild();
// The process tree (efsan_tree.cpp), after the flags and the report's
// destination are set up: is this process the root, and where do the
// others write.
void InitializeProcessTree();
// The root puts ESAN_TREE into the environment its children inherit, once
// libc has an environment: from __libc_start_main, before the program's
// constructors.
void ExportProcessTree();
// In a forked child: its parent, and that it was forked.
void ProcessTreeAfterFork(int parent_pid);
// Whether this process's reports go into the tree's directory.
bool WritesToTreeDirectory();
// Opens TREE_DIR/PID.json (sequence 0) or TREE_DIR/PID.SEQUENCE.json,
// creating the directory; returns the descriptor, or -errno with the path
// that failed in name.
int OpenTreeReport(u32 sequence, char *name, __sanitizer::uptr size);
// The root, when its descendants have reported: its report at exit is also
// written, as JSON, into the tree's directory.
bool RootWritesTreeCopy();
// The root counts its descendants' reports (each report, under its lock).
void CountDescendantReports();
// Parses ESAN_OPTIONS into efsan_flags and the common flags; a bad option is
// a one-line error and exit(1).
void InitializeFlags();
// Prints "EfficiencySanitizer: ERROR: <message>" as one line on stderr
// (never to log_path) and exits with status 1, whatever exitcode says: the
// way every error in ESAN_OPTIONS or in a file it names ends the program.
[[noreturn]] void ExitWithOptionError(const char *format, ...)
    __attribute__((format(printf, 1, 2)));
// Reads the suppressions=FILE option's file (efsan_suppressions.cpp), after
// InitializeFlags: a file that cannot be read or parsed is an option error.
void InitializeSuppressions();
// A system call without libc: no interceptor, and the program's errno stays
// as it was. Returns -errno on failure.
long RawSyscall3(long nr, long a, long b, long c);
// A module loaded in the process (efsan_modules.cpp): its path (kept for
// the process's life), the bias its file's addresses are loaded at, and its
// GNU build ID (build_id_size 0 if it has none).
struct Module {
  const char *path;
  __sanitizer::uptr base;
  __sanitizer::u8 build_id[32];
  __sanitizer::uptr build_id_size;
  __sanitizer::uptr eh_frame_hdr; // its PT_GNU_EH_FRAME, 0 if none
};
// The code of the C++ library (libstdc++, libc++) if one is loaded: its
// first executable segment and its .eh_frame_hdr; false if none is.
bool FindCxxLibraryCode(__sanitizer::uptr *begin, __sanitizer::uptr *end,
                        __sanitizer::uptr *eh_frame_hdr);
// One step out of a frame by the call frame information of .eh_frame
// (efsan_cfi_unwind.cpp): *pc a return address into the frame, *sp the
// stack pointer and *bp the rbp it would see on return; on success they are
// its caller's. False where the rule is unknown or leaves the stack.
bool CfiStep(__sanitizer::uptr *pc, __sanitizer::uptr *sp,
             __sanitizer::uptr *bp, __sanitizer::uptr eh_frame_hdr,
             __sanitizer::uptr stack_bottom, __sanitizer::uptr stack_top);
// The module holding addr, copied to *module, and whether addr is in its
// code; false if no module holds it.
bool FindModule(__sanitizer::uptr addr, Module *module,
                bool *executable = nullptr);
// One frame of the code at an address: its function, file and line (null,
// null and 0 where the symbolizer knows none). The strings are kept for the
// process's life.
struct CodeFrame {
  const char *function;
  const char *file;
  int line;
};
// The frames at a code address (innermost inlined frame first, at most
// max_frames; 0 if no module holds pc) and the global at a data address,
// asked of this process's own llvm-symbolizer
// (efsan_symbolizer_process.cpp): never one a forked child shares with its
// parent.
__sanitizer::uptr SymbolizeCodeAt(__sanitizer::uptr pc, CodeFrame *frames,
                                  __sanitizer::uptr max_frames);
bool SymbolizeDataAt(__sanitizer::uptr addr, __sanitizer::DataInfo *info);
// A copy of s kept for the process's life (null for null), out of the
// internal allocator's size classes (efsan_modules.cpp says why).
const char *KeepString(const char *s);
const char *KeepString(const char *s, __sanitizer::uptr length);
// In a forked child: a lookup another thread was making at fork is over.
void SymbolizerAfterForkInChild();
// A regular file with an execute bit (a symbolizer to run).
bool IsExecutableFile(const char *path);
void InitializeInterceptors();
// OpenMP (efsan_openmp.cpp): the GOMP_* entry points of libgomp.
void InitializeOpenMPInterceptors();
// The calling thread is entering an OpenMP parallel region: the region's call
// site in the program and a frame to unwind the program's stack from (0 if
// none). Threads it creates meanwhile are the region's.
bool OpenMPRegionBeingEntered(__sanitizer::uptr *pc, __sanitizer::uptr *frame);
// Thread index thread was created for the region at region_pc.
void OpenMPThreadCreated(u32 thread, __sanitizer::uptr region_pc);
// The current thread's stack, learned once where no libc lock is held (the
// thread's start, before the program runs on it): the unwinder never asks
// libc for it (pthread_getattr_np holds the thread's lock while it calls
// realloc, whose interceptor captures a stack).
void SetThreadStackBounds(__sanitizer::uptr bottom, __sanitizer::uptr top);
// The main thread's stack bounds, from the runtime's reading of
// /proc/self/maps (efsan_rtl.cpp); 0 and 0 if it has no [stack] mapping.
void GetMainThreadStack(__sanitizer::uptr *top, __sanitizer::uptr *bottom);
// Stack depot id of the stack starting at caller_pc, unwinding from
// caller_frame (the frame of the function caller_pc is in or its callee's).
u32 CaptureCallerStack(__sanitizer::uptr caller_pc,
                       __sanitizer::uptr caller_frame);
// CaptureCallerStack for the stacks reports name (cache-frag: allocations and
// thread creations; working set: allocation sites, unless report_objects=0):
// 0 when no report needs them (and while a new thread looks up its stack).
u32 CaptureReportStack(__sanitizer::uptr caller_pc,
                      __sanitizer::uptr caller_frame);
// The same for an allocation of size bytes, which may go without one
// (efsan_core_wants_alloc_stack: sampled past alloc_stacks_exact).
u32 CaptureAllocationStack(__sanitizer::uptr caller_pc,
                           __sanitizer::uptr caller_frame,
                           __sanitizer::uptr size);
// The memory of operator new: libc's malloc, or aligned_alloc when alignment
// is not 0 (a power of two), recorded as a heap block allocated at stack_id.
// nullptr when libc has none; the new_handler loop is the caller's.
void *AllocateForNew(__sanitizer::uptr size, __sanitizer::uptr alignment,
                     u32 stack_id);
// Releases a block of AllocateForNew (nullptr is ignored).
void FreeForDelete(void *p);
// In a forked child: the stack depot's hash table is unlocked at the first
// stack capture, not at fork (efsan_symbolize.cpp).
void StackDepotInheritedLocked();
// The runtime's own blocks (efsan_runtime_blocks.cpp): what libc allocates
// for the runtime's calls, and records the runtime hands to new threads.
// Never the program's heap nor sanitizer_common's internal allocator.
void *RuntimeBlockAlloc(__sanitizer::uptr size,
                        __sanitizer::uptr alignment = 16);
void RuntimeBlockFree(void *p);
// The bytes usable at p, a block of RuntimeBlockAlloc.
__sanitizer::uptr RuntimeBlockSize(const void *p);
// Held across fork, so that the child's list of free blocks is whole.
void RuntimeBlocksLock();
void RuntimeBlocksUnlock();
// The range runtime blocks come from (empty until the first one): free()
// asks this of every block the program frees.
extern __sanitizer::uptr runtime_blocks_beg, runtime_blocks_size;
inline bool IsRuntimeBlock(const void *p) {
  return (__sanitizer::uptr)p - runtime_blocks_beg < runtime_blocks_size;
}
// While one exists on a thread, what libc allocates there for the runtime
// (the runtime's own calls into libc) comes from sanitizer_common's
// internal allocator, not from the program's heap, whose layout stays the
// plain build's (efsan_interceptors.cpp).
struct RuntimeAllocations {
  RuntimeAllocations();
  ~RuntimeAllocations();
};
} // namespace __efsan

#endif // EFSAN_GLUE_H
