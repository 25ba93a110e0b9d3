//===- EfficiencySanitizerPlugin.cpp - efsan as a pass plugin -------------===//
//
// Part of the efsan project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Out-of-tree entry point: makes the pass loadable by a stock clang
// (-fpass-plugin=, with -mllvm -efsan-tool=<tool>) and by opt
// (-load-pass-plugin=, -passes=efsan<working-set>|efsan<cache-frag>|efsan).
// In llvm-project the pass is registered in PassRegistry.def and added by
// clang's BackendUtil instead, so this file has no upstream counterpart.
//
//===----------------------------------------------------------------------===//

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Transforms/Instrumentation/EfficiencySanitizer.h"

using namespace llvm;

static bool parseToolParameter(StringRef Params,
                               EfficiencySanitizerOptions &Options) {
  if (Params == "working-set")
    Options.ToolType = EfficiencySanitizerOptions::ESAN_WorkingSet;
  else if (Params == "cache-frag")
    Options.ToolType = EfficiencySanitizerOptions::ESAN_CacheFrag;
  else if (Params.empty()) // plain "efsan": the tool comes from -efsan-tool=
    Options.ToolType = EfficiencySanitizerOptions::ESAN_None;
  else
    return false;
  return true;
}

static void registerEfficiencySanitizer(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "efsan-alloc-wrappers") {
          MPM.addPass(EfficiencySanitizerAllocWrappersPass());
          return true;
        }
        if (!PassBuilder::checkParametrizedPassName(Name, "efsan"))
          return false;
        StringRef Params = Name.drop_front(strlen("efsan"));
        Params.consume_front("<");
        Params.consume_back(">");
        EfficiencySanitizerOptions Options;
        if (!parseToolParameter(Params, Options)) {
          errs() << "efsan: unknown tool '" << Params
                 << "' (want working-set or cache-frag)\n";
          return false;
        }
        MPM.addPass(EfficiencySanitizerPass(Options));
        return true;
      });
  // The allocation wrappers are found before inlining removes static inline
  // helpers (a CALLOC in a header); the instrumentation registers them.
  PB.registerPipelineStartEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        if (getEfficiencySanitizerToolFromCommandLine() !=
            EfficiencySanitizerOptions::ESAN_None)
          MPM.addPass(EfficiencySanitizerAllocWrappersPass());
      });
  // Last in the optimisation pipeline (clang calls this at -O0 too, and in
  // the pre-link step of -flto and -flto=thin, the only step that loads the
  // plugin), so only accesses that survive optimisation are instrumented.
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        EfficiencySanitizerOptions Options;
        Options.ToolType = getEfficiencySanitizerToolFromCommandLine();
        if (Options.ToolType != EfficiencySanitizerOptions::ESAN_None)
          MPM.addPass(EfficiencySanitizerPass(Options));
      });
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "EfficiencySanitizer", LLVM_VERSION_STRING,
          registerEfficiencySanitizer};
}
