//===- EfficiencySanitizerCountdown.cpp - cache-frag sampling -------------===//
//
// Part of the efsan project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file is a part of EfficiencySanitizer (efsan). It owns cache-frag's
// sampling countdown (CacheFragCountdown): the thread-local countdown and
// each function's copy of it, the count-down of a run of accesses and the
// cold block that hands a sample's accesses to the runtime, the syncs with
// the thread's countdown around call sites, at landing pads and at exits,
// the clean copies of loops that run the iterations no sample falls in,
// the libc string calls counted down inline, and the promotion of the copy
// to SSA values.
//
// It does not decide which accesses are instrumented nor where runs end
// (EfficiencySanitizer.cpp collects them), and the struct field counter an
// access carries comes from StructFieldTables
// (EfficiencySanitizerStructFields.cpp). The emitted code is the contract in
// docs/InstrumentationABI.md.
//
//===----------------------------------------------------------------------===//

#include "EfficiencySanitizerInternal.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/BlockFrequencyInfo.h"
#include "llvm/Analysis/CaptureTracking.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/LoopIterator.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Operator.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

// From llvm/Transforms/Utils/LoopUtils.h, whose llvm::MemoryAccess (MemorySSA)
// would clash with this file's.
namespace llvm {
bool formLCSSA(Loop &L, const DominatorTree &DT, const LoopInfo *LI,
               ScalarEvolution *SE);
} // namespace llvm

using namespace llvm;
using namespace llvm::efsan;

static cl::opt<bool> ClCleanLoops(
    "efsan-cache-frag-clean-loops",
    cl::desc("cache-frag: give an innermost loop with a counted exit, no call "
             "and the same accesses in every iteration a copy without "
             "instrumentation that runs the iterations the countdown cannot "
             "run out in"),
    cl::init(true), cl::Hidden);

static cl::opt<bool> ClBudgetLoops(
    "efsan-cache-frag-budget-loops",
    cl::desc("cache-frag: give an innermost loop with no call whose accesses "
             "are all made in every iteration (exits allowed from the blocks "
             "that make them) a copy without instrumentation that counts "
             "rounds of iterations, instead of each block's accesses, against "
             "the countdown"),
    cl::init(true), cl::Hidden);

static cl::opt<unsigned> ClBudgetUnrollSize(
    "efsan-cache-frag-budget-unroll-size",
    cl::desc("cache-frag: a loop counted by iteration that only loads and "
             "whose body has at most this many instructions runs four "
             "iterations between two subtractions, at most twice as many two "
             "(0: one)"),
    cl::init(32), cl::Hidden);

static cl::opt<bool> ClDirectLibcCalls(
    "efsan-cache-frag-direct-libc-calls",
    cl::desc("cache-frag: count a libc string call's ranges down inline and "
             "call libc's function directly, past the interceptor, when none "
             "of them is sampled"),
    cl::init(true), cl::Hidden);

static constexpr char kCountdownName[] = "__efsan_cache_frag_countdown";
static constexpr char kCacheFragAccessName[] = "__efsan_cache_frag_access";
static constexpr uint32_t kCacheFragWriteFlag = 1;       // flags bit 0
static constexpr uint32_t kCacheFragLockedRMWFlag = 2;   // flags bit 1
static constexpr uint32_t kCacheFragUnoptimisedFlag = 4; // flags bit 2
static constexpr uint32_t kCacheFragRepeatedWriteFlag = 8; // flags bit 3
static constexpr unsigned kCacheFragLoopWorkShift = 16;    // flags bits 16-23
static constexpr unsigned kCacheFragLoopWorkMax = 255;
// The loop's instrumented accesses per write, in quarters (bits 24-31).
static constexpr unsigned kCacheFragLoopAccessesShift = 24;
static constexpr unsigned kCacheFragLoopAccessesMax = 255;
// Where markLoopWork leaves a write's loop flags until its call is made.
static constexpr char kLoopWorkMD[] = "efsan.loop.work";

CacheFragCountdown::CacheFragCountdown(Module &M,
                                       StructFieldTables &StructFields)
    : ModuleContext(M), StructFields(StructFields) {}

// The callout is preserve_most: its callers keep values in r10 across it.
// From a shared library, a call through the PLT is lazily bound: the first
// one runs glibc's _dl_runtime_resolve, which follows the C convention and
// may clobber r10 (llvm-project issue 105588). c-blosc's tests computed
// wrong results and crashed. nonlazybind makes the call load the address from
// the GOT, filled when the library is loaded; in the executable, where the
// runtime is, the linker still relaxes it to a direct call.
void CacheFragCountdown::declareRuntimeFunctions(AttributeList Attrs) {
  CacheFragAccess =
      M.getOrInsertFunction(kCacheFragAccessName, Attrs, Type::getVoidTy(Ctx),
                            PtrTy, Int64Ty, Int32Ty, PtrTy);
  if (auto *F = dyn_cast<Function>(CacheFragAccess.getCallee())) {
    F->setCallingConv(CallingConv::PreserveMost);
    F->addFnAttr(Attribute::NonLazyBind);
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
void CacheFragCountdown::instrumentCacheFragRun(
    Instruction *End, ArrayRef<MemoryAccess> Accesses) {
  SmallVector<FieldCounter, 8> Counters;
  for (const MemoryAccess &Access : Accesses)
    Counters.push_back(StructFields.fieldCounter(Access));
  uint64_t N = Accesses.size();
  Instruction *SampleTerm;
  Value *Left;
  if (InMemory) {
    SampleTerm = countDownInMemory(End, N);
    IRBuilder<> Cold(SampleTerm);
    Left = loadThreadCountdown(Cold);
  } else {
    IRBuilder<> IRB(End);
    Value *Count = loadLocalCountdown(IRB);
    // c - n as `add nsw c, -n`: the backend turns a sub of a constant into
    // an add without the nsw flag, and needs nsw to branch on the add's own
    // flags instead of testing c2 again. It never wraps: the runtime keeps
    // the countdown far from INT64_MIN.
    Left = IRB.CreateNSWAdd(Count, IRB.getInt64(-int64_t(N)));
    storeLocalCountdown(IRB, Left);
    SampleTerm = SplitBlockAndInsertIfThen(
        IRB.CreateICmpSLE(Left, IRB.getInt64(0)), End->getIterator(),
        /*Unreachable=*/false, UnlikelyWeights);
  }
  // c is recomputed from c2 so that only c2 stays live on the hot path: the
  // backend then subtracts in place and branches on the flags.
  IRBuilder<> Cold(SampleTerm);
  Value *Before = Cold.CreateNSWAdd(Left, Cold.getInt64(N));
  if (InMemory)
    Accesses = rematerializeAddresses(Accesses, SampleTerm);
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

// At -O0 every value a block leaves to another lives in a stack slot: an
// access's address that the cold block passes to the runtime cost the fast
// path its computation and a store, as much as the count-down itself. So
// the cold block computes again, from the stack slots the code loaded them
// from, the addresses that are loads of a local variable and arithmetic on
// them (a struct's field through a local pointer, an element at a local
// index), where nothing stored to that variable between the load and the
// run's end. Returns the run's accesses with the addresses to use there.
static Value *rematerialize(Value *V, Instruction *InsertPt,
                            DenseMap<Value *, Value *> &Copies,
                            unsigned Depth) {
  if (isa<Constant>(V))
    return V;
  auto It = Copies.find(V);
  if (It != Copies.end())
    return It->second;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 8)
    return nullptr;
  if (auto *Load = dyn_cast<LoadInst>(I)) {
    auto *Slot = dyn_cast<AllocaInst>(Load->getPointerOperand());
    if (!Slot || !Load->isSimple())
      return nullptr;
    // Up to the count-down (the block's terminator), nothing may write it:
    // no store to it, and, if its address is taken, no store elsewhere.
    bool Captured = PointerMayBeCaptured(Slot, /*ReturnCaptures=*/true,
                                         /*StoreCaptures=*/true);
    for (Instruction *J = Load->getNextNode(); J && !J->isTerminator();
         J = J->getNextNode()) {
      if (!J->mayWriteToMemory())
        continue;
      auto *Store = dyn_cast<StoreInst>(J);
      if (!Store || Store->getPointerOperand() == Slot ||
          (Captured && !isa<AllocaInst>(Store->getPointerOperand())))
        return nullptr;
    }
  } else if (!isa<GetElementPtrInst>(I) && !isa<CastInst>(I) &&
             !isa<BinaryOperator>(I)) {
    return nullptr;
  }
  SmallVector<Value *, 4> Operands;
  for (Value *Op : I->operands()) {
    Value *Copy = isa<LoadInst>(I) ? Op : rematerialize(Op, InsertPt, Copies,
                                                          Depth + 1);
    if (!Copy)
      return nullptr;
    Operands.push_back(Copy);
  }
  Instruction *Clone = I->clone();
  for (unsigned K = 0; K < Operands.size(); ++K)
    Clone->setOperand(K, Operands[K]);
  Clone->insertBefore(InsertPt);
  markNoSanitize(Clone);
  Copies[V] = Clone;
  return Clone;
}

ArrayRef<MemoryAccess>
CacheFragCountdown::rematerializeAddresses(ArrayRef<MemoryAccess> Accesses,
                                           Instruction *InsertPt) {
  ColdAccesses.assign(Accesses.begin(), Accesses.end());
  DenseMap<Value *, Value *> Copies;
  for (MemoryAccess &Access : ColdAccesses)
    if (Value *Copy = rematerialize(Access.Addr, InsertPt, Copies, 0))
      Access.Addr = Copy;
  return ColdAccesses;
}

// An optnone function's count-down (clang -O0, where every value lives in a
// stack slot: the copy's load, subtract, stores and compare, and its phis'
// copies at every join, were most of what the tool added to a debug build):
// the thread's countdown itself, less N, in one instruction, and a branch to
// the cold block on its flags, in an asm goto at the end of the run. Returns
// the cold block's terminator (a branch to where the run ends).
Instruction *CacheFragCountdown::countDownInMemory(Instruction *End,
                                                   uint64_t N) {
  BasicBlock *Head = End->getParent();
  BasicBlock *Tail = SplitBlock(Head, End);
  Function *F = Head->getParent();
  BasicBlock *ColdBlock = BasicBlock::Create(Ctx, "", F, Tail);
  Instruction *SampleTerm = BranchInst::Create(Tail, ColdBlock);
  // Code for an executable (PIE) has the countdown at a constant offset from
  // the thread pointer (the runtime defines it in the executable); other code
  // reads the offset from the GOT.
  std::string Decrement = "subq $$" + std::to_string(N) + ", ";
  std::string Code, Constraints = "!i,~{memory},~{dirflag},~{fpsr},~{flags}";
  if (M.getPIELevel() != PIELevel::Default) {
    Code = Decrement + "%fs:" + kCountdownName + "@TPOFF";
  } else {
    Code = "movq " + std::string(kCountdownName) + "@GOTTPOFF(%rip), %rax\n\t" +
           Decrement + "%fs:(%rax)";
    Constraints = "!i,~{rax},~{memory},~{dirflag},~{fpsr},~{flags}";
  }
  Code += "\n\tjle ${0:l}";
  InlineAsm *Asm = InlineAsm::get(
      FunctionType::get(Type::getVoidTy(Ctx), /*isVarArg=*/false), Code,
      Constraints, /*hasSideEffects=*/true);
  Instruction *OldTerm = Head->getTerminator();
  CallBrInst *CountDown =
      CallBrInst::Create(Asm->getFunctionType(), Asm, Tail, {ColdBlock}, {},
                         "", OldTerm->getIterator());
  CountDown->setDebugLoc(End->getDebugLoc());
  markNoSanitize(CountDown);
  OldTerm->eraseFromParent();
  return SampleTerm;
}

// The callee counts down from the thread's countdown (and the runtime may
// reset it), so the function's copy is written back before a call site and
// reloaded after it: at the normal destination of an invoke (on an edge of
// its own), while the caller reloads at its landing pads.
void CacheFragCountdown::instrumentCacheFragCallSite(CallBase *Call) {
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

// The ranges each interceptor counts off the countdown when it samples none
// of them (compiler-rt/lib/efsan/efsan_interceptors.cpp and
// sanitizer_common's); the runtime publishes libc's function in
// __efsan_cf_<name> only where its interceptor counts that many.
static constexpr std::pair<LibFunc, unsigned> kDirectLibcCalls[] = {
    {LibFunc_strlen, 1},      {LibFunc_strnlen, 1},     {LibFunc_strchr, 1},
    {LibFunc_strrchr, 1},     {LibFunc_strstr, 1},      {LibFunc_memchr, 1},
    {LibFunc_memrchr, 1},     {LibFunc_strcmp, 2},      {LibFunc_strncmp, 2},
    {LibFunc_strcasecmp, 2},  {LibFunc_strncasecmp, 2}, {LibFunc_strspn, 2},
    {LibFunc_strcspn, 2},     {LibFunc_strpbrk, 2},     {LibFunc_strncpy, 1},
    {LibFunc_strtok_r, 2},    {LibFunc_memcmp, 2},      {LibFunc_bcmp, 2}};

// A call of one of the functions above, declared with libc's prototype
// (TargetLibraryInfo checks it) and not defined here. memcmp and bcmp of a
// constant size stay calls of the interceptor's symbol: codegen may expand
// them into loads, faster than any call.
std::optional<unsigned>
CacheFragCountdown::directLibcCallRanges(const CallInst &CI,
                                         const TargetLibraryInfo &TLI) {
  if (!ClDirectLibcCalls || CI.isMustTailCall() || CI.isNoBuiltin())
    return std::nullopt;
  const Function *Callee = CI.getCalledFunction();
  LibFunc Func;
  if (!Callee || !Callee->isDeclaration() ||
      !TLI.getLibFunc(*Callee, Func) || !TLI.has(Func))
    return std::nullopt;
  if ((Func == LibFunc_memcmp || Func == LibFunc_bcmp) &&
      isa<Constant>(CI.getArgOperand(2)))
    return std::nullopt;
  for (auto [Known, Ranges] : kDirectLibcCalls)
    if (Func == Known)
      return Ranges;
  return std::nullopt;
}

// A libc string call's interceptor counts its ranges off the thread's
// countdown and records them only when one is the sampled access; the rest
// of the time it is a call layer around libc's function (string_scan: 1.19x
// against 1.02x calling libc directly). So the ranges are counted here:
//
//   c2 = c - n;                    // n: the ranges the interceptor counts
//   real = __efsan_cf_<name>;      // libc's function, or null
//   if (c2 > 0 && real) {
//     c = c2; r = real(args);      // none sampled: libc, no sync
//   } else {
//     countdown = c; r = name(args); c = countdown;  // the interceptor
//   }
//
// The interceptor then sees the same count it would have, and samples the
// same range. In a function that counts down in the thread's countdown
// itself (optnone, or no run of its own), c is that countdown.
void CacheFragCountdown::instrumentDirectLibcCall(const LibcCall &Libc) {
  CallInst *CI = Libc.Call;
  IRBuilder<> IRB(CI);
  Value *Count = InMemory ? loadThreadCountdown(IRB) : loadLocalCountdown(IRB);
  Value *Left = IRB.CreateNSWAdd(Count, IRB.getInt64(-int64_t(Libc.Ranges)));
  std::string RealName = ("__efsan_cf_" + CI->getCalledFunction()->getName()).str();
  LoadInst *Real = IRB.CreateAlignedLoad(PtrTy, M.getOrInsertGlobal(RealName, PtrTy),
                                         DL.getPointerABIAlignment(0));
  markNoSanitize(Real);
  Value *Direct =
      IRB.CreateAnd(IRB.CreateICmpSGT(Left, IRB.getInt64(0)),
                    IRB.CreateICmpNE(Real, ConstantPointerNull::get(PtrTy)));
  Instruction *DirectEnd, *InterceptedEnd;
  SplitBlockAndInsertIfThenElse(Direct, CI->getIterator(), &DirectEnd,
                                &InterceptedEnd,
                                MDBuilder(Ctx).createLikelyBranchWeights());
  IRBuilder<> D(DirectEnd);
  if (InMemory)
    storeThreadCountdown(D, Left);
  else
    storeLocalCountdown(D, Left);
  auto *DirectCall = cast<CallInst>(CI->clone());
  DirectCall->setCalledOperand(Real);
  DirectCall->insertBefore(DirectEnd);

  BasicBlock *Join = CI->getParent();
  CI->moveBefore(InterceptedEnd);
  if (!InMemory)
    instrumentCacheFragCallSite(CI);
  if (CI->use_empty())
    return;
  PHINode *Result = PHINode::Create(CI->getType(), 2, "", Join->begin());
  CI->replaceAllUsesWith(Result);
  Result->addIncoming(DirectCall, DirectCall->getParent());
  Result->addIncoming(CI, CI->getParent());
}

// Cache-frag, per function: the copy of the countdown, the runs, and the
// syncs with the thread's countdown at call sites, landing pads and exits.
void CacheFragCountdown::instrumentFunction(
    Function &F, ArrayRef<AccessRun> AccessRuns, ArrayRef<CallBase *> CallSites,
    ArrayRef<LibcCall> LibcCalls, ArrayRef<LandingPadInst *> LandingPads,
    ArrayRef<Instruction *> Exits) {
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
  // Where the code is not optimised, the thread's countdown is the count
  // (countDownInMemory) and nothing is synced; so too in a function whose
  // only count-downs are libc calls.
  InMemory = F.hasOptNone() || (AccessRuns.empty() && !CountdownSlot);
  IRBuilder<> IRB(&F.getEntryBlock(), F.getEntryBlock().begin());
  if (!InMemory) {
    if (!CountdownSlot) // else made by versionCleanLoops
      CountdownSlot = IRB.CreateAlloca(Int64Ty, nullptr, "efsan.countdown");
    IRB.SetInsertPointPastAllocas(&F);
    reloadCountdown(IRB);
  }
  for (auto &[End, Accesses] : AccessRuns)
    instrumentCacheFragRun(End, Accesses);
  for (const LibcCall &Libc : LibcCalls)
    instrumentDirectLibcCall(Libc);
  if (InMemory)
    return;
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

// The slot becomes SSA values, with phis at joins and loop headers, so a loop
// with no call keeps the count in a register. Then a write-back of the value
// just reloaded, with no call in between (consecutive calls, a call just
// before a return), is dropped, and so are the reloads nothing uses.
void CacheFragCountdown::promoteCountdown(Function &F) {
  if (!CountdownSlot) {
    ThreadCountdownLoads.clear();
    ThreadCountdownStores.clear();
    return;
  }
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

// The runtime bumps the field's counter(s) when it samples the access. An
// access of an optnone function (clang -O0) says so: such code stores its
// locals between its writes to a line, and what a line both threads keep
// writing costs it is another bound (docs/CacheFrag.md, "The machine
// profile").
void CacheFragCountdown::emitCacheFragAccess(IRBuilder<> &IRB, Value *Addr,
                                             Value *Size, bool IsWrite,
                                             FieldCounter Field,
                                             uint32_t LockedRMWFlag,
                                             uint32_t LoopWorkFlags) {
  bool Unoptimised = IRB.GetInsertBlock()->getParent()->hasOptNone();
  uint32_t Flags = (IsWrite ? kCacheFragWriteFlag : 0) | Field.SpanFlags |
                   LockedRMWFlag | LoopWorkFlags |
                   (Unoptimised ? kCacheFragUnoptimisedFlag : 0);
  CallInst *Call = IRB.CreateCall(
      CacheFragAccess, {Addr, Size, IRB.getInt32(Flags), Field.Address});
  Call->setCallingConv(CallingConv::PreserveMost);
  markNoSanitize(Call);
}

// A write the core cannot retire into its store buffer: atomicrmw and
// cmpxchg (a lock-prefixed instruction on x86), and a seq_cst store (xchg).
// Each one whose line another core took waits for the whole transfer, where
// a plain store waits in the store buffer while the core goes on; the
// runtime prices the two apart (docs/CacheFrag.md, "Impact and thresholds").
// The flag is a constant of the cold call: nothing on the fast path.
static uint32_t lockedRMWFlag(const Instruction &I) {
  if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I))
    return kCacheFragLockedRMWFlag;
  if (auto *Store = dyn_cast<StoreInst>(&I))
    if (Store->getOrdering() == AtomicOrdering::SequentiallyConsistent)
      return kCacheFragLockedRMWFlag;
  return 0;
}

// The call of a run's access, placed at the run's end, carries the access's
// own debug location: its return address names the access's source line in
// the report's access sites.
void CacheFragCountdown::emitCacheFragAccess(IRBuilder<> &IRB,
                                             const MemoryAccess &Access,
                                             FieldCounter Field) {
  IRBuilder<>::InsertPointGuard Guard(IRB);
  if (DebugLoc Loc = Access.I->getDebugLoc())
    IRB.SetCurrentDebugLocation(Loc);
  emitCacheFragAccess(IRB, Access.Addr, IRB.getInt64(Access.Size),
                      Access.IsWrite, Field, lockedRMWFlag(*Access.I),
                      Access.IsWrite ? loopWorkFlags(*Access.I) : 0);
}

// The address a store, atomic or memory intrinsic writes; null for others.
static const Value *writtenAddress(const Instruction &I) {
  const Value *Address = nullptr;
  if (auto *Store = dyn_cast<StoreInst>(&I))
    Address = Store->getPointerOperand();
  else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    Address = RMW->getPointerOperand();
  else if (auto *CmpXchg = dyn_cast<AtomicCmpXchgInst>(&I))
    Address = CmpXchg->getPointerOperand();
  else if (auto *Intrinsic = dyn_cast<MemIntrinsic>(&I))
    Address = Intrinsic->getRawDest();
  return Address ? Address->stripPointerCasts() : nullptr;
}

// A block's runs per run of the loop's header, as the block frequencies have
// them (branch weights where the program has them, else LLVM's static
// guesses: a write under `if ((x & 3) == 0)` in a loop counts half).
static double runsPerIteration(const BasicBlock *BB, const Loop &L,
                               const BlockFrequencyInfo &BFI) {
  double Header = double(BFI.getBlockFreq(L.getHeader()).getFrequency());
  return Header > 0 ? double(BFI.getBlockFreq(BB).getFrequency()) / Header
                    : 1;
}

// One iteration's instructions, writes and instrumented accesses (the
// accesses the thread's countdown counts), and its writes to lines: writes
// of one block to other words within 64 bytes of one base join the first
// (a struct's fields, `s->count++; s->total += x`), as the core commits
// them together each time it holds the line. A loop of two steps of work
// and two such writes an iteration (fs_stats16) gained what the profile's
// loop of two steps and one write lost, 0.60-0.64 in one core complex, where
// read at its instructions per write it was claimed 0.80-0.83. The same
// word written again is a write of its own (a run of writes: fs_counters'
// four adds an iteration lose what one write per iteration loses).
struct LoopIteration {
  double Instructions = 0, Writes = 0, LineWrites = 0, Accesses = 0;
};

// A written address as a base, the values it is indexed by (with their
// scales) and a constant offset: `&s[me].count` and `&s[me].total` differ in
// the offset alone.
struct WrittenWord {
  const Value *Base;
  SmallVector<std::pair<const Value *, int64_t>, 2> Indices;
  int64_t Offset = 0;
};

static WrittenWord writtenWord(const Value *Address, const DataLayout &DL) {
  unsigned Bits = DL.getIndexTypeSizeInBits(Address->getType());
  MapVector<Value *, APInt> Variable;
  APInt Constant(Bits, 0);
  // Through a chain of GEPs (`&v[me]`, then its field's byte offset).
  while (const auto *GEP = dyn_cast<GEPOperator>(Address)) {
    if (DL.getIndexTypeSizeInBits(GEP->getType()) != Bits ||
        !GEP->collectOffset(DL, Bits, Variable, Constant))
      break;
    Address = GEP->getPointerOperand()->stripPointerCasts();
  }
  WrittenWord Word{Address, {}, Constant.getSExtValue()};
  for (const auto &[Index, Scale] : Variable)
    Word.Indices.push_back({Index, Scale.getSExtValue()});
  return Word;
}

// A write that joins an earlier one to a line takes no time of its own
// beside the loop's: its store, and the load and the operation of an
// update in place (`s->total += v`), run alongside the work the loop's
// first write to the line waits on. fs_stats16's loop, 22 instructions an
// iteration of which its second field's update is 3, lost what the
// profile's loop of 18 instructions lost (0.63 and 0.66 in one and in two
// core complexes of an AMD VM; read at 22, 0.48 and 0.56).
static double joinedWriteInstructions(const Instruction &I,
                                      const Value *Address) {
  const auto *Store = dyn_cast<StoreInst>(&I);
  const auto *Update =
      Store ? dyn_cast<BinaryOperator>(Store->getValueOperand()) : nullptr;
  if (!Update || Update->getParent() != I.getParent())
    return 1;
  for (const Value *Operand : Update->operands())
    if (const auto *Load = dyn_cast<LoadInst>(Operand))
      if (Load->getParent() == I.getParent() &&
          Load->getPointerOperand()->stripPointerCasts() == Address)
        return 3;
  return 1;
}

static LoopIteration
loopIterationWork(const Loop &L, const LoopInfo &LI, ScalarEvolution &SE,
                  const BlockFrequencyInfo &BFI, const DataLayout &DL,
                  function_ref<bool(Instruction &)> IsAccess) {
  LoopIteration Work;
  for (BasicBlock *BB : L.blocks()) {
    if (LI.getLoopFor(BB) != &L)
      continue; // an inner loop's: below
    double Runs = runsPerIteration(BB, L, BFI);
    SmallVector<WrittenWord, 8> Written;
    for (Instruction &I : *BB) {
      if (isa<PHINode>(I) || I.isDebugOrPseudoInst())
        continue;
      Work.Instructions += Runs;
      Work.Accesses += IsAccess(I) ? Runs : 0;
      const Value *Address = writtenAddress(I);
      if (!Address)
        continue;
      Work.Writes += Runs;
      WrittenWord Word = writtenWord(Address, DL);
      bool Joins = any_of(Written, [&](const WrittenWord &W) {
        return W.Base == Word.Base && W.Indices == Word.Indices &&
               W.Offset != Word.Offset && std::abs(W.Offset - Word.Offset) < 64;
      });
      if (!Joins) {
        Work.LineWrites += Runs;
        Written.push_back(std::move(Word));
      } else {
        Work.Instructions -= Runs * joinedWriteInstructions(I, Address);
      }
    }
  }
  // An inner loop runs its trip count per entry where SCEV knows it, else
  // what the block frequencies guess.
  for (const Loop *Inner : L.getSubLoops()) {
    LoopIteration InnerWork =
        loopIterationWork(*Inner, LI, SE, BFI, DL, IsAccess);
    double Iterations = runsPerIteration(Inner->getHeader(), L, BFI);
    if (unsigned Trips = SE.getSmallConstantTripCount(Inner))
      if (const BasicBlock *Preheader = Inner->getLoopPreheader())
        Iterations = runsPerIteration(Preheader, L, BFI) * Trips;
    Work.Instructions += InnerWork.Instructions * Iterations;
    Work.Writes += InnerWork.Writes * Iterations;
    Work.LineWrites += InnerWork.LineWrites * Iterations;
    Work.Accesses += InnerWork.Accesses * Iterations;
  }
  return Work;
}

// What hides a transfer is the time the core spends on the loop's work,
// not its instruction count: a core runs independent instructions side by
// side, so an iteration takes about as long as the longest chain of
// instructions each on the one before (loopCarriedChain), or its
// instructions over the issue width if that is longer. The profile's loops
// are one chain (xorshift steps) and beside it their write's load, add and
// store (kBesidePerWrite) and the loop's add, compare and branch
// (kBesidePerIteration), so a loop is read at the profile's loop that takes
// as long: its chain (or instructions over kIssueWidth) plus those for its
// writes to lines, never more than its instructions. Measured on an
// AMD VM in one core complex: a loop with two steps of xorshift in two
// independent chains (18 instructions, a chain of one step) lost 0.77-0.80
// of its time to a line both threads write, as the loop with one step
// (12) did, 0.81-0.83, where the loop with two steps in one chain lost
// 0.65-0.66; streamcluster's pgain() shape (fs_reused_block: one step, an
// integer division and a double's add, 16 instructions) lost 0.80-0.87.
static constexpr double kIssueWidth = 4;
static constexpr double kBesidePerWrite = 3;
static constexpr double kBesidePerIteration = 3;

// A chain runs from what the last iteration left to what the next one
// takes: from a header phi to the value it carries out, or from a load of a
// word at a loop-invariant address that the loop stores to (`*word += x`)
// to the last store to it; a load waits for a store to its word earlier in
// the iteration (four increments of one word in a row: one chain of 12).
// The longest decides.
static double loopCarriedChain(const Loop &L, const LoopInfo &LI) {
  LoopBlocksRPO Blocks(const_cast<Loop *>(&L));
  Blocks.perform(&LI);
  SmallVector<const Instruction *, 32> Body;
  SmallPtrSet<const Value *, 4> Carried; // invariant words the loop stores to
  for (BasicBlock *BB : Blocks)
    for (Instruction &I : *BB) {
      if (I.isDebugOrPseudoInst())
        continue;
      Body.push_back(&I);
      if (isa<StoreInst>(I) || isa<AtomicRMWInst>(I))
        if (const Value *Address = writtenAddress(I))
          if (L.isLoopInvariant(Address))
            Carried.insert(Address);
    }
  auto ReadAddress = [](const Instruction &I) -> const Value * {
    if (const auto *Load = dyn_cast<LoadInst>(&I))
      return Load->getPointerOperand()->stripPointerCasts();
    if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I))
      return RMW->getPointerOperand()->stripPointerCasts();
    return nullptr;
  };
  SmallVector<BasicBlock *, 4> Latches;
  L.getLoopLatches(Latches);
  // The longest chain from one start (a header phi, or an invariant word
  // its first reads of the iteration start from).
  auto ChainFrom = [&](const Value *Start) {
    DenseMap<const Instruction *, double> Depth; // absent: not on the chain
    DenseMap<const Value *, double> Stored;      // depth of the last store
    double Longest = 0;
    for (const Instruction *I : Body) {
      bool Phi = isa<PHINode>(I);
      double D = -1;
      if (I == Start)
        D = 0;
      else if (!(Phi && I->getParent() == L.getHeader()))
        for (const Value *Operand : I->operands())
          if (const auto *Def = dyn_cast<Instruction>(Operand)) {
            auto It = Depth.find(Def);
            if (It != Depth.end() && It->second > D)
              D = It->second;
          }
      if (const Value *Read = ReadAddress(*I)) {
        auto It = Stored.find(Read);
        if (It != Stored.end())
          D = std::max(D, It->second);
        else if (Read == Start)
          D = std::max(D, 0.0);
      }
      if (D < 0)
        continue;
      if (!Phi)
        D += 1;
      Depth[I] = D;
      if (isa<StoreInst>(I) || isa<AtomicRMWInst>(I)) {
        const Value *Address = writtenAddress(*I);
        Stored[Address] = D;
        if (Address == Start)
          Longest = std::max(Longest, D);
      }
    }
    if (const auto *Phi = dyn_cast<PHINode>(Start))
      for (BasicBlock *Latch : Latches)
        if (const auto *Out =
                dyn_cast<Instruction>(Phi->getIncomingValueForBlock(Latch))) {
          auto It = Depth.find(Out);
          if (It != Depth.end())
            Longest = std::max(Longest, It->second);
        }
    return Longest;
  };
  double Chain = 0;
  for (PHINode &Phi : L.getHeader()->phis())
    Chain = std::max(Chain, ChainFrom(&Phi));
  for (const Value *Word : Carried)
    Chain = std::max(Chain, ChainFrom(Word));
  return Chain;
}

// The instructions of the profile's loops that take as long as one
// iteration of L with its writes to lines (above); a loop with inner loops
// keeps its count.
static double timedInstructions(const Loop &L, const LoopInfo &LI,
                                double Instructions, double LineWrites) {
  if (!L.getSubLoops().empty())
    return Instructions;
  double Chain = loopCarriedChain(L, LI);
  return std::min(Instructions,
                  std::max(Chain, Instructions / kIssueWidth) +
                      kBesidePerWrite * LineWrites + kBesidePerIteration);
}

// A write in a loop: the instructions one iteration of its innermost loop
// runs per write to a line it makes (LoopIteration; each block as often as
// the block frequencies run it, an inner loop times its trip count), and
// the accesses it makes per write to a line (the runtime tells from them
// how many of the loop's writes a line gets: a thread's 64-byte slot across
// two lines puts a part of its writes on the line it shares, and the work
// between those is the more; a struct across two lines that gets one of
// its fields' writes to the shared line still gets one write to a line an
// iteration there). What a
// line both threads keep writing costs a thread moves with that work: the
// core goes on past a store that waits for the line until its store buffer
// fills, and the fewer writes it makes, the less often it does
// (docs/CacheFrag.md, "The work between writes": an AMD VM's loops with 4,
// 8 and 54 instructions per write lost 88%, 67% and 53% of their time).
// Marked before the loops are versioned, so that the copies carry it.
void CacheFragCountdown::markLoopWork(
    Function &F, FunctionAnalysisManager *FAM,
    function_ref<bool(Instruction &)> IsAccess) {
  if (!FAM || F.hasOptNone())
    return;
  LoopInfo &LI = FAM->getResult<LoopAnalysis>(F);
  if (LI.empty())
    return;
  ScalarEvolution &SE = FAM->getResult<ScalarEvolutionAnalysis>(F);
  BlockFrequencyInfo &BFI = FAM->getResult<BlockFrequencyAnalysis>(F);
  // A word written more than once per iteration (an unrolled loop of
  // increments, fs_counters' `counters[me] += ...`) says so too: with
  // little work between, a run of writes, which the profile's tightest
  // loops bound (the runtime decides).
  DenseSet<const Value *> RepeatedWrites;
  for (const Loop *L : LI.getLoopsInPreorder()) {
    DenseSet<const Value *> Seen;
    for (const BasicBlock *BB : L->blocks())
      if (LI.getLoopFor(BB) == L)
        for (const Instruction &I : *BB)
          if (const Value *Address = writtenAddress(I))
            if (!Seen.insert(Address).second)
              RepeatedWrites.insert(Address);
  }
  DenseMap<const Loop *, uint32_t> WorkOfLoop;
  for (BasicBlock &BB : F) {
    const Loop *L = LI.getLoopFor(&BB);
    if (!L)
      continue;
    auto [It, New] = WorkOfLoop.try_emplace(L, 0);
    if (New) {
      LoopIteration Work = loopIterationWork(*L, LI, SE, BFI, DL, IsAccess);
      if (Work.Writes > 0) {
        double Instructions =
            timedInstructions(*L, LI, Work.Instructions, Work.LineWrites);
        It->second =
            uint32_t(std::clamp(Instructions / Work.LineWrites + 0.5, 1.0,
                                double(kCacheFragLoopWorkMax)))
                << kCacheFragLoopWorkShift |
            uint32_t(std::clamp(4 * Work.Accesses / Work.LineWrites + 0.5, 4.0,
                                double(kCacheFragLoopAccessesMax)))
                << kCacheFragLoopAccessesShift;
      }
    }
    if (!It->second)
      continue;
    for (Instruction &I : BB) {
      const Value *Address = writtenAddress(I);
      if (!Address)
        continue;
      uint32_t Flags =
          It->second |
          (RepeatedWrites.count(Address) ? kCacheFragRepeatedWriteFlag : 0);
      I.setMetadata(kLoopWorkMD, MDNode::get(Ctx, ConstantAsMetadata::get(
                                                      ConstantInt::get(
                                                          Int32Ty, Flags))));
    }
  }
}

uint32_t CacheFragCountdown::loopWorkFlags(const Instruction &I) {
  MDNode *MD = I.getMetadata(kLoopWorkMD);
  return MD ? uint32_t(mdconst::extract<ConstantInt>(MD->getOperand(0))
                           ->getZExtValue())
            : 0;
}

Value *CacheFragCountdown::loadLocalCountdown(IRBuilder<> &IRB) {
  LoadInst *Count = IRB.CreateLoad(Int64Ty, CountdownSlot);
  markNoSanitize(Count);
  return Count;
}

void CacheFragCountdown::storeLocalCountdown(IRBuilder<> &IRB, Value *Count) {
  markNoSanitize(IRB.CreateStore(Count, CountdownSlot));
}

// LLVM 19 wants a thread_local global's address taken with
// llvm.threadlocal.address where it is used (a coroutine may resume on
// another thread), so each access gets its own.
LoadInst *CacheFragCountdown::loadThreadCountdown(IRBuilder<> &IRB) {
  CallInst *Addr = IRB.CreateThreadLocalAddress(Countdown);
  markNoSanitize(Addr);
  LoadInst *Count = IRB.CreateLoad(Int64Ty, Addr);
  markNoSanitize(Count);
  ThreadCountdownLoads.insert(Count);
  return Count;
}

void CacheFragCountdown::storeThreadCountdown(IRBuilder<> &IRB, Value *Count) {
  CallInst *Addr = IRB.CreateThreadLocalAddress(Countdown);
  markNoSanitize(Addr);
  StoreInst *Store = IRB.CreateStore(Count, Addr);
  markNoSanitize(Store);
  ThreadCountdownStores.push_back(Store);
}

// Thread's countdown -> the function's copy (none in an optnone function).
void CacheFragCountdown::reloadCountdown(IRBuilder<> &IRB) {
  if (!InMemory)
    storeLocalCountdown(IRB, loadThreadCountdown(IRB));
}

// The function's copy -> thread's countdown (an optnone function syncs
// nothing: instrumentFunction).
void CacheFragCountdown::writeBackCountdown(IRBuilder<> &IRB) {
  storeThreadCountdown(IRB, loadLocalCountdown(IRB));
}

// A loop whose iterations all make the same K accesses cannot run out of
// countdown c in its next floor((c - 1) / K) iterations: no sample falls
// there, and the instrumented body only counts them down (a subtraction, a
// branch, and a register the loop no longer has: ph_linear_regression's five
// sums spilled to the stack, 1.5x the plain loop). So such a loop gets a
// clean copy, without instrumentation, that runs those iterations and then
// takes n * K off the countdown at once; the instrumented loop runs the
// iterations around each sample:
//
//   header:   ... instrumented body ...
//   latch:    if (x == end) goto exit;          // x: {x0, +, step}
//   dispatch: n = min(c > K ? (c - 1) / K : 0, |end - x| / |step|);
//             if (n == 0) goto header;
//             stop = x + n * step;
//   clean:    ... the body, clean ...
//             if (x' != stop) goto clean;
//             c -= n * K;
//             if (stop == end) goto exit; else goto header;
//
// Each access is still counted once, in program order, so the runtime
// samples the same accesses as before. The loop qualifies when it is
// innermost, its only exit is at its latch on x == end (x affine with a
// constant step, +-1 or one that cannot wrap; end invariant: the form loop
// exit tests take by the end of the pipeline), no block of it has its
// address taken, every instrumented access is in a block that runs in every
// iteration (one that dominates the latch), and it has no call site (its
// callee would count down the thread's countdown, which the clean copy
// does not sync) and no landing pad.
namespace llvm::efsan {
struct CleanLoopPlan {
  SmallVector<BasicBlock *, 8> Blocks;
  BasicBlock *Header, *Latch, *Exit;
  Instruction *X;
  Value *End;
  bool Down;        // x counts down
  uint64_t Stride;  // |step|
  uint64_t K;
};
} // namespace llvm::efsan

// Whether a loop's blocks can run as a copy without instrumentation: no
// call site (its callee would count down the thread's countdown, which a
// copy does not sync), landing pad, token or convergent call, and no block a
// computed goto may reach (a copy would keep jumping to the original blocks
// whose addresses it takes: an interpreter's dispatch loop).
static bool copyableWithoutChecks(Loop *L,
                                  function_ref<bool(Instruction &)> IsCallSite) {
  for (BasicBlock *BB : L->blocks()) {
    if (BB->hasAddressTaken() || isa<IndirectBrInst>(BB->getTerminator()))
      return false;
    for (Instruction &I : *BB) {
      if (isa<LandingPadInst>(I) || isa<CallBrInst>(I) || IsCallSite(I) ||
          I.getType()->isTokenTy())
        return false;
      if (auto *Call = dyn_cast<CallBase>(&I); Call && Call->isConvergent())
        return false;
    }
  }
  return true;
}

static std::optional<CleanLoopPlan>
planCleanLoop(Loop *L, ScalarEvolution &SE, DominatorTree &DT,
              function_ref<bool(Instruction &)> IsAccess,
              function_ref<bool(Instruction &)> IsCallSite) {
  BasicBlock *Latch = L->getLoopLatch();
  BasicBlock *Exit = L->getExitBlock();
  if (!L->isInnermost() || !Latch || !Exit || L->getExitingBlock() != Latch)
    return std::nullopt;
  auto *Br = dyn_cast<BranchInst>(Latch->getTerminator());
  if (!Br || !Br->isConditional())
    return std::nullopt;
  auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition());
  if (!Cmp || !Cmp->isEquality() ||
      (Cmp->getPredicate() == ICmpInst::ICMP_EQ) != (Br->getSuccessor(0) == Exit))
    return std::nullopt;
  Value *A = Cmp->getOperand(0), *End = Cmp->getOperand(1);
  if (!L->isLoopInvariant(End))
    std::swap(A, End);
  auto *X = dyn_cast<Instruction>(A);
  if (!X || !L->isLoopInvariant(End) || !L->contains(X) ||
      !X->getType()->isIntegerTy() ||
      X->getType()->getIntegerBitWidth() > 64 || !DT.dominates(X, Br))
    return std::nullopt;
  auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(X));
  if (!AR || AR->getLoop() != L || !AR->isAffine())
    return std::nullopt;
  // x meets end after |end - x| / |step| more iterations: with a step of
  // +-1 in any case (modulo 2^w), else when x cannot wrap.
  auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
  if (!Step || Step->getAPInt().isZero() ||
      Step->getAPInt().abs().getActiveBits() > 16 ||
      (!Step->getAPInt().abs().isOne() && !AR->hasNoSignedWrap() &&
       !AR->hasNoUnsignedWrap()))
    return std::nullopt;
  if (!copyableWithoutChecks(L, IsCallSite))
    return std::nullopt;
  uint64_t K = 0;
  for (BasicBlock *BB : L->blocks())
    for (Instruction &I : *BB) {
      if (!IsAccess(I))
        continue;
      if (!DT.dominates(BB, Latch))
        return std::nullopt;
      ++K;
    }
  if (!K)
    return std::nullopt;
  CleanLoopPlan Plan;
  Plan.Blocks.assign(L->block_begin(), L->block_end());
  Plan.Header = L->getHeader();
  Plan.Latch = Latch;
  Plan.Exit = Exit;
  Plan.X = X;
  Plan.End = End;
  Plan.Down = Step->getAPInt().isNegative();
  Plan.Stride = Step->getAPInt().abs().getZExtValue();
  Plan.K = K;
  return Plan;
}

// A copy of a loop's blocks (their values mapped in VMap) whose memory
// accesses are nosanitize: the pass collects the accesses after this.
static void cloneWithoutChecks(Function &F, ArrayRef<BasicBlock *> Blocks,
                               ValueToValueMapTy &VMap, const Twine &Suffix) {
  SmallVector<BasicBlock *, 8> Copies;
  for (BasicBlock *BB : Blocks) {
    BasicBlock *Copy = CloneBasicBlock(BB, VMap, Suffix, &F);
    VMap[BB] = Copy;
    Copies.push_back(Copy);
  }
  remapInstructionsInBlocks(Copies, VMap);
  for (BasicBlock *BB : Copies)
    for (Instruction &I : *BB)
      if (isa<LoadInst>(I) || isa<StoreInst>(I) || isa<AtomicRMWInst>(I) ||
          isa<AtomicCmpXchgInst>(I))
        markNoSanitize(&I);
}

void CacheFragCountdown::emitCleanLoop(Function &F, const CleanLoopPlan &Plan) {
  BasicBlock *Header = Plan.Header, *Latch = Plan.Latch, *Exit = Plan.Exit;
  auto *Br = cast<BranchInst>(Latch->getTerminator());
  BasicBlock *Dispatch =
      BasicBlock::Create(Ctx, "efsan.clean.dispatch", &F, Latch->getNextNode());
  Br->setSuccessor(Br->getSuccessor(0) == Header ? 0 : 1, Dispatch);
  for (PHINode &P : Header->phis())
    P.replaceIncomingBlockWith(Latch, Dispatch);

  ValueToValueMapTy VMap;
  cloneWithoutChecks(F, Plan.Blocks, VMap, ".clean");
  auto Mapped = [&](Value *V) {
    Value *M = VMap.lookup(V);
    return M ? M : V;
  };
  auto *CleanHeader = cast<BasicBlock>(VMap[Header]);
  auto *CleanLatch = cast<BasicBlock>(VMap[Latch]);

  IRBuilder<> D(Dispatch);
  D.SetCurrentDebugLocation(Br->getDebugLoc());
  Type *XTy = Plan.X->getType();
  Value *Count = loadLocalCountdown(D);
  Value *K = D.getInt64(Plan.K);
  Value *Safe = D.CreateSelect(
      D.CreateICmpSGT(Count, K),
      D.CreateUDiv(D.CreateNSWAdd(Count, D.getInt64(-1)), K), D.getInt64(0));
  Value *Left = Plan.Down ? D.CreateSub(Plan.X, Plan.End)
                          : D.CreateSub(Plan.End, Plan.X);
  if (Plan.Stride != 1)
    Left = D.CreateUDiv(Left, ConstantInt::get(XTy, Plan.Stride));
  Value *N = D.CreateBinaryIntrinsic(Intrinsic::umin, Safe,
                                     D.CreateZExtOrTrunc(Left, Int64Ty));
  Value *NX = D.CreateMul(D.CreateZExtOrTrunc(N, XTy),
                          ConstantInt::get(XTy, Plan.Stride));
  Value *Stop = Plan.Down ? D.CreateSub(Plan.X, NX) : D.CreateAdd(Plan.X, NX);
  D.CreateCondBr(D.CreateICmpNE(N, D.getInt64(0)), CleanHeader, Header);

  // The clean header is entered from the dispatch with the values the
  // instrumented latch leaves, and from its own latch.
  for (PHINode &P : Header->phis()) {
    Value *FromLatch = P.getIncomingValueForBlock(Dispatch);
    auto *Copy = cast<PHINode>(VMap[&P]);
    while (Copy->getNumIncomingValues())
      Copy->removeIncomingValue(Copy->getNumIncomingValues() - 1,
                                /*DeletePHIIfEmpty=*/false);
    Copy->addIncoming(FromLatch, Dispatch);
    Copy->addIncoming(Mapped(FromLatch), CleanLatch);
  }

  BasicBlock *Done = BasicBlock::Create(Ctx, "efsan.clean.done", &F);
  Instruction *OldTerm = CleanLatch->getTerminator();
  IRBuilder<> L(OldTerm);
  L.CreateCondBr(L.CreateICmpEQ(Mapped(Plan.X), Stop), Done, CleanHeader);
  Value *OldCond = cast<BranchInst>(OldTerm)->getCondition();
  OldTerm->eraseFromParent();
  RecursivelyDeleteTriviallyDeadInstructions(OldCond);

  IRBuilder<> E(Done);
  E.SetCurrentDebugLocation(Br->getDebugLoc());
  storeLocalCountdown(
      E, E.CreateSub(loadLocalCountdown(E), E.CreateMul(N, K), "", false, true));
  E.CreateCondBr(E.CreateICmpEQ(Stop, Plan.End), Exit, Header);
  for (PHINode &P : Header->phis())
    P.addIncoming(Mapped(P.getIncomingValueForBlock(Dispatch)), Done);
  for (PHINode &P : Exit->phis())
    P.addIncoming(Mapped(P.getIncomingValueForBlock(Latch)), Done);
}

// A loop that does not qualify for a clean copy because it may leave early
// (a search: `while (n && n->key != key) n = ...`) or its exit test is not
// a count, but whose accesses are all made in every iteration (their blocks
// dominate the latch), pays one count-down and branch per block of accesses
// and iteration (tree_walk's lookup: two, 1.5x the plain loop's time). Its
// exits must leave from such blocks too; then an iteration that leaves by
// an exit has made the accesses of the blocks that dominate the exiting
// block, a constant of the exit. Such a loop gets a copy without
// instrumentation that runs U iterations a round (U = 4 or 2 for a small
// body of loads, else 1, where it needs two blocks of accesses to gain),
// takes the round's accesses off the count at once, and runs while the next
// round cannot run the count out:
//
//   latch:    ... goto dispatch;                 // the back edge
//   dispatch: s = c - U*K;                       // K: accesses an iteration
//             if (s <= 0) goto header;
//   clean:    s = phi(s, s');                     // the count after the round
//             ... U bodies, clean; an exit E of the j-th goes to its stub ...
//             s' = s - U*K; if (s' > 0) goto clean;
//   done:     c = s' + U*K; goto header;
//   stub j,E: c = s + U*K - (j*K + A(E)); goto the exit's block;
//
// (A count of iterations left, (c - 1) / K of them, cost a division at each
// entry and, with the accesses made at an exit (n - left) * K, an induction
// variable loop strength reduction added to every iteration.)
// As with the clean copy, every access is counted once and in order, and
// the count cannot run out inside the copy, so the runtime samples the same
// accesses as before; the instrumented body runs the iterations around each
// sample and the first of each entry.
namespace llvm::efsan {
struct BudgetLoopPlan {
  SmallVector<BasicBlock *, 8> Blocks;
  BasicBlock *Header, *Latch;
  uint64_t K;
  unsigned Unroll; // iterations the copy runs between two subtractions
  struct ExitEdge {
    BasicBlock *From, *To;
    uint64_t Made; // the accesses of an iteration that leaves by it
  };
  SmallVector<ExitEdge, 4> Exits;
};
} // namespace llvm::efsan

static std::optional<BudgetLoopPlan>
planBudgetLoop(Loop *L, DominatorTree &DT,
               function_ref<bool(Instruction &)> IsAccess,
               function_ref<bool(Instruction &)> IsCallSite) {
  BasicBlock *Latch = L->getLoopLatch();
  if (!L->isInnermost() || !Latch || !isa<BranchInst>(Latch->getTerminator()) ||
      !copyableWithoutChecks(L, IsCallSite))
    return std::nullopt;
  SmallVector<std::pair<BasicBlock *, uint64_t>, 8> AccessBlocks;
  uint64_t K = 0, Size = 0;
  bool OnlyPolls = true; // loads of addresses that do not change
  bool Stores = false;
  for (BasicBlock *BB : L->blocks()) {
    uint64_t Here = 0;
    Size += BB->sizeWithoutDebug();
    for (Instruction &I : *BB) {
      if (!IsAccess(I))
        continue;
      ++Here;
      auto *Load = dyn_cast<LoadInst>(&I);
      if (!Load || !L->isLoopInvariant(Load->getPointerOperand()))
        OnlyPolls = false;
      Stores |= !Load;
    }
    if (!Here)
      continue;
    if (!DT.dominates(BB, Latch))
      return std::nullopt;
    AccessBlocks.push_back({BB, Here});
    K += Here;
  }
  // A small body that only loads (a search, a scan) runs several iterations
  // in a row between two subtractions; with one block of accesses and no
  // such rounds the count-down is one decrement an iteration already. (A
  // histogram's loop, which stores, ran 0-5% slower in rounds of two: sort's
  // scans gained 5% in rounds of four.)
  unsigned Unroll = Stores                         ? 1
                    : Size <= ClBudgetUnrollSize     ? 4
                    : Size <= 2 * ClBudgetUnrollSize ? 2
                                                     : 1;
  if (AccessBlocks.empty() || (AccessBlocks.size() < 2 && Unroll < 2))
    return std::nullopt;
  // A loop that only rereads what does not move (`while (ring.head == t)`)
  // waits for another thread: polling faster gains the program nothing,
  // and the runtime tells a wait from its samples by how its polls come
  // (a consumer that polled several times faster had its clock run 3-3.8
  // times its producer's, against 2.2-3 times: test
  // cache-frag/waits-new-values.c).
  if (OnlyPolls)
    return std::nullopt;
  BudgetLoopPlan Plan;
  Plan.Unroll = Unroll;
  SmallVector<Loop::Edge, 4> ExitEdges;
  L->getExitEdges(ExitEdges);
  for (auto [From, To] : ExitEdges) {
    BasicBlock *Exiting = const_cast<BasicBlock *>(From);
    BasicBlock *Exit = const_cast<BasicBlock *>(To);
    if (!DT.dominates(Exiting, Latch) || Exit->isEHPad() ||
        !isa<BranchInst>(Exiting->getTerminator()))
      return std::nullopt;
    uint64_t Made = 0;
    for (auto [BB, N] : AccessBlocks)
      if (DT.dominates(BB, Exiting))
        Made += N;
    Plan.Exits.push_back({Exiting, Exit, Made});
  }
  Plan.Blocks.assign(L->block_begin(), L->block_end());
  Plan.Header = L->getHeader();
  Plan.Latch = Latch;
  Plan.K = K;
  return Plan;
}

void CacheFragCountdown::emitBudgetLoop(Function &F,
                                        const BudgetLoopPlan &Plan) {
  BasicBlock *Header = Plan.Header, *Latch = Plan.Latch;
  Instruction *LatchTerm = Latch->getTerminator();
  DebugLoc DL = LatchTerm->getDebugLoc();
  BasicBlock *Dispatch =
      BasicBlock::Create(Ctx, "efsan.budget.dispatch", &F, Latch->getNextNode());
  LatchTerm->replaceSuccessorWith(Header, Dispatch);
  for (PHINode &P : Header->phis())
    P.replaceIncomingBlockWith(Latch, Dispatch);

  // Copy j runs the iteration after copy j - 1's; the last one's latch
  // goes to the step.
  unsigned U = Plan.Unroll;
  SmallVector<std::unique_ptr<ValueToValueMapTy>, 4> VMaps;
  SmallVector<BasicBlock *, 4> Heads, Latches;
  for (unsigned J = 0; J < U; J++) {
    VMaps.push_back(std::make_unique<ValueToValueMapTy>());
    ValueToValueMapTy &VMap = *VMaps.back();
    cloneWithoutChecks(F, Plan.Blocks, VMap,
                       J ? ".budget" + std::to_string(J) : ".budget");
    Heads.push_back(cast<BasicBlock>(VMap[Header]));
    Latches.push_back(cast<BasicBlock>(VMap[Latch]));
  }
  auto Mapped = [&](unsigned J, Value *V) {
    Value *M = VMaps[J]->lookup(V);
    return M ? M : V;
  };

  IRBuilder<> D(Dispatch);
  D.SetCurrentDebugLocation(DL);
  uint64_t Round = Plan.K * U; // accesses of the copies' U iterations
  Value *R = D.getInt64(Round);
  Value *First = D.CreateSub(loadLocalCountdown(D), R, "efsan.budget");
  D.CreateCondBr(D.CreateICmpSGT(First, D.getInt64(0)), Heads[0], Header);

  BasicBlock *Step = BasicBlock::Create(Ctx, "efsan.budget.step", &F);
  BasicBlock *Done = BasicBlock::Create(Ctx, "efsan.budget.done", &F);
  // The first copy's header is entered from the dispatch with the values
  // the instrumented latch leaves, and from the step with the last copy's;
  // each other copy's from the copy before it.
  for (unsigned J = 0; J < U; J++) {
    Latches[J]->getTerminator()->replaceSuccessorWith(
        Dispatch, J + 1 < U ? Heads[J + 1] : Step);
    for (PHINode &P : Header->phis()) {
      Value *FromLatch = P.getIncomingValueForBlock(Dispatch);
      auto *Copy = cast<PHINode>((*VMaps[J])[&P]);
      while (Copy->getNumIncomingValues())
        Copy->removeIncomingValue(Copy->getNumIncomingValues() - 1,
                                  /*DeletePHIIfEmpty=*/false);
      if (J) {
        Copy->addIncoming(Mapped(J - 1, FromLatch), Latches[J - 1]);
      } else {
        Copy->addIncoming(FromLatch, Dispatch);
        Copy->addIncoming(Mapped(U - 1, FromLatch), Step);
      }
    }
  }
  PHINode *Count = PHINode::Create(Int64Ty, 2, "efsan.budget.count",
                                   Heads[0]->begin());
  // The count passes through an empty asm, so that SCEV sees no induction
  // variable in it: loop strength reduction rewrote the count, its step's
  // test and the exits' sums into two registers updated each round (a
  // `lea`, an `add`, a `test` and a `mov` where a `sub` sets the flags the
  // branch needs).
  IRBuilder<> H(Heads[0], Heads[0]->getFirstNonPHIIt());
  Value *After = H.CreateCall(
      InlineAsm::get(FunctionType::get(Int64Ty, {Int64Ty}, false), "",
                     "=r,0", /*hasSideEffects=*/false),
      {Count}, "efsan.budget.after");
  IRBuilder<> S(Step);
  S.SetCurrentDebugLocation(DL);
  Value *Next = S.CreateSub(After, R, "efsan.budget.next");
  S.CreateCondBr(S.CreateICmpSGT(Next, S.getInt64(0)), Heads[0], Done);
  Count->addIncoming(First, Dispatch);
  Count->addIncoming(Next, Step);

  IRBuilder<> E(Done);
  E.SetCurrentDebugLocation(DL);
  // s' + U * K, not s: s then dies at the step, whose test is then the
  // subtraction's own flags.
  storeLocalCountdown(E, E.CreateAdd(Next, R));
  E.CreateBr(Header);
  for (PHINode &P : Header->phis())
    P.addIncoming(Mapped(U - 1, P.getIncomingValueForBlock(Dispatch)), Done);

  // An exit from copy j leaves the count the round began with, less the
  // accesses of the j iterations before and those its own made before it
  // left.
  for (unsigned J = 0; J < U; J++)
    for (const BudgetLoopPlan::ExitEdge &Edge : Plan.Exits) {
      auto *From = cast<BasicBlock>((*VMaps[J])[Edge.From]);
      BasicBlock *Stub =
          BasicBlock::Create(Ctx, "efsan.budget.exit", &F, Edge.To);
      From->getTerminator()->replaceSuccessorWith(Edge.To, Stub);
      IRBuilder<> X(Stub);
      X.SetCurrentDebugLocation(From->getTerminator()->getDebugLoc());
      uint64_t NotMade = Round - (J * Plan.K + Edge.Made);
      storeLocalCountdown(
          X, NotMade ? X.CreateAdd(After, X.getInt64(NotMade)) : After);
      X.CreateBr(Edge.To);
      for (PHINode &P : Edge.To->phis())
        P.addIncoming(Mapped(J, P.getIncomingValueForBlock(Edge.From)), Stub);
    }
}

bool CacheFragCountdown::versionCleanLoops(
    Function &F, FunctionAnalysisManager *FAM,
    function_ref<bool(Instruction &)> IsAccess,
    function_ref<bool(Instruction &)> IsCallSite) {
  if (!FAM || !ClCleanLoops || F.hasOptNone())
    return false;
  LoopInfo &LI = FAM->getResult<LoopAnalysis>(F);
  if (LI.empty())
    return false;
  ScalarEvolution &SE = FAM->getResult<ScalarEvolutionAnalysis>(F);
  DominatorTree &DT = FAM->getResult<DominatorTreeAnalysis>(F);
  SmallVector<CleanLoopPlan, 4> Plans;
  SmallVector<BudgetLoopPlan, 4> BudgetPlans;
  for (Loop *L : LI.getLoopsInPreorder()) {
    if (std::optional<CleanLoopPlan> Plan =
            planCleanLoop(L, SE, DT, IsAccess, IsCallSite)) {
      // The clean copy's way out joins the loop's at an exit of its own,
      // where the loop's values used after it get their phis.
      if (Plan->Exit->getSinglePredecessor() != Plan->Latch)
        Plan->Exit = SplitEdge(Plan->Latch, Plan->Exit, &DT, &LI);
      formLCSSA(*L, DT, &LI, &SE);
      Plans.push_back(std::move(*Plan));
      continue;
    }
    if (!ClBudgetLoops)
      continue;
    if (std::optional<BudgetLoopPlan> Plan =
            planBudgetLoop(L, DT, IsAccess, IsCallSite)) {
      // The loop's values used after it go through its exits' phis
      // (LCSSA), which get the copy's values from its stubs.
      formLCSSA(*L, DT, &LI, &SE);
      BudgetPlans.push_back(std::move(*Plan));
    }
  }
  if (Plans.empty() && BudgetPlans.empty())
    return false;
  IRBuilder<> IRB(&F.getEntryBlock(), F.getEntryBlock().begin());
  CountdownSlot = IRB.CreateAlloca(Int64Ty, nullptr, "efsan.countdown");
  for (const CleanLoopPlan &Plan : Plans)
    emitCleanLoop(F, Plan);
  for (const BudgetLoopPlan &Plan : BudgetPlans)
    emitBudgetLoop(F, Plan);
  FAM->invalidate(F, PreservedAnalyses::none());
  return true;
}
