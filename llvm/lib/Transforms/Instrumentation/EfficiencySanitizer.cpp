//===- EfficiencySanitizer.cpp - performance tuning sanitizer -------------===//
//
// Part of the efsan project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file is a part of EfficiencySanitizer (efsan), a family of sanitizers
// that look for performance problems instead of bugs:
//
//  - working-set: marks the shadow byte of every 64-byte cache line an access
//    touches, inline, with a check so that a hot line costs a load and a
//    branch and never a store;
//  - cache-frag: samples accesses per thread by counting them down. Each
//    function keeps a copy of the thread's countdown in a register, so a run
//    of n accesses costs a subtraction of n and a not-taken branch; when the
//    count runs out a cold block hands the run's accesses (with their struct
//    field counters) to the runtime, which picks the sample. The copy is
//    written back to the thread-local countdown around calls and at returns.
//
// This file owns the pass entry, the module's runtime declarations, tool id
// and constructor, which accesses are instrumented, and the per-access
// instrumentation of both tools. It does not own the working set's
// loop-level marking (EfficiencySanitizerLoopRanges.cpp) nor its inline
// compares (EfficiencySanitizerCompares.cpp), cache-frag's
// sampling countdown (EfficiencySanitizerCountdown.cpp), the struct field
// tables cache-frag counts accesses in (EfficiencySanitizerStructFields.cpp)
// nor the source names of types and members
// (EfficiencySanitizerMemberNames.cpp); what the files share is in
// EfficiencySanitizerInternal.h.
//
// The emitted code is the contract in docs/InstrumentationABI.md; change
// both together.
//
//===----------------------------------------------------------------------===//

#include "llvm/Transforms/Instrumentation/EfficiencySanitizer.h"
#include "EfficiencySanitizerInternal.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/CaptureTracking.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SpecialCaseList.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;
using namespace llvm::efsan;

#define DEBUG_TYPE "efsan"

static cl::opt<EfficiencySanitizerOptions::Type> ClToolType(
    "efsan-tool", cl::desc("EfficiencySanitizer tool to instrument for"),
    cl::values(clEnumValN(EfficiencySanitizerOptions::ESAN_CacheFrag,
                          "cache-frag", "cache-line false sharing and struct "
                                        "field usage"),
               clEnumValN(EfficiencySanitizerOptions::ESAN_WorkingSet,
                          "working-set", "working set in cache lines")),
    cl::init(EfficiencySanitizerOptions::ESAN_None), cl::Hidden);

static cl::opt<bool> ClInstrumentLoadsAndStores(
    "efsan-instrument-loads-and-stores",
    cl::desc("Instrument loads and stores (plain and atomic)"), cl::init(true),
    cl::Hidden);

static cl::opt<bool>
    ClInstrumentAtomics("efsan-instrument-atomics",
                        cl::desc("Instrument atomicrmw and cmpxchg"),
                        cl::init(true), cl::Hidden);

static cl::opt<bool> ClInstrumentMemIntrinsics(
    "efsan-instrument-memintrinsics",
    cl::desc("Replace memset/memcpy/memmove intrinsics by runtime calls"),
    cl::init(true), cl::Hidden);

static cl::opt<bool> ClInstrumentMaskedAccesses(
    "efsan-instrument-masked",
    cl::desc("Instrument masked loads/stores and gathers/scatters per lane"),
    cl::init(true), cl::Hidden);

static cl::opt<bool> ClInlineFastPath(
    "efsan-inline-fast-path",
    cl::desc("working-set: check and mark the shadow inline for accesses "
             "within one cache line (otherwise call __efsan_load/store*)"),
    cl::init(true), cl::Hidden);

static cl::opt<bool> ClSkipRepeatedAccesses(
    "efsan-skip-repeated-accesses",
    cl::desc("working-set: instrument an address once per basic block and "
             "the blocks entered only from it"),
    cl::init(true), cl::Hidden);

static cl::opt<bool> ClCoalesceAccesses(
    "efsan-coalesce-accesses",
    cl::desc("working-set: one check for the accesses of a basic block at "
             "constant offsets from one pointer that span at most a line "
             "(only with -efsan-skip-repeated-accesses)"),
    cl::init(true), cl::Hidden);

static cl::opt<bool> ClCacheFragStack(
    "efsan-cache-frag-stack",
    cl::desc("cache-frag: also track stack slots that do not escape"),
    cl::init(false), cl::Hidden);

static cl::list<std::string> ClIgnorelistFiles(
    "efsan-ignorelist",
    cl::desc("A sanitizer special case list (clang's -fsanitize-ignorelist= "
             "format): functions (fun:) and files (src:, mainfile:) of the "
             "tool's section, [efficiency], [all] or the default section are "
             "not instrumented; may be repeated"),
    cl::Hidden);

static constexpr char kToolGlobalName[] = "__efsan_which_tool";
static constexpr char kModuleCtorName[] = "efsan.module_ctor";
static constexpr char kModuleDtorName[] = "efsan.module_dtor";
static constexpr char kInitName[] = "__efsan_init";
static constexpr char kModuleFiniName[] = "__efsan_module_fini";

// Sizes with a dedicated callout: 1, 2, 4, 8, 16 bytes.
static constexpr size_t kNumSizeClasses = 5;

EfficiencySanitizerOptions::Type
llvm::getEfficiencySanitizerToolFromCommandLine() {
  return ClToolType;
}

//===----------------------------------------------------------------------===//
// Ignorelists
//===----------------------------------------------------------------------===//
//
// A clang with efsan built in reads -fsanitize-ignorelist= in its front end
// and marks the functions it takes out of the tool no_sanitize_efficiency
// (CodeGenFunction). A stock clang does not know the efficiency sections, so
// efsan-clang hands the same files to the pass (-efsan-ignorelist=), which
// applies clang's rules to the IR: a section applies to a tool when its
// header, a glob, matches the tool's name or the name of a group holding it
// ("efficiency", "all"); entries before any header are in section "*".
// As in clang, a function is out when its mangled name matches fun:, the
// translation unit's main file matches mainfile:, or the file the function
// is defined in matches src:. The pass knows that file from the debug
// information; without it, every function is taken to be in the main file
// (clang's rule for functions without a location).

static bool inToolSections(const SpecialCaseList &List,
                           EfficiencySanitizerOptions::Type Tool,
                           StringRef Prefix, StringRef Query) {
  StringRef ToolName = Tool == EfficiencySanitizerOptions::ESAN_CacheFrag
                           ? "efficiency-cache-frag"
                           : "efficiency-working-set";
  for (StringRef Section : {ToolName, StringRef("efficiency"), StringRef("all")})
    if (List.inSection(Section, Prefix, Query))
      return true;
  return false;
}

// src: for the file a function is defined in, as clang names it: the file
// name as it was spelled (debug info keeps that name, relative names with
// the compilation directory beside them) and, for a relative name, its full
// path.
static bool inIgnoredFile(const SpecialCaseList &List,
                          EfficiencySanitizerOptions::Type Tool,
                          const Function &F) {
  const DISubprogram *SP = F.getSubprogram();
  if (!SP || !SP->getFile())
    return inToolSections(List, Tool, "src", F.getParent()->getSourceFileName());
  StringRef Name = SP->getFilename();
  if (inToolSections(List, Tool, "src", Name))
    return true;
  if (sys::path::is_absolute(Name) || SP->getDirectory().empty())
    return false;
  SmallString<256> FullPath(SP->getDirectory());
  sys::path::append(FullPath, Name);
  return inToolSections(List, Tool, "src", FullPath);
}

bool efsan::applyIgnorelists(Module &M,
                             EfficiencySanitizerOptions::Type Tool) {
  if (ClIgnorelistFiles.empty() ||
      Tool == EfficiencySanitizerOptions::ESAN_None)
    return false;
  std::string Error;
  std::unique_ptr<SpecialCaseList> List = SpecialCaseList::create(
      ClIgnorelistFiles, *vfs::getRealFileSystem(), Error);
  if (!List) {
    // clang's driver has checked the files already; this is for opt and for
    // a file that changed in between.
    M.getContext().emitError("efsan: malformed sanitizer ignorelist: " +
                             Error);
    return false;
  }
  bool WholeModule =
      inToolSections(*List, Tool, "mainfile", M.getSourceFileName());
  bool Changed = false;
  for (Function &F : M) {
    if (F.isDeclaration() || F.hasFnAttribute("no_sanitize_efficiency"))
      continue;
    if (WholeModule || inToolSections(*List, Tool, "fun", F.getName()) ||
        inIgnoredFile(*List, Tool, F)) {
      F.addFnAttr("no_sanitize_efficiency");
      Changed = true;
    }
  }
  return Changed;
}

namespace {

/// The bytes [Begin, End) from a base (pointer, index, scale) that the
/// working-set checks of a block mark, by base: a block entered only from it
/// need not check them again.
using CheckedSpans =
    SmallDenseMap<std::tuple<Value *, Value *, uint64_t>,
                  SmallVector<std::pair<int64_t, int64_t>, 2>, 8>;

class EfficiencySanitizer : ModuleContext {
public:
  EfficiencySanitizer(Module &M, EfficiencySanitizerOptions::Type Tool,
                      FunctionAnalysisManager *FAM);
  bool instrumentModule();

private:
  void declareRuntimeFunctions();
  bool shouldInstrumentFunction(const Function &F) const;
  bool shouldInstrumentAddress(Value *Addr);
  bool isUntrackedStackSlot(Value *Addr);
  bool willInstrumentMemIntrinsic(const MemIntrinsic *MI) const;
  bool isSmallMemIntrinsic(const Instruction &I) const;
  SmallVector<MemoryAccess, 2> describeSmallMemIntrinsic(Instruction &I);
  bool willInstrumentMaskedAccess(IntrinsicInst *II);
  bool isCacheFragCallSite(Instruction &I);
  bool instrumentFunction(Function &F);

  std::optional<MemoryAccess> describeAccess(Instruction &I);
  void instrumentMemIntrinsic(MemIntrinsic *MI);
  void instrumentMaskedAccess(IntrinsicInst *II);
  void instrumentWorkingSetBlock(ArrayRef<MemoryAccess> Accesses,
                                 CheckedSpans &Spans,
                                 bool SkipRepeated = true);
  void instrumentWorkingSetFunction(Function &F, ArrayRef<AccessRun> Runs);

  void emitAccessCallout(IRBuilder<> &IRB, Value *Addr, uint64_t Size,
                         Align Alignment, bool IsWrite);

  void createToolGlobal();
  void createModuleCtorAndDtor(Constant *ModuleInfo);

  const EfficiencySanitizerOptions::Type Tool;
  LoopRangeMarker LoopRanges;     // working set
  MemberNames Names;              // cache-frag
  StructFieldTables StructFields; // cache-frag
  CacheFragCountdown Countdown;   // cache-frag
  FunctionAnalysisManager *FAM;

  FunctionCallee AlignedLoad[kNumSizeClasses], AlignedStore[kNumSizeClasses];
  FunctionCallee UnalignedLoad[kNumSizeClasses],
      UnalignedStore[kNumSizeClasses];
  FunctionCallee LoadN, StoreN, Memcpy, Memmove, Memset;
  DenseMap<const Value *, bool> StackSlotEscapes;
};

} // namespace

EfficiencySanitizer::EfficiencySanitizer(Module &M,
                                         EfficiencySanitizerOptions::Type Tool,
                                         FunctionAnalysisManager *FAM)
    : ModuleContext(M), Tool(Tool), LoopRanges(M, FAM), Names(M),
      StructFields(M), Countdown(M, StructFields), FAM(FAM) {}

ModuleContext::ModuleContext(Module &M)
    : M(M), Ctx(M.getContext()), DL(M.getDataLayout()) {
  Int8Ty = Type::getInt8Ty(Ctx);
  Int32Ty = Type::getInt32Ty(Ctx);
  Int64Ty = Type::getInt64Ty(Ctx);
  IntptrTy = DL.getIntPtrType(Ctx);
  PtrTy = PointerType::getUnqual(Ctx);
  UnlikelyWeights = MDBuilder(Ctx).createUnlikelyBranchWeights();
}

static unsigned sizeClassIndex(uint64_t Size) {
  switch (Size) {
  case 1: return 0;
  case 2: return 1;
  case 4: return 2;
  case 8: return 3;
  case 16: return 4;
  default: return kNumSizeClasses;
  }
}

void EfficiencySanitizer::declareRuntimeFunctions() {
  AttributeList Attrs =
      AttributeList().addFnAttribute(Ctx, Attribute::NoUnwind);
  Type *VoidTy = Type::getVoidTy(Ctx);
  auto DeclareMemFunctions = [&] {
    Memcpy = M.getOrInsertFunction("__efsan_memcpy", Attrs, PtrTy, PtrTy, PtrTy,
                                   Int64Ty);
    Memmove = M.getOrInsertFunction("__efsan_memmove", Attrs, PtrTy, PtrTy,
                                    PtrTy, Int64Ty);
    Memset = M.getOrInsertFunction("__efsan_memset", Attrs, PtrTy, PtrTy,
                                   Int32Ty, Int64Ty);
  };
  if (Tool == EfficiencySanitizerOptions::ESAN_CacheFrag) {
    DeclareMemFunctions();
    Countdown.declareRuntimeFunctions(Attrs);
    Names.declareRuntimeFunctions(Attrs);
    return;
  }
  for (unsigned Index = 0; Index < kNumSizeClasses; ++Index) {
    std::string Bytes = utostr(1u << Index);
    AlignedLoad[Index] = M.getOrInsertFunction("__efsan_load" + Bytes, Attrs,
                                               VoidTy, PtrTy);
    AlignedStore[Index] = M.getOrInsertFunction("__efsan_store" + Bytes,
                                                Attrs, VoidTy, PtrTy);
    if (Index == 0)
      continue; // a single byte never straddles
    UnalignedLoad[Index] = M.getOrInsertFunction(
        "__efsan_unaligned_load" + Bytes, Attrs, VoidTy, PtrTy);
    UnalignedStore[Index] = M.getOrInsertFunction(
        "__efsan_unaligned_store" + Bytes, Attrs, VoidTy, PtrTy);
  }
  LoadN = M.getOrInsertFunction("__efsan_loadN", Attrs, VoidTy, PtrTy,
                                Int64Ty);
  StoreN = M.getOrInsertFunction("__efsan_storeN", Attrs, VoidTy, PtrTy,
                                 Int64Ty);
  DeclareMemFunctions();
}

bool EfficiencySanitizer::shouldInstrumentFunction(const Function &F) const {
  if (F.isDeclaration())
    return false;
  if (F.hasFnAttribute("no_sanitize_efficiency") ||
      F.hasFnAttribute(Attribute::DisableSanitizerInstrumentation) ||
      F.hasFnAttribute(Attribute::Naked))
    return false;
  return true;
}

bool EfficiencySanitizer::shouldInstrumentAddress(Value *Addr) {
  // The shadow lives in address space 0 only.
  if (Addr->getType()->getScalarType()->getPointerAddressSpace() != 0)
    return false;
  // swifterror slots are not memory that survives to machine code.
  if (Addr->isSwiftError())
    return false;
  if (auto *GV = dyn_cast<GlobalVariable>(getUnderlyingObject(Addr))) {
    // The runtime's own state and LLVM's bookkeeping globals (llvm.used,
    // profile counters...) are not program data.
    StringRef Name = GV->getName();
    if (Name.starts_with("__efsan_") || Name.starts_with("llvm.") ||
        Name.starts_with("__profc_") || Name.starts_with("__profd_"))
      return false;
  }
  if (Tool == EfficiencySanitizerOptions::ESAN_CacheFrag && !ClCacheFragStack &&
      isUntrackedStackSlot(Addr))
    return false;
  return true;
}

// A stack slot whose address never leaves its function cannot be shared
// between threads, so false sharing on it is impossible.
bool EfficiencySanitizer::isUntrackedStackSlot(Value *Addr) {
  const Value *Object = getUnderlyingObject(Addr);
  if (!isa<AllocaInst>(Object))
    return false;
  auto [It, Inserted] = StackSlotEscapes.try_emplace(Object, false);
  if (Inserted)
    It->second = PointerMayBeCaptured(Object, /*ReturnCaptures=*/true,
                                      /*StoreCaptures=*/true);
  return !It->second;
}

bool EfficiencySanitizer::instrumentModule() {
  // A module that already has the tool id was instrumented before (by an
  // earlier run of this pass, e.g. both a plugin and a native clang).
  if (M.getNamedValue(kToolGlobalName))
    return false;
  declareRuntimeFunctions();
  for (Function &F : M)
    if (shouldInstrumentFunction(F))
      instrumentFunction(F);
  Constant *ModuleInfo = Tool == EfficiencySanitizerOptions::ESAN_CacheFrag
                             ? StructFields.createCacheFragModuleInfo(Names)
                             : ConstantPointerNull::get(PtrTy);
  createToolGlobal();
  createModuleCtorAndDtor(ModuleInfo);
  return true;
}

// The pointer (masked load/store) or vector of pointers (gather/scatter).
static Value *maskedAccessPointers(IntrinsicInst *II) {
  bool IsStore = II->getIntrinsicID() == Intrinsic::masked_store ||
                 II->getIntrinsicID() == Intrinsic::masked_scatter;
  return II->getArgOperand(IsStore ? 1 : 0);
}

static bool isMaskedAccess(const IntrinsicInst *II) {
  switch (II->getIntrinsicID()) {
  case Intrinsic::masked_load:
  case Intrinsic::masked_store:
  case Intrinsic::masked_gather:
  case Intrinsic::masked_scatter:
    return true;
  default:
    return false;
  }
}

bool EfficiencySanitizer::willInstrumentMemIntrinsic(
    const MemIntrinsic *MI) const {
  if (!ClInstrumentMemIntrinsics || MI->getDestAddressSpace() != 0)
    return false;
  auto *MT = dyn_cast<MemTransferInst>(MI);
  return !MT || MT->getSourceAddressSpace() == 0;
}

// A memset, memcpy or memmove of a constant length of at most a line, in
// optimised code, is accessed like a load or a store (a write of the
// destination; for a copy, a read of the source first) and stays an
// intrinsic, which the backend makes a few moves: the runtime call it was
// otherwise turned into cost more than the copy (minimap2's radix sort swaps
// 16-byte elements with memcpy: 11% of cache-frag's time went to the call).
// Not in an optnone function: the -O0 backend calls the C library for some
// of them, whose interceptors would see the bytes again.
static constexpr uint64_t kSmallMemIntrinsicBytes = 64;

bool EfficiencySanitizer::isSmallMemIntrinsic(const Instruction &I) const {
  auto *MI = dyn_cast<MemIntrinsic>(&I);
  if (!MI || !ClInstrumentLoadsAndStores || !willInstrumentMemIntrinsic(MI) ||
      I.getFunction()->hasOptNone())
    return false;
  auto *Length = dyn_cast<ConstantInt>(MI->getLength());
  return Length && !Length->isZero() &&
         Length->getValue().ule(kSmallMemIntrinsicBytes);
}

SmallVector<MemoryAccess, 2>
EfficiencySanitizer::describeSmallMemIntrinsic(Instruction &I) {
  SmallVector<MemoryAccess, 2> Accesses;
  auto &MI = cast<MemIntrinsic>(I);
  uint64_t Size = cast<ConstantInt>(MI.getLength())->getZExtValue();
  Type *Bytes = ArrayType::get(Int8Ty, Size);
  if (auto *MT = dyn_cast<MemTransferInst>(&MI))
    if (shouldInstrumentAddress(MT->getSource()))
      Accesses.push_back({&I, MT->getSource(), Bytes, Size,
                          MT->getSourceAlign().valueOrOne(), false});
  if (shouldInstrumentAddress(MI.getDest()))
    Accesses.push_back(
        {&I, MI.getDest(), Bytes, Size, MI.getDestAlign().valueOrOne(), true});
  return Accesses;
}

bool EfficiencySanitizer::willInstrumentMaskedAccess(IntrinsicInst *II) {
  if (!ClInstrumentMaskedAccesses || !isMaskedAccess(II))
    return false;
  bool IsStore = II->getIntrinsicID() == Intrinsic::masked_store ||
                 II->getIntrinsicID() == Intrinsic::masked_scatter;
  Type *ValueTy = IsStore ? II->getArgOperand(0)->getType() : II->getType();
  // Scalable vectors have no lanes to enumerate at compile time.
  return isa<FixedVectorType>(ValueTy) &&
         shouldInstrumentAddress(maskedAccessPointers(II));
}

// Cache-frag: the calls around which the function's copy of the countdown is
// written back and reloaded, since the callee may count down too. That is
// every call that reaches code: any call of a function (instrumented code,
// the runtime's interceptors, or code that calls either), and the intrinsics
// the pass turns into runtime calls. Intrinsics that stay intrinsics and
// inline asm (also callbr, which LLVM 19 only allows for asm goto) run no
// instrumented code. A call tagged nosanitize still runs its callee.
bool EfficiencySanitizer::isCacheFragCallSite(Instruction &I) {
  auto *Call = dyn_cast<CallBase>(&I);
  if (!Call || Call->isInlineAsm())
    return false;
  auto *II = dyn_cast<IntrinsicInst>(Call);
  if (!II)
    return true;
  if (I.hasMetadata(LLVMContext::MD_nosanitize))
    return false;
  if (auto *MI = dyn_cast<MemIntrinsic>(II))
    return willInstrumentMemIntrinsic(MI) && !isSmallMemIntrinsic(*MI);
  return willInstrumentMaskedAccess(II);
}

bool EfficiencySanitizer::instrumentFunction(Function &F) {
  // Collect first: instrumenting splits blocks and adds the pass's own
  // accesses, which must not be visited. Loads, stores and atomics are
  // grouped in runs: for working-set a run is a whole basic block, for
  // cache-frag the part of a block between call sites.
  SmallVector<AccessRun, 16> AccessRuns;
  SmallVector<MemIntrinsic *, 4> MemIntrinsics;
  SmallVector<IntrinsicInst *, 4> MaskedAccesses;
  SmallVector<CallInst *, 4> Compares; // working set
  // Cache-frag only: where the countdown is synced with the thread's, and
  // the libc calls counted down inline instead.
  SmallVector<CallBase *, 16> CallSites;
  SmallVector<CacheFragCountdown::LibcCall, 4> LibcCalls;
  SmallVector<Instruction *, 4> Exits;
  SmallVector<LandingPadInst *, 4> LandingPads;
  bool CacheFrag = Tool == EfficiencySanitizerOptions::ESAN_CacheFrag;
  const TargetLibraryInfo *TLI =
      CacheFrag && FAM ? &FAM->getResult<TargetLibraryAnalysis>(F) : nullptr;
  // Before anything is emitted: the pass's own calls take addresses too.
  if (CacheFrag)
    StructFields.noteFieldEscapes(F);
  bool LoopsMarked = false;
  if (CacheFrag && ClInstrumentLoadsAndStores) {
    auto IsAccess = [&](Instruction &I) {
      return !I.hasMetadata(LLVMContext::MD_nosanitize) &&
             describeAccess(I).has_value();
    };
    Countdown.markLoopWork(F, FAM, IsAccess);
    LoopsMarked = Countdown.versionCleanLoops(
        F, FAM, IsAccess,
        // A loop with a small memset or memcpy keeps its countdown: the
        // clean copy counts the accesses of describeAccess only.
        [&](Instruction &I) {
          return isCacheFragCallSite(I) || isSmallMemIntrinsic(I);
        });
  }
  if (!CacheFrag && ClInstrumentLoadsAndStores) {
    auto Describe = [&](Instruction &I) { return describeAccess(I); };
    LoopsMarked = LoopRanges.markLoopRanges(F, Describe);
    LoopsMarked |= LoopRanges.markEarlyExitLoops(F, Describe);
  }
  for (BasicBlock &BB : F) {
    SmallVector<MemoryAccess, 8> Run;
    auto EndRunBefore = [&](Instruction *End) {
      if (!Run.empty())
        AccessRuns.push_back({End, std::move(Run)});
      Run.clear();
    };
    for (Instruction &I : BB) {
      if (CacheFrag && isCacheFragCallSite(I)) {
        EndRunBefore(&I);
        auto *CI = dyn_cast<CallInst>(&I);
        std::optional<unsigned> Ranges;
        if (CI && TLI)
          Ranges = CacheFragCountdown::directLibcCallRanges(*CI, *TLI);
        if (Ranges)
          LibcCalls.push_back({CI, *Ranges});
        else
          CallSites.push_back(cast<CallBase>(&I));
      }
      if (auto *LP = dyn_cast<LandingPadInst>(&I); LP && CacheFrag)
        LandingPads.push_back(LP);
      if (I.hasMetadata(LLVMContext::MD_nosanitize))
        continue;
      if (std::optional<MemoryAccess> Access = describeAccess(I)) {
        Run.push_back(*Access);
        continue;
      }
      if (isSmallMemIntrinsic(I)) {
        Run.append(describeSmallMemIntrinsic(I));
        continue;
      }
      if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
        if (willInstrumentMemIntrinsic(MI))
          MemIntrinsics.push_back(MI);
      } else if (auto *II = dyn_cast<IntrinsicInst>(&I)) {
        if (willInstrumentMaskedAccess(II))
          MaskedAccesses.push_back(II);
      } else if (auto *CI = dyn_cast<CallInst>(&I)) {
        if (!CacheFrag && isWorkingSetCompare(*CI))
          Compares.push_back(CI);
      }
    }
    EndRunBefore(BB.getTerminator());
    // Not after a musttail call or a deoptimize call: the return must follow
    // it immediately, and the countdown was written back before the call.
    Instruction *Term = BB.getTerminator();
    if (CacheFrag && (isa<ReturnInst>(Term) || isa<ResumeInst>(Term)) &&
        !BB.getTerminatingMustTailCall() && !BB.getTerminatingDeoptimizeCall())
      Exits.push_back(Term);
  }

  bool Changed = LoopsMarked || !AccessRuns.empty() ||
                 !MaskedAccesses.empty() || !MemIntrinsics.empty() ||
                 !Compares.empty() || !LibcCalls.empty();
  if (!CacheFrag) {
    instrumentWorkingSetFunction(F, AccessRuns);
  } else if (!AccessRuns.empty() || !LibcCalls.empty()) {
    Countdown.instrumentFunction(F, AccessRuns, CallSites, LibcCalls,
                                 LandingPads, Exits);
  }
  for (IntrinsicInst *II : MaskedAccesses)
    instrumentMaskedAccess(II);
  for (MemIntrinsic *MI : MemIntrinsics)
    instrumentMemIntrinsic(MI);
  for (CallInst *CI : Compares)
    instrumentWorkingSetCompare(
        *this, CI, FAM ? &FAM->getResult<TargetIRAnalysis>(F) : nullptr,
        FAM ? &FAM->getResult<TargetLibraryAnalysis>(F) : nullptr);
  Countdown.promoteCountdown(F);
  if (CacheFrag)
    Names.describeHeapAllocations(F);
  return Changed;
}


// Plain and atomic loads and stores, atomicrmw and cmpxchg (one write: for
// false sharing a failed cmpxchg still takes the line exclusive). Addresses
// are vetted here, before anything is emitted: the callouts would make every
// stack slot they mention look captured.
std::optional<MemoryAccess> EfficiencySanitizer::describeAccess(Instruction &I) {
  Value *Addr;
  Type *Ty;
  Align Alignment;
  bool IsWrite = true;
  if (isa<LoadInst>(I) || isa<StoreInst>(I)) {
    if (!ClInstrumentLoadsAndStores)
      return std::nullopt;
    Addr = getLoadStorePointerOperand(&I);
    Ty = getLoadStoreType(&I);
    Alignment = getLoadStoreAlignment(&I);
    IsWrite = isa<StoreInst>(I);
  } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    if (!ClInstrumentAtomics)
      return std::nullopt;
    Addr = RMW->getPointerOperand();
    Ty = RMW->getValOperand()->getType();
    Alignment = RMW->getAlign();
  } else if (auto *CmpXchg = dyn_cast<AtomicCmpXchgInst>(&I)) {
    if (!ClInstrumentAtomics)
      return std::nullopt;
    Addr = CmpXchg->getPointerOperand();
    Ty = CmpXchg->getCompareOperand()->getType();
    Alignment = CmpXchg->getAlign();
  } else {
    return std::nullopt;
  }
  TypeSize Size = DL.getTypeStoreSize(Ty);
  if (Size.isScalable() || Size.getFixedValue() == 0 ||
      !shouldInstrumentAddress(Addr))
    return std::nullopt;
  return MemoryAccess{&I, Addr, Ty, Size.getFixedValue(), Alignment, IsWrite};
}

// memset/memcpy/memmove become runtime calls that mark the ranges and do the
// operation (also for cache-frag, whose runtime counts them down and samples
// them itself: they are call sites, so the thread's countdown is current).
void EfficiencySanitizer::instrumentMemIntrinsic(MemIntrinsic *MI) {
  IRBuilder<> IRB(MI);
  Value *Length = IRB.CreateZExtOrTrunc(MI->getLength(), Int64Ty);
  if (auto *MS = dyn_cast<MemSetInst>(MI)) {
    IRB.CreateCall(Memset,
                   {MS->getDest(),
                    IRB.CreateZExt(MS->getValue(), Int32Ty), Length});
  } else {
    auto *MT = cast<MemTransferInst>(MI);
    IRB.CreateCall(isa<MemMoveInst>(MT) ? Memmove : Memcpy,
                   {MT->getDest(), MT->getSource(), Length});
  }
  MI->eraseFromParent();
}

// Masked loads/stores and gathers/scatters: one sized callout per lane, size
// 0 for lanes whose mask bit is off (their address may be anything). For
// cache-frag they are call sites, with no inline countdown check: the runtime
// counts the lanes down itself, and ignores those of size 0.
void EfficiencySanitizer::instrumentMaskedAccess(IntrinsicInst *II) {
  bool IsWrite;
  Value *Pointers; // a pointer (masked load/store) or a vector of them
  Value *Mask;
  Type *ValueTy;
  switch (II->getIntrinsicID()) {
  // Loads and gathers take (pointers, alignment, mask, passthru); stores and
  // scatters take (value, pointers, alignment, mask).
  case Intrinsic::masked_load:
  case Intrinsic::masked_gather:
    IsWrite = false;
    ValueTy = II->getType();
    Pointers = II->getArgOperand(0);
    Mask = II->getArgOperand(2);
    break;
  case Intrinsic::masked_store:
  case Intrinsic::masked_scatter:
    IsWrite = true;
    ValueTy = II->getArgOperand(0)->getType();
    Pointers = II->getArgOperand(1);
    Mask = II->getArgOperand(3);
    break;
  default:
    llvm_unreachable("not a masked access");
  }
  auto *VecTy = cast<FixedVectorType>(ValueTy);
  Type *ElementTy = VecTy->getElementType();
  uint64_t ElementSize = DL.getTypeStoreSize(ElementTy).getFixedValue();
  bool IsGatherScatter = Pointers->getType()->isVectorTy();

  IRBuilder<> IRB(II);
  for (unsigned Lane = 0, E = VecTy->getNumElements(); Lane < E; ++Lane) {
    Value *LaneAddr =
        IsGatherScatter ? IRB.CreateExtractElement(Pointers, IRB.getInt64(Lane))
        : Lane == 0     ? Pointers
                        : IRB.CreateConstGEP1_64(ElementTy, Pointers, Lane);
    Value *LaneOn = IRB.CreateExtractElement(Mask, IRB.getInt64(Lane));
    Value *LaneSize = IRB.CreateSelect(LaneOn, IRB.getInt64(ElementSize),
                                       IRB.getInt64(0));
    if (Tool == EfficiencySanitizerOptions::ESAN_CacheFrag)
      Countdown.emitCacheFragAccess(IRB, LaneAddr, LaneSize, IsWrite,
                                    {ConstantPointerNull::get(PtrTy)});
    else
      IRB.CreateCall(IsWrite ? StoreN : LoadN, {LaneAddr, LaneSize});
  }
}

namespace {
/// Where an address points: Ptr + Index * Scale + a constant (Index null
/// when there is none).
struct AddressBase {
  Value *Ptr;
  Value *Index;
  uint64_t Scale;
  bool operator==(const AddressBase &Other) const {
    return Ptr == Other.Ptr && Index == Other.Index && Scale == Other.Scale;
  }
};

/// One working-set check: the bytes [Begin, End) from Base, which covers one
/// or more accesses of a basic block and sits before the first of them.
struct WorkingSetCheck {
  Instruction *InsertBefore; // the group's first access
  AddressBase Base;
  int64_t Begin, End;
  Value *FirstAddr; // the first access's address, at offset FirstOffset
  int64_t FirstOffset;
  Align FirstAlignment;
  bool IsWrite;
  bool Callout; // wider than a line, or the inline fast path is off
  SmallVector<std::pair<int64_t, Align>, 4> Members; // offset, alignment
};
} // namespace

// Splits Addr into a base and a constant byte offset: constant GEP offsets,
// and for a GEP with one variable pointer-sized index `x + c` (add, or a
// disjoint or) the constant c times the element size, so that the unrolled
// copies of a loop body (p[i], p[i + 4]) share a base. Offsets are exact
// modulo 2^64, which is all address arithmetic is.
static std::pair<AddressBase, int64_t>
decomposeAddress(const DataLayout &DL, Value *Addr) {
  unsigned Bits = DL.getIndexTypeSizeInBits(Addr->getType());
  APInt Offset(Bits, 0);
  Value *Ptr = Addr->stripAndAccumulateConstantOffsets(
      DL, Offset, /*AllowNonInbounds=*/true);
  AddressBase Base{Ptr, nullptr, 0};
  auto *GEP = dyn_cast<GetElementPtrInst>(Ptr);
  TypeSize ElementSize =
      GEP ? DL.getTypeAllocSize(GEP->getSourceElementType())
          : TypeSize::getFixed(0);
  if (GEP && GEP->getNumIndices() == 1 && !ElementSize.isScalable() &&
      GEP->getOperand(1)->getType()->getIntegerBitWidth() == Bits) {
    Value *Index = GEP->getOperand(1);
    APInt Scale(Bits, ElementSize.getFixedValue());
    auto *Sum = dyn_cast<BinaryOperator>(Index);
    auto *Addend = Sum ? dyn_cast<ConstantInt>(Sum->getOperand(1)) : nullptr;
    if (Addend && (Sum->getOpcode() == Instruction::Add ||
                   (Sum->getOpcode() == Instruction::Or &&
                    cast<PossiblyDisjointInst>(Sum)->isDisjoint()))) {
      Offset += Addend->getValue() * Scale;
      Index = Sum->getOperand(0);
    }
    Value *GEPBase =
        GEP->getPointerOperand()->stripAndAccumulateConstantOffsets(
            DL, Offset, /*AllowNonInbounds=*/true);
    Base = {GEPBase, Index, ElementSize.getFixedValue()};
  }
  if (Offset.getSignificantBits() > 48)
    return {{Addr, nullptr, 0}, 0};
  return {Base, Offset.getSExtValue()};
}

// A forked child's working set starts at the fork, with no line marked: an
// access after fork() returns must be checked although the same function
// checked its line before. A block that calls fork (directly: a wrapper that
// forks is not seen) skips no access and passes no span on.
static bool callsFork(const BasicBlock &BB) {
  for (const Instruction &I : BB)
    if (auto *Call = dyn_cast<CallBase>(&I))
      if (Function *Callee = Call->getCalledFunction())
        if (Callee->getName() == "fork" || Callee->getName() == "_Fork")
          return true;
  return false;
}

// Working set: the blocks in reverse post-order, each starting from the spans
// its unique predecessor (if any) had marked by its end, its own or inherited
// from further up a chain of such edges. Such an edge is never a loop's back
// edge (a header has its preheader and latch), so an access skipped for a
// check upstream follows it within one pass through the code, as repeated
// accesses within a block do (instrumentWorkingSetBlock). The order and the
// edges are read before any block is split.
void EfficiencySanitizer::instrumentWorkingSetFunction(
    Function &F, ArrayRef<AccessRun> Runs) {
  DenseMap<BasicBlock *, unsigned> RunOfBlock;
  for (unsigned R = 0; R < Runs.size(); ++R)
    RunOfBlock[Runs[R].first->getParent()] = R;
  SmallVector<std::pair<BasicBlock *, BasicBlock *>, 32> Order; // block, pred
  for (BasicBlock *BB : ReversePostOrderTraversal<Function *>(&F))
    Order.push_back({BB, BB->getUniquePredecessor()});
  DenseMap<BasicBlock *, CheckedSpans> SpansAtEnd;
  SmallVector<bool, 32> Done(Runs.size(), false);
  for (auto &[BB, Pred] : Order) {
    CheckedSpans Spans;
    if (auto It = Pred && ClSkipRepeatedAccesses ? SpansAtEnd.find(Pred)
                                                 : SpansAtEnd.end();
        It != SpansAtEnd.end())
      Spans = It->second;
    bool Forks = callsFork(*BB);
    if (auto It = RunOfBlock.find(BB); It != RunOfBlock.end()) {
      instrumentWorkingSetBlock(Runs[It->second].second, Spans, !Forks);
      Done[It->second] = true;
    }
    if (!Spans.empty() && !Forks)
      SpansAtEnd[BB] = std::move(Spans);
  }
  // Blocks that cannot be reached from the entry.
  for (unsigned R = 0; R < Runs.size(); ++R)
    if (!Done[R]) {
      CheckedSpans Spans;
      instrumentWorkingSetBlock(Runs[R].second, Spans,
                                !callsFork(*Runs[R].first->getParent()));
    }
}

// Working set: accesses of one block at constant offsets from one base
// pointer whose bytes span at most a line share one check of the whole span,
// placed at the first of them. The span's first and last bytes belong to
// accesses of the group, and a span of at most 64 bytes has at most two
// lines, those of its first and last bytes, so the check marks exactly the
// lines the group touches. Marking them a few instructions early is harmless:
// the accesses all run once the block is entered, unless a call between them
// never returns (exit, longjmp, an exception), and then at most the lines of
// the block's later accesses are counted although not touched. Marking has
// no other effect (nothing is dereferenced but the shadow), so memory freed
// or unmapped in between does not matter. An access inside a span already
// checked in the block is not checked again (-efsan-skip-repeated-accesses).
void EfficiencySanitizer::instrumentWorkingSetBlock(
    ArrayRef<MemoryAccess> Accesses, CheckedSpans &Spans, bool SkipRepeated) {
  constexpr int64_t LineSize = int64_t(1) << kShadowScale;
  // Coalescing widens the checks that skipping repeated accesses looks up:
  // without the latter every access gets its own check.
  bool Merge = ClSkipRepeatedAccesses && SkipRepeated;
  bool Coalesce = Merge && ClCoalesceAccesses;
  SmallVector<WorkingSetCheck, 8> Checks;
  SmallDenseMap<std::tuple<Value *, Value *, uint64_t>,
                SmallVector<unsigned, 2>, 8>
      ChecksOfBase;
  for (const MemoryAccess &Access : Accesses) {
    AddressBase Base{Access.Addr, nullptr, 0};
    int64_t Begin = 0;
    if (Merge)
      std::tie(Base, Begin) = decomposeAddress(DL, Access.Addr);
    int64_t End = Begin + int64_t(Access.Size);
    bool Inline = ClInlineFastPath && Access.Size <= uint64_t(LineSize);
    std::tuple<Value *, Value *, uint64_t> Key{Base.Ptr, Base.Index,
                                               Base.Scale};
    if (Merge)
      if (auto It = Spans.find(Key); It != Spans.end() &&
          any_of(It->second, [&](const std::pair<int64_t, int64_t> &Span) {
            return Span.first <= Begin && End <= Span.second;
          }))
        continue;
    SmallVector<unsigned, 2> &Indices = ChecksOfBase[Key];
    bool Covered = false;
    WorkingSetCheck *Joined = nullptr;
    for (unsigned Index : Indices) {
      WorkingSetCheck &Check = Checks[Index];
      if (Merge && Check.Begin <= Begin && End <= Check.End) {
        Covered = true;
        break;
      }
      if (Coalesce && Inline && !Check.Callout && !Joined &&
          std::max(End, Check.End) - std::min(Begin, Check.Begin) <= LineSize)
        Joined = &Check;
    }
    if (Covered)
      continue;
    if (Joined) {
      Joined->Begin = std::min(Joined->Begin, Begin);
      Joined->End = std::max(Joined->End, End);
      Joined->IsWrite |= Access.IsWrite;
      Joined->Members.push_back({Begin, Access.Alignment});
      continue;
    }
    Indices.push_back(Checks.size());
    Checks.push_back({Access.I, Base, Begin, End, Access.Addr, Begin,
                      Access.Alignment, Access.IsWrite, !Inline,
                      {{Begin, Access.Alignment}}});
  }

  for (WorkingSetCheck &Check : Checks)
    Spans[{Check.Base.Ptr, Check.Base.Index, Check.Base.Scale}].push_back(
        {Check.Begin, Check.End});
  for (WorkingSetCheck &Check : Checks) {
    uint64_t Span = Check.End - Check.Begin;
    IRBuilder<> IRB(Check.InsertBefore);
    if (Check.Callout) {
      emitAccessCallout(IRB, Check.FirstAddr, Span, Check.FirstAlignment,
                        Check.IsWrite);
      continue;
    }
    Value *Start = Check.FirstAddr;
    if (Check.FirstOffset != Check.Begin) {
      const AddressBase &Base = Check.Base;
      Start = Base.Ptr;
      if (Base.Index)
        Start = IRB.CreateGEP(
            Int8Ty, Start,
            IRB.CreateMul(Base.Index,
                          ConstantInt::get(Base.Index->getType(), Base.Scale)));
      if (Check.Begin != 0)
        Start = IRB.CreateConstGEP1_64(Int8Ty, Start, Check.Begin);
    }
    // The span stays in one line if its start is aligned to at least its
    // size (alignments are powers of two: either they divide 64 or the span
    // starts a line). Each member's alignment bounds the start's.
    Align StartAlignment(1);
    for (auto &[Offset, Alignment] : Check.Members)
      StartAlignment = std::max(
          StartAlignment, commonAlignment(Alignment, Offset - Check.Begin));
    if (Span <= StartAlignment.value())
      emitWorkingSetFastPath(*this, Check.InsertBefore, Start);
    else
      emitWorkingSetTwoLineFastPath(*this, Check.InsertBefore, Start,
                                    ConstantInt::get(IntptrTy, Span - 1));
  }
}

void efsan::markNoSanitize(Instruction *I) {
  I->setMetadata(LLVMContext::MD_nosanitize, MDNode::get(I->getContext(), {}));
}

// if (!(*shadow & 1)) { *shadow |= 0x81; changed[shadow >> 12] = 1; }
// The runtime sets bit 0 only together with bit 7 and never clears bit 7
// alone, so "bit 0 set" means "bits 0 and 7 set" and a line already marked
// costs a load folded into a test and a not-taken branch; the stores sit in a
// cold block, so a hot shadow line is never written. The changed-page byte
// tells the sampler which shadow pages to visit; it is stored after the
// shadow byte, unconditionally: a load to test it first could be answered
// before the shadow store is visible, and the sampler, which clears the byte
// and then reads the shadow, could miss both.
// Miss-ratio curves: whether the line of the shadow byte at ShadowInt is
// one the runtime observes, (ShadowInt * kMrcHash) <= __efsan_mrc_threshold
// (0 while the curves are off): a multiply, a load of a read-mostly global
// and a compare, in the cold block only.
Value *efsan::emitObservedTest(const ModuleContext &MC, IRBuilder<> &IRB,
                               Value *ShadowInt) {
  Constant *Threshold = MC.M.getOrInsertGlobal(kMrcThresholdName, MC.Int64Ty);
  LoadInst *Limit = IRB.CreateAlignedLoad(MC.Int64Ty, Threshold, Align(8));
  markNoSanitize(Limit);
  return IRB.CreateICmpULE(
      IRB.CreateMul(ShadowInt, ConstantInt::get(MC.Int64Ty, kMrcHash)), Limit);
}

// __efsan_ws_mark_lines(first, last): the runtime marks the shadow bytes
// [first, last] (recording the accesses to observed lines); preserve_all,
// so that no register of the hot path is saved around the cold block, and
// nonlazybind: from a shared library a lazily bound PLT call would run
// glibc's resolver, which follows the C convention and clobbers r10 (as for
// the cache-frag callout, EfficiencySanitizerCountdown.cpp).
void efsan::emitMarkLinesCall(const ModuleContext &MC, IRBuilder<> &IRB,
                              Value *First, Value *Last) {
  emitPreserveAllCall(MC, IRB, kMarkLinesName, IRB.getVoidTy(), {First, Last});
}

// The working set's other preserve_all, nonlazybind runtime calls (the loop
// tables' counting loops, EfficiencySanitizerLoopRanges.cpp), for the same
// reasons.
CallInst *efsan::emitPreserveAllCall(const ModuleContext &MC,
                                     IRBuilder<> &IRB, StringRef Name,
                                     Type *Result, ArrayRef<Value *> Args) {
  SmallVector<Type *, 2> Params;
  for (Value *Arg : Args)
    Params.push_back(Arg->getType());
  FunctionCallee Callee = MC.M.getOrInsertFunction(
      Name, FunctionType::get(Result, Params, false));
  if (auto *F = dyn_cast<Function>(Callee.getCallee())) {
    F->setCallingConv(CallingConv::PreserveAll);
    F->addFnAttr(Attribute::NoUnwind);
    F->addFnAttr(Attribute::NonLazyBind);
  }
  CallInst *Call = IRB.CreateCall(Callee, Args);
  Call->setCallingConv(CallingConv::PreserveAll);
  markNoSanitize(Call);
  return Call;
}

void efsan::emitWorkingSetFastPath(const ModuleContext &MC,
                                   Instruction *InsertBefore, Value *Addr) {
  IntegerType *Int8Ty = MC.Int8Ty, *IntptrTy = MC.IntptrTy;
  PointerType *PtrTy = MC.PtrTy;
  IRBuilder<> IRB(InsertBefore);
  Value *Line = IRB.CreateLShr(IRB.CreatePtrToInt(Addr, IntptrTy),
                               kShadowScale);
  Value *ShadowInt =
      IRB.CreateAdd(Line, ConstantInt::get(IntptrTy, kShadowOffset));
  Value *Shadow = IRB.CreateIntToPtr(ShadowInt, PtrTy);
  LoadInst *Byte = IRB.CreateAlignedLoad(Int8Ty, Shadow, Align(1));
  markNoSanitize(Byte);
  Value *NotSampled = IRB.CreateICmpEQ(
      IRB.CreateAnd(Byte, kWorkingSetSampledBit), IRB.getInt8(0));
  Instruction *MarkTerm =
      SplitBlockAndInsertIfThen(NotSampled, InsertBefore->getIterator(),
                                /*Unreachable=*/false, MC.UnlikelyWeights);
  // A line the miss-ratio curves observe goes to the runtime, which keeps
  // its bit 0 clear: every access to it comes back here.
  IRB.SetInsertPoint(MarkTerm);
  Instruction *ObservedTerm, *InlineTerm;
  SplitBlockAndInsertIfThenElse(emitObservedTest(MC, IRB, ShadowInt),
                                MarkTerm->getIterator(), &ObservedTerm,
                                &InlineTerm, MC.UnlikelyWeights);
  IRB.SetInsertPoint(ObservedTerm);
  emitMarkLinesCall(MC, IRB, ShadowInt, ShadowInt);
  // Reloading lets the backend emit one read-modify-write `or` to memory
  // and keeps the loaded byte out of a register on the hot path.
  IRB.SetInsertPoint(InlineTerm);
  LoadInst *Current = IRB.CreateAlignedLoad(Int8Ty, Shadow, Align(1));
  markNoSanitize(Current);
  StoreInst *Mark = IRB.CreateAlignedStore(
      IRB.CreateOr(Current, kWorkingSetAccessBits), Shadow, Align(1));
  markNoSanitize(Mark);
  emitChangedPageMark(IRB, ShadowInt);
}

// changed[shadow >> 12] = 1, a release store (a plain mov on x86) so that
// nothing moves it before the shadow store.
void efsan::emitChangedPageMark(IRBuilder<> &IRB, Value *ShadowInt) {
  Value *Page = IRB.CreateLShr(ShadowInt, kShadowPageShift);
  Value *Changed = IRB.CreateIntToPtr(
      IRB.CreateAdd(Page,
                    ConstantInt::get(ShadowInt->getType(), kDirtyMapDelta)),
      IRB.getPtrTy());
  StoreInst *Store = IRB.CreateAlignedStore(IRB.getInt8(1), Changed, Align(1));
  Store->setAtomic(AtomicOrdering::Release);
  markNoSanitize(Store);
}

// s1 = shadow(a); s2 = shadow(a + size - 1) (LastOffset: size - 1, 0 to 63);
// if (!(*s1 & *s2 & 1)) {
//   *s1 |= 0x81; *s2 |= 0x81; changed[s1 >> 12] = 1; changed[s2 >> 12] = 1;
// }
// Up to 64 bytes at any alignment touch the lines of their first and last
// bytes only; s2 is s1 or the next shadow byte. Both lines marked costs eight
// instructions: a shift of each address (the last byte's from an lea), two
// byte loads with the offset as displacement, an and, a test and a not-taken
// branch. (Deriving s2 from s1 and a & 63 took three more.) The cold block marks both lines inline: a
// call there made the backend save and restore the vector registers live
// across it on the hot path. It stores into both shadow bytes although one
// of them may have bit 0 already; that is a store into the line of an
// access happening now (the sampler may count the line in the next period
// too, within the one-sample uncertainty of a sample), and it runs once per
// line and sample period.
void efsan::emitWorkingSetTwoLineFastPath(const ModuleContext &MC,
                                          Instruction *InsertBefore,
                                          Value *Addr, Value *LastOffset) {
  IntegerType *Int8Ty = MC.Int8Ty, *IntptrTy = MC.IntptrTy;
  PointerType *PtrTy = MC.PtrTy;
  IRBuilder<> IRB(InsertBefore);
  Value *Int = IRB.CreatePtrToInt(Addr, IntptrTy);
  Value *Offset = ConstantInt::get(IntptrTy, kShadowOffset);
  Value *FirstShadow =
      IRB.CreateAdd(IRB.CreateLShr(Int, kShadowScale), Offset);
  Value *LastShadow = IRB.CreateAdd(
      IRB.CreateLShr(IRB.CreateAdd(Int, LastOffset), kShadowScale),
      Offset);
  Value *First = IRB.CreateIntToPtr(FirstShadow, PtrTy);
  Value *Last = IRB.CreateIntToPtr(LastShadow, PtrTy);
  LoadInst *FirstByte = IRB.CreateAlignedLoad(Int8Ty, First, Align(1));
  markNoSanitize(FirstByte);
  LoadInst *LastByte = IRB.CreateAlignedLoad(Int8Ty, Last, Align(1));
  markNoSanitize(LastByte);
  Value *NotSampled = IRB.CreateICmpEQ(
      IRB.CreateAnd(IRB.CreateAnd(FirstByte, LastByte), kWorkingSetSampledBit),
      IRB.getInt8(0));
  Instruction *MarkTerm =
      SplitBlockAndInsertIfThen(NotSampled, InsertBefore->getIterator(),
                                /*Unreachable=*/false, MC.UnlikelyWeights);
  IRBuilder<> Cold(MarkTerm);
  Value *Observed = Cold.CreateOr(emitObservedTest(MC, Cold, FirstShadow),
                                  emitObservedTest(MC, Cold, LastShadow));
  Instruction *ObservedTerm, *InlineTerm;
  SplitBlockAndInsertIfThenElse(Observed, MarkTerm->getIterator(),
                                &ObservedTerm, &InlineTerm,
                                MC.UnlikelyWeights);
  Cold.SetInsertPoint(ObservedTerm);
  emitMarkLinesCall(MC, Cold, FirstShadow, LastShadow);
  Cold.SetInsertPoint(InlineTerm);
  for (Value *Shadow : {First, Last}) {
    LoadInst *Current = Cold.CreateAlignedLoad(Int8Ty, Shadow, Align(1));
    markNoSanitize(Current);
    markNoSanitize(Cold.CreateAlignedStore(
        Cold.CreateOr(Current, kWorkingSetAccessBits), Shadow, Align(1)));
  }
  emitChangedPageMark(Cold, FirstShadow);
  emitChangedPageMark(Cold, LastShadow);
}

// Aligned 1/2/4/8/16 -> __efsan_{load,store}N; the same sizes misaligned ->
// __efsan_unaligned_*; anything else -> __efsan_{load,store}N(ptr, size).
void EfficiencySanitizer::emitAccessCallout(IRBuilder<> &IRB, Value *Addr,
                                            uint64_t Size, Align Alignment,
                                            bool IsWrite) {
  unsigned Index = sizeClassIndex(Size);
  if (Index < kNumSizeClasses) {
    if (Alignment.value() >= Size) {
      IRB.CreateCall(IsWrite ? AlignedStore[Index] : AlignedLoad[Index], Addr);
      return;
    }
    if (Index > 0) {
      IRB.CreateCall(IsWrite ? UnalignedStore[Index] : UnalignedLoad[Index],
                     Addr);
      return;
    }
  }
  IRB.CreateCall(IsWrite ? StoreN : LoadN, {Addr, IRB.getInt64(Size)});
}

//===----------------------------------------------------------------------===//
// Module-level objects
//===----------------------------------------------------------------------===//

GlobalVariable *efsan::createPrivateConstant(Module &M, Constant *Init,
                                             const Twine &Name) {
  auto *GV = new GlobalVariable(M, Init->getType(), /*isConstant=*/true,
                                GlobalValue::PrivateLinkage, Init, Name);
  GV->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  return GV;
}

Constant *efsan::createCString(Module &M, StringRef Str, const Twine &Name) {
  Constant *Init = ConstantDataArray::getString(M.getContext(), Str);
  GlobalVariable *GV = createPrivateConstant(M, Init, Name);
  GV->setAlignment(Align(1));
  return GV;
}

void EfficiencySanitizer::createToolGlobal() {
  new GlobalVariable(M, Int32Ty, /*isConstant=*/true,
                     GlobalValue::WeakAnyLinkage,
                     ConstantInt::get(Int32Ty, Tool), kToolGlobalName);
}

void EfficiencySanitizer::createModuleCtorAndDtor(Constant *ModuleInfo) {
  getOrCreateSanitizerCtorAndInitFunctions(
      M, kModuleCtorName, kInitName, {Int32Ty, PtrTy},
      {ConstantInt::get(Int32Ty, Tool), ModuleInfo},
      [&](Function *Ctor, FunctionCallee) {
        appendToGlobalCtors(M, Ctor, /*Priority=*/0);
        registerAllocationWrappers(M, Ctor);
      });
  if (Tool != EfficiencySanitizerOptions::ESAN_CacheFrag)
    return;
  // The struct counters are reported once the program's own destructors
  // have run; priority 0 destructors run last.
  Function *Dtor = createSanitizerCtor(M, kModuleDtorName);
  FunctionCallee Exit = M.getOrInsertFunction(
      kModuleFiniName, Type::getVoidTy(Ctx), PtrTy);
  IRBuilder<> IRB(Dtor->getEntryBlock().getTerminator());
  IRB.CreateCall(Exit, ModuleInfo);
  appendToGlobalDtors(M, Dtor, /*Priority=*/0);
}

EfficiencySanitizerPass::EfficiencySanitizerPass(
    const EfficiencySanitizerOptions &Options)
    : Options(Options) {}

PreservedAnalyses EfficiencySanitizerPass::run(Module &M,
                                               ModuleAnalysisManager &MAM) {
  EfficiencySanitizerOptions::Type Tool = Options.ToolType;
  if (Tool == EfficiencySanitizerOptions::ESAN_None)
    Tool = ClToolType;
  if (Tool == EfficiencySanitizerOptions::ESAN_None)
    return PreservedAnalyses::all();
  bool Changed = applyIgnorelists(M, Tool);
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  if (!EfficiencySanitizer(M, Tool, &FAM).instrumentModule() && !Changed)
    return PreservedAnalyses::all();
  return PreservedAnalyses::none();
}
