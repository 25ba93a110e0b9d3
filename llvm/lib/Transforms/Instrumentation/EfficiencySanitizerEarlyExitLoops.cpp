//===- EfficiencySanitizerEarlyExitLoops.cpp - marks after early exits ----===//
//
// Part of the efsan project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file is a part of EfficiencySanitizer (efsan). It owns the working
// set's marks for innermost loops that may leave early (a scan while a
// condition holds, `while (p < end && islower(*p)) p++`, a compare loop like
// zstd's ZSTD_count): their trip count is unknown before they run, so the
// lines of their affine accesses are marked behind, once the iterations that
// touched them have run: every chunk of iterations and on each exit edge.
// The loops with a known trip count are LoopRangeMarker::markLoopRanges's
// (EfficiencySanitizerLoopRanges.cpp), which marks ahead; the inline range
// mark is shared. docs/Pass.md, "Loops that leave early", explains it.
//
//===----------------------------------------------------------------------===//

#include "EfficiencySanitizerInternal.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/LoopIterator.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;
using namespace llvm::efsan;

static cl::opt<bool> ClLoopEarlyExitMarks(
    "efsan-loop-early-exit-marks",
    cl::desc("working-set: in an innermost loop that may leave early, mark "
             "the lines of its affine accesses (stride at most 64 bytes) "
             "behind, every chunk of iterations and on each exit edge, "
             "instead of a check per access (off: measured, it did not pay "
             "on ph_word_count, sort and zstd, docs/performance.md)"),
    cl::init(false), cl::Hidden);

namespace {
/// An access of a loop that may leave early: its range, and for each exit
/// edge of the loop whether it ran in the iteration that left by that edge.
struct EarlyExitAccess {
  LoopRange Range;
  SmallVector<bool, 4> RanInLastIteration; // per exit edge
};
struct EarlyExitPlan {
  Loop *L;
  SmallVector<std::pair<BasicBlock *, BasicBlock *>, 4> ExitEdges;
  SmallVector<Instruction *, 8> Instructions;
  SmallVector<EarlyExitAccess, 8> Accesses;
};
} // namespace

// Whether every cycle of the innermost loop L goes through its header, so
// that an iteration runs each block at most once (an irreducible cycle in
// the body is no loop of LoopInfo's).
static bool bodyIsAcyclic(Loop *L, LoopInfo &LI) {
  LoopBlocksRPO RPO(L);
  RPO.perform(&LI);
  DenseMap<BasicBlock *, unsigned> Order;
  for (BasicBlock *BB : RPO)
    Order[BB] = Order.size();
  for (BasicBlock *BB : L->blocks())
    for (BasicBlock *Succ : successors(BB))
      if (Succ != L->getHeader() && L->contains(Succ) &&
          Order.lookup(Succ) <= Order.lookup(BB))
        return false;
  return true;
}

// An innermost loop that may leave early (more than one exiting block, or
// a trip count SCEV cannot compute) runs iterations 0 .. i and leaves in
// iteration i by one of its exit edges. Every iteration before i ran each
// block that dominates the latch, and in iteration i such a block ran if it
// dominates the exiting block and did not if the exiting block dominates it
// (an iteration runs a block at most once: the body is acyclic). So an
// access there whose address is affine, {start, +, step} with |step| <= 64,
// touched exactly the lines of its addresses in iterations 0 .. i (or
// 0 .. i - 1), a range the exit edge can mark: no check per iteration. The
// marks come behind the accesses: so that a long loop (a scan of a large
// buffer, a wait) still counts its lines in the sample period in which they
// are touched, the loop counts down a chunk of C iterations (C as for the
// chunks of markLoopRanges: C * |step| <= -efsan-loop-range-limit), and at
// each chunk's end a cold block marks the chunk's lines. Per iteration the
// loop pays the countdown (a decrement, a test and a branch) instead of a
// check per access. What it gives up: the lines an unfinished chunk touched
// are not marked when the loop never reaches the chunk's end or an exit, as
// when another thread ends the process while it runs (at most a chunk of
// one loop's lines); atomic and volatile accesses (waits on a flag) keep
// their checks.
bool LoopRangeMarker::markEarlyExitLoops(Function &F,
                                         AccessDescriber DescribeAccess) {
  if (!FAM || !loopRangeMarksEnabled() || !ClLoopEarlyExitMarks)
    return false;
  LoopInfo &LI = FAM->getResult<LoopAnalysis>(F);
  if (LI.empty())
    return false;
  ScalarEvolution &SE = FAM->getResult<ScalarEvolutionAnalysis>(F);
  DominatorTree &DT = FAM->getResult<DominatorTreeAnalysis>(F);

  // markLoopRanges gave every innermost loop of the function a preheader;
  // the loops without one are its range marks' own.
  SmallVector<EarlyExitPlan, 4> Plans;
  for (Loop *L : LI.getLoopsInPreorder()) {
    if (!L->isInnermost())
      continue;
    BasicBlock *Preheader = L->getLoopPreheader();
    BasicBlock *Latch = L->getLoopLatch();
    if (!Preheader || !Latch ||
        !isa<BranchInst>(Preheader->getTerminator()))
      continue;
    // Two exits at least: a scan that stops at an end or at what it finds
    // (p < end && *p != c, ZSTD_count, a merge). The loops that leave only
    // at the latch after a computable number of iterations are
    // markLoopRanges's; those with a single, data-dependent exit are mostly
    // short probes (a partition's `while (v[i] < pivot) i++`: one or two
    // iterations), for which the marks on the exit cost more than the checks
    // they replace (sort 1.40x -> 1.56x, docs/performance.md).
    SmallVector<BasicBlock *, 4> Exiting;
    L->getExitingBlocks(Exiting);
    if (Exiting.size() < 2)
      continue;
    EarlyExitPlan Plan{L, {}, {}, {}};
    bool Eligible = true;
    for (BasicBlock *BB : Exiting) {
      if (!isa<BranchInst>(BB->getTerminator())) {
        Eligible = false;
        break;
      }
      SmallPtrSet<BasicBlock *, 2> Seen;
      for (BasicBlock *Succ : successors(BB))
        if (!L->contains(Succ)) {
          if (!Seen.insert(Succ).second)
            Eligible = false;
          Plan.ExitEdges.push_back({BB, Succ});
        }
    }
    for (BasicBlock *BB : L->blocks())
      for (Instruction &I : *BB)
        if (!isGuaranteedToTransferExecutionToSuccessor(&I) ||
            isa<InvokeInst>(I) || isa<CallBrInst>(I))
          Eligible = false;
    if (!Eligible || !bodyIsAcyclic(L, LI))
      continue;
    SCEVExpander Probe(SE, DL, "efsan.probe");
    Instruction *Before = Preheader->getTerminator();
    for (BasicBlock *BB : L->blocks()) {
      if (!DT.dominates(BB, Latch))
        continue;
      SmallVector<bool, 4> Ran;
      for (auto &[From, To] : Plan.ExitEdges) {
        if (DT.dominates(BB, From))
          Ran.push_back(true);
        else if (DT.dominates(From, BB))
          Ran.push_back(false);
        else
          break;
      }
      if (Ran.size() != Plan.ExitEdges.size())
        continue;
      for (Instruction &I : *BB) {
        if (I.hasMetadata(LLVMContext::MD_nosanitize))
          continue;
        if (auto *Load = dyn_cast<LoadInst>(&I);
            Load && (Load->isVolatile() || Load->isAtomic()))
          continue;
        if (auto *Store = dyn_cast<StoreInst>(&I);
            Store && (Store->isVolatile() || Store->isAtomic()))
          continue;
        if (!isa<LoadInst>(I) && !isa<StoreInst>(I))
          continue;
        std::optional<LoopRange> Range =
            affineLoopRange(I, L, SE, Probe, Before, DescribeAccess);
        if (!Range)
          continue;
        Plan.Instructions.push_back(&I);
        Plan.Accesses.push_back({*Range, Ran});
      }
    }
    // A scan: some access moves. A loop whose addresses all stay put (its
    // variables in stack slots, as at -O0) keeps its checks, which cost no
    // more than the countdown.
    if (any_of(Plan.Accesses, [](const EarlyExitAccess &Access) {
          return Access.Range.Stride != 0;
        }))
      Plans.push_back(std::move(Plan));
  }
  if (Plans.empty())
    return false;

  // The ranges of a chunk (every access ran in each of its iterations) and,
  // per exit edge, of the accesses that ran in the last iteration and of
  // those that did not; expanded before anything changes.
  struct ExpandedPlan {
    SmallVector<LoopRange, 4> Chunk;
    SmallVector<std::pair<SmallVector<LoopRange, 4>, SmallVector<LoopRange, 4>>,
                4>
        Exits;
    DenseMap<const SCEV *, Value *> Bases;
  };
  SmallVector<ExpandedPlan, 4> Expanded;
  SCEVExpander Expander(SE, DL, "efsan.exit");
  for (EarlyExitPlan &Plan : Plans) {
    ExpandedPlan &E = Expanded.emplace_back();
    E.Exits.resize(Plan.ExitEdges.size());
    for (EarlyExitAccess &Access : Plan.Accesses) {
      addLoopRange(E.Chunk, Access.Range, SE);
      for (unsigned Edge = 0; Edge < Plan.ExitEdges.size(); ++Edge)
        addLoopRange(Access.RanInLastIteration[Edge] ? E.Exits[Edge].first
                                                     : E.Exits[Edge].second,
                     Access.Range, SE);
    }
    Instruction *Before = Plan.L->getLoopPreheader()->getTerminator();
    auto Expand = [&](ArrayRef<LoopRange> Ranges) {
      for (const LoopRange &Range : Ranges)
        if (!E.Bases.count(Range.Base))
          E.Bases[Range.Base] = Expander.expandCodeFor(Range.Base, PtrTy, Before);
    };
    Expand(E.Chunk);
    for (auto &[Ran, NotRan] : E.Exits) {
      Expand(Ran);
      Expand(NotRan);
    }
  }
  Expander.clear();

  for (unsigned P = 0; P < Plans.size(); ++P) {
    EarlyExitPlan &Plan = Plans[P];
    ExpandedPlan &E = Expanded[P];
    Loop *L = Plan.L;
    BasicBlock *Preheader = L->getLoopPreheader();
    BasicBlock *Header = L->getHeader();
    BasicBlock *Latch = L->getLoopLatch();
    uint64_t MaxStride = 1;
    for (const LoopRange &Range : E.Chunk)
      MaxStride = std::max<uint64_t>(MaxStride, std::abs(Range.Stride));
    uint64_t Chunk = chunkIterations(MaxStride);

    // The iteration the chunk started at, in a stack slot (only the cold
    // blocks and the exits read it).
    IRBuilder<> IRB(Ctx);
    IRB.SetInsertPointPastAllocas(&F);
    AllocaInst *FirstSlot =
        IRB.CreateAlloca(Int64Ty, nullptr, "efsan.exit.first.slot");
    IRB.SetInsertPoint(Preheader->getTerminator());
    markNoSanitize(IRB.CreateStore(IRB.getInt64(0), FirstSlot));

    // Lines of iterations [First, Last] of each range, Last >= First.
    auto MarkIterations = [&](Instruction *InsertBefore,
                              ArrayRef<LoopRange> Ranges, Value *First,
                              Value *Last, bool Short) {
      IRBuilder<> B(InsertBefore);
      Value *Count = B.CreateSub(Last, First);
      SmallVector<std::pair<Value *, Value *>, 4> Marks;
      for (const LoopRange &Range : Ranges) {
        Value *Base = E.Bases.lookup(Range.Base);
        Value *Lo = Base;
        Value *Size = B.getInt64(Range.Width);
        if (Range.Stride != 0) {
          Value *Lowest = Range.Stride > 0 ? First : Last;
          Lo = B.CreatePtrAdd(Base,
                              B.CreateMul(Lowest, B.getInt64(Range.Stride)));
          Size = B.CreateAdd(
              B.CreateMul(Count, B.getInt64(std::abs(Range.Stride))), Size);
        }
        Marks.push_back({Lo, Size});
      }
      for (auto &[Lo, Size] : Marks)
        if (Short)
          emitShortRangeMark(InsertBefore, Lo, Size);
        else
          emitRangeMark(InsertBefore, Lo, Size);
    };

    // The countdown: at the top of the header, 0 means the chunk's C
    // iterations have run.
    auto [Body, Mark, Left] =
        splitForCountdown(Header, "efsan.exit.chunk", "efsan.exit.left");
    if (Latch == Header)
      Latch = Body;
    for (auto &[From, To] : Plan.ExitEdges)
      if (From == Header)
        From = Body;
    IRB.SetInsertPoint(Mark);
    LoadInst *ChunkFirst =
        IRB.CreateLoad(Int64Ty, FirstSlot, "efsan.exit.chunk.first");
    markNoSanitize(ChunkFirst);
    Value *NextFirst = IRB.CreateAdd(ChunkFirst, IRB.getInt64(Chunk));
    Value *ChunkLast = IRB.CreateAdd(ChunkFirst, IRB.getInt64(Chunk - 1));
    markNoSanitize(IRB.CreateStore(NextFirst, FirstSlot));
    Instruction *MarkDone = IRB.CreateBr(Body);
    MarkIterations(MarkDone, E.Chunk, ChunkFirst, ChunkLast, false);
    IRB.SetInsertPoint(Body, Body->begin());
    PHINode *LeftHere = IRB.CreatePHI(Int64Ty, 2, "efsan.exit.left.here");
    LeftHere->addIncoming(Left, Header);
    LeftHere->addIncoming(IRB.getInt64(Chunk), MarkDone->getParent());
    IRB.SetInsertPoint(Latch->getTerminator());
    Value *LeftNext =
        IRB.CreateSub(LeftHere, IRB.getInt64(1), "efsan.exit.left.next");
    for (BasicBlock *Pred : predecessors(Header))
      Left->addIncoming(Pred == Latch ? LeftNext
                                      : static_cast<Value *>(IRB.getInt64(Chunk)),
                        Pred);

    // Each exit edge marks the iterations of the unfinished chunk: First to
    // the last (First + C - Left), or to the one before for the accesses
    // that did not run in it.
    for (unsigned Edge = 0; Edge < Plan.ExitEdges.size(); ++Edge) {
      auto [From, To] = Plan.ExitEdges[Edge];
      BasicBlock *OnEdge = SplitEdge(From, To, nullptr, nullptr, nullptr,
                                     From->getName() + ".efsan.exit");
      Instruction *Term = OnEdge->getTerminator();
      IRB.SetInsertPoint(Term);
      LoadInst *First = IRB.CreateLoad(Int64Ty, FirstSlot, "efsan.exit.first");
      markNoSanitize(First);
      Value *Last = IRB.CreateAdd(
          First, IRB.CreateSub(IRB.getInt64(Chunk), LeftHere), "efsan.exit.last");
      auto &[Ran, NotRan] = E.Exits[Edge];
      if (!Ran.empty())
        MarkIterations(Term, Ran, First, Last, true);
      if (NotRan.empty())
        continue;
      IRB.SetInsertPoint(Term);
      Instruction *Then = SplitBlockAndInsertIfThen(
          IRB.CreateICmpUGT(Last, First), Term->getIterator(),
          /*Unreachable=*/false);
      IRB.SetInsertPoint(Then);
      MarkIterations(Then, NotRan, First,
                     IRB.CreateSub(Last, IRB.getInt64(1)), true);
    }
    for (Instruction *I : Plan.Instructions)
      markNoSanitize(I);
  }
  FAM->invalidate(F, PreservedAnalyses::none());
  return true;
}

// A range mark for ranges that are mostly short (a word, a match): when
// the range's lines are at most two and both marked, a load of each shadow
// byte and a test; otherwise the general mark.
void LoopRangeMarker::emitShortRangeMark(Instruction *InsertBefore, Value *Lo,
                                         Value *Size) {
  BasicBlock *Entry = InsertBefore->getParent();
  Function *F = Entry->getParent();
  BasicBlock *Done = Entry->splitBasicBlock(InsertBefore, "efsan.short.done");
  BasicBlock *Test = BasicBlock::Create(Ctx, "efsan.short.test", F, Done);
  BasicBlock *General = BasicBlock::Create(Ctx, "efsan.short.mark", F, Done);
  Entry->getTerminator()->eraseFromParent();
  IRBuilder<> IRB(Entry);
  auto [First, End] = shadowBytesOf(IRB, Lo, Size);
  Value *Last = IRB.CreateSub(End, IRB.getInt64(1));
  IRB.CreateCondBr(IRB.CreateICmpULE(IRB.CreateSub(Last, First),
                                     IRB.getInt64(1)),
                   Test, General);
  IRB.SetInsertPoint(Test);
  LoadInst *FirstByte =
      IRB.CreateAlignedLoad(Int8Ty, IRB.CreateIntToPtr(First, PtrTy), Align(1));
  LoadInst *LastByte =
      IRB.CreateAlignedLoad(Int8Ty, IRB.CreateIntToPtr(Last, PtrTy), Align(1));
  markNoSanitize(FirstByte);
  markNoSanitize(LastByte);
  Value *Marked = IRB.CreateICmpNE(
      IRB.CreateAnd(IRB.CreateAnd(FirstByte, LastByte),
                    IRB.getInt8(kWorkingSetSampledBit)),
      IRB.getInt8(0));
  IRB.CreateCondBr(Marked, Done, General);
  IRB.SetInsertPoint(General);
  Instruction *GeneralDone = IRB.CreateBr(Done);
  emitRangeMark(GeneralDone, Lo, Size);
}
