//===- EfficiencySanitizer.h - performance tuning sanitizer -----*- C++ -*-===//
//
// Part of the efsan project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// EfficiencySanitizer (efsan) instruments memory accesses for performance
// tools rather than bug detection: the working set of a program in cache
// lines (ESAN_WorkingSet) and cache-line false sharing plus struct field usage
// (ESAN_CacheFrag). The code it emits is specified in docs/InstrumentationABI.md.
//
//===----------------------------------------------------------------------===//

#ifndef LLVM_TRANSFORMS_INSTRUMENTATION_EFFICIENCYSANITIZER_H
#define LLVM_TRANSFORMS_INSTRUMENTATION_EFFICIENCYSANITIZER_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class Module;

struct EfficiencySanitizerOptions {
  // The values are the tool ids the runtime sees in __efsan_which_tool.
  enum Type {
    ESAN_None = 0,
    ESAN_CacheFrag = 1,
    ESAN_WorkingSet = 2
  } ToolType = ESAN_None;
};

/// Instruments every function of a module for the selected tool. With
/// ESAN_None the tool comes from -efsan-tool=; if that is unset too, the pass
/// does nothing. A module that already carries __efsan_which_tool is left
/// alone, so the pass never instruments twice.
class EfficiencySanitizerPass : public PassInfoMixin<EfficiencySanitizerPass> {
public:
  explicit EfficiencySanitizerPass(const EfficiencySanitizerOptions &Options);
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }

private:
  EfficiencySanitizerOptions Options;
};

/// Records the module's allocation wrappers (functions that only call an
/// allocator and return its result, such as xmalloc) in the module's
/// metadata, for EfficiencySanitizerPass to register them with the runtime.
/// It runs before inlining, which removes static inline helpers. It changes
/// no code.
class EfficiencySanitizerAllocWrappersPass
    : public PassInfoMixin<EfficiencySanitizerAllocWrappersPass> {
public:
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &MAM);
};

/// The tool selected by -efsan-tool= (ESAN_None when it is not given). The
/// pass plugin uses it to decide whether to add the pass to clang's pipeline.
EfficiencySanitizerOptions::Type getEfficiencySanitizerToolFromCommandLine();

} // namespace llvm

#endif // LLVM_TRANSFORMS_INSTRUMENTATION_EFFICIENCYSANITIZER_H
