//===- EfficiencySanitizerLoopRanges.cpp - working-set loop marks ---------===//
//
// Part of the efsan project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file is a part of EfficiencySanitizer (efsan). It owns the working
// set's loop-level marking (LoopRangeMarker): which innermost loops qualify,
// the range plans of their affine accesses and of the small tables they
// index, the versioning of a loop into a copy marked once before it and the
// original marked a chunk of iterations at a time, and the inline code that
// marks a range's lines and tests whether a table's lines are marked.
//
// It does not decide which accesses are instrumented (the pass's
// describeAccess, EfficiencySanitizer.cpp) nor emit the per-access checks
// that remain; it tags the accesses it covers !nosanitize, and the table
// accesses of the copy of a loop body that runs while its tables are
// marked (splitLoopByTables). docs/WorkingSet.md
// explains the resolution this keeps; docs/InstrumentationABI.md the shadow.
//
//===----------------------------------------------------------------------===//

#include "EfficiencySanitizerInternal.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;
using namespace llvm::efsan;

static cl::opt<bool> ClLoopRangeMarks(
    "efsan-loop-range-marks",
    cl::desc("working-set: mark the lines of affine accesses of an innermost "
             "loop (stride at most 64 bytes, run every iteration, computable "
             "trip count) once before the loop, in a copy of the loop without "
             "their checks, when each range is at most "
             "-efsan-loop-range-limit bytes"),
    cl::init(true), cl::Hidden);

static cl::opt<uint64_t> ClLoopRangeLimit(
    "efsan-loop-range-limit",
    cl::desc("working-set: the largest range (bytes) one loop-level mark may "
             "cover; larger ranges keep the per-access checks, so that lines "
             "are marked in the sample period in which they are touched"),
    cl::init(256 * 1024), cl::Hidden);

static cl::opt<uint64_t> ClLoopTableLimit(
    "efsan-loop-table-limit",
    cl::desc("working-set: in a loop marked by ranges, an access at a "
             "data-dependent address inside a loop-invariant region of at "
             "most this many bytes (a table indexed by a byte) skips its "
             "check while every line of the region is marked, tested once "
             "per loop or chunk; 0 turns this off"),
    cl::init(4096), cl::Hidden);

static cl::opt<unsigned> ClLoopTableCounts(
    "efsan-loop-table-counts",
    cl::desc("working-set: a loop with at most this many tables gets a copy "
             "per table that counts, in a register, its accesses to the one "
             "line the miss-ratio curves observe there while every other "
             "line of the tables is marked; 0 turns this off"),
    cl::init(4), cl::Hidden);

bool llvm::efsan::loopRangeMarksEnabled() { return ClLoopRangeMarks; }

// A loop marked whole tests its tables only when it runs at least this many
// iterations (backedge-taken count), enough to repay the test.
static constexpr uint64_t kTableMinCount = 64;

LoopRangeMarker::LoopRangeMarker(Module &M, FunctionAnalysisManager *FAM)
    : ModuleContext(M), FAM(FAM) {}


// From llvm/Transforms/Utils/LoopUtils.h, whose llvm::MemoryAccess (MemorySSA)
// would clash with this file's.
namespace llvm {
class MemorySSAUpdater;
BasicBlock *InsertPreheaderForLoop(Loop *L, DominatorTree *DT, LoopInfo *LI,
                                   MemorySSAUpdater *MSSAU,
                                   bool PreserveLCSSA);
} // namespace llvm

namespace llvm {
namespace efsan {
/// Bytes [Lo, Lo + Size) that contain every address of an access, whatever
/// the loop does (a table indexed by a byte).
struct LoopTable {
  const SCEV *Lo; // pointer, loop-invariant
  uint64_t Size;
};
struct LoopRangePlan {
  Loop *L;
  const SCEV *Count; // backedge-taken count n, i64
  SmallVector<Instruction *, 8> Accesses; // checked by the ranges instead
  SmallVector<LoopRange, 4> Ranges;
  SmallVector<Instruction *, 4> TableAccesses; // checked unless tables marked
  SmallVector<unsigned, 4> TableOf;            // each one's index in Tables
  SmallVector<LoopTable, 2> Tables;
};
/// The counting loops of a loop's tables (splitLoopByTables), in stack
/// slots: the table whose loop runs (-1: none), the observed line's address,
/// and the accesses to it counted since the last flush (each counting loop
/// counts in a register of its own and adds to it as it leaves). In
/// registers, the three values would live through every copy of the loop: a
/// loop whose tables are never all marked (ph_histogram) ran its checked
/// copy 12% slower, reloading its tables' addresses from the stack.
struct TableCounting {
  SmallVector<bool, 4> Countable; // per table: plain loads and stores that
                                  // cannot straddle two lines
  AllocaInst *Which, *Line, *Count;
};
/// A LoopRange expanded before the loop: Lo and Size cover all n + 1
/// iterations.
struct ExpandedRange {
  Value *Base;
  int64_t Stride;
  int64_t Width;
  Value *Lo;
  Value *Size;
};
} // namespace efsan
} // namespace llvm

// The range of an access of loop L whose address is loop-invariant or
// affine with a step of at most a line, of at most a line itself, and whose
// start can be expanded before Before; none otherwise.
std::optional<LoopRange>
llvm::efsan::affineLoopRange(Instruction &I, Loop *L, ScalarEvolution &SE,
                             SCEVExpander &Probe, Instruction *Before,
                             AccessDescriber DescribeAccess) {
  constexpr int64_t LineSize = int64_t(1) << kShadowScale;
  std::optional<MemoryAccess> Access = DescribeAccess(I);
  if (!Access || Access->Size > uint64_t(LineSize))
    return std::nullopt;
  const SCEV *Addr = SE.getSCEV(Access->Addr);
  LoopRange Range{Addr, 0, int64_t(Access->Size)};
  if (!SE.isLoopInvariant(Addr, L)) {
    auto *AR = dyn_cast<SCEVAddRecExpr>(Addr);
    if (!AR || AR->getLoop() != L || !AR->isAffine())
      return std::nullopt;
    auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
    if (!Step || Step->getAPInt().getSignificantBits() > 8)
      return std::nullopt;
    Range.Stride = Step->getAPInt().getSExtValue();
    if (Range.Stride > LineSize || Range.Stride < -LineSize)
      return std::nullopt;
    Range.Base = AR->getStart();
  }
  if (!Probe.isSafeToExpandAt(Range.Base, Before))
    return std::nullopt;
  return Range;
}

// Adds Range to Ranges, merged into one of the same stride whose base is at
// most a line away: in any run of iterations the gap between the two is
// shorter than a line, so the merged range holds no untouched line.
void llvm::efsan::addLoopRange(SmallVectorImpl<LoopRange> &Ranges,
                               LoopRange Range, ScalarEvolution &SE) {
  constexpr int64_t LineSize = int64_t(1) << kShadowScale;
  for (LoopRange &Other : Ranges) {
    if (Other.Stride != Range.Stride)
      continue;
    auto *BaseDiff =
        dyn_cast<SCEVConstant>(SE.getMinusSCEV(Range.Base, Other.Base));
    if (!BaseDiff || BaseDiff->getAPInt().getSignificantBits() > 16)
      continue;
    int64_t Lo = BaseDiff->getAPInt().getSExtValue(); // from Other.Base
    if (Lo > LineSize || Lo < -LineSize)
      continue;
    int64_t Hi = std::max(Other.Width, Lo + Range.Width);
    if (Lo < 0)
      Other.Base = Range.Base;
    Other.Width = Hi - std::min<int64_t>(Lo, 0);
    return;
  }
  Ranges.push_back(Range);
}

// Loop-level marking (working set). An innermost loop whose only exit is at
// its latch, with a computable backedge-taken count n and no instruction that
// may not pass control on (a call that may not return or may throw), runs
// every block that dominates the latch exactly n + 1 times once entered. An
// access there whose address is affine in the loop, {start, +, step} with
// |step| <= 64, touches every line between its first and last address: no
// two consecutive addresses are more than a line apart. So the lines of
//   [start, start + step * n + size)        (step >= 0)
//   [start + step * n, start + size)        (step < 0)
// are exactly the lines it touches, and one mark of that range before the
// loop replaces its check in every iteration. Accesses with the same step
// whose starts are at most a line apart (a[i] and a[i + 1]) merge into one
// range: in any run of iterations the gap between them is shorter than a
// line, so it holds no untouched line.
//
// A range marked before the loop counts its lines in the sample period in
// which the loop starts. So that snapshots keep their resolution, the loop is
// versioned: before it, a check that every range is at most
// -efsan-loop-range-limit bytes picks a copy of the loop that marks the
// ranges in its preheader and has no checks for those accesses. Otherwise the
// original loop runs, marked in chunks of C iterations (C a power of two,
// C * max |step| <= the limit): it counts its iterations i, and when
// i % C == 0 a cold block marks the lines that iterations [i, i + k) touch,
// k = min(C, n + 1 - i). Those iterations all run, so the lines are exactly
// the ones touched, each marked at most a chunk (the limit's bytes) ahead of
// its accesses, which have no checks in that copy either.
bool LoopRangeMarker::markLoopRanges(Function &F,
                                     AccessDescriber DescribeAccess) {
  if (!FAM || !ClLoopRangeMarks)
    return false;
  LoopInfo &LI = FAM->getResult<LoopAnalysis>(F);
  if (LI.empty())
    return false;
  ScalarEvolution &SE = FAM->getResult<ScalarEvolutionAnalysis>(F);
  DominatorTree &DT = FAM->getResult<DominatorTreeAnalysis>(F);

  // A loop entered from a block that also branches elsewhere (the usual
  // guard of a rotated loop at the end of the pipeline) gets a preheader.
  bool Changed = false;
  for (Loop *L : LI.getLoopsInPreorder())
    if (L->isInnermost() && !L->getLoopPreheader() &&
        InsertPreheaderForLoop(L, &DT, &LI, nullptr, false))
      Changed = true;

  SmallVector<LoopRangePlan, 4> Plans;
  for (Loop *L : LI.getLoopsInPreorder()) {
    if (!L->isInnermost())
      continue;
    BasicBlock *Preheader = L->getLoopPreheader();
    BasicBlock *Latch = L->getLoopLatch();
    BasicBlock *Exit = L->getExitBlock();
    if (!Preheader || !Latch || !Exit || L->getExitingBlock() != Latch ||
        !isa<BranchInst>(Preheader->getTerminator()) ||
        Latch->getTerminator()->getNumSuccessors() != 2)
      continue;
    // Values of the loop used after it other than by the exit's phis get a
    // new phi in the exit, which needs the exit to be entered from the loop
    // only.
    if (!Exit->getSinglePredecessor() &&
        any_of(L->blocks(), [&](BasicBlock *BB) {
          return any_of(*BB, [&](Instruction &I) {
            return any_of(I.users(), [&](User *U) {
              auto *UI = cast<Instruction>(U);
              return !L->contains(UI->getParent()) &&
                     !(isa<PHINode>(UI) && UI->getParent() == Exit);
            });
          });
        }))
      continue;
    const SCEV *Count = SE.getBackedgeTakenCount(L);
    if (isa<SCEVCouldNotCompute>(Count) || !Count->getType()->isIntegerTy() ||
        Count->getType()->getIntegerBitWidth() > 64)
      continue;
    Count = SE.getNoopOrZeroExtend(Count, Int64Ty);
    bool Eligible = true;
    for (BasicBlock *BB : L->blocks()) {
      for (Instruction &I : *BB)
        if (!isGuaranteedToTransferExecutionToSuccessor(&I) ||
            isa<InvokeInst>(I) || isa<CallBrInst>(I)) {
          Eligible = false;
          break;
        }
      if (!Eligible)
        break;
    }
    if (!Eligible)
      continue;
    SCEVExpander Probe(SE, DL, "efsan.probe");
    Instruction *Before = Preheader->getTerminator();
    if (!Probe.isSafeToExpandAt(Count, Before))
      continue;
    LoopRangePlan Plan{L, Count, {}, {}};
    for (BasicBlock *BB : L->blocks()) {
      if (!DT.dominates(BB, Latch))
        continue;
      for (Instruction &I : *BB) {
        if (I.hasMetadata(LLVMContext::MD_nosanitize))
          continue;
        std::optional<LoopRange> Range =
            affineLoopRange(I, L, SE, Probe, Before, DescribeAccess);
        if (!Range)
          continue;
        Plan.Accesses.push_back(&I);
        addLoopRange(Plan.Ranges, *Range, SE);
      }
    }
    if (!Plan.Accesses.empty()) {
      findLoopTables(Plan, SE, Probe, Before, DescribeAccess);
      Plans.push_back(std::move(Plan));
    }
  }
  if (Plans.empty()) {
    if (Changed)
      FAM->invalidate(F, PreservedAnalyses::none());
    return Changed;
  }

  // Expand every plan's ranges before any loop is copied (SCEV's view of the
  // function stays what it was).
  SCEVExpander Expander(SE, DL, "efsan.range");
  SmallVector<SmallVector<ExpandedRange, 4>, 4> Expanded;
  SmallVector<BasicBlock *, 4> MarkedPreheaders;
  SmallVector<Value *, 4> Conditions;
  // Backedge-taken counts of the original loops that may run (null: the
  // ranges always fit).
  SmallVector<Value *, 4> ChunkedCounts;
  SmallVector<SmallVector<std::pair<Value *, uint64_t>, 2>, 4> ExpandedTables;
  SmallVector<Value *, 4> Counts;
  for (LoopRangePlan &Plan : Plans) {
    Instruction *Before = Plan.L->getLoopPreheader()->getTerminator();
    IRBuilder<> IRB(Before);
    Value *Fits = nullptr;
    Expanded.emplace_back();
    for (LoopRange &Range : Plan.Ranges) {
      const SCEV *Span = SE.getMulExpr(
          SE.getConstant(Int64Ty, std::abs(Range.Stride)), Plan.Count);
      const SCEV *Lo =
          Range.Stride >= 0
              ? Range.Base
              : SE.getAddExpr(Range.Base, SE.getNegativeSCEV(Span));
      const SCEV *Size =
          SE.getAddExpr(Span, SE.getConstant(Int64Ty, Range.Width));
      Value *LoValue = Expander.expandCodeFor(Lo, PtrTy, Before);
      Value *SizeValue = Expander.expandCodeFor(Size, Int64Ty, Before);
      IRB.SetInsertPoint(Before);
      Value *RangeFits =
          IRB.CreateICmpULE(SizeValue, IRB.getInt64(ClLoopRangeLimit));
      Fits = Fits ? IRB.CreateAnd(Fits, RangeFits) : RangeFits;
      Expanded.back().push_back(
          {nullptr, Range.Stride, Range.Width, LoValue, SizeValue});
    }
    // At most as many iterations as the limit has bytes, too: a range that
    // does not move (a loop-invariant address) is touched in every
    // iteration, so a long loop must mark it again chunk by chunk, as one
    // whose range moves by a byte per iteration would (it fitted whatever
    // the trip count, and was marked once before a loop that may run for
    // many sample periods).
    Value *Count = Expander.expandCodeFor(Plan.Count, Int64Ty, Before);
    IRB.SetInsertPoint(Before);
    Fits = IRB.CreateAnd(Fits,
                         IRB.CreateICmpULT(Count, IRB.getInt64(ClLoopRangeLimit)));
    Conditions.push_back(Fits);
    Counts.push_back(Count);
    ExpandedTables.emplace_back();
    for (LoopTable &Table : Plan.Tables)
      ExpandedTables.back().push_back(
          {Expander.expandCodeFor(Table.Lo, PtrTy, Before), Table.Size});
    if (auto *Always = dyn_cast<ConstantInt>(Fits); Always && Always->isOne()) {
      ChunkedCounts.push_back(nullptr);
      continue;
    }
    for (unsigned R = 0; R < Plan.Ranges.size(); ++R)
      Expanded.back()[R].Base =
          Expander.expandCodeFor(Plan.Ranges[R].Base, PtrTy, Before);
    ChunkedCounts.push_back(Count);
  }
  Expander.clear();
  SmallVector<std::pair<BasicBlock *, BasicBlock *>, 4> ChunkedLoops;
  SmallVector<SmallVector<BasicBlock *, 8>, 4> ChunkedLoopBlocks;
  // The copy marked whole of each loop, for its tables.
  struct MarkedLoop {
    BasicBlock *Header, *Latch;
    SmallVector<BasicBlock *, 8> Blocks;
    SmallVector<Instruction *, 4> TableAccesses;
  };
  SmallVector<MarkedLoop, 4> MarkedLoops;
  SmallVector<BasicBlock *, 4> Exits;

  for (unsigned P = 0; P < Plans.size(); ++P) {
    Loop *L = Plans[P].L;
    BasicBlock *Check = L->getLoopPreheader();
    BasicBlock *Latch = L->getLoopLatch();
    ChunkedLoops.push_back({L->getHeader(), Latch});
    ChunkedLoopBlocks.emplace_back(L->blocks());
    BasicBlock *Exit = L->getExitBlock();
    Exits.push_back(Exit);
    BasicBlock *Preheader =
        SplitBlock(Check, Check->getTerminator(), &DT, &LI, nullptr,
                   L->getHeader()->getName() + ".ph");
    ValueToValueMapTy VMap;
    SmallVector<BasicBlock *, 8> Blocks;
    Loop *Marked = cloneLoopWithPreheader(Preheader, Check, L, VMap,
                                          ".efsan.marked", &LI, &DT, Blocks);
    remapInstructionsInBlocks(Blocks, VMap);
    Instruction *OldTerm = Check->getTerminator();
    BranchInst::Create(Marked->getLoopPreheader(), Preheader, Conditions[P],
                       OldTerm->getIterator());
    OldTerm->eraseFromParent();
    DT.changeImmediateDominator(Exit, Check);
    // The exit is now reached from both copies: its phis get the copy's
    // values, and values of the loop used further on go through new phis.
    auto *MarkedLatch = cast<BasicBlock>(VMap[Latch]);
    for (PHINode &PN : Exit->phis()) {
      Value *V = PN.getIncomingValueForBlock(Latch);
      auto It = VMap.find(V);
      PN.addIncoming(It != VMap.end() ? static_cast<Value *>(It->second) : V,
                     MarkedLatch);
    }
    for (BasicBlock *BB : L->blocks())
      for (Instruction &I : *BB) {
        SmallVector<Use *, 4> Outside;
        for (Use &U : I.uses()) {
          auto *User = cast<Instruction>(U.getUser());
          if (L->contains(User->getParent()) ||
              (isa<PHINode>(User) && User->getParent() == Exit))
            continue;
          if (auto *Cloned = dyn_cast<Instruction>(U.getUser());
              Cloned && Marked->contains(Cloned->getParent()))
            continue;
          Outside.push_back(&U);
        }
        if (Outside.empty())
          continue;
        PHINode *PN = PHINode::Create(I.getType(), 2, I.getName() + ".efsan",
                                      Exit->begin());
        PN->addIncoming(&I, Latch);
        PN->addIncoming(VMap[&I], MarkedLatch);
        for (Use *U : Outside)
          U->set(PN);
      }
    // The copy marks the ranges once and does without the checks.
    MarkedPreheaders.push_back(Marked->getLoopPreheader());
    for (Instruction *I : Plans[P].Accesses)
      markNoSanitize(cast<Instruction>(VMap[I]));
    MarkedLoops.push_back({Marked->getHeader(), Marked->getLoopLatch(),
                           SmallVector<BasicBlock *, 8>(Marked->blocks()),
                           {}});
    for (Instruction *I : Plans[P].TableAccesses)
      MarkedLoops.back().TableAccesses.push_back(cast<Instruction>(VMap[I]));
  }
  // Last, as they add blocks that the loop and dominator trees do not know.
  for (unsigned P = 0; P < Plans.size(); ++P) {
    Instruction *IntoMarked = MarkedPreheaders[P]->getTerminator();
    std::optional<TableCounting> Counting;
    if (!ExpandedTables[P].empty() &&
        ExpandedTables[P].size() <= ClLoopTableCounts)
      Counting = planTableCounting(F, Plans[P]);
    const TableCounting *Counted = Counting ? &*Counting : nullptr;
    if (Counting) {
      // The loop leaves only through its exit block: the accesses counted in
      // its last chunk (or its whole run) are logged there.
      emitTableFlush(&*Exits[P]->getFirstInsertionPt(), *Counting);
    }
    for (ExpandedRange &Range : Expanded[P])
      emitRangeMark(MarkedPreheaders[P]->getTerminator(), Range.Lo,
                    Range.Size);
    if (!ExpandedTables[P].empty()) {
      // Only a loop of enough iterations repays the test (a few words of
      // shadow per table) with the checks it may skip.
      IRBuilder<> IRB(IntoMarked);
      Value *Long = IRB.CreateICmpUGE(Counts[P], IRB.getInt64(kTableMinCount));
      Value *Marked =
          emitTablesMarkedTest(IntoMarked, ExpandedTables[P], Long, Counted);
      MarkedLoop &Loop = MarkedLoops[P];
      splitLoopByTables(Loop.Header, Loop.Header, Loop.Latch, Loop.Blocks,
                        Marked, Loop.TableAccesses, Plans[P].TableOf, Counted,
                        IntoMarked, nullptr);
    }
    if (!ChunkedCounts[P])
      continue;
    for (Instruction *I : Plans[P].Accesses)
      markNoSanitize(I);
    auto [Header, Latch] = ChunkedLoops[P];
    PHINode *Left = nullptr;
    if (PHINode *Marked = emitChunkMarks(Header, Latch, ChunkedCounts[P],
                                         Expanded[P], ExpandedTables[P],
                                         Counted, Left))
      // The body's top, after the chunk marks, chooses; the header stays
      // the countdown's.
      splitLoopByTables(Header, Marked->getParent(),
                        Latch == Header ? Marked->getParent() : Latch,
                        ChunkedLoopBlocks[P], Marked,
                        Plans[P].TableAccesses, Plans[P].TableOf, Counted,
                        Marked->getIncomingBlock(1)->getTerminator(), Left);
  }
  // The counting loops' own counts become registers of those loops.
  if (!LocalCounts.empty()) {
    DominatorTree Fresh(F);
    PromoteMemToReg(LocalCounts, Fresh);
    LocalCounts.clear();
  }
  FAM->invalidate(F, PreservedAnalyses::none());
  return true;
}

// The original loop of a versioned one (its ranges are larger than the
// limit) marks its ranges a chunk of C iterations at a time (see
// markLoopRanges). Per iteration it counts down the iterations left in the
// chunk: a decrement, a test and a not-taken branch. At 0 a cold block marks,
// for each range, the lines that the chunk's iterations i to
// i + min(C - 1, n - i) touch and restarts the count. The countdown is no
// induction variable SCEV can see, so loop strength reduction does not turn
// the cold block's address arithmetic into induction variables updated in
// every iteration; and i, which only the cold block uses, lives in a stack
// slot, so that the loop carries no copy of it from register to register.
PHINode *LoopRangeMarker::emitChunkMarks(
    BasicBlock *Header, BasicBlock *Latch, Value *Count,
    ArrayRef<ExpandedRange> Ranges,
    ArrayRef<std::pair<Value *, uint64_t>> Tables,
    const TableCounting *Counting, PHINode *&LeftOut) {
  uint64_t MaxStride = 1;
  for (const ExpandedRange &Range : Ranges)
    MaxStride = std::max<uint64_t>(MaxStride, std::abs(Range.Stride));
  uint64_t Chunk = chunkIterations(MaxStride);

  Function &F = *Header->getParent();
  IRBuilder<> IRB(Ctx);
  IRB.SetInsertPointPastAllocas(&F);
  AllocaInst *FirstSlot =
      IRB.CreateAlloca(Int64Ty, nullptr, "efsan.chunk.first.slot");
  auto [Body, Mark, Left] =
      splitForCountdown(Header, "efsan.chunk.mark", "efsan.chunk.left");
  LeftOut = Left;
  if (Latch == Header)
    Latch = Body;

  // The chunk's last iteration is First + Ahead.
  IRB.SetInsertPoint(Mark);
  LoadInst *First = IRB.CreateLoad(Int64Ty, FirstSlot, "efsan.chunk.first");
  markNoSanitize(First);
  markNoSanitize(IRB.CreateStore(IRB.CreateAdd(First, IRB.getInt64(Chunk)),
                                 FirstSlot));
  Value *Ahead = IRB.CreateBinaryIntrinsic(
      Intrinsic::umin, IRB.CreateSub(Count, First), IRB.getInt64(Chunk - 1));
  Instruction *Done = IRB.CreateBr(Body);
  IRB.SetInsertPoint(Done);
  SmallVector<std::pair<Value *, Value *>, 4> ChunkRanges;
  for (const ExpandedRange &Range : Ranges) {
    Value *Lo = Range.Base;
    Value *Size = IRB.getInt64(Range.Width);
    if (Range.Stride != 0) {
      Value *Lowest = Range.Stride > 0 ? First : IRB.CreateAdd(First, Ahead);
      Lo = IRB.CreatePtrAdd(Range.Base,
                            IRB.CreateMul(Lowest, IRB.getInt64(Range.Stride)));
      Size = IRB.CreateAdd(
          IRB.CreateMul(Ahead, IRB.getInt64(std::abs(Range.Stride))), Size);
    }
    ChunkRanges.push_back({Lo, Size});
  }
  // The last chunk's count of an observed line is logged before the marks
  // of this chunk record its observed lines.
  if (Counting)
    emitTableFlush(Done, *Counting);
  for (auto &[Lo, Size] : ChunkRanges)
    emitRangeMark(Done, Lo, Size);
  // Whether the loop's tables are all marked, tested again at each chunk.
  Value *TablesMarked =
      Tables.empty() ? nullptr
                     : emitTablesMarkedTest(Done, Tables, nullptr, Counting);

  IRB.SetInsertPoint(Body, Body->begin());
  PHINode *LeftHere = IRB.CreatePHI(Int64Ty, 2, "efsan.chunk.left.here");
  LeftHere->addIncoming(Left, Header);
  LeftHere->addIncoming(IRB.getInt64(Chunk), Done->getParent());
  PHINode *MarkedHere = nullptr, *MarkedBefore = nullptr;
  if (TablesMarked) {
    MarkedHere = IRB.CreatePHI(IRB.getInt1Ty(), 2, "efsan.tables.marked");
    IRB.SetInsertPoint(Header, Header->getFirstNonPHIIt());
    MarkedBefore =
        IRB.CreatePHI(IRB.getInt1Ty(), 2, "efsan.tables.marked.before");
    MarkedHere->addIncoming(MarkedBefore, Header);
    MarkedHere->addIncoming(TablesMarked, Done->getParent());
  }
  IRB.SetInsertPoint(Latch->getTerminator());
  Value *LeftNext =
      IRB.CreateSub(LeftHere, IRB.getInt64(1), "efsan.chunk.left.next");
  for (BasicBlock *Pred : predecessors(Header)) {
    if (MarkedBefore)
      MarkedBefore->addIncoming(Pred == Latch ? static_cast<Value *>(MarkedHere)
                                              : IRB.getFalse(),
                                Pred);
    if (Pred == Latch) {
      Left->addIncoming(LeftNext, Pred);
      continue;
    }
    Left->addIncoming(IRB.getInt64(0), Pred);
    IRB.SetInsertPoint(Pred->getTerminator());
    markNoSanitize(IRB.CreateStore(IRB.getInt64(0), FirstSlot));
  }
  return MarkedHere;
}

// A loop with tables runs its body in one of two copies, chosen at the top
// of every iteration (at Top, after its phis) by TablesMarked: the original,
// whose table accesses keep their checks, and a copy whose table accesses
// have none. In the copy marked whole TablesMarked is the test before the
// loop and Top its header; in the chunked loop it is the flag of the last
// chunk's test, a phi of the block after the header's countdown. One
// predictable branch per iteration instead of a test per table access, and
// the checked copy is laid out as if there were no tables: with a guard per
// access, a loop whose tables are never all marked (a histogram whose pixels
// never reach some bins, so some lines of each table are never touched) paid
// the guard and an out-of-line check with two taken branches on every access
// (ph_histogram 2.48x, against 1.67x with tables off). The other accesses
// keep their checks in both copies (the pass collects the copy's accesses
// after this). The loop leaves only at its latch (a plan's condition), so
// the copy's latch joins the original's in the phis of the latch's
// successors, the header and the exit; every use of a loop value outside the
// loop is an exit phi already (the versioning made them).
//
// With Counting, a loop whose tables hold one line the miss-ratio curves
// observe (it never gets bit 0) while every other line is marked runs, for the
// chunk (or the whole loop marked whole), a loop of its own chosen at
// ChunkStart (the chunk's marks, or before the loop marked whole): a copy per
// table, whose accesses have no check and whose accesses to that table count
// the ones to the observed line (an xor, a compare and an add with carry, in a
// register of that loop). Its header counts the chunk down as the original does
// and goes back to the original header (Left = 0: the chunk's marks) when it
// ends. The count is logged at each chunk's marks and at the loop's exit
// (emitTableFlush): each of those accesses recorded, in a batch. The checked
// copy would take its cold block at each of them, in an order the branch
// predictor cannot follow when the table is indexed by data (mt_histogram with
// a line of a histogram observed: 25-30 ns an access). Loops of their own, not
// a third copy chosen in every iteration: on a VM whose loops ran as fast as
// they issued instructions, one compare more per iteration made ph_histogram's
// checked copy 10% slower, and the copies chosen side by side had their common
// tails merged by the code generator into jumps between them (mt_histogram's
// copy without checks 60% slower).
void LoopRangeMarker::splitLoopByTables(BasicBlock *Header, BasicBlock *Top,
                                        BasicBlock *Latch,
                                        ArrayRef<BasicBlock *> LoopBlocks,
                                        Value *TablesMarked,
                                        ArrayRef<Instruction *> TableAccesses,
                                        ArrayRef<unsigned> TableOf,
                                        const TableCounting *Counting,
                                        Instruction *ChunkStart,
                                        PHINode *Left) {
  BasicBlock *Checked = Top->splitBasicBlock(
      Top->getFirstNonPHIIt(), Header->getName() + ".efsan.checked");
  if (Latch == Top)
    Latch = Checked;
  SmallVector<BasicBlock *, 8> Originals{Checked};
  for (BasicBlock *BB : LoopBlocks)
    if (BB != Header && BB != Top)
      Originals.push_back(BB);
  Function &F = *Header->getParent();
  // Copies Originals with VMap (which may map values to use in their
  // place); the table accesses lose their checks, and those of table
  // CountedTable (if any) count the observed line's.
  auto CopyBody = [&](ValueToValueMapTy &VMap, const Twine &Suffix,
                      std::optional<unsigned> CountedTable,
                      AllocaInst *CountInto) {
    SmallVector<BasicBlock *, 8> Copies;
    for (BasicBlock *BB : Originals) {
      BasicBlock *Copy = CloneBasicBlock(BB, VMap, Suffix, &F);
      VMap[BB] = Copy;
      Copies.push_back(Copy);
    }
    Copies.front()->setName(Header->getName() + Suffix);
    remapInstructionsInBlocks(Copies, VMap);
    // An access at the address of one before it in its block is not
    // counted: the checked copy checks such a pair (x++'s load and store)
    // once, and the copies count what it would record.
    SmallPtrSet<Value *, 8> Counted;
    BasicBlock *CountedIn = nullptr;
    for (unsigned K = 0; K < TableAccesses.size(); ++K) {
      auto *I = cast<Instruction>(VMap[TableAccesses[K]]);
      markNoSanitize(I);
      if (!CountedTable || TableOf[K] != *CountedTable)
        continue;
      if (I->getParent() != CountedIn) {
        Counted.clear();
        CountedIn = I->getParent();
      }
      if (Counted.insert(getLoadStorePointerOperand(I)).second)
        emitTableCount(I, *Counting, CountInto);
    }
    return Copies.front();
  };
  auto Mapped = [](ValueToValueMapTy &VMap, Value *V) {
    auto It = VMap.find(V);
    return It != VMap.end() ? static_cast<Value *>(It->second) : V;
  };

  ValueToValueMapTy UncheckedMap;
  BasicBlock *Unchecked =
      CopyBody(UncheckedMap, ".efsan.tables", std::nullopt, nullptr);
  auto *UncheckedLatch = cast<BasicBlock>(UncheckedMap[Latch]);
  for (BasicBlock *Succ : successors(Latch))
    for (PHINode &PN : Succ->phis())
      PN.addIncoming(Mapped(UncheckedMap, PN.getIncomingValueForBlock(Latch)),
                     UncheckedLatch);
  Top->getTerminator()->eraseFromParent();
  BranchInst::Create(Unchecked, Checked, TablesMarked, Top);
  if (!Counting)
    return;

  // The phis the body starts from: the header's, and Top's (the chunked
  // loop's count and flag) when Top is another block.
  SmallVector<PHINode *, 8> Entries;
  for (PHINode &PN : Header->phis())
    Entries.push_back(&PN);
  if (Top != Header)
    for (PHINode &PN : Top->phis())
      Entries.push_back(&PN);
  BasicBlock *StartBlock = ChunkStart->getParent();
  BasicBlock *Body = ChunkStart->getSuccessor(0);
  BasicBlock *PickCount = BasicBlock::Create(
      Ctx, Header->getName() + ".efsan.pick.count", &F, Checked);
  IRBuilder<> IRB(ChunkStart);
  LoadInst *Which = IRB.CreateLoad(Int32Ty, Counting->Which);
  markNoSanitize(Which);
  IRB.CreateCondBr(IRB.CreateICmpSLT(Which, IRB.getInt32(0)), Body,
                   PickCount);
  ChunkStart->eraseFromParent();
  IRB.SetInsertPoint(PickCount);
  SmallVector<std::pair<unsigned, BasicBlock *>, 4> CountEntries;
  for (unsigned T = 0; T < Counting->Countable.size(); ++T) {
    if (!Counting->Countable[T])
      continue;
    std::string Suffix = (".efsan.count" + Twine(T)).str();
    // The copy's entry: each of Entries as the chunk starts (its value on
    // the edge from StartBlock, or the header's phi itself, which dominates
    // the chunk's marks) or as the copy's own header carries it around.
    BasicBlock *Entry =
        BasicBlock::Create(Ctx, Header->getName() + Suffix + ".entry", &F,
                           Checked);
    // The loop counts into a slot of its own, which becomes a register of
    // this loop only (promoted once the function is done, LocalCounts), and
    // adds it to the shared count as it leaves.
    IRBuilder<> AllocaIRB(Ctx);
    AllocaIRB.SetInsertPointPastAllocas(&F);
    AllocaInst *Local =
        AllocaIRB.CreateAlloca(Int64Ty, nullptr, "efsan.count" + Suffix);
    LocalCounts.push_back(Local);
    BasicBlock *Start = BasicBlock::Create(
        Ctx, Header->getName() + Suffix + ".start", &F, Entry);
    IRBuilder<> StartIRB(Start);
    StartIRB.CreateStore(StartIRB.getInt64(0), Local);
    StartIRB.CreateBr(Entry);
    ValueToValueMapTy VMap;
    SmallVector<PHINode *, 8> EntryPhis;
    for (PHINode *PN : Entries) {
      PHINode *Copy = PHINode::Create(PN->getType(), 2, PN->getName() + Suffix,
                                      Entry);
      int FromStart = PN->getBasicBlockIndex(StartBlock);
      Copy->addIncoming(FromStart >= 0 ? PN->getIncomingValue(FromStart)
                                       : static_cast<Value *>(PN),
                        Start);
      VMap[PN] = Copy;
      EntryPhis.push_back(Copy);
    }
    BasicBlock *First = CopyBody(VMap, Suffix, T, Local);
    BranchInst::Create(First, Entry);
    auto *CopyLatch = cast<BasicBlock>(VMap[Latch]);
    // Around the loop: the copy's latch goes to a header of its own (the
    // chunked loop's countdown) or straight to its entry.
    BasicBlock *Back = Entry;
    SmallVector<std::pair<PHINode *, PHINode *>, 8> HeaderPhis;
    if (Left) {
      Back = BasicBlock::Create(Ctx, Header->getName() + Suffix + ".header",
                                &F, Checked);
      for (PHINode &PN : Header->phis()) {
        PHINode *Copy = PHINode::Create(PN.getType(), 1,
                                        PN.getName() + Suffix + ".next", Back);
        Copy->addIncoming(Mapped(VMap, PN.getIncomingValueForBlock(Latch)),
                          CopyLatch);
        HeaderPhis.push_back({&PN, Copy});
      }
    }
    BasicBlock *LoopExit = nullptr;
    for (BasicBlock *Succ : successors(Latch)) {
      if (Succ == Header)
        continue;
      LoopExit = Succ;
      for (PHINode &PN : Succ->phis())
        PN.addIncoming(Mapped(VMap, PN.getIncomingValueForBlock(Latch)),
                       CopyLatch);
    }
    CopyLatch->getTerminator()->replaceSuccessorWith(Header, Back);
    if (Left) {
      auto AtBack = [&](Value *V) -> Value * {
        for (auto &[Original, Copy] : HeaderPhis)
          if (V == Original)
            return Copy;
        return V;
      };
      for (unsigned E = 0; E < Entries.size(); ++E)
        EntryPhis[E]->addIncoming(
            AtBack(Entries[E]->getParent() == Header
                       ? static_cast<Value *>(Entries[E])
                       : Entries[E]->getIncomingValueForBlock(Header)),
            Back);
      // The chunk's end: back to the original header, which goes to the
      // marks (its count is 0).
      IRBuilder<> BackIRB(Back);
      BackIRB.CreateCondBr(
          BackIRB.CreateICmpEQ(AtBack(Left), BackIRB.getInt64(0)), Header,
          Entry);
      for (auto &[Original, Copy] : HeaderPhis)
        Original->addIncoming(Copy, Back);
    } else {
      for (unsigned E = 0; E < Entries.size(); ++E)
        EntryPhis[E]->addIncoming(
            Mapped(VMap, Entries[E]->getIncomingValueForBlock(Latch)),
            CopyLatch);
    }
    // Leaving the loop, for the next chunk's marks or the exit.
    auto AddToShared = [&](BasicBlock *On) {
      IRBuilder<> LeaveIRB(On->getTerminator());
      LoadInst *Shared = LeaveIRB.CreateLoad(Int64Ty, Counting->Count);
      markNoSanitize(Shared);
      markNoSanitize(LeaveIRB.CreateStore(
          LeaveIRB.CreateAdd(Shared, LeaveIRB.CreateLoad(Int64Ty, Local)),
          Counting->Count));
    };
    AddToShared(SplitEdge(CopyLatch, LoopExit));
    if (Left)
      AddToShared(SplitEdge(Back, Header));
    CountEntries.push_back({T, Start});
  }
  // The last copy is the switch's default (the test chose a copy): one edge
  // into each entry, as its phis have.
  SwitchInst *Switch =
      IRB.CreateSwitch(Which, CountEntries.back().second, CountEntries.size());
  for (auto &[T, Entry] : ArrayRef(CountEntries).drop_back())
    Switch->addCase(IRB.getInt32(T), Entry);
}

// The stack slots of a loop's counting loops (the count 0 from the
// function's entry, which the flush at the exit reads on every way there;
// the test sets the others before they are read), and which of its tables
// may have one: those whose
// accesses are plain loads and stores that cannot straddle two lines (the
// count compares an access's address with the line's). None if no table may.
std::optional<TableCounting>
LoopRangeMarker::planTableCounting(Function &F, const LoopRangePlan &Plan) {
  TableCounting Counting;
  Counting.Countable.assign(Plan.Tables.size(), true);
  for (unsigned K = 0; K < Plan.TableAccesses.size(); ++K) {
    Instruction *I = Plan.TableAccesses[K];
    bool Plain = isa<LoadInst>(I) || isa<StoreInst>(I);
    if (Plain) {
      uint64_t Size = DL.getTypeStoreSize(getLoadStoreType(I));
      Plain = isPowerOf2_64(Size) && Size <= 64 &&
              getLoadStoreAlignment(I).value() >= Size;
    }
    if (!Plain)
      Counting.Countable[Plan.TableOf[K]] = false;
  }
  if (none_of(Counting.Countable, [](bool B) { return B; }))
    return std::nullopt;
  IRBuilder<> IRB(Ctx);
  IRB.SetInsertPointPastAllocas(&F);
  Counting.Which = IRB.CreateAlloca(Int32Ty, nullptr, "efsan.count.which");
  Counting.Line = IRB.CreateAlloca(Int64Ty, nullptr, "efsan.count.line");
  Counting.Count = IRB.CreateAlloca(Int64Ty, nullptr, "efsan.count");
  markNoSanitize(IRB.CreateStore(IRB.getInt64(0), Counting.Count));
  return Counting;
}

// In a counting copy, before table access I: count += (addr ^ line) < 64.
void LoopRangeMarker::emitTableCount(Instruction *I,
                                     const TableCounting &Counting,
                                     AllocaInst *Into) {
  IRBuilder<> IRB(I);
  Value *Addr = IRB.CreatePtrToInt(getLoadStorePointerOperand(I), Int64Ty);
  LoadInst *Line = IRB.CreateLoad(Int64Ty, Counting.Line);
  LoadInst *Count = IRB.CreateLoad(Int64Ty, Into);
  Value *Hit = IRB.CreateICmpULT(IRB.CreateXor(Addr, Line),
                                 IRB.getInt64(uint64_t(1) << kShadowScale));
  StoreInst *Store = IRB.CreateStore(
      IRB.CreateAdd(Count, IRB.CreateZExt(Hit, Int64Ty)), Into);
  for (Instruction *Made : {static_cast<Instruction *>(Line),
                            static_cast<Instruction *>(Count),
                            static_cast<Instruction *>(Store)})
    markNoSanitize(Made);
}

// Before InsertBefore: the accesses the counting copies counted since the
// last flush, if any, are logged (__efsan_ws_mrc_table_hits(line, n)), and
// the count starts again.
void LoopRangeMarker::emitTableFlush(Instruction *InsertBefore,
                                     const TableCounting &Counting) {
  IRBuilder<> IRB(InsertBefore);
  LoadInst *Count = IRB.CreateLoad(Int64Ty, Counting.Count);
  markNoSanitize(Count);
  Instruction *Then = SplitBlockAndInsertIfThen(
      IRB.CreateICmpNE(Count, IRB.getInt64(0)), InsertBefore->getIterator(),
      /*Unreachable=*/false);
  IRB.SetInsertPoint(Then);
  LoadInst *Line = IRB.CreateLoad(Int64Ty, Counting.Line);
  markNoSanitize(Line);
  emitPreserveAllCall(*this, IRB, kTableHitsName, IRB.getVoidTy(),
                      {Line, Count});
  markNoSanitize(IRB.CreateStore(IRB.getInt64(0), Counting.Count));
}

// A loop's tables (working set): an access of a loop with a plan whose
// address is not affine but lies, for every value the loop may give it, in a
// small loop-invariant region (h->red[pixel[0]], crc_table[(c ^ *p) & 0xff]:
// SCEV's range of the address minus its loop-invariant base) keeps its check
// but may skip it: before the loop, and in a chunked loop before each chunk,
// one test reads the region's shadow, and while every line of every table has
// bit 0 the loop runs a copy of its body whose table accesses have no check
// (splitLoopByTables). Their lines are then marked already (the
// total counts them: bit 0 comes with bit 7); a sample that clears bit 0 in
// the middle of the loop or chunk leaves the lines the accesses touch after
// it unmarked in the new period until the next test (the next chunk, or the
// next entry of the loop): at most a chunk (or a loop of at most the limit's
// iterations) late, the same resolution as the ranges marked ahead.
void LoopRangeMarker::findLoopTables(LoopRangePlan &Plan, ScalarEvolution &SE,
                                     SCEVExpander &Probe, Instruction *Before,
                                     AccessDescriber DescribeAccess) {
  if (!ClLoopTableLimit)
    return;
  Loop *L = Plan.L;
  SmallPtrSet<Instruction *, 8> Ranged(Plan.Accesses.begin(),
                                       Plan.Accesses.end());
  for (BasicBlock *BB : L->blocks())
    for (Instruction &I : *BB) {
      if (Ranged.count(&I) || I.hasMetadata(LLVMContext::MD_nosanitize))
        continue;
      std::optional<MemoryAccess> Access = DescribeAccess(I);
      if (!Access || Access->Size > 64)
        continue;
      const SCEV *Addr = SE.getSCEV(Access->Addr);
      if (SE.isLoopInvariant(Addr, L))
        continue;
      // Addr = Base (the loop-invariant terms, the pointer among them) +
      // Offset (the others, whose range bounds the table).
      auto *Sum = dyn_cast<SCEVAddExpr>(Addr);
      if (!Sum)
        continue;
      SmallVector<const SCEV *, 4> Invariant, Variant;
      for (const SCEV *Term : Sum->operands())
        (SE.isLoopInvariant(Term, L) ? Invariant : Variant).push_back(Term);
      if (Invariant.empty() || Variant.empty() ||
          any_of(Variant, [](const SCEV *Term) {
            return Term->getType()->isPointerTy();
          }))
        continue;
      const SCEV *Base = SE.getAddExpr(Invariant);
      const SCEV *Offset = SE.getAddExpr(Variant);
      if (!Base->getType()->isPointerTy() ||
          !Probe.isSafeToExpandAt(Base, Before))
        continue;
      ConstantRange Range = SE.getSignedRange(Offset);
      if (Range.isFullSet() || Range.isEmptySet() ||
          Range.getBitWidth() > 64)
        continue;
      APInt Min = Range.getSignedMin(), Max = Range.getSignedMax();
      if (Min.getSignificantBits() > 40 || Max.getSignificantBits() > 40)
        continue;
      int64_t Lo = Min.getSExtValue(), Hi = Max.getSExtValue();
      uint64_t Size = uint64_t(Hi - Lo) + Access->Size;
      if (Hi < Lo || Size > ClLoopTableLimit)
        continue;
      const SCEV *TableLo = SE.getAddExpr(Base, SE.getConstant(Int64Ty, Lo));
      Plan.TableAccesses.push_back(&I);
      auto Same = find_if(Plan.Tables, [&](const LoopTable &Table) {
        return Table.Lo == TableLo && Table.Size == Size;
      });
      Plan.TableOf.push_back(Same - Plan.Tables.begin());
      if (Same == Plan.Tables.end())
        Plan.Tables.push_back({TableLo, Size});
    }
}

// The shadow bytes [First, End) of the lines of [Lo, Lo + Size), Size >= 1.
std::pair<Value *, Value *>
LoopRangeMarker::shadowBytesOf(IRBuilder<> &IRB, Value *Lo, Value *Size) {
  Value *LoInt = IRB.CreatePtrToInt(Lo, IntptrTy);
  Value *Offset = ConstantInt::get(IntptrTy, kShadowOffset);
  Value *First = IRB.CreateAdd(IRB.CreateLShr(LoInt, kShadowScale), Offset);
  Value *Last = IRB.CreateAdd(
      IRB.CreateLShr(IRB.CreateAdd(LoInt, IRB.CreateSub(Size, IRB.getInt64(1))),
                     kShadowScale),
      Offset);
  return {First, IRB.CreateAdd(Last, IRB.getInt64(1))};
}

// Whether every line of each table has bit 0, tested before InsertBefore
// (false without a test unless Worth is null or true): the shadow words of
// each (at most ClLoopTableLimit / 512 + 2) are read, the bytes before and
// past a table masked off.
//
// With Counting, the test also chooses a counting copy (splitLoopByTables):
// no copy (-1) unless the tables are tested, then, if not all marked, their
// shadow is read again for the lines lacking bit 0; if there is one, of a
// table that may be counted, and the miss-ratio curves observe it, that
// table's copy runs, with the line's address.
Value *LoopRangeMarker::emitTablesMarkedTest(
    Instruction *InsertBefore, ArrayRef<std::pair<Value *, uint64_t>> Tables,
    Value *Worth, const TableCounting *Counting) {
  if (Counting) {
    IRBuilder<> IRB(InsertBefore);
    markNoSanitize(IRB.CreateStore(IRB.getInt32(-1), Counting->Which));
  }
  BasicBlock *Skip = nullptr;
  if (Worth) {
    Skip = InsertBefore->getParent();
    Instruction *TestBefore = SplitBlockAndInsertIfThen(
        Worth, InsertBefore->getIterator(), /*Unreachable=*/false);
    InsertBefore = TestBefore;
  }
  Value *All = nullptr;
  for (auto &[Lo, Size] : Tables) {
    Value *Marked = emitRangeMarkedTest(InsertBefore, Lo, Size);
    IRBuilder<> IRB(InsertBefore);
    All = All ? IRB.CreateAnd(All, Marked) : Marked;
  }
  if (Counting)
    emitCountingChoice(InsertBefore, Tables, All, *Counting);
  if (!Worth)
    return All;
  BasicBlock *Tested = InsertBefore->getParent();
  BasicBlock *Join = cast<BranchInst>(InsertBefore)->getSuccessor(0);
  PHINode *Result =
      PHINode::Create(Type::getInt1Ty(Ctx), 2, "efsan.tables.marked", Join->begin());
  Result->addIncoming(All, Tested);
  Result->addIncoming(ConstantInt::getFalse(Ctx), Skip);
  return Result;
}

// When not All (tables not all marked), before InsertBefore: the counting
// copy to run (the slot Which; -1 for the checked copy) and the line's
// address (Line), as emitTablesMarkedTest says.
void LoopRangeMarker::emitCountingChoice(
    Instruction *InsertBefore, ArrayRef<std::pair<Value *, uint64_t>> Tables,
    Value *All, const TableCounting &Counting) {
  Instruction *Choose = SplitBlockAndInsertIfThen(
      IRBuilder<>(InsertBefore).CreateNot(All), InsertBefore->getIterator(),
      /*Unreachable=*/false);
  // The runtime reads the shadow (a preserve_all call: inline, the scan's
  // registers made the register allocator spill the hot loop's values).
  IRBuilder<> IRB(Choose);
  Value *Lines = IRB.getInt32(0); // 0, 1, or 2 for two or more
  Value *Which = IRB.getInt32(-1);
  Value *Shadow = IRB.getInt64(0);
  for (unsigned T = 0; T < Tables.size(); ++T) {
    auto [First, End] =
        shadowBytesOf(IRB, Tables[T].first, IRB.getInt64(Tables[T].second));
    CallInst *Unmarked = emitPreserveAllCall(*this, IRB, kTableUnmarkedName,
                                             Int64Ty, {First, End});
    // 0: none; 1: two or more; else the shadow byte of the only one.
    Value *None = IRB.CreateICmpEQ(Unmarked, IRB.getInt64(0));
    Value *One = IRB.CreateICmpUGT(Unmarked, IRB.getInt64(1));
    Lines = IRB.CreateAdd(
        Lines, IRB.CreateSelect(None, IRB.getInt32(0),
                                IRB.CreateSelect(One, IRB.getInt32(1),
                                                 IRB.getInt32(2))));
    if (!Counting.Countable[T])
      continue;
    Which = IRB.CreateSelect(One, IRB.getInt32(T), Which);
    Shadow = IRB.CreateSelect(One, Unmarked, Shadow);
  }
  // One line in all (Which stays -1 if its table may not be counted).
  Value *Counted = IRB.CreateAnd(IRB.CreateICmpEQ(Lines, IRB.getInt32(1)),
                                 emitObservedTest(*this, IRB, Shadow));
  markNoSanitize(IRB.CreateStore(
      IRB.CreateSelect(Counted, Which, IRB.getInt32(-1)), Counting.Which));
  Value *Line = IRB.CreateShl(
      IRB.CreateSub(Shadow, IRB.getInt64(kShadowOffset)), kShadowScale);
  markNoSanitize(IRB.CreateStore(Line, Counting.Line));
}

//   missing = 0;
//   for (at = first; at < end; at += 8)     // shadow bytes [first, end)
//     missing |= ~*(u64 *)at & ONES & bytes_before(end - at);
//   marked = missing == 0;
Value *LoopRangeMarker::emitRangeMarkedTest(Instruction *InsertBefore,
                                            Value *Lo, uint64_t Size) {
  constexpr uint64_t Ones = 0x0101010101010101ULL;
  BasicBlock *Entry = InsertBefore->getParent();
  Function *F = Entry->getParent();
  BasicBlock *Done =
      Entry->splitBasicBlock(InsertBefore, "efsan.table.tested");
  BasicBlock *Word = BasicBlock::Create(Ctx, "efsan.table.word", F, Done);
  Entry->getTerminator()->eraseFromParent();
  IRBuilder<> IRB(Entry);
  auto [First, End] = shadowBytesOf(IRB, Lo, IRB.getInt64(Size));
  IRB.CreateBr(Word);

  IRB.SetInsertPoint(Word);
  PHINode *At = IRB.CreatePHI(IntptrTy, 2, "efsan.table.at");
  PHINode *Missing = IRB.CreatePHI(Int64Ty, 2, "efsan.table.missing");
  At->addIncoming(First, Entry);
  Missing->addIncoming(IRB.getInt64(0), Entry);
  LoadInst *Shadow = IRB.CreateAlignedLoad(
      Int64Ty, IRB.CreateIntToPtr(At, PtrTy), Align(1));
  markNoSanitize(Shadow);
  Value *Left = IRB.CreateSub(End, At);
  Value *Wanted = IRB.CreateSelect(
      IRB.CreateICmpUGE(Left, IRB.getInt64(8)), IRB.getInt64(Ones),
      IRB.CreateLShr(IRB.getInt64(Ones),
                     IRB.CreateSub(IRB.getInt64(64), IRB.CreateShl(Left, 3))));
  Value *MissingNext =
      IRB.CreateOr(Missing, IRB.CreateAnd(IRB.CreateNot(Shadow), Wanted));
  Value *AtNext = IRB.CreateAdd(At, IRB.getInt64(8));
  At->addIncoming(AtNext, Word);
  Missing->addIncoming(MissingNext, Word);
  IRB.CreateCondBr(IRB.CreateICmpULT(AtNext, End), Word, Done);

  IRB.SetInsertPoint(InsertBefore);
  return IRB.CreateICmpEQ(MissingNext, IRB.getInt64(0), "efsan.table.marked");
}

// Marks [Lo, Lo + Size) (Size >= 1) before InsertBefore. The range's
// shadow is tested inline four words (32 lines) at a time while all their
// lines have bit 0 (as when a loop runs again within a sample period: four
// loads, three ands, a test and a branch), then a word at a time from the
// first block with a line lacking it, then the last, partial word (tested
// masked: the shadow after the range is mapped like all of it). From the
// first word with a line lacking bit 0, __efsan_ws_mark_lines marks the rest
// of the range in the runtime (once per sample period for most loops; at
// every run for a range that holds a line the miss-ratio curves observe,
// which keeps bit 0 clear: one access recorded per run of the loop).
void LoopRangeMarker::emitRangeMark(Instruction *InsertBefore, Value *Lo,
                                    Value *Size) {
  constexpr uint64_t Ones = 0x0101010101010101ULL;
  BasicBlock *Entry = InsertBefore->getParent();
  Function *F = Entry->getParent();
  BasicBlock *Done = Entry->splitBasicBlock(InsertBefore, "efsan.range.done");
  auto NewBlock = [&](const char *Name) {
    return BasicBlock::Create(Ctx, Name, F, Done);
  };
  BasicBlock *Block = NewBlock("efsan.range.block");
  BasicBlock *BlockNext = NewBlock("efsan.range.block.next");
  BasicBlock *Words = NewBlock("efsan.range.words");
  BasicBlock *Word = NewBlock("efsan.range.word");
  BasicBlock *MarkWord = NewBlock("efsan.range.mark");
  BasicBlock *Next = NewBlock("efsan.range.next");
  BasicBlock *Tail = NewBlock("efsan.range.tail");
  BasicBlock *TailTest = NewBlock("efsan.range.tailtest");
  BasicBlock *MarkTail = NewBlock("efsan.range.marktail");
  Entry->getTerminator()->eraseFromParent();
  IRBuilder<> IRB(Entry);
  auto LoadWord = [&](Value *ShadowInt) {
    LoadInst *Loaded = IRB.CreateAlignedLoad(
        Int64Ty, IRB.CreateIntToPtr(ShadowInt, PtrTy), Align(1));
    markNoSanitize(Loaded);
    return Loaded;
  };

  auto [First, End] = shadowBytesOf(IRB, Lo, Size);
  IRB.CreateCondBr(
      IRB.CreateICmpULE(IRB.CreateAdd(First, IRB.getInt64(32)), End), Block,
      Words);

  // Whole blocks of four words, while all their lines are marked.
  IRB.SetInsertPoint(Block);
  PHINode *BlockAt = IRB.CreatePHI(IntptrTy, 2, "efsan.range.block.at");
  BlockAt->addIncoming(First, Entry);
  Value *AllOfBlock = LoadWord(BlockAt);
  for (unsigned W = 1; W < 4; ++W)
    AllOfBlock = IRB.CreateAnd(
        AllOfBlock, LoadWord(IRB.CreateAdd(BlockAt, IRB.getInt64(8 * W))));
  Value *BlockMarked = IRB.CreateICmpEQ(
      IRB.CreateAnd(AllOfBlock, IRB.getInt64(Ones)), IRB.getInt64(Ones));
  IRB.CreateCondBr(BlockMarked, BlockNext, Words, UnlikelyWeights);

  IRB.SetInsertPoint(BlockNext);
  Value *BlockAtNext = IRB.CreateAdd(BlockAt, IRB.getInt64(32));
  BlockAt->addIncoming(BlockAtNext, BlockNext);
  IRB.CreateCondBr(
      IRB.CreateICmpULE(IRB.CreateAdd(BlockAtNext, IRB.getInt64(32)), End),
      Block, Words);

  // Whole words, from the first block with an unmarked line.
  IRB.SetInsertPoint(Words);
  PHINode *WordsAt = IRB.CreatePHI(IntptrTy, 3, "efsan.range.words.at");
  WordsAt->addIncoming(First, Entry);
  WordsAt->addIncoming(BlockAt, Block);
  WordsAt->addIncoming(BlockAtNext, BlockNext);
  IRB.CreateCondBr(
      IRB.CreateICmpULE(IRB.CreateAdd(WordsAt, IRB.getInt64(8)), End), Word,
      Tail);

  IRB.SetInsertPoint(Word);
  PHINode *At = IRB.CreatePHI(IntptrTy, 2, "efsan.range.at");
  At->addIncoming(WordsAt, Words);
  Value *WordBits = IRB.CreateAnd(LoadWord(At), IRB.getInt64(Ones));
  IRB.CreateCondBr(IRB.CreateICmpEQ(WordBits, IRB.getInt64(Ones)), Next,
                   MarkWord, UnlikelyWeights);

  // From the first word with a line lacking bit 0 on, the runtime marks
  // the rest of the range (and records the accesses to the lines the
  // miss-ratio curves observe, which always lack it).
  IRB.SetInsertPoint(MarkWord);
  emitMarkLinesCall(*this, IRB, At, IRB.CreateSub(End, IRB.getInt64(1)));
  IRB.CreateBr(Done);

  IRB.SetInsertPoint(Next);
  Value *AtNext = IRB.CreateAdd(At, IRB.getInt64(8));
  At->addIncoming(AtNext, Next);
  IRB.CreateCondBr(
      IRB.CreateICmpULE(IRB.CreateAdd(AtNext, IRB.getInt64(8)), End), Word,
      Tail);

  // The last 1 to 7 bytes, if any.
  IRB.SetInsertPoint(Tail);
  PHINode *TailAt = IRB.CreatePHI(IntptrTy, 2, "efsan.range.tail.at");
  TailAt->addIncoming(WordsAt, Words);
  TailAt->addIncoming(AtNext, Next);
  IRB.CreateCondBr(IRB.CreateICmpULT(TailAt, End), TailTest, Done);

  IRB.SetInsertPoint(TailTest);
  Value *Left = IRB.CreateSub(End, TailAt);
  Value *Wanted = IRB.CreateLShr(
      IRB.getInt64(Ones), IRB.CreateSub(IRB.getInt64(64), IRB.CreateShl(Left, 3)));
  Value *TailMarkedAlready =
      IRB.CreateICmpEQ(IRB.CreateAnd(LoadWord(TailAt), Wanted), Wanted);
  IRB.CreateCondBr(TailMarkedAlready, Done, MarkTail, UnlikelyWeights);

  IRB.SetInsertPoint(MarkTail);
  emitMarkLinesCall(*this, IRB, TailAt, IRB.CreateSub(End, IRB.getInt64(1)));
  IRB.CreateBr(Done);
}

// Iterations per chunk for a largest stride of MaxStride bytes (at least 1):
// the largest power of two whose iterations cover at most the limit.
uint64_t llvm::efsan::chunkIterations(uint64_t MaxStride) {
  return llvm::bit_floor(std::max<uint64_t>(ClLoopRangeLimit / MaxStride, 1));
}

// Splits Header after its phis into the countdown's test and the rest (the
// body, returned): the header gets the phi Left and branches to a new,
// empty block Mark (unlikely) when Left is 0, else to the body.
std::tuple<BasicBlock *, BasicBlock *, PHINode *>
LoopRangeMarker::splitForCountdown(BasicBlock *Header, const Twine &MarkName,
                                   const Twine &LeftName) {
  Function &F = *Header->getParent();
  BasicBlock *Body = Header->splitBasicBlock(Header->getFirstNonPHIIt(),
                                             Header->getName() + ".efsan.body");
  BasicBlock *Mark = BasicBlock::Create(Ctx, MarkName, &F, Body);
  IRBuilder<> IRB(Header->getTerminator());
  PHINode *Left = IRB.CreatePHI(Int64Ty, 2, LeftName);
  Header->getTerminator()->eraseFromParent();
  IRB.SetInsertPoint(Header);
  IRB.CreateCondBr(IRB.CreateICmpEQ(Left, IRB.getInt64(0)), Mark, Body,
                   UnlikelyWeights);
  return {Body, Mark, Left};
}
