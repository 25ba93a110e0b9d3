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
// loop-level marking (EfficiencySanitizerLoopRanges.cpp) nor the source
// names cache-frag reports give types and members
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
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/CaptureTracking.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

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

static cl::opt<bool> ClCacheFragFieldCounters(
    "efsan-cache-frag-field-counters",
    cl::desc("cache-frag: count accesses per struct field"), cl::init(true),
    cl::Hidden);

static constexpr char kToolGlobalName[] = "__efsan_which_tool";
static constexpr char kModuleCtorName[] = "efsan.module_ctor";
static constexpr char kModuleDtorName[] = "efsan.module_dtor";
static constexpr char kInitName[] = "__efsan_init";
static constexpr char kExitName[] = "__efsan_exit";
static constexpr char kCountdownName[] = "__efsan_cache_frag_countdown";
static constexpr char kCacheFragAccessName[] = "__efsan_cache_frag_access";
static constexpr uint32_t kCacheFragWriteFlag = 1; // flags bit 0
// flags bits 8..15: how many consecutive field counters from field_counter
// the access covers, less one.
static constexpr unsigned kCacheFragFieldSpanShift = 8;
static constexpr unsigned kCacheFragMaxFieldSpan = 256;

// Sizes with a dedicated callout: 1, 2, 4, 8, 16 bytes.
static constexpr size_t kNumSizeClasses = 5;

EfficiencySanitizerOptions::Type
llvm::getEfficiencySanitizerToolFromCommandLine() {
  return ClToolType;
}

namespace {

/// A named LLVM struct type and a byte offset into one of its objects.
struct StructOffset {
  StructType *Struct;
  uint64_t Offset;
};

/// A struct field an access goes to.
struct FieldRef {
  StructFieldTable *Table;
  unsigned Index;
  // Consecutive fields from Index the access covers (a vectorised access to
  // adjacent members counts once for each of them).
  unsigned Span = 1;
};

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
  bool willInstrumentMaskedAccess(IntrinsicInst *II);
  bool isCacheFragCallSite(Instruction &I);
  bool instrumentFunction(Function &F);

  std::optional<MemoryAccess> describeAccess(Instruction &I);
  void instrumentMemIntrinsic(MemIntrinsic *MI);
  void instrumentMaskedAccess(IntrinsicInst *II);
  void instrumentWorkingSetBlock(ArrayRef<MemoryAccess> Accesses,
                                 CheckedSpans &Spans);
  void instrumentWorkingSetFunction(
      Function &F,
      ArrayRef<std::pair<Instruction *, SmallVector<MemoryAccess, 8>>> Runs);
  void instrumentCacheFragRun(Instruction *End,
                              ArrayRef<MemoryAccess> Accesses);
  void instrumentCacheFragCallSite(CallBase *Call);
  void promoteCountdown(Function &F);

  void emitWorkingSetFastPath(Instruction *InsertBefore, Value *Addr);
  void emitWorkingSetTwoLineFastPath(Instruction *InsertBefore, Value *Addr,
                                     uint64_t Size);
  void emitAccessCallout(IRBuilder<> &IRB, Value *Addr, uint64_t Size,
                         Align Alignment, bool IsWrite);
  struct FieldCounter {
    Constant *Address; // null: the access goes to no counted field
    uint32_t SpanFlags = 0;
  };
  void emitCacheFragAccess(IRBuilder<> &IRB, Value *Addr, Value *Size,
                           bool IsWrite, FieldCounter Field);
  void emitCacheFragAccess(IRBuilder<> &IRB, const MemoryAccess &Access,
                           FieldCounter Field);
  FieldCounter fieldCounter(const MemoryAccess &Access);
  Value *loadLocalCountdown(IRBuilder<> &IRB);
  void storeLocalCountdown(IRBuilder<> &IRB, Value *Count);
  LoadInst *loadThreadCountdown(IRBuilder<> &IRB);
  void storeThreadCountdown(IRBuilder<> &IRB, Value *Count);
  void reloadCountdown(IRBuilder<> &IRB);
  void writeBackCountdown(IRBuilder<> &IRB);

  std::optional<FieldRef> findStructField(const MemoryAccess &Access);
  std::optional<FieldRef> findFieldFromGEP(Value *Addr, uint64_t AccessSize);
  std::optional<FieldRef> findFieldFromTBAA(const MemoryAccess &Access);
  std::optional<FieldRef> findFieldFromAddress(const MemoryAccess &Access);
  std::optional<StructOffset> findStructAtAddress(Value *Addr);
  std::optional<StructOffset> findOutermostStruct(Value *Addr,
                                                  bool &ThroughFieldIndex);
  StructType *structTypeOfPointerVariable(Value *Pointer);
  std::optional<FieldRef> topLevelField(StructOffset Found,
                                        uint64_t AccessSize);
  static unsigned fieldSpan(const StructFieldTable &Table, unsigned Index,
                            uint64_t Offset, uint64_t AccessSize);
  StructType *findStructTypeForAnonymousTBAA(const MemoryAccess &Access,
                                             MDNode *Base,
                                             uint64_t TagOffset);
  std::string typedefNameFromDebugInfo(MDNode *Base);
  std::string typedefNameFromPointerVariable(const MemoryAccess &Access,
                                             MDNode *Base, uint64_t TagOffset);
  StructFieldTable &getOrCreateStructTable(StringRef Name);
  void createFieldCounters(StructFieldTable &Table);
  void fillTableFromStructType(StructFieldTable &Table, StructType *Struct);

  Constant *createCacheFragModuleInfo();
  void createToolGlobal();
  void createModuleCtorAndDtor(Constant *ModuleInfo);

  const EfficiencySanitizerOptions::Type Tool;
  LoopRangeMarker LoopRanges; // working set
  MemberNames Names;          // cache-frag

  FunctionCallee AlignedLoad[kNumSizeClasses], AlignedStore[kNumSizeClasses];
  FunctionCallee UnalignedLoad[kNumSizeClasses],
      UnalignedStore[kNumSizeClasses];
  FunctionCallee LoadN, StoreN, Memcpy, Memmove, Memset;
  FunctionCallee CacheFragAccess;
  GlobalVariable *Countdown = nullptr; // the thread's countdown (TLS)

  // Cache-frag, per function: the slot that holds the function's copy of the
  // countdown until promoteCountdown() turns it into SSA values (null in a
  // function with no run of accesses), and the thread-local loads and stores
  // emitted for it.
  AllocaInst *CountdownSlot = nullptr;
  SmallPtrSet<LoadInst *, 16> ThreadCountdownLoads;
  SmallVector<StoreInst *, 16> ThreadCountdownStores;

  // Cache-frag struct tables, in the order the pass met them.
  SmallVector<std::unique_ptr<StructFieldTable>, 8> StructTables;
  StringMap<StructFieldTable *> StructTableByName;
  DenseMap<const Value *, bool> StackSlotEscapes;
  // Anonymous structs behind a typedef, from the debug info (built on first
  // use), and the typedef name found for each anonymous TBAA base type.
  std::optional<SmallVector<std::pair<StringRef, DICompositeType *>, 8>>
      TypedefedAnonymousStructs;
  DenseMap<const MDNode *, std::string> TypedefNameOfTBAABase;
};

} // namespace

EfficiencySanitizer::EfficiencySanitizer(Module &M,
                                         EfficiencySanitizerOptions::Type Tool,
                                         FunctionAnalysisManager *FAM)
    : ModuleContext(M), Tool(Tool), LoopRanges(M, FAM), Names(M) {}

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
    CacheFragAccess = M.getOrInsertFunction(kCacheFragAccessName, Attrs, VoidTy,
                                            PtrTy, Int64Ty, Int32Ty, PtrTy);
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
                             ? createCacheFragModuleInfo()
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
    return willInstrumentMemIntrinsic(MI);
  return willInstrumentMaskedAccess(II);
}

bool EfficiencySanitizer::instrumentFunction(Function &F) {
  // Collect first: instrumenting splits blocks and adds the pass's own
  // accesses, which must not be visited. Loads, stores and atomics are
  // grouped in runs: for working-set a run is a whole basic block, for
  // cache-frag the part of a block between call sites.
  SmallVector<std::pair<Instruction *, SmallVector<MemoryAccess, 8>>, 16>
      AccessRuns; // (instruction the run ends before, accesses in order)
  SmallVector<MemIntrinsic *, 4> MemIntrinsics;
  SmallVector<IntrinsicInst *, 4> MaskedAccesses;
  // Cache-frag only: where the countdown is synced with the thread's.
  SmallVector<CallBase *, 16> CallSites;
  SmallVector<Instruction *, 4> Exits;
  SmallVector<LandingPadInst *, 4> LandingPads;
  bool CacheFrag = Tool == EfficiencySanitizerOptions::ESAN_CacheFrag;
  bool LoopsMarked =
      !CacheFrag && ClInstrumentLoadsAndStores &&
      LoopRanges.markLoopRanges(F, [&](Instruction &I) {
        return describeAccess(I);
      });
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
      if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
        if (willInstrumentMemIntrinsic(MI))
          MemIntrinsics.push_back(MI);
      } else if (auto *II = dyn_cast<IntrinsicInst>(&I)) {
        if (willInstrumentMaskedAccess(II))
          MaskedAccesses.push_back(II);
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
                 !MaskedAccesses.empty() || !MemIntrinsics.empty();
  if (!CacheFrag) {
    instrumentWorkingSetFunction(F, AccessRuns);
  } else if (!AccessRuns.empty()) {
    // The function's copy of the countdown lives in a stack slot until
    // promoteCountdown(); a function with no run leaves the thread's
    // countdown to its callees. The countdown is initial-exec: the runtime
    // defines it in the executable, and syncing at every call site must not
    // cost a __tls_get_addr call.
    if (!Countdown)
      Countdown = cast<GlobalVariable>(
          M.getOrInsertGlobal(kCountdownName, Int64Ty, [&] {
            return new GlobalVariable(
                M, Int64Ty, /*isConstant=*/false, GlobalValue::ExternalLinkage,
                /*Initializer=*/nullptr, kCountdownName,
                /*InsertBefore=*/nullptr, GlobalValue::InitialExecTLSModel);
          }));
    IRBuilder<> IRB(&F.getEntryBlock(), F.getEntryBlock().begin());
    CountdownSlot = IRB.CreateAlloca(Int64Ty, nullptr, "efsan.countdown");
    IRB.SetInsertPointPastAllocas(&F);
    reloadCountdown(IRB);
    for (auto &[End, Accesses] : AccessRuns)
      instrumentCacheFragRun(End, Accesses);
    for (CallBase *Call : CallSites)
      instrumentCacheFragCallSite(Call);
    // A landing pad is entered only by unwinding out of a call site, which
    // leaves the thread's countdown current.
    for (LandingPadInst *LP : LandingPads) {
      IRB.SetInsertPoint(LP->getNextNode());
      reloadCountdown(IRB);
    }
    for (Instruction *Exit : Exits) {
      IRB.SetInsertPoint(Exit);
      writeBackCountdown(IRB);
    }
  }
  for (IntrinsicInst *II : MaskedAccesses)
    instrumentMaskedAccess(II);
  for (MemIntrinsic *MI : MemIntrinsics)
    instrumentMemIntrinsic(MI);
  if (CountdownSlot)
    promoteCountdown(F);
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
      emitCacheFragAccess(IRB, LaneAddr, LaneSize, IsWrite,
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
  Value *Guard = nullptr; // i1: skip the check when true (a loop's tables)
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

// Working set: the blocks in reverse post-order, each starting from the spans
// its unique predecessor (if any) had marked by its end, its own or inherited
// from further up a chain of such edges. Such an edge is never a loop's back
// edge (a header has its preheader and latch), so an access skipped for a
// check upstream follows it within one pass through the code, as repeated
// accesses within a block do (instrumentWorkingSetBlock). The order and the
// edges are read before any block is split.
void EfficiencySanitizer::instrumentWorkingSetFunction(
    Function &F,
    ArrayRef<std::pair<Instruction *, SmallVector<MemoryAccess, 8>>> Runs) {
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
    if (auto It = RunOfBlock.find(BB); It != RunOfBlock.end()) {
      instrumentWorkingSetBlock(Runs[It->second].second, Spans);
      Done[It->second] = true;
    }
    if (!Spans.empty())
      SpansAtEnd[BB] = std::move(Spans);
  }
  // Blocks that cannot be reached from the entry.
  for (unsigned R = 0; R < Runs.size(); ++R)
    if (!Done[R]) {
      CheckedSpans Spans;
      instrumentWorkingSetBlock(Runs[R].second, Spans);
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
    ArrayRef<MemoryAccess> Accesses, CheckedSpans &Spans) {
  constexpr int64_t LineSize = int64_t(1) << kShadowScale;
  // Coalescing widens the checks that skipping repeated accesses looks up:
  // without the latter every access gets its own check.
  bool Merge = ClSkipRepeatedAccesses;
  bool Coalesce = Merge && ClCoalesceAccesses;
  SmallVector<WorkingSetCheck, 8> Checks;
  // By base and guard: checks with a guard (a loop's tables) run or not
  // together, so they cover and join only each other.
  SmallDenseMap<std::tuple<Value *, Value *, uint64_t, Value *>,
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
    Value *Guard = LoopRanges.checkGuard(Access.I);
    // An unguarded check of the span covers a guarded access too.
    if (auto It = ChecksOfBase.find({Base.Ptr, Base.Index, Base.Scale, nullptr});
        Merge && Guard && It != ChecksOfBase.end() &&
        any_of(It->second, [&](unsigned Index) {
          return Checks[Index].Begin <= Begin && End <= Checks[Index].End;
        }))
      continue;
    SmallVector<unsigned, 2> &Indices =
        ChecksOfBase[{Base.Ptr, Base.Index, Base.Scale, Guard}];
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
                      {{Begin, Access.Alignment}}, Guard});
  }

  for (WorkingSetCheck &Check : Checks)
    if (!Check.Guard)
      Spans[{Check.Base.Ptr, Check.Base.Index, Check.Base.Scale}].push_back(
          {Check.Begin, Check.End});
  for (WorkingSetCheck &Check : Checks) {
    uint64_t Span = Check.End - Check.Begin;
    if (Check.Guard) {
      IRBuilder<> IRB(Check.InsertBefore);
      Check.InsertBefore = SplitBlockAndInsertIfThen(
          IRB.CreateNot(Check.Guard), Check.InsertBefore->getIterator(),
          /*Unreachable=*/false, UnlikelyWeights);
    }
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
      emitWorkingSetFastPath(Check.InsertBefore, Start);
    else
      emitWorkingSetTwoLineFastPath(Check.InsertBefore, Start, Span);
  }
}

// Cache-frag samples accesses per thread: the runtime keeps a thread-local
// countdown and samples the access that brings it to zero or below, so every
// access of a thread is equally likely to be sampled, whatever the timing.
// A function keeps its own copy of the countdown (a stack slot here, SSA
// values after promoteCountdown()), so counting down writes no memory:
//
//   c2 = c - n;                  // n: the run's accesses
//   if (c2 <= 0) {               // cold
//     switch (c - 1) {           // the access at which c runs out
//     case i:                    // one per access of the run
//       countdown = 1;           // so that the runtime samples it
//       __efsan_cache_frag_access(addr_i, size_i, flags_i, counter_i);
//       if (countdown > n-1-i) { countdown -= n-1-i; break; }
//       goto access_i+1;         // a shorter period: one by one
//     default:
//       countdown = c;           // the thread's, as before the run
//     access_0: __efsan_cache_frag_access(addr_0, ...); ...
//     access_n-1: __efsan_cache_frag_access(addr_n-1, ...);
//     }
//     c3 = countdown;            // counted down, reset by the runtime
//   }
//   c = phi(c2, c3);
//
// (a run of one access calls it directly), so that a sample costs one call,
// not one per access of its run, and at sample period 1 every access still
// reaches the runtime.
//
// at the end of each run (before the call site or terminator that ends it),
// with the accesses in program order. So the runtime sees a run's accesses
// together at its end, after the run's other instructions; the addresses are
// SSA values, still valid there, and no call in between has freed their
// memory.
void EfficiencySanitizer::instrumentCacheFragRun(
    Instruction *End, ArrayRef<MemoryAccess> Accesses) {
  SmallVector<FieldCounter, 8> Counters;
  for (const MemoryAccess &Access : Accesses)
    Counters.push_back(fieldCounter(Access));
  IRBuilder<> IRB(End);
  Value *Count = loadLocalCountdown(IRB);
  // c - n as `add nsw c, -n`: the backend turns a sub of a constant into an
  // add without the nsw flag, and needs nsw to branch on the add's own flags
  // instead of testing c2 again. It never wraps: the runtime keeps the
  // countdown far from INT64_MIN.
  uint64_t N = Accesses.size();
  Value *Left = IRB.CreateNSWAdd(Count, IRB.getInt64(-int64_t(N)));
  storeLocalCountdown(IRB, Left);
  Instruction *SampleTerm = SplitBlockAndInsertIfThen(
      IRB.CreateICmpSLE(Left, IRB.getInt64(0)), End->getIterator(),
      /*Unreachable=*/false, UnlikelyWeights);
  // c is recomputed from c2 so that only c2 stays live on the hot path: the
  // backend then subtracts in place and branches on the flags.
  IRBuilder<> Cold(SampleTerm);
  Value *Before = Cold.CreateNSWAdd(Left, Cold.getInt64(N));
  if (N == 1) {
    storeThreadCountdown(Cold, Before);
    emitCacheFragAccess(Cold, Accesses[0], Counters[0]);
    reloadCountdown(Cold);
    return;
  }
  // The countdown runs out at access c - 1 of the run: only that one goes to
  // the runtime (with the countdown at 1, so that it is sampled), and the
  // accesses after it are counted off the next period when it is longer
  // than they are. Otherwise (sample period 1, say), and for any other c,
  // the accesses go to the runtime one by one, down a chain of calls that
  // the cases join.
  BasicBlock *Then = SampleTerm->getParent();
  BasicBlock *Tail = SampleTerm->getSuccessor(0);
  Function *F = Then->getParent();
  BasicBlock *Done = BasicBlock::Create(Ctx, "", F, Tail);
  SmallVector<BasicBlock *, 8> Chain(N + 1);
  Chain[N] = Done;
  for (uint64_t I = N; I-- > 0;) {
    Chain[I] = BasicBlock::Create(Ctx, "", F, Chain[I + 1]);
    IRBuilder<> B(Chain[I]);
    emitCacheFragAccess(B, Accesses[I], Counters[I]);
    B.CreateBr(Chain[I + 1]);
  }
  BasicBlock *Whole = BasicBlock::Create(Ctx, "", F, Chain[0]);
  IRBuilder<> W(Whole);
  storeThreadCountdown(W, Before);
  W.CreateBr(Chain[0]);
  Value *Index = Cold.CreateNSWAdd(Before, Cold.getInt64(-1));
  SwitchInst *Switch = Cold.CreateSwitch(Index, Whole, N);
  SampleTerm->eraseFromParent();
  for (uint64_t I = 0; I < N; ++I) {
    BasicBlock *Case = BasicBlock::Create(Ctx, "", F, Whole);
    Switch->addCase(Cold.getInt64(I), Case);
    IRBuilder<> B(Case);
    storeThreadCountdown(B, B.getInt64(1));
    emitCacheFragAccess(B, Accesses[I], Counters[I]);
    uint64_t After = N - 1 - I;
    if (!After) {
      B.CreateBr(Done);
      continue;
    }
    Value *Period = loadThreadCountdown(B);
    Value *Covers = B.CreateICmpSGT(Period, B.getInt64(After));
    storeThreadCountdown(
        B, B.CreateSelect(Covers, B.CreateNSWAdd(Period, B.getInt64(-int64_t(After))),
                          Period));
    B.CreateCondBr(Covers, Done, Chain[I + 1]);
  }
  IRBuilder<> D(Done);
  reloadCountdown(D);
  D.CreateBr(Tail);
}

// The callee counts down from the thread's countdown (and the runtime may
// reset it), so the function's copy is written back before a call site and
// reloaded after it: at the normal destination of an invoke (on an edge of
// its own), while the caller reloads at its landing pads.
void EfficiencySanitizer::instrumentCacheFragCallSite(CallBase *Call) {
  IRBuilder<> IRB(Call);
  writeBackCountdown(IRB);
  if (auto *Invoke = dyn_cast<InvokeInst>(Call)) {
    BasicBlock *Normal = Invoke->getNormalDest();
    if (!Normal->getSinglePredecessor())
      Normal = SplitEdge(Invoke->getParent(), Normal);
    IRB.SetInsertPoint(Normal, Normal->getFirstInsertionPt());
    reloadCountdown(IRB);
    return;
  }
  // Nothing follows a call that does not return; the return must follow a
  // musttail call immediately. A callbr (LLVM 19 allows only asm goto, which
  // is not a call site) would leave its successors the count from before it:
  // less accurate, never invalid.
  auto *CI = dyn_cast<CallInst>(Call);
  if (!CI || CI->isMustTailCall() || CI->doesNotReturn())
    return;
  IRB.SetInsertPoint(CI->getNextNode());
  reloadCountdown(IRB);
}

// The slot becomes SSA values, with phis at joins and loop headers, so a loop
// with no call keeps the count in a register. Then a write-back of the value
// just reloaded, with no call in between (consecutive calls, a call just
// before a return), is dropped, and so are the reloads nothing uses.
void EfficiencySanitizer::promoteCountdown(Function &F) {
  DominatorTree DT(F);
  PromoteMemToReg({CountdownSlot}, DT);
  for (StoreInst *Store : ThreadCountdownStores) {
    auto *Load = dyn_cast<LoadInst>(Store->getValueOperand());
    if (!Load || !ThreadCountdownLoads.contains(Load) ||
        Load->getParent() != Store->getParent())
      continue;
    bool CallBetween = false;
    for (Instruction *I = Load->getNextNode(); I != Store; I = I->getNextNode())
      if (isa<CallBase>(I) && !isa<IntrinsicInst>(I))
        CallBetween = true;
    if (CallBetween)
      continue;
    Value *Addr = Store->getPointerOperand();
    Store->eraseFromParent();
    RecursivelyDeleteTriviallyDeadInstructions(Addr);
  }
  for (LoadInst *Load : ThreadCountdownLoads) {
    if (!Load->use_empty())
      continue;
    Value *Addr = Load->getPointerOperand();
    Load->eraseFromParent();
    RecursivelyDeleteTriviallyDeadInstructions(Addr);
  }
  CountdownSlot = nullptr;
  ThreadCountdownLoads.clear();
  ThreadCountdownStores.clear();
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
void EfficiencySanitizer::emitWorkingSetFastPath(Instruction *InsertBefore,
                                                 Value *Addr) {
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
                                /*Unreachable=*/false, UnlikelyWeights);
  // Reloading lets the backend emit one read-modify-write `or` to memory
  // and keeps the loaded byte out of a register on the hot path.
  IRB.SetInsertPoint(MarkTerm);
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

// s1 = shadow(a); s2 = shadow(a + size - 1);
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
void EfficiencySanitizer::emitWorkingSetTwoLineFastPath(
    Instruction *InsertBefore, Value *Addr, uint64_t Size) {
  IRBuilder<> IRB(InsertBefore);
  Value *Int = IRB.CreatePtrToInt(Addr, IntptrTy);
  Value *Offset = ConstantInt::get(IntptrTy, kShadowOffset);
  Value *FirstShadow =
      IRB.CreateAdd(IRB.CreateLShr(Int, kShadowScale), Offset);
  Value *LastShadow = IRB.CreateAdd(
      IRB.CreateLShr(IRB.CreateAdd(Int, ConstantInt::get(IntptrTy, Size - 1)),
                     kShadowScale),
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
                                /*Unreachable=*/false, UnlikelyWeights);
  IRBuilder<> Cold(MarkTerm);
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

// The runtime bumps the field's counter(s) when it samples the access.
void EfficiencySanitizer::emitCacheFragAccess(IRBuilder<> &IRB, Value *Addr,
                                              Value *Size, bool IsWrite,
                                              FieldCounter Field) {
  uint32_t Flags = (IsWrite ? kCacheFragWriteFlag : 0) | Field.SpanFlags;
  CallInst *Call = IRB.CreateCall(
      CacheFragAccess, {Addr, Size, IRB.getInt32(Flags), Field.Address});
  markNoSanitize(Call);
}

// The call of a run's access, placed at the run's end, carries the access's
// own debug location: its return address names the access's source line in
// the report's access sites.
void EfficiencySanitizer::emitCacheFragAccess(IRBuilder<> &IRB,
                                              const MemoryAccess &Access,
                                              FieldCounter Field) {
  IRBuilder<>::InsertPointGuard Guard(IRB);
  if (DebugLoc Loc = Access.I->getDebugLoc())
    IRB.SetCurrentDebugLocation(Loc);
  emitCacheFragAccess(IRB, Access.Addr, IRB.getInt64(Access.Size),
                      Access.IsWrite, Field);
}

// The i64 counter of the struct field the access goes to (the first of the
// fields it covers), or null.
EfficiencySanitizer::FieldCounter
EfficiencySanitizer::fieldCounter(const MemoryAccess &Access) {
  std::optional<FieldRef> Field = findStructField(Access);
  if (!Field)
    return {ConstantPointerNull::get(PtrTy)};
  GlobalVariable *Counters = Field->Table->Counters;
  Constant *Indices[] = {ConstantInt::get(Int32Ty, 0),
                         ConstantInt::get(Int32Ty, Field->Index)};
  return {ConstantExpr::getInBoundsGetElementPtr(Counters->getValueType(),
                                                 Counters, Indices),
          (Field->Span - 1) << kCacheFragFieldSpanShift};
}

Value *EfficiencySanitizer::loadLocalCountdown(IRBuilder<> &IRB) {
  LoadInst *Count = IRB.CreateLoad(Int64Ty, CountdownSlot);
  markNoSanitize(Count);
  return Count;
}

void EfficiencySanitizer::storeLocalCountdown(IRBuilder<> &IRB, Value *Count) {
  markNoSanitize(IRB.CreateStore(Count, CountdownSlot));
}

// LLVM 19 wants a thread_local global's address taken with
// llvm.threadlocal.address where it is used (a coroutine may resume on
// another thread), so each access gets its own.
LoadInst *EfficiencySanitizer::loadThreadCountdown(IRBuilder<> &IRB) {
  CallInst *Addr = IRB.CreateThreadLocalAddress(Countdown);
  markNoSanitize(Addr);
  LoadInst *Count = IRB.CreateLoad(Int64Ty, Addr);
  markNoSanitize(Count);
  ThreadCountdownLoads.insert(Count);
  return Count;
}

void EfficiencySanitizer::storeThreadCountdown(IRBuilder<> &IRB, Value *Count) {
  CallInst *Addr = IRB.CreateThreadLocalAddress(Countdown);
  markNoSanitize(Addr);
  StoreInst *Store = IRB.CreateStore(Count, Addr);
  markNoSanitize(Store);
  ThreadCountdownStores.push_back(Store);
}

// Thread's countdown -> the function's copy.
void EfficiencySanitizer::reloadCountdown(IRBuilder<> &IRB) {
  storeLocalCountdown(IRB, loadThreadCountdown(IRB));
}

// The function's copy -> thread's countdown.
void EfficiencySanitizer::writeBackCountdown(IRBuilder<> &IRB) {
  storeThreadCountdown(IRB, loadLocalCountdown(IRB));
}

//===----------------------------------------------------------------------===//
// Struct field tables (cache-frag)
//===----------------------------------------------------------------------===//

StructFieldTable &EfficiencySanitizer::getOrCreateStructTable(StringRef Name) {
  StructFieldTable *&Table = StructTableByName[Name];
  if (!Table) {
    StructTables.push_back(std::make_unique<StructFieldTable>());
    Table = StructTables.back().get();
    Table->Name = Name.str();
  }
  return *Table;
}

void EfficiencySanitizer::createFieldCounters(StructFieldTable &Table) {
  if (Table.Counters)
    return;
  auto *CountersTy = ArrayType::get(Int64Ty, Table.FieldOffsets.size());
  Table.Counters = new GlobalVariable(
      M, CountersTy, /*isConstant=*/false, GlobalValue::PrivateLinkage,
      Constant::getNullValue(CountersTy), "__efsan." + Table.Name + ".counters");
}

static std::string printableTypeName(Type *Ty) {
  std::string Name;
  raw_string_ostream OS(Name);
  Ty->print(OS, /*IsForDebug=*/false, /*NoDetails=*/true);
  OS.flush();
  if (StringRef(Name).starts_with("%"))
    Name.erase(0, 1);
  return Name;
}

// The base type node of I's TBAA tag if the tag is a struct-path one (base
// type != access type), else null.
static MDNode *structPathTBAABase(const Instruction *I) {
  MDNode *Tag = I->getMetadata(LLVMContext::MD_tbaa);
  if (!Tag || Tag->getNumOperands() < 3)
    return nullptr;
  auto *Base = dyn_cast<MDNode>(Tag->getOperand(0));
  auto *AccessTy = dyn_cast<MDNode>(Tag->getOperand(1));
  if (!Base || !AccessTy || Base == AccessTy || Base->getNumOperands() < 3 ||
      Base->getNumOperands() % 2 == 0 ||
      !mdconst::dyn_extract<ConstantInt>(Tag->getOperand(2)))
    return nullptr;
  return Base;
}

std::optional<FieldRef>
EfficiencySanitizer::findStructField(const MemoryAccess &Access) {
  if (!ClCacheFragFieldCounters)
    return std::nullopt;
  // Unoptimised code addresses fields with struct GEPs; optimised code with
  // byte offsets, but keeps the struct path in its TBAA tags. What neither
  // names may still be an element of an array of structs or a struct
  // object's start (field 0 is at offset 0: no GEP, or an array-style GEP).
  if (std::optional<FieldRef> Field =
          findFieldFromGEP(Access.Addr, Access.Size))
    return Field;
  std::optional<FieldRef> Tagged = findFieldFromTBAA(Access);
  // A struct-path tag that could not be resolved (an anonymous struct with
  // no name to give it) is not second-guessed from the address.
  if (!Tagged && structPathTBAABase(Access.I))
    return std::nullopt;
  // An outer struct the address is known to be in comes first: the tag
  // names the innermost struct (`r->label.size()` inlined is tagged with
  // std::string's length, and counts for record's member label).
  if (std::optional<FieldRef> Field = findFieldFromAddress(Access))
    return Field;
  return Tagged;
}

// Walks the address back through constant-offset GEPs to a named struct it
// points into: a GEP whose source element type is that struct (array-style
// `getelementptr %struct.T, ptr %p, i64 %i`, or with constant field indices
// after the first), or a global or stack slot of that type.
std::optional<StructOffset>
EfficiencySanitizer::findStructAtAddress(Value *Addr) {
  auto NamedStruct = [](Type *Ty) -> StructType * {
    auto *STy = dyn_cast<StructType>(Ty);
    if (!STy || STy->isLiteral() || !STy->hasName() || STy->isOpaque() ||
        !STy->isSized() || STy->isScalableTy())
      return nullptr;
    return STy;
  };
  int64_t Offset = 0;
  for (unsigned Steps = 0; Steps < 16; ++Steps) { // real chains: 1 or 2 GEPs
    StructType *Struct = nullptr;
    int64_t Inner = 0;
    if (auto *GEP = dyn_cast<GEPOperator>(Addr)) {
      if ((Struct = NamedStruct(GEP->getSourceElementType()))) {
        // The first index steps over whole objects; the rest must be constant
        // to know where inside the object the GEP points.
        SmallVector<Value *, 4> Indices = {ConstantInt::get(Int64Ty, 0)};
        for (Value *Index : drop_begin(GEP->indices())) {
          if (!isa<ConstantInt>(Index))
            return std::nullopt;
          Indices.push_back(Index);
        }
        Inner = DL.getIndexedOffsetInType(Struct, Indices);
      } else {
        APInt GEPOffset(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
        if (!GEP->accumulateConstantOffset(DL, GEPOffset))
          return std::nullopt;
        Offset += GEPOffset.getSExtValue();
        Addr = GEP->getPointerOperand();
        continue;
      }
    } else if (auto *GV = dyn_cast<GlobalVariable>(Addr)) {
      Struct = NamedStruct(GV->getValueType());
    } else if (auto *Slot = dyn_cast<AllocaInst>(Addr)) {
      Struct = NamedStruct(Slot->getAllocatedType());
    }
    if (!Struct)
      return std::nullopt;
    Offset += Inner;
    if (Offset < 0 ||
        uint64_t(Offset) >= DL.getTypeAllocSize(Struct).getFixedValue())
      return std::nullopt;
    return StructOffset{Struct, uint64_t(Offset)};
  }
  return std::nullopt;
}

// One level down from an aggregate: the member (or array element) of Ty
// that contains Offset, with Offset made relative to it. False for a scalar
// or an offset past the end.
static bool descendToMemberAt(const DataLayout &DL, Type *&Ty,
                              uint64_t &Offset) {
  if (auto *STy = dyn_cast<StructType>(Ty)) {
    const StructLayout *Layout = DL.getStructLayout(STy);
    if (Offset >= Layout->getSizeInBytes())
      return false;
    unsigned Index = Layout->getElementContainingOffset(Offset);
    Offset -= Layout->getElementOffset(Index);
    Ty = STy->getElementType(Index);
    return true;
  }
  if (auto *ATy = dyn_cast<ArrayType>(Ty)) {
    uint64_t ElementSize =
        DL.getTypeAllocSize(ATy->getElementType()).getFixedValue();
    if (ElementSize == 0 || Offset >= ElementSize * ATy->getNumElements())
      return false;
    Offset %= ElementSize;
    Ty = ATy->getElementType();
    return true;
  }
  return false;
}

// The scalar (or vector) member of Ty that starts exactly at Offset, if any.
static Type *memberStartingAt(const DataLayout &DL, Type *Ty, uint64_t Offset) {
  while (isa<StructType>(Ty) || isa<ArrayType>(Ty))
    if (!descendToMemberAt(DL, Ty, Offset))
      return nullptr;
  return Offset == 0 ? Ty : nullptr;
}

// Accesses with neither a struct GEP nor a struct-path TBAA tag (field 0
// through an array-style GEP or the object's own address, optimised code that
// indexes a member with byte offsets, code built without TBAA): counted only
// if they read or write exactly a member of the struct's type (an element of
// an array member counts), so that a type-punned or partial access is not
// taken for a field. Like a struct GEP, the access counts for the top-level
// member of the outermost struct.
std::optional<FieldRef>
EfficiencySanitizer::findFieldFromAddress(const MemoryAccess &Access) {
  bool ThroughFieldIndex = false;
  std::optional<StructOffset> Found =
      findOutermostStruct(Access.Addr, ThroughFieldIndex);
  if (!Found)
    return std::nullopt;
  // A vectorised loop over an array member reads or writes several elements
  // at once.
  Type *Member = memberStartingAt(DL, Found->Struct, Found->Offset);
  auto *Vector = dyn_cast<FixedVectorType>(Access.AccessTy);
  if (!Member || (Member != Access.AccessTy &&
                  (!Vector || Vector->getElementType() != Member)))
    return std::nullopt;
  return topLevelField(*Found, Access.Size);
}

// The named LLVM struct type a pointer variable's debug info points to
// (`struct S *p`): optimised code often has lost every struct GEP by then,
// and only the variable still says what the pointer points to. Every
// variable describing the pointer must agree.
StructType *EfficiencySanitizer::structTypeOfPointerVariable(Value *Pointer) {
  SmallVector<DILocalVariable *, 4> Variables = variablesHolding(Pointer);
  StructType *Found = nullptr;
  for (DILocalVariable *Variable : Variables) {
    auto *PointerTy = dyn_cast_or_null<DIDerivedType>(Variable->getType());
    if (!PointerTy || PointerTy->getTag() != dwarf::DW_TAG_pointer_type)
      return nullptr;
    const DIType *Pointee = PointerTy->getBaseType();
    const DIDerivedType *Typedef = nullptr;
    while (auto *Derived = dyn_cast_or_null<DIDerivedType>(Pointee)) {
      if (Derived->getTag() == dwarf::DW_TAG_typedef)
        Typedef = Derived;
      else if (Derived->getTag() != dwarf::DW_TAG_const_type &&
               Derived->getTag() != dwarf::DW_TAG_volatile_type)
        break;
      Pointee = Derived->getBaseType();
    }
    auto *Composite = dyn_cast_or_null<DICompositeType>(Pointee);
    if (!Composite || (Composite->getTag() != dwarf::DW_TAG_structure_type &&
                       Composite->getTag() != dwarf::DW_TAG_class_type))
      return nullptr;
    // clang names the LLVM type after the tag, scope-qualified in C++, or
    // after the typedef of an anonymous struct (`typedef struct {...} T`).
    const DIType *Named = Composite;
    if (Composite->getName().empty())
      Named = Typedef;
    if (!Named)
      return nullptr;
    std::string Name = isCXXModule(M) ? qualifiedDebugName(Named)
                                     : Named->getName().str();
    if (Name.empty())
      return nullptr;
    StructType *STy = nullptr;
    for (StringRef Kind : {"struct.", "class."})
      if ((STy = StructType::getTypeByName(Ctx, (Kind + Name).str())))
        break;
    if (!STy || STy->isOpaque() || !STy->isSized() ||
        DL.getTypeAllocSize(STy).getFixedValue() * 8 !=
            Composite->getSizeInBits() ||
        (Found && Found != STy))
      return nullptr;
    Found = STy;
  }
  return Found;
}

// Whether Ty has a member (at any depth, array elements included) of type
// Inner starting at Offset, or is Inner itself at offset 0.
static bool holdsTypeAt(const DataLayout &DL, Type *Ty, uint64_t Offset,
                        Type *Inner) {
  while (!(Ty == Inner && Offset == 0))
    if (!descendToMemberAt(DL, Ty, Offset))
      return false;
  return true;
}

// A pointer stepped through an array in a loop (`phi [%start, %next]` with
// `%next = getelementptr %phi, step`, as loop strength reduction makes of
// `s->buf[i]`): its start. Like a variable index, the steps are taken to stay
// in the array the start points into.
static Value *loopPointerStart(Value *Addr) {
  auto *Phi = dyn_cast<PHINode>(Addr);
  if (!Phi)
    return nullptr;
  Value *Start = nullptr;
  for (Value *Incoming : Phi->incoming_values()) {
    Value *Base = Incoming;
    while (auto *Step = dyn_cast<GEPOperator>(Base))
      Base = Step->getPointerOperand();
    if (Base == Phi)
      continue; // a step
    if (Start && Start != Incoming)
      return nullptr; // several starts
    Start = Incoming;
  }
  return Start;
}

// Walks the address back through GEPs to the outermost named struct object it
// is inside, and the byte offset there. A variable index is taken as 0: an
// element of an array member (or of an array of structs) lies in the same
// member as the array's first element. ThroughFieldIndex says whether some
// GEP on the way picked a field of a named struct by its index.
std::optional<StructOffset>
EfficiencySanitizer::findOutermostStruct(Value *Addr, bool &ThroughFieldIndex) {
  auto NamedStruct = [](Type *Ty) -> StructType * {
    auto *STy = dyn_cast<StructType>(Ty);
    if (!STy || STy->isLiteral() || !STy->hasName() || STy->isOpaque() ||
        !STy->isSized() || STy->isScalableTy())
      return nullptr;
    return STy;
  };
  auto InBounds = [&](StructType *Struct, int64_t Offset) {
    return Offset >= 0 &&
           uint64_t(Offset) < DL.getTypeAllocSize(Struct).getFixedValue();
  };
  std::optional<StructOffset> Outermost;
  // An outer struct replaces the one found so far only if it has that one as
  // a member where the address says: a cast between struct types
  // (container_of, a `struct base *` that is really a derived struct) must
  // not credit a field of the other type.
  auto Holds = [&](StructType *Outer, int64_t OuterOffset) {
    if (!Outermost)
      return true;
    int64_t Start = OuterOffset - int64_t(Outermost->Offset);
    return Start >= 0 &&
           holdsTypeAt(DL, Outer, uint64_t(Start), Outermost->Struct);
  };
  bool FieldIndexSoFar = false;
  int64_t Offset = 0;
  // The smallest stride of a variable leading index (pointer arithmetic) on
  // the way: a struct larger than that has the address somewhere inside
  // (`(char *)t + (me ? 8 : 0)`, a select folded into a byte offset), not at
  // a known member.
  uint64_t VariableStride = UINT64_MAX;
  auto KnownInside = [&](StructType *Struct) {
    return VariableStride >= DL.getTypeAllocSize(Struct).getFixedValue();
  };
  for (unsigned Steps = 0; Steps < 16; ++Steps) { // real chains are short
    if (auto *GEP = dyn_cast<GEPOperator>(Addr)) {
      // The outermost named struct this GEP indexes into, and where its
      // object starts relative to the GEP's pointer: the source type
      // (`getelementptr %struct.S, ptr %p, ...`) or the first struct met
      // (`getelementptr [4 x %struct.S], ptr @a, i64 0, i64 %i, i32 1`).
      StructType *First = nullptr;
      int64_t FirstStart = 0, Local = 0;
      bool Leading = true;
      for (gep_type_iterator GTI = gep_type_begin(GEP), E = gep_type_end(GEP);
           GTI != E; ++GTI) {
        auto *Index = dyn_cast<ConstantInt>(GTI.getOperand());
        if (StructType *STy = GTI.getStructTypeOrNull()) {
          if (!First && NamedStruct(STy)) {
            First = STy;
            FirstStart = Local;
          }
          Local += DL.getStructLayout(STy)
                       ->getElementOffset(Index->getZExtValue())
                       .getFixedValue();
          if (NamedStruct(STy))
            FieldIndexSoFar = true;
          continue;
        }
        TypeSize Stride = GTI.getSequentialElementStride(DL);
        if (Stride.isScalable())
          return std::nullopt;
        if (Index) // a variable index: the first element
          Local += Index->getSExtValue() * int64_t(Stride.getFixedValue());
        else if (Leading)
          VariableStride = std::min<uint64_t>(VariableStride,
                                              Stride.getFixedValue());
        if (Leading) { // whole objects of the source type
          if (StructType *Source = NamedStruct(GEP->getSourceElementType())) {
            First = Source;
            FirstStart = Local;
          }
        }
        Leading = false;
      }
      if (Leading) // no index at all: the pointer itself
        if (StructType *Source = NamedStruct(GEP->getSourceElementType())) {
          First = Source;
          FirstStart = 0;
        }
      // An index that lands on a struct element without a field index after
      // it (`getelementptr [64 x %struct.S], ptr @a, i64 0, i64 %i`, then a
      // byte offset into the element): the GEP points at that struct.
      if (!First)
        if (StructType *Result = NamedStruct(GEP->getResultElementType())) {
          First = Result;
          FirstStart = Local;
        }
      Offset += Local;
      Addr = GEP->getPointerOperand();
      if (First && !KnownInside(First))
        return std::nullopt;
      if (First && InBounds(First, Offset - FirstStart) &&
          Holds(First, Offset - FirstStart)) {
        Outermost = StructOffset{First, uint64_t(Offset - FirstStart)};
        ThroughFieldIndex = FieldIndexSoFar;
      }
      continue;
    }
    StructType *Struct = nullptr;
    if (auto *GV = dyn_cast<GlobalVariable>(Addr))
      Struct = NamedStruct(GV->getValueType());
    else if (auto *Slot = dyn_cast<AllocaInst>(Addr))
      Struct = NamedStruct(Slot->getAllocatedType());
    else if (isa<Argument>(Addr) || isa<Instruction>(Addr))
      Struct = structTypeOfPointerVariable(Addr);
    if (!Struct)
      if (Value *Start = loopPointerStart(Addr)) {
        Addr = Start;
        continue;
      }
    if (Struct && !KnownInside(Struct))
      return std::nullopt;
    if (Struct && InBounds(Struct, Offset) && Holds(Struct, Offset)) {
      Outermost = StructOffset{Struct, uint64_t(Offset)};
      ThroughFieldIndex = FieldIndexSoFar;
    }
    break;
  }
  return Outermost;
}

// The TBAA base type node's members as byte offsets.
static SmallVector<uint64_t, 8> tbaaMemberOffsets(MDNode *Base) {
  SmallVector<uint64_t, 8> Offsets;
  for (unsigned I = 1, N = Base->getNumOperands(); I + 1 < N; I += 2)
    if (auto *Offset =
            mdconst::dyn_extract<ConstantInt>(Base->getOperand(I + 1)))
      Offsets.push_back(Offset->getZExtValue());
  return Offsets;
}

// clang gives `typedef struct { ... } T;` an empty TBAA name but calls the
// LLVM type `struct.T`. If the access's address is inside an object of a
// named struct type at the tag's offset, and the tag's members all start
// where that type's fields do, that is the struct.
StructType *EfficiencySanitizer::findStructTypeForAnonymousTBAA(
    const MemoryAccess &Access, MDNode *Base, uint64_t TagOffset) {
  std::optional<StructOffset> Found = findStructAtAddress(Access.Addr);
  if (!Found || Found->Offset != TagOffset)
    return nullptr;
  const StructLayout *Layout = DL.getStructLayout(Found->Struct);
  for (uint64_t MemberOffset : tbaaMemberOffsets(Base)) {
    if (MemberOffset >= Layout->getSizeInBytes())
      return nullptr;
    unsigned Index = Layout->getElementContainingOffset(MemberOffset);
    if (Layout->getElementOffset(Index) != MemberOffset)
      return nullptr;
  }
  return Found->Struct;
}

// Whether the debug info's struct has data members exactly at the TBAA base
// type's member offsets (bit-fields at their storage unit's offset).
static bool debugStructMatchesTBAA(DICompositeType *Struct,
                                   ArrayRef<uint64_t> TBAAOffsets) {
  SmallVector<uint64_t, 8> MemberOffsets;
  for (DINode *Element : Struct->getElements()) {
    auto *Member = dyn_cast_or_null<DIDerivedType>(Element);
    if (!Member || Member->getTag() != dwarf::DW_TAG_member ||
        Member->isStaticMember())
      continue;
    uint64_t Bits = Member->getOffsetInBits();
    if (Member->isBitField())
      if (auto *Storage =
              dyn_cast_or_null<ConstantInt>(Member->getStorageOffsetInBits()))
        Bits = Storage->getZExtValue();
    MemberOffsets.push_back(Bits / 8);
  }
  if (TBAAOffsets.empty() || MemberOffsets.empty())
    return false;
  auto In = [](ArrayRef<uint64_t> Offsets) {
    return [Offsets](uint64_t Offset) { return is_contained(Offsets, Offset); };
  };
  return all_of(TBAAOffsets, In(MemberOffsets)) &&
         all_of(MemberOffsets, In(TBAAOffsets));
}

// A bare pointer parameter or local (`point_t *p; p->x`, or `p[2].x`): the
// debug info of the variable the base pointer holds says `point_t *`. Every
// variable describing that pointer must agree.
std::string EfficiencySanitizer::typedefNameFromPointerVariable(
    const MemoryAccess &Access, MDNode *Base, uint64_t TagOffset) {
  APInt Offset(DL.getIndexTypeSizeInBits(Access.Addr->getType()), 0);
  Value *Pointer = Access.Addr->stripAndAccumulateConstantOffsets(
      DL, Offset, /*AllowNonInbounds=*/true);
  if (Offset.isNegative() || Offset.getZExtValue() < TagOffset)
    return "";
  uint64_t ObjectsSkipped = Offset.getZExtValue() - TagOffset; // p[k]: k * size
  SmallVector<DILocalVariable *, 4> Variables = variablesHolding(Pointer);
  SmallVector<uint64_t, 8> TBAAOffsets = tbaaMemberOffsets(Base);
  std::string Name;
  for (DILocalVariable *Variable : Variables) {
    auto *PointerTy = dyn_cast_or_null<DIDerivedType>(Variable->getType());
    if (!PointerTy || PointerTy->getTag() != dwarf::DW_TAG_pointer_type)
      return "";
    const DIType *Pointee = PointerTy->getBaseType();
    while (auto *Qualified = dyn_cast_or_null<DIDerivedType>(Pointee)) {
      if (Qualified->getTag() != dwarf::DW_TAG_const_type &&
          Qualified->getTag() != dwarf::DW_TAG_volatile_type)
        break;
      Pointee = Qualified->getBaseType();
    }
    DICompositeType *Struct = nullptr;
    StringRef TypedefName = typedefOfAnonymousStruct(Pointee, Struct);
    uint64_t StructSize = Struct->getSizeInBits() / 8;
    if (TypedefName.empty() || !debugStructMatchesTBAA(Struct, TBAAOffsets) ||
        (!Name.empty() && Name != TypedefName) || StructSize == 0 ||
        ObjectsSkipped % StructSize != 0)
      return "";
    Name = TypedefName.str();
  }
  return Name;
}

// Otherwise the module's debug info may know the struct: the one typedef of
// an anonymous struct whose members start at the tag's member offsets.
// Several such typedefs with the same member offsets share one TBAA node, so
// an ambiguous match names nothing.
std::string EfficiencySanitizer::typedefNameFromDebugInfo(MDNode *Base) {
  auto Cached = TypedefNameOfTBAABase.find(Base);
  if (Cached != TypedefNameOfTBAABase.end())
    return Cached->second;
  if (!TypedefedAnonymousStructs) {
    TypedefedAnonymousStructs.emplace();
    DebugInfoFinder Finder;
    Finder.processModule(M);
    for (DIType *Ty : Finder.types()) {
      DICompositeType *Struct = nullptr;
      StringRef TypedefName = typedefOfAnonymousStruct(Ty, Struct);
      if (!TypedefName.empty())
        TypedefedAnonymousStructs->push_back({TypedefName, Struct});
    }
  }
  SmallVector<uint64_t, 8> TBAAOffsets = tbaaMemberOffsets(Base);
  std::string Name;
  for (auto &[TypedefName, Struct] : *TypedefedAnonymousStructs) {
    if (!debugStructMatchesTBAA(Struct, TBAAOffsets) || Name == TypedefName)
      continue;
    if (!Name.empty()) {
      Name.clear(); // two typedefs fit: cannot tell which
      break;
    }
    Name = TypedefName.str();
  }
  TypedefNameOfTBAABase[Base] = Name;
  return Name;
}

// An access through a struct GEP (possibly followed by more GEPs: an index
// into an array member, a field of an embedded struct) counts for the
// top-level member of the outermost struct the address is inside.
std::optional<FieldRef>
EfficiencySanitizer::findFieldFromGEP(Value *Addr, uint64_t AccessSize) {
  bool ThroughFieldIndex = false;
  std::optional<StructOffset> Found =
      findOutermostStruct(Addr, ThroughFieldIndex);
  if (!Found || !ThroughFieldIndex)
    return std::nullopt;
  return topLevelField(*Found, AccessSize);
}

// The member of Found's struct that holds Found's offset, counted in that
// struct's table.
std::optional<FieldRef>
EfficiencySanitizer::topLevelField(StructOffset Found, uint64_t AccessSize) {
  const StructLayout *Layout = DL.getStructLayout(Found.Struct);
  if (Found.Offset >= Layout->getSizeInBytes())
    return std::nullopt;
  unsigned FieldIndex = Layout->getElementContainingOffset(Found.Offset);
  StructFieldTable &Table = getOrCreateStructTable(Found.Struct->getName());
  if (Table.FieldOffsets.empty())
    fillTableFromStructType(Table, Found.Struct);
  createFieldCounters(Table);
  if (FieldIndex >= Table.FieldOffsets.size())
    return std::nullopt;
  return FieldRef{&Table, FieldIndex,
                  fieldSpan(Table, FieldIndex, Found.Offset, AccessSize)};
}

unsigned EfficiencySanitizer::fieldSpan(const StructFieldTable &Table,
                                        unsigned Index, uint64_t Offset,
                                        uint64_t AccessSize) {
  uint64_t End = Offset + AccessSize;
  unsigned Last = Index;
  while (Last + 1 < Table.FieldOffsets.size() &&
         Table.FieldOffsets[Last + 1] < End &&
         Last + 1 - Index + 1 <= kCacheFragMaxFieldSpan)
    ++Last;
  return Last - Index + 1;
}

void EfficiencySanitizer::fillTableFromStructType(StructFieldTable &Table,
                                                  StructType *Struct) {
  const StructLayout *Layout = DL.getStructLayout(Struct);
  Table.Size = DL.getTypeAllocSize(Struct).getFixedValue();
  Table.ExactLayout = true;
  for (unsigned I = 0, N = Struct->getNumElements(); I < N; ++I) {
    Type *FieldTy = Struct->getElementType(I);
    Table.FieldOffsets.push_back(Layout->getElementOffset(I).getFixedValue());
    Table.FieldSizes.push_back(DL.getTypeAllocSize(FieldTy).getFixedValue());
    Table.FieldTypeNames.push_back(printableTypeName(FieldTy));
  }
}

// clang's TBAA names C types as written ("node") and C++ types by their
// mangled typeinfo name ("_ZTSN2ns4nodeE" for ns::node).
static std::string sourceTypeNameFromTBAA(StringRef TBAAName) {
  if (TBAAName.starts_with("_ZTS")) {
    std::string Demangled = demangle(TBAAName.str());
    StringRef Prefix = "typeinfo name for ";
    if (StringRef(Demangled).starts_with(Prefix))
      return Demangled.substr(Prefix.size());
  }
  return TBAAName.str();
}

// A struct-path TBAA tag {base, access, offset} with base != access names the
// struct and the byte offset inside it; the base's type node lists its
// members as (type, offset) pairs.
std::optional<FieldRef>
EfficiencySanitizer::findFieldFromTBAA(const MemoryAccess &Access) {
  MDNode *Base = structPathTBAABase(Access.I);
  if (!Base)
    return std::nullopt;
  auto *Offset = mdconst::extract<ConstantInt>(
      Access.I->getMetadata(LLVMContext::MD_tbaa)->getOperand(2));
  auto *BaseName = dyn_cast<MDString>(Base->getOperand(0));
  if (!BaseName)
    return std::nullopt;

  // Where the module still has the LLVM struct type (e.g. a global of that
  // type), its layout gives exact field sizes; name the table as clang names
  // that type either way.
  std::string SourceName = sourceTypeNameFromTBAA(BaseName->getString());
  StructType *Known = nullptr;
  if (SourceName.empty()) {
    uint64_t TagOffset = Offset->getZExtValue();
    Known = findStructTypeForAnonymousTBAA(Access, Base, TagOffset);
    if (!Known)
      SourceName = typedefNameFromPointerVariable(Access, Base, TagOffset);
    if (!Known && SourceName.empty())
      SourceName = typedefNameFromDebugInfo(Base);
    if (!Known && SourceName.empty())
      return std::nullopt;
  }
  for (StringRef Kind : {"struct.", "class.", "union."}) {
    if (Known)
      break;
    StructType *STy = StructType::getTypeByName(Ctx, (Kind + SourceName).str());
    if (STy && !STy->isOpaque() && STy->isSized()) {
      Known = STy;
      break;
    }
  }
  StructFieldTable &Table = getOrCreateStructTable(
      Known ? Known->getName().str() : "struct." + SourceName);
  if (Table.FieldOffsets.empty() && Known)
    fillTableFromStructType(Table, Known);
  if (Table.FieldOffsets.empty()) {
    SmallVector<uint64_t, 8> Offsets;
    SmallVector<std::string, 8> TypeNames;
    for (unsigned I = 1, N = Base->getNumOperands(); I + 1 < N; I += 2) {
      auto *FieldTy = dyn_cast<MDNode>(Base->getOperand(I));
      auto *FieldOffset =
          mdconst::dyn_extract<ConstantInt>(Base->getOperand(I + 1));
      if (!FieldTy || !FieldOffset)
        return std::nullopt;
      auto *FieldName = FieldTy->getNumOperands() > 0
                            ? dyn_cast<MDString>(FieldTy->getOperand(0))
                            : nullptr;
      Offsets.push_back(FieldOffset->getZExtValue());
      TypeNames.push_back(FieldName ? FieldName->getString().str()
                                    : std::string("?"));
    }
    if (Offsets.empty())
      return std::nullopt;
    Table.FieldOffsets = Offsets;
    Table.FieldTypeNames = TypeNames;
    // TBAA has no sizes: a field extends to the next one (padding
    // included); the last one is as large as its widest access seen.
    Table.FieldSizes.assign(Offsets.size(), 0);
    for (size_t I = 0; I + 1 < Offsets.size(); ++I)
      Table.FieldSizes[I] = Offsets[I + 1] - Offsets[I];
  }
  createFieldCounters(Table);
  // The field is the last member starting at or before the tag's offset
  // (nested structs are members of their own).
  uint64_t AccessOffset = Offset->getZExtValue();
  unsigned Index = 0;
  for (unsigned I = 0, N = Table.FieldOffsets.size(); I < N; ++I)
    if (Table.FieldOffsets[I] <= AccessOffset)
      Index = I;
  if (Table.FieldOffsets[Index] > AccessOffset)
    return std::nullopt;
  if (!Table.ExactLayout) {
    if (Index + 1 == Table.FieldOffsets.size()) {
      uint64_t End = AccessOffset + Access.Size - Table.FieldOffsets[Index];
      Table.FieldSizes[Index] = std::max(Table.FieldSizes[Index], End);
    }
    Table.Size = std::max(Table.Size, Table.FieldOffsets.back() +
                                          Table.FieldSizes.back());
  }
  return FieldRef{&Table, Index,
                  fieldSpan(Table, Index, AccessOffset, Access.Size)};
}

//===----------------------------------------------------------------------===//
// Module-level objects
//===----------------------------------------------------------------------===//

static GlobalVariable *createPrivateConstant(Module &M, Constant *Init,
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

static Constant *createInt32Array(Module &M, ArrayRef<uint64_t> Values,
                                  const Twine &Name) {
  SmallVector<uint32_t, 8> Narrow(Values.begin(), Values.end());
  return createPrivateConstant(
      M, ConstantDataArray::get(M.getContext(), Narrow), Name);
}

Constant *EfficiencySanitizer::createCacheFragModuleInfo() {
  StructType *StructInfoTy = StructType::get(
      Ctx, {PtrTy, Int32Ty, Int32Ty, PtrTy, PtrTy, PtrTy, PtrTy, PtrTy});
  SmallVector<Constant *, 8> StructInfos;
  for (const std::unique_ptr<StructFieldTable> &Entry : StructTables) {
    StructFieldTable &Table = *Entry;
    if (!Table.Counters)
      continue;
    Names.addDebugNames(Table);
    size_t NumFields = Table.FieldOffsets.size();
    std::string Prefix = "__efsan." + Table.Name;
    SmallVector<Constant *, 8> TypeNames;
    for (size_t Field = 0; Field < NumFields; ++Field)
      TypeNames.push_back(createCString(M, Table.FieldTypeNames[Field],
                                        Prefix + ".field_type." +
                                            Twine(Field)));
    Constant *TypeNameArray = createPrivateConstant(
        M, ConstantArray::get(ArrayType::get(PtrTy, NumFields), TypeNames),
        Prefix + ".field_type_names");
    // Without debug info the runtime cannot tell members from padding: null.
    Constant *FieldNameArray = ConstantPointerNull::get(PtrTy);
    if (Table.HasDebugInfo) {
      SmallVector<Constant *, 8> FieldNames;
      for (size_t Field = 0; Field < NumFields; ++Field)
        FieldNames.push_back(
            Table.FieldNames[Field].empty()
                ? ConstantPointerNull::get(PtrTy)
                : createCString(M, Table.FieldNames[Field],
                                Prefix + ".field_name." + Twine(Field)));
      FieldNameArray = createPrivateConstant(
          M, ConstantArray::get(ArrayType::get(PtrTy, NumFields), FieldNames),
          Prefix + ".field_names");
    }
    StructInfos.push_back(ConstantStruct::get(
        StructInfoTy,
        {createCString(M, Table.HasDebugInfo ? Table.SourceName : Table.Name,
                       Prefix + ".name"),
         ConstantInt::get(Int32Ty, Table.Size),
         ConstantInt::get(Int32Ty, NumFields),
         createInt32Array(M, Table.FieldOffsets, Prefix + ".field_offsets"),
         createInt32Array(M, Table.FieldSizes, Prefix + ".field_sizes"),
         TypeNameArray, Table.Counters, FieldNameArray}));
  }
  Constant *StructArray = ConstantPointerNull::get(PtrTy);
  if (!StructInfos.empty())
    StructArray = new GlobalVariable(
        M, ArrayType::get(StructInfoTy, StructInfos.size()),
        /*isConstant=*/true, GlobalValue::PrivateLinkage,
        ConstantArray::get(ArrayType::get(StructInfoTy, StructInfos.size()),
                           StructInfos),
        "__efsan.struct_infos");
  auto [GlobalArray, NumGlobals] = Names.createGlobalLayouts();
  StructType *ModuleInfoTy =
      StructType::get(Ctx, {PtrTy, Int32Ty, PtrTy, Int32Ty, PtrTy});
  return new GlobalVariable(
      M, ModuleInfoTy, /*isConstant=*/true, GlobalValue::PrivateLinkage,
      ConstantStruct::get(
          ModuleInfoTy,
          {createCString(M, M.getModuleIdentifier(), "__efsan.module_name"),
           ConstantInt::get(Int32Ty, StructInfos.size()), StructArray,
           ConstantInt::get(Int32Ty, NumGlobals), GlobalArray}),
      "__efsan.cache_frag_module_info");
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
      });
  if (Tool != EfficiencySanitizerOptions::ESAN_CacheFrag)
    return;
  // The struct counters are reported once the program's own destructors
  // have run; priority 0 destructors run last.
  Function *Dtor = createSanitizerCtor(M, kModuleDtorName);
  FunctionCallee Exit = M.getOrInsertFunction(
      kExitName, Type::getVoidTy(Ctx), PtrTy);
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
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  if (!EfficiencySanitizer(M, Tool, &FAM).instrumentModule())
    return PreservedAnalyses::all();
  return PreservedAnalyses::none();
}
