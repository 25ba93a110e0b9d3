//===- EfficiencySanitizerAllocWrappers.cpp - allocation wrappers ---------===//
//
// Part of the efsan project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Finds the program's own allocation wrappers (xmalloc, a CALLOC helper in a
// header) by their shape, so that the runtime names a heap object after the
// first frame outside them instead of after the wrapper, which every object
// would share. It owns the shape test, the pass that records the wrappers
// before inlining (EfficiencySanitizerAllocWrappersPass: a static inline
// helper is gone from the module by the time the instrumentation runs, but
// its frames are still in the debug info) and the registration the module
// constructor makes (__efsan_register_alloc_wrappers, see
// docs/InstrumentationABI.md). It emits nothing on any access path.
//
//===----------------------------------------------------------------------===//

#include "EfficiencySanitizerInternal.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Metadata.h"
#include "llvm/Transforms/Instrumentation/EfficiencySanitizer.h"

using namespace llvm;
using namespace llvm::efsan;

static constexpr char kWrappersMetadata[] = "efsan.alloc_wrappers";

// The C library's and C++'s allocation functions a wrapper may call.
static bool isLibraryAllocator(StringRef Name) {
  static const char *const kAllocators[] = {
      "malloc",        "calloc",  "realloc",  "reallocarray", "aligned_alloc",
      "memalign",      "valloc",  "pvalloc",  "posix_memalign", "strdup",
      "strndup",       "_Znwm",   "_Znam",    "_ZnwmRKSt9nothrow_t",
      "_ZnamRKSt9nothrow_t",      "_ZnwmSt11align_val_t",
      "_ZnamSt11align_val_t",     "_ZnwmSt11align_val_tRKSt9nothrow_t",
      "_ZnamSt11align_val_tRKSt9nothrow_t"};
  for (const char *Allocator : kAllocators)
    if (Name == Allocator)
      return true;
  return false;
}

namespace {
// Decides whether one function has the shape of an allocation wrapper: it
// calls allocators (the C library's, those declared as allocators with
// __attribute__((malloc)) or alloc_size, wrappers found before) and returns
// their result or null, and the size (or the string, or the block to
// resize) comes from its parameters: a function that allocates a fixed size
// (alloc_table(void)) is a site of its own. Any other call must be on a path that ends the
// program (xalloc_die, exit, assert) or that only runs when the allocation
// failed (perror before returning null); the only stores it makes are to its
// own locals (the unoptimised IR keeps them in allocas). A function that also
// fills the block, takes locks or keeps statistics is not one: it does
// something with the object, and the option alloc_wrappers names it.
class WrapperShape {
public:
  WrapperShape(Function &F, const StringSet<> &KnownWrappers)
      : F(F), KnownWrappers(KnownWrappers) {}
  bool matches();

private:
  bool resultOf(const Value *V) {
    Visiting.clear();
    return isAllocationResult(V);
  }
  bool isAllocatorCall(const CallBase &CB) const;
  bool dependsOnArgument(const Value *V, unsigned Depth);
  bool isAllocationResult(const Value *V);
  bool isLocalSlotOfResult(const AllocaInst *Slot);
  bool isStatusOfAllocation(const Value *V, unsigned Depth);
  bool isFailureEdge(const BranchInst *Br, unsigned Successor);
  bool onFailurePath(const BasicBlock *BB);
  bool isHarmlessIntrinsic(const CallBase &CB);

  Function &F;
  const StringSet<> &KnownWrappers;
  SmallPtrSet<const CallBase *, 2> Allocations;
  SmallPtrSet<const Value *, 8> Visiting;
  SmallPtrSet<const BasicBlock *, 8> ReachesReturn;
  // Blocks reached from the entry without taking a failure edge.
  std::optional<SmallPtrSet<const BasicBlock *, 16>> NormalPaths;
};
} // namespace

bool WrapperShape::isAllocatorCall(const CallBase &CB) const {
  const Function *Callee = CB.getCalledFunction();
  if (!Callee || Callee == &F)
    return false;
  if (isLibraryAllocator(Callee->getName()) ||
      KnownWrappers.contains(Callee->getName()))
    return true;
  // Declared an allocator: __attribute__((malloc)) is a noalias return,
  // alloc_size is allocsize (gnulib's xmalloc, glib's g_malloc).
  return Callee->hasFnAttribute(Attribute::AllocSize) ||
         (Callee->isDeclaration() && Callee->returnDoesNotAlias());
}

bool WrapperShape::isHarmlessIntrinsic(const CallBase &CB) {
  const auto *II = dyn_cast<IntrinsicInst>(&CB);
  if (!II)
    return false;
  if (isa<DbgInfoIntrinsic>(II) || II->isLifetimeStartOrEnd() ||
      II->isAssumeLikeIntrinsic())
    return true;
  switch (II->getIntrinsicID()) {
  case Intrinsic::expect:
  case Intrinsic::objectsize:
    return true;
  case Intrinsic::memset: // a zeroing wrapper clears the block it returns
    return resultOf(II->getArgOperand(0));
  default:
    return false;
  }
}

// Whether V is computed from the function's parameters (through arithmetic,
// casts, and the locals of the unoptimised IR that hold them).
bool WrapperShape::dependsOnArgument(const Value *V, unsigned Depth) {
  if (isa<Argument>(V))
    return true;
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth == 0 || isa<CallBase>(I))
    return false;
  if (const auto *Load = dyn_cast<LoadInst>(I)) {
    const auto *Slot =
        dyn_cast<AllocaInst>(Load->getPointerOperand()->stripPointerCasts());
    return Slot && any_of(Slot->users(), [&](const User *U) {
             const auto *Store = dyn_cast<StoreInst>(U);
             return Store && Store->getPointerOperand() == Slot &&
                    dependsOnArgument(Store->getValueOperand(), Depth - 1);
           });
  }
  return any_of(I->operands(), [&](const Value *Op) {
    return dependsOnArgument(Op, Depth - 1);
  });
}

// A local variable (an alloca of the unoptimised IR) that only ever holds
// the allocation's result or null: loads from it are the result too.
bool WrapperShape::isLocalSlotOfResult(const AllocaInst *Slot) {
  for (const User *U : Slot->users()) {
    if (isa<LoadInst>(U))
      continue;
    if (const auto *Store = dyn_cast<StoreInst>(U)) {
      if (Store->getPointerOperand() != Slot ||
          !isAllocationResult(Store->getValueOperand()))
        return false;
      continue;
    }
    if (const auto *CB = dyn_cast<CallBase>(U)) {
      // posix_memalign(&p, ...) stores the result through its first
      // argument.
      if (Allocations.contains(CB) && CB->getArgOperand(0) == Slot)
        continue;
      if (const auto *II = dyn_cast<IntrinsicInst>(CB))
        if (isa<DbgInfoIntrinsic>(II) || II->isLifetimeStartOrEnd())
          continue;
    }
    return false;
  }
  return true;
}

bool WrapperShape::isAllocationResult(const Value *V) {
  V = V->stripPointerCasts();
  if (isa<ConstantPointerNull>(V))
    return true;
  if (const auto *CB = dyn_cast<CallBase>(V); CB && Allocations.contains(CB))
    return true;
  if (!Visiting.insert(V).second)
    return true; // a cycle (phis, a local slot) adds no other value
  if (const auto *Phi = dyn_cast<PHINode>(V))
    return all_of(Phi->incoming_values(),
                  [&](const Value *In) { return isAllocationResult(In); });
  if (const auto *Select = dyn_cast<SelectInst>(V))
    return isAllocationResult(Select->getTrueValue()) &&
           isAllocationResult(Select->getFalseValue());
  if (const auto *Load = dyn_cast<LoadInst>(V))
    if (const auto *Slot = dyn_cast<AllocaInst>(
            Load->getPointerOperand()->stripPointerCasts()))
      return isLocalSlotOfResult(Slot);
  return false;
}

// Whether V is the status an allocator returned beside its result
// (posix_memalign's 0 or error number), directly or through a local.
bool WrapperShape::isStatusOfAllocation(const Value *V, unsigned Depth) {
  if (const auto *CB = dyn_cast<CallBase>(V))
    return Allocations.contains(CB) && !CB->getType()->isPointerTy();
  const auto *Load = dyn_cast<LoadInst>(V);
  if (!Load || Depth == 0)
    return false;
  const auto *Slot =
      dyn_cast<AllocaInst>(Load->getPointerOperand()->stripPointerCasts());
  return Slot && all_of(Slot->users(), [&](const User *U) {
           if (const auto *Store = dyn_cast<StoreInst>(U))
             return Store->getPointerOperand() == Slot &&
                    isStatusOfAllocation(Store->getValueOperand(), Depth - 1);
           if (const auto *II = dyn_cast<IntrinsicInst>(U))
             return isa<DbgInfoIntrinsic>(II) || II->isLifetimeStartOrEnd();
           return isa<LoadInst>(U);
         });
}

// The side of a branch that the allocation's failure takes: the null side
// of a test of the result, the non-zero side of a test of the status.
bool WrapperShape::isFailureEdge(const BranchInst *Br, unsigned Successor) {
  if (!Br->isConditional())
    return false;
  const auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition());
  if (!Cmp || !Cmp->isEquality())
    return false;
  unsigned EqualSide = Cmp->getPredicate() == ICmpInst::ICMP_EQ ? 0 : 1;
  for (unsigned Op = 0; Op < 2; Op++) {
    const Value *Tested = Cmp->getOperand(Op);
    const Value *Other = Cmp->getOperand(1 - Op);
    if (isa<ConstantPointerNull>(Other) && resultOf(Tested))
      return Successor == EqualSide;
    if (const auto *Zero = dyn_cast<ConstantInt>(Other);
        Zero && Zero->isZero() && isStatusOfAllocation(Tested, 4))
      return Successor != EqualSide;
  }
  return false;
}

// A block that runs only when the allocation failed: every path to it from
// the entry takes a failure edge (error handling after `if (!p)`, or after
// `if (posix_memalign(&p, ...) != 0 || !p)`).
bool WrapperShape::onFailurePath(const BasicBlock *BB) {
  if (!NormalPaths) {
    NormalPaths.emplace();
    SmallVector<const BasicBlock *, 16> Work{&F.getEntryBlock()};
    NormalPaths->insert(&F.getEntryBlock());
    while (!Work.empty()) {
      const BasicBlock *From = Work.pop_back_val();
      const auto *Br = dyn_cast<BranchInst>(From->getTerminator());
      for (unsigned I = 0, E = From->getTerminator()->getNumSuccessors(); I < E;
           I++) {
        if (Br && isFailureEdge(Br, I))
          continue;
        const BasicBlock *To = From->getTerminator()->getSuccessor(I);
        if (NormalPaths->insert(To).second)
          Work.push_back(To);
      }
    }
  }
  return !NormalPaths->contains(BB);
}

bool WrapperShape::matches() {
  if (F.isDeclaration() || !F.getReturnType()->isPointerTy() ||
      F.hasFnAttribute("no_sanitize_efficiency"))
    return false;
  for (const Instruction &I : instructions(F))
    if (const auto *CB = dyn_cast<CallBase>(&I))
      if (isAllocatorCall(*CB))
        Allocations.insert(CB);
  if (Allocations.empty())
    return false;
  for (const CallBase *CB : Allocations)
    if (none_of(CB->args(),
                [&](const Use &Arg) { return dependsOnArgument(Arg, 8); }))
      return false;
  // The blocks from which the function can still return.
  SmallVector<const BasicBlock *, 8> Work;
  for (const BasicBlock &BB : F)
    if (isa<ReturnInst>(BB.getTerminator()) && ReachesReturn.insert(&BB).second)
      Work.push_back(&BB);
  while (!Work.empty())
    for (const BasicBlock *Pred : predecessors(Work.pop_back_val()))
      if (ReachesReturn.insert(Pred).second)
        Work.push_back(Pred);
  for (const BasicBlock &BB : F) {
    for (const Instruction &I : BB) {
      if (const auto *Ret = dyn_cast<ReturnInst>(&I)) {
        if (!resultOf(Ret->getReturnValue()))
          return false;
      } else if (const auto *Store = dyn_cast<StoreInst>(&I)) {
        if (!isa<AllocaInst>(Store->getPointerOperand()->stripPointerCasts()))
          return false;
      } else if (const auto *CB = dyn_cast<CallBase>(&I)) {
        if (Allocations.contains(CB) || isHarmlessIntrinsic(*CB))
          continue;
        // Error handling: a path that never returns, or that runs only
        // after the allocation failed.
        if (ReachesReturn.contains(&BB) && !onFailurePath(&BB))
          return false;
      } else if (I.mayWriteToMemory()) {
        return false; // atomics, fences
      }
    }
  }
  return true;
}

// The name the runtime matches against symbolized frames: the linkage name
// of a C++ function (the runtime demangles it as the symbolizer does), the
// source name of a C one (a static function may have been renamed).
static std::string wrapperName(const Function &F) {
  if (const DISubprogram *SP = F.getSubprogram()) {
    if (!SP->getLinkageName().empty())
      return SP->getLinkageName().str();
    if (!SP->getName().empty())
      return SP->getName().str();
  }
  return F.getName().str();
}

// The wrappers among the module's function definitions. Wrappers of
// wrappers (xnmalloc calling xmalloc) are found by repeating the search
// until it finds no new one.
static std::vector<std::string> findWrappers(Module &M) {
  StringSet<> Known; // IR names, for the callees
  std::vector<std::string> Names;
  for (bool Found = true; Found;) {
    Found = false;
    for (Function &F : M) {
      if (Known.contains(F.getName()) || !WrapperShape(F, Known).matches())
        continue;
      Known.insert(F.getName());
      Names.push_back(wrapperName(F));
      Found = true;
    }
  }
  return Names;
}

PreservedAnalyses
EfficiencySanitizerAllocWrappersPass::run(Module &M, ModuleAnalysisManager &) {
  // An ignorelisted function is no wrapper: marked before the search, as a
  // clang with efsan built in marks it in its front end.
  bool Changed =
      applyIgnorelists(M, getEfficiencySanitizerToolFromCommandLine());
  std::vector<std::string> Names = findWrappers(M);
  if (Names.empty())
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  NamedMDNode *Recorded = M.getOrInsertNamedMetadata(kWrappersMetadata);
  for (const std::string &Name : Names)
    Recorded->addOperand(
        MDNode::get(M.getContext(), MDString::get(M.getContext(), Name)));
  return PreservedAnalyses::all();
}

void efsan::registerAllocationWrappers(Module &M, Function *Ctor) {
  // Those recorded before inlining, and those of the functions still here
  // (a module the early pass did not see: opt, a native clang at -O0).
  std::vector<std::string> Names = findWrappers(M);
  StringSet<> Unique;
  for (const std::string &Name : Names)
    Unique.insert(Name);
  if (NamedMDNode *Recorded = M.getNamedMetadata(kWrappersMetadata)) {
    for (const MDNode *Node : Recorded->operands())
      if (const auto *Name = dyn_cast<MDString>(Node->getOperand(0)))
        if (Unique.insert(Name->getString()).second)
          Names.push_back(Name->getString().str());
    Recorded->eraseFromParent();
  }
  if (Names.empty())
    return;
  ModuleContext C(M);
  SmallVector<Constant *, 8> Strings;
  for (const std::string &Name : Names)
    Strings.push_back(createCString(M, Name, "efsan.alloc_wrapper.name"));
  ArrayType *TableTy = ArrayType::get(C.PtrTy, Strings.size());
  GlobalVariable *Table = createPrivateConstant(
      M, ConstantArray::get(TableTy, Strings), "efsan.alloc_wrappers");
  FunctionCallee Register = M.getOrInsertFunction(
      "__efsan_register_alloc_wrappers", Type::getVoidTy(C.Ctx), C.PtrTy,
      C.Int64Ty);
  IRBuilder<> IRB(Ctor->getEntryBlock().getTerminator());
  IRB.CreateCall(Register,
                 {Table, ConstantInt::get(C.Int64Ty, Strings.size())});
}
