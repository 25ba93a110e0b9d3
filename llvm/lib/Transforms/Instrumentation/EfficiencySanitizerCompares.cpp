//===- EfficiencySanitizerCompares.cpp - working-set inline compares ------===//
//
// Part of the efsan project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Working set: the program's calls of memcmp and bcmp that compare at most
// 64 bytes check the lines of both ranges inline and call libc's function
// directly, past the runtime's interceptor, whose entry, flag tests and
// out-of-line marking cost more than the compare itself (word counting makes
// one such call per hash probe). The runtime publishes libc's functions in
// __efsan_ws_memcmp and __efsan_ws_bcmp only when the interceptors would mark
// the same lines (intercept_memcmp and strict_memcmp on: both ranges whole),
// so a null pointer sends the call to the interceptor as before, and so do
// sizes of 0 or more than 64.
//
// It owns which calls are taken and the code around one of them; the checks
// themselves are the pass's two-line fast path (EfficiencySanitizer.cpp).
//
//===----------------------------------------------------------------------===//

#include "EfficiencySanitizerInternal.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;
using namespace llvm::efsan;

static cl::opt<bool> ClInlineCompares(
    "efsan-inline-compares",
    cl::desc("working-set: memcmp and bcmp of at most 64 bytes check both "
             "ranges inline and call libc's function past the interceptor"),
    cl::init(true), cl::Hidden);

// Two ranges of at most a line each: two two-line checks.
static constexpr uint64_t kMaxInlineCompare = uint64_t(1) << kShadowScale;

bool efsan::isWorkingSetCompare(const CallInst &CI) {
  if (!ClInlineCompares || CI.isMustTailCall())
    return false;
  const Function *Callee = CI.getCalledFunction();
  if (!Callee || !Callee->isDeclaration() ||
      (Callee->getName() != "memcmp" && Callee->getName() != "bcmp"))
    return false;
  // int (const void *, const void *, size_t), in address space 0.
  FunctionType *Ty = CI.getFunctionType();
  PointerType *PtrTy = PointerType::getUnqual(CI.getContext());
  if (Ty->isVarArg() || Ty->getNumParams() != 3 ||
      !Ty->getReturnType()->isIntegerTy(32) || Ty->getParamType(0) != PtrTy ||
      Ty->getParamType(1) != PtrTy || !Ty->getParamType(2)->isIntegerTy(64))
    return false;
  // Nothing to mark, or more than the inline checks cover: the interceptor.
  auto *Size = dyn_cast<ConstantInt>(CI.getArgOperand(2));
  return !Size || (!Size->isZero() && Size->getZExtValue() <= kMaxInlineCompare);
}

// Codegen turns some compares of a constant size into loads
// (ExpandMemCmp), faster than any call; on the inline path such a call stays
// a call of memcmp or bcmp for codegen to expand. The guess is what
// TargetTransformInfo allows that expansion: a load count within its maximum,
// of the load sizes up to the compare's taken largest first, or of the
// largest of them only, the last load overlapping the one before when the
// target allows that. A wrong guess costs time,
// never lines: a call that is not expanded reaches the interceptor, which
// marks the same lines again.
static bool codegenExpands(CallInst &CI, uint64_t Size,
                           const TargetTransformInfo &TTI,
                           const TargetLibraryInfo &TLI) {
  Function &F = *CI.getFunction();
  LibFunc Func;
  if (F.hasOptNone() || !TLI.getLibFunc(CI, Func) || !TLI.has(Func))
    return false;
  bool ZeroCompare =
      Func == LibFunc_bcmp || isOnlyUsedInZeroEqualityComparison(&CI);
  TargetTransformInfo::MemCmpExpansionOptions Options =
      TTI.enableMemCmpExpansion(F.hasOptSize(), ZeroCompare);
  if (!Options || Options.LoadSizes.empty())
    return false;
  uint64_t Loads = 0, Left = Size, Largest = 0;
  for (unsigned LoadSize : Options.LoadSizes) { // largest first
    if (LoadSize > Size)
      continue;
    Largest = std::max<uint64_t>(Largest, LoadSize);
    Loads += Left / LoadSize;
    Left %= LoadSize;
  }
  if (Left != 0)
    Loads = UINT64_MAX;
  if (Options.AllowOverlappingLoads && Largest >= 2)
    Loads = std::min(Loads, (Size + Largest - 1) / Largest);
  return Loads <= Options.MaxNumLoads;
}

// if (real && size - 1 < 64) {       // real = __efsan_ws_{memcmp,bcmp}
//   check the lines of a and a + size - 1, then of b and b + size - 1;
//   r = real(a, b, size);            // or memcmp/bcmp, for codegen to expand
// } else {
//   r = memcmp(a, b, size);          // the interceptor
// }
// The size test folds away for a constant size. The interceptor's call is
// tagged nobuiltin: codegen must not expand it into loads that nothing marks
// (with intercept_memcmp=0 nothing should, with strict_memcmp=0 the
// interceptor marks up to the first difference).
void efsan::instrumentWorkingSetCompare(const ModuleContext &MC, CallInst *CI,
                                        const TargetTransformInfo *TTI,
                                        const TargetLibraryInfo *TLI) {
  Value *Left = CI->getArgOperand(0), *Right = CI->getArgOperand(1);
  Value *Size = CI->getArgOperand(2);
  auto *ConstantSize = dyn_cast<ConstantInt>(Size);
  bool Expands = ConstantSize && TTI && TLI &&
                 codegenExpands(*CI, ConstantSize->getZExtValue(), *TTI, *TLI);

  IRBuilder<> IRB(CI);
  StringRef Name = CI->getCalledFunction()->getName();
  LoadInst *Real = IRB.CreateAlignedLoad(
      MC.PtrTy, MC.M.getOrInsertGlobal(("__efsan_ws_" + Name).str(), MC.PtrTy),
      MC.DL.getPointerABIAlignment(0));
  markNoSanitize(Real);
  Value *Inline = IRB.CreateICmpNE(Real, ConstantPointerNull::get(MC.PtrTy));
  Value *LastOffset = IRB.CreateSub(Size, IRB.getInt64(1));
  if (!ConstantSize)
    Inline = IRB.CreateAnd(
        IRB.CreateICmpULT(LastOffset, IRB.getInt64(kMaxInlineCompare)), Inline);
  Instruction *InlineEnd, *InterceptedEnd;
  SplitBlockAndInsertIfThenElse(
      Inline, CI->getIterator(), &InlineEnd, &InterceptedEnd,
      MDBuilder(MC.Ctx).createLikelyBranchWeights());

  auto *Intercepted = cast<CallInst>(CI->clone());
  Intercepted->insertBefore(InterceptedEnd);
  Intercepted->addFnAttr(Attribute::NoBuiltin);
  BasicBlock *Join = CI->getParent();
  CI->moveBefore(InlineEnd);
  if (!Expands)
    CI->setCalledOperand(Real);
  if (ConstantSize && ConstantSize->isOne()) {
    emitWorkingSetFastPath(MC, CI, Left);
    emitWorkingSetFastPath(MC, CI, Right);
  } else {
    emitWorkingSetTwoLineFastPath(MC, CI, Left, LastOffset);
    emitWorkingSetTwoLineFastPath(MC, CI, Right, LastOffset);
  }

  if (CI->use_empty())
    return;
  PHINode *Result = PHINode::Create(CI->getType(), 2, "", Join->begin());
  CI->replaceAllUsesWith(Result);
  Result->addIncoming(CI, CI->getParent());
  Result->addIncoming(Intercepted, Intercepted->getParent());
}
