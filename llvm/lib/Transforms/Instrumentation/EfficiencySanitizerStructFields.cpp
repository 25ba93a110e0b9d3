//===- EfficiencySanitizerStructFields.cpp - cache-frag field tables ------===//
//
// Part of the efsan project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file is a part of EfficiencySanitizer (efsan). It owns cache-frag's
// struct field tables (StructFieldTables): which field of which struct an
// access goes to (from struct GEPs, struct-path TBAA tags, the objects and
// pointer variables an address comes from), the table of each struct met
// (field offsets, sizes and type names, from the LLVM type or from TBAA),
// its counters, the counter and span flags an access hands the runtime, the
// fields whose address escapes where no access is attributed, and the module
// info that lists the tables for the runtime.
//
// It does not instrument accesses nor count them down (EfficiencySanitizer.cpp
// emits the calls that carry the counters), and the source names of types
// and members come from EfficiencySanitizerMemberNames.cpp. The module
// info's layout is a contract with the runtime: docs/InstrumentationABI.md.
//
//===----------------------------------------------------------------------===//

#include "EfficiencySanitizerInternal.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace llvm::efsan;

static cl::opt<bool> ClCacheFragFieldCounters(
    "efsan-cache-frag-field-counters",
    cl::desc("cache-frag: count accesses per struct field"), cl::init(true),
    cl::Hidden);

// flags bits 8..15: how many consecutive field counters from field_counter
// the access covers, less one.
static constexpr unsigned kCacheFragFieldSpanShift = 8;
static constexpr unsigned kCacheFragMaxFieldSpan = 256;

StructFieldTables::StructFieldTables(Module &M) : ModuleContext(M) {}

// The i64 counter of the struct field the access goes to (the first of the
// fields it covers), or null.
FieldCounter StructFieldTables::fieldCounter(const MemoryAccess &Access) {
  std::optional<FieldRef> Field = findStructField(Access);
  if (!Field) {
    // An access the pass cannot place in a member it is known to be in
    // (type-punned, a stride that fits no array member) is not counted:
    // the member's count misses it.
    bool IntoMember = false;
    std::optional<StructOffset> Found =
        ClCacheFragFieldCounters ? findPointedStruct(Access.Addr, IntoMember)
                                 : std::nullopt;
    if (Found && IntoMember)
      markEscaping(*Found, Access.Size);
    return {ConstantPointerNull::get(PtrTy)};
  }
  GlobalVariable *Counters = Field->Table->Counters;
  Constant *Indices[] = {ConstantInt::get(Int32Ty, 0),
                         ConstantInt::get(Int32Ty, Field->Index)};
  return {ConstantExpr::getInBoundsGetElementPtr(Counters->getValueType(),
                                                 Counters, Indices),
          (Field->Span - 1) << kCacheFragFieldSpanShift};
}

StructFieldTable &StructFieldTables::getOrCreateStructTable(StringRef Name) {
  StructFieldTable *&Table = StructTableByName[Name];
  if (!Table) {
    StructTables.push_back(std::make_unique<StructFieldTable>());
    Table = StructTables.back().get();
    Table->Name = Name.str();
  }
  return *Table;
}

void StructFieldTables::createFieldCounters(StructFieldTable &Table) {
  if (Table.Counters)
    return;
  auto *CountersTy = ArrayType::get(Int64Ty, Table.FieldOffsets.size());
  Table.Counters = new GlobalVariable(
      M, CountersTy, /*isConstant=*/false, GlobalValue::PrivateLinkage,
      Constant::getNullValue(CountersTy), "__efsan." + Table.Name + ".counters");
  // Beside the runtime's data, not among the program's globals, whose
  // offsets within their cache lines stay the plain build's (efsan-ld).
  Table.Counters->setSection(".bss.efsan.counters");
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
StructFieldTables::findStructField(const MemoryAccess &Access) {
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

// Ty if it is a named, sized struct type (one a field table can describe).
static StructType *namedStruct(Type *Ty) {
  auto *STy = dyn_cast<StructType>(Ty);
  if (!STy || STy->isLiteral() || !STy->hasName() || STy->isOpaque() ||
      !STy->isSized() || STy->isScalableTy())
    return nullptr;
  return STy;
}

// Walks the address back through constant-offset GEPs to a named struct it
// points into: a GEP whose source element type is that struct (array-style
// `getelementptr %struct.T, ptr %p, i64 %i`, or with constant field indices
// after the first), or a global or stack slot of that type.
std::optional<StructOffset>
StructFieldTables::findStructAtAddress(Value *Addr) {
  int64_t Offset = 0;
  for (unsigned Steps = 0; Steps < 16; ++Steps) { // real chains: 1 or 2 GEPs
    StructType *Struct = nullptr;
    int64_t Inner = 0;
    if (auto *GEP = dyn_cast<GEPOperator>(Addr)) {
      if ((Struct = namedStruct(GEP->getSourceElementType()))) {
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
      Struct = namedStruct(GV->getValueType());
    } else if (auto *Slot = dyn_cast<AllocaInst>(Addr)) {
      Struct = namedStruct(Slot->getAllocatedType());
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

// Whether Offset in Ty lies in an array (at any depth) whose elements are
// Stride bytes: a variable index of that stride from a pointer into such an
// array (array decay, `unsigned *ht = c->hash; ... ht[h]`) stays inside it,
// as C's pointer arithmetic must.
static bool inArrayOfStride(const DataLayout &DL, Type *Ty, uint64_t Offset,
                            uint64_t Stride) {
  for (;;) {
    if (auto *ATy = dyn_cast<ArrayType>(Ty)) {
      uint64_t ElementSize =
          DL.getTypeAllocSize(ATy->getElementType()).getFixedValue();
      if (ElementSize == Stride && Offset < ElementSize * ATy->getNumElements())
        return true;
    }
    if (!descendToMemberAt(DL, Ty, Offset))
      return false;
  }
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
StructFieldTables::findFieldFromAddress(const MemoryAccess &Access) {
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
// variable describing the pointer that points to a struct must agree; one
// that points to a scalar, an array or a union (`unsigned *ht = c->hash`,
// the same address as c when hash is the first member; LZ4's stream union
// around its context struct) does not contradict it.
StructType *StructFieldTables::structTypeOfPointerVariable(Value *Pointer) {
  SmallVector<DILocalVariable *, 4> Variables = variablesHolding(Pointer);
  StructType *Found = nullptr;
  for (DILocalVariable *Variable : Variables) {
    // `struct S *const p`, or a typedef of the pointer type.
    auto *PointerTy = dyn_cast_or_null<DIDerivedType>(Variable->getType());
    while (PointerTy && (PointerTy->getTag() == dwarf::DW_TAG_const_type ||
                         PointerTy->getTag() == dwarf::DW_TAG_volatile_type ||
                         PointerTy->getTag() == dwarf::DW_TAG_typedef))
      PointerTy = dyn_cast_or_null<DIDerivedType>(PointerTy->getBaseType());
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
    if (!Composite || Composite->getTag() == dwarf::DW_TAG_array_type ||
        Composite->getTag() == dwarf::DW_TAG_enumeration_type ||
        Composite->getTag() == dwarf::DW_TAG_union_type) {
      if (!Pointee || isa<DIBasicType>(Pointee) || Composite)
        continue;
      return nullptr;
    }
    if (Composite->getTag() != dwarf::DW_TAG_structure_type &&
        Composite->getTag() != dwarf::DW_TAG_class_type)
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

// The one store into an unoptimised local (`unsigned *ht = c->hash;` at -O0:
// a stack slot stored once and only loaded after), or null for a slot stored
// twice or used in any other way (its address escapes).
static StoreInst *onlyStoreToSlot(AllocaInst *Slot) {
  StoreInst *Only = nullptr;
  for (User *U : Slot->users()) {
    if (isa<LoadInst>(U))
      continue;
    if (auto *II = dyn_cast<IntrinsicInst>(U))
      if (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II))
        continue;
    auto *Store = dyn_cast<StoreInst>(U);
    if (!Store || Store->getPointerOperand() != Slot || Only)
      return nullptr;
    Only = Store;
  }
  return Only;
}

// The pointer such a local holds when Addr loads it: the value stored.
static Value *onlyStoredPointer(Value *Addr) {
  auto *Load = dyn_cast<LoadInst>(Addr);
  auto *Slot = Load ? dyn_cast<AllocaInst>(Load->getPointerOperand()) : nullptr;
  StoreInst *Store = Slot ? onlyStoreToSlot(Slot) : nullptr;
  Value *Stored = Store ? Store->getValueOperand() : nullptr;
  return Stored && Stored->getType()->isPointerTy() ? Stored : nullptr;
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
// GEP on the way picked a field of a named struct by its index. Loose keeps
// going past pointer arithmetic whose stride fits no array member (see
// KnownInside): the pointer is still in the object, if not known where.
// SmallestStride, if given, receives the smallest stride of a variable
// leading index on the way (UINT64_MAX for none).
std::optional<StructOffset>
StructFieldTables::findOutermostStruct(Value *Addr, bool &ThroughFieldIndex,
                                       bool Loose, uint64_t *SmallestStride) {
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
  auto KnownInside = [&](StructType *Struct, int64_t At) {
    return Loose ||
           VariableStride >= DL.getTypeAllocSize(Struct).getFixedValue() ||
           (At >= 0 && inArrayOfStride(DL, Struct, uint64_t(At), VariableStride));
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
          if (!First && namedStruct(STy)) {
            First = STy;
            FirstStart = Local;
          }
          Local += DL.getStructLayout(STy)
                       ->getElementOffset(Index->getZExtValue())
                       .getFixedValue();
          if (namedStruct(STy))
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
          if (StructType *Source = namedStruct(GEP->getSourceElementType())) {
            First = Source;
            FirstStart = Local;
          }
        }
        Leading = false;
      }
      if (Leading) // no index at all: the pointer itself
        if (StructType *Source = namedStruct(GEP->getSourceElementType())) {
          First = Source;
          FirstStart = 0;
        }
      // An index that lands on a struct element without a field index after
      // it (`getelementptr [64 x %struct.S], ptr @a, i64 0, i64 %i`, then a
      // byte offset into the element): the GEP points at that struct.
      if (!First)
        if (StructType *Result = namedStruct(GEP->getResultElementType())) {
          First = Result;
          FirstStart = Local;
        }
      Offset += Local;
      Addr = GEP->getPointerOperand();
      if (First && !KnownInside(First, Offset - FirstStart))
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
      Struct = namedStruct(GV->getValueType());
    else if (auto *Slot = dyn_cast<AllocaInst>(Addr))
      Struct = namedStruct(Slot->getAllocatedType());
    else if (isa<Argument>(Addr) || isa<Instruction>(Addr))
      Struct = structTypeOfPointerVariable(Addr);
    if (!Struct) {
      if (Value *Start = loopPointerStart(Addr)) {
        Addr = Start;
        continue;
      }
      if (Value *Stored = onlyStoredPointer(Addr)) {
        Addr = Stored;
        continue;
      }
    }
    if (Struct && !KnownInside(Struct, Offset))
      return std::nullopt;
    if (Struct && InBounds(Struct, Offset) && Holds(Struct, Offset)) {
      Outermost = StructOffset{Struct, uint64_t(Offset)};
      ThroughFieldIndex = FieldIndexSoFar;
    }
    break;
  }
  if (SmallestStride)
    *SmallestStride = VariableStride;
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
StructType *StructFieldTables::findStructTypeForAnonymousTBAA(
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
std::string StructFieldTables::typedefNameFromPointerVariable(
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
std::string StructFieldTables::typedefNameFromDebugInfo(MDNode *Base) {
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
StructFieldTables::findFieldFromGEP(Value *Addr, uint64_t AccessSize) {
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
StructFieldTables::topLevelField(StructOffset Found, uint64_t AccessSize) {
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

unsigned StructFieldTables::fieldSpan(const StructFieldTable &Table,
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

void StructFieldTables::fillTableFromStructType(StructFieldTable &Table,
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

// Whether a TBAA tag is C++'s: clang hangs C++'s type nodes from the root
// "Simple C++ TBAA", C's from "Simple C/C++ TBAA". Only C++ names a struct
// by its mangled typeinfo name; a C tag may be spelled _ZTS... too.
static bool isCXXTBAATag(const MDNode *Tag) {
  const auto *Node = dyn_cast<MDNode>(Tag->getOperand(1)); // the access type
  for (unsigned Depth = 0; Node && Depth < 64; ++Depth) {
    if (Node->getNumOperands() == 1) { // the root
      const auto *Name = dyn_cast<MDString>(Node->getOperand(0));
      return Name && Name->getString() == "Simple C++ TBAA";
    }
    if (Node->getNumOperands() < 2)
      return false;
    Node = dyn_cast<MDNode>(Node->getOperand(1)); // the parent
  }
  return false;
}

// clang's TBAA names C types as written ("node") and C++ types by their
// mangled typeinfo name ("_ZTSN2ns4nodeE" for ns::node).
static std::string sourceTypeNameFromTBAA(StringRef TBAAName, bool CXX) {
  if (CXX && TBAAName.starts_with("_ZTS")) {
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
StructFieldTables::findFieldFromTBAA(const MemoryAccess &Access) {
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
  std::string SourceName = sourceTypeNameFromTBAA(
      BaseName->getString(),
      isCXXTBAATag(Access.I->getMetadata(LLVMContext::MD_tbaa)));
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

//===-- Fields whose address escapes -------------------------------------===//
//
// A field's count is what the accesses the pass attributes to it add up to.
// Its address may also go where the pass cannot follow: to a function
// (another file's loop over `c->chain`, memset, a libc routine), into memory
// (`s->cur = s->buf`), out of a return, through an integer. What is done
// there is counted for no field, so the report must not call the field cold
// (docs/CacheFrag.md, "Derived and escaping pointers"). Loads and stores
// through a pointer derived from the field in the same function are
// attributed (findOutermostStruct) and are not escapes.

// The struct object Pointer points into, walking back as an access's address
// is (but loosely: pointer arithmetic stays in the object). IntoMember: the
// pointer is known to point into a member rather than at the object itself,
// which at the object's first byte only a field index on the way (-O0), or
// a variable index that steps by less than the struct, tell.
std::optional<StructOffset>
StructFieldTables::findPointedStruct(Value *Pointer, bool &IntoMember) {
  bool ThroughFieldIndex = false;
  uint64_t Stride = UINT64_MAX;
  std::optional<StructOffset> Found =
      findOutermostStruct(Pointer, ThroughFieldIndex, /*Loose=*/true, &Stride);
  if (!Found)
    return std::nullopt;
  IntoMember = ThroughFieldIndex || Found->Offset != 0 ||
               Stride < DL.getTypeAllocSize(Found->Struct).getFixedValue();
  return Found;
}

// Flags the fields of Found's struct that [offset, offset + Length) overlaps.
void StructFieldTables::markEscaping(StructOffset Found, uint64_t Length) {
  std::optional<FieldRef> Field =
      topLevelField(Found, std::max<uint64_t>(Length, 1));
  if (!Field)
    return;
  StructFieldTable &Table = *Field->Table;
  if (Table.FieldEscapes.size() < Table.FieldOffsets.size())
    Table.FieldEscapes.resize(Table.FieldOffsets.size());
  for (unsigned I = 0; I < Field->Span; ++I)
    Table.FieldEscapes[Field->Index + I] = true;
}

// A pointer into a member that leaves the pass's view.
void StructFieldTables::noteEscape(Value *Pointer) {
  if (!Pointer->getType()->isPointerTy())
    return;
  bool IntoMember = false;
  std::optional<StructOffset> Found = findPointedStruct(Pointer, IntoMember);
  if (Found && IntoMember)
    markEscaping(*Found, 1);
}

// memset/memcpy/memmove: the runtime counts them for no field. A constant
// length says which fields they cover. One from the object's own address
// over several fields clears or copies the object (or most of it: the
// optimiser trims a memset's tail that later stores overwrite, as in
// LZ4_initStreamHC), touches no field more than another, and is not an
// escape of any; one over the first field only is that member's.
void StructFieldTables::noteRangeEscape(Value *Pointer, Value *Length) {
  bool IntoMember = false;
  std::optional<StructOffset> Found = findPointedStruct(Pointer, IntoMember);
  if (!Found)
    return;
  uint64_t Size = DL.getTypeAllocSize(Found->Struct).getFixedValue();
  auto *Constant = dyn_cast<ConstantInt>(Length);
  if (!Constant) {
    if (IntoMember)
      markEscaping(*Found, 1);
    return;
  }
  uint64_t Bytes = std::min(Constant->getZExtValue(), Size - Found->Offset);
  const StructLayout *Layout = DL.getStructLayout(Found->Struct);
  if (!IntoMember && Bytes > 0 &&
      Layout->getElementContainingOffset(Bytes - 1) != 0)
    return;
  markEscaping(*Found, Bytes);
}

// At the object's first byte a pointer to its first member is the object's
// own address: only the callee's declared parameter type (debug info) tells
// `fill(c->hash)` (an `unsigned *`) from `use(c)` (a `struct ctx *`). A
// `void *` or `char *` parameter (free, fwrite, a thread's argument) or a
// union (a wrapper around the struct, pthread_mutex_t) says nothing; a
// parameter numbering that differs from the IR's (sret, split aggregates)
// neither.
bool StructFieldTables::parameterPointsIntoStruct(const CallBase &Call,
                                                  unsigned ArgNo,
                                                  StructType *Struct) {
  Function *Callee = Call.getCalledFunction();
  DISubprogram *SP = Callee ? Callee->getSubprogram() : nullptr;
  DISubroutineType *Signature = SP ? SP->getType() : nullptr;
  if (!Signature || Call.hasStructRetAttr())
    return false;
  DITypeRefArray Types = Signature->getTypeArray();
  // Types[0] is the return type; a variadic function ends with a null.
  unsigned Declared = Types.size() ? Types.size() - 1 : 0;
  if (Declared && !Types[Declared])
    --Declared;
  if (Declared != Callee->getFunctionType()->getNumParams() ||
      ArgNo >= Declared)
    return false;
  auto StripQualifiers = [](const DIType *Ty, const DIType **Typedef) {
    while (auto *Derived = dyn_cast_or_null<DIDerivedType>(Ty)) {
      unsigned Tag = Derived->getTag();
      if (Tag == dwarf::DW_TAG_typedef && Typedef)
        *Typedef = Derived;
      else if (Tag != dwarf::DW_TAG_const_type &&
               Tag != dwarf::DW_TAG_volatile_type &&
               Tag != dwarf::DW_TAG_typedef)
        break;
      Ty = Derived->getBaseType();
    }
    return Ty;
  };
  auto *Param = dyn_cast_or_null<DIDerivedType>(
      StripQualifiers(Types[ArgNo + 1], nullptr));
  if (!Param || (Param->getTag() != dwarf::DW_TAG_pointer_type &&
                 Param->getTag() != dwarf::DW_TAG_reference_type &&
                 Param->getTag() != dwarf::DW_TAG_rvalue_reference_type))
    return false;
  const DIType *Typedef = nullptr;
  const DIType *Pointee = StripQualifiers(Param->getBaseType(), &Typedef);
  if (!Pointee)
    return false; // void *
  if (auto *Basic = dyn_cast<DIBasicType>(Pointee))
    return Basic->getEncoding() != dwarf::DW_ATE_signed_char &&
           Basic->getEncoding() != dwarf::DW_ATE_unsigned_char;
  auto *Composite = dyn_cast<DICompositeType>(Pointee);
  if (!Composite || Composite->getTag() == dwarf::DW_TAG_array_type)
    return true; // a pointer, an enum, an array member
  // A union, or a type as large as the struct: the object itself, or
  // something that cannot be told from it.
  if (Composite->getTag() == dwarf::DW_TAG_union_type ||
      Composite->getSizeInBits() ==
          DL.getTypeAllocSize(Struct).getFixedValue() * 8)
    return false;
  // clang names the LLVM type after the tag, scope-qualified in C++, or
  // after the typedef of an anonymous struct.
  const DIType *Named = Composite;
  if (Composite->getName().empty() && Typedef)
    Named = Typedef;
  std::string Name = isCXXModule(M) ? qualifiedDebugName(Named)
                                    : Named->getName().str();
  StringRef LLVMName = Struct->getName();
  for (StringRef Kind : {"struct.", "class."})
    if (LLVMName.consume_front(Kind))
      break;
  // Another struct at the object's start: an embedded struct, a base.
  return !Name.empty() && LLVMName != Name;
}

void StructFieldTables::noteCallEscapes(CallBase &Call) {
  if (auto *II = dyn_cast<IntrinsicInst>(&Call)) {
    if (auto *MI = dyn_cast<MemIntrinsic>(II)) {
      noteRangeEscape(MI->getRawDest(), MI->getLength());
      if (auto *MT = dyn_cast<MemTransferInst>(MI))
        noteRangeEscape(MT->getRawSource(), MI->getLength());
      return;
    }
    // Intrinsics that access no memory through their pointer (lifetime,
    // debug, assume, prefetch); the others (masked and vector accesses) are
    // counted for no field.
    if (II->isAssumeLikeIntrinsic() ||
        II->getIntrinsicID() == Intrinsic::prefetch)
      return;
  }
  for (unsigned ArgNo = 0, N = Call.arg_size(); ArgNo < N; ++ArgNo) {
    Value *Arg = Call.getArgOperand(ArgNo);
    if (!Arg->getType()->isPointerTy())
      continue;
    bool IntoMember = false;
    std::optional<StructOffset> Found = findPointedStruct(Arg, IntoMember);
    if (Found && (IntoMember ||
                  (Found->Offset == 0 &&
                   parameterPointsIntoStruct(Call, ArgNo, Found->Struct))))
      markEscaping(*Found, 1);
  }
}

// Whether an integer made of a pointer becomes a pointer again (through
// arithmetic on the way): accesses through it are counted for no field.
static bool becomesPointerAgain(Instruction *FromPointer) {
  SmallVector<Instruction *, 8> Work = {FromPointer};
  SmallPtrSet<Instruction *, 16> Seen;
  while (!Work.empty() && Seen.size() < 64) {
    Instruction *I = Work.pop_back_val();
    if (!Seen.insert(I).second)
      continue;
    for (User *U : I->users()) {
      if (isa<IntToPtrInst>(U))
        return true;
      auto *UI = dyn_cast<Instruction>(U);
      if (UI && (isa<BinaryOperator>(UI) || isa<CastInst>(UI) ||
                 isa<PHINode>(UI) || isa<SelectInst>(UI)))
        Work.push_back(UI);
    }
  }
  return false;
}

void StructFieldTables::noteFieldEscapes(Function &F) {
  if (!ClCacheFragFieldCounters)
    return;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      if (auto *Store = dyn_cast<StoreInst>(&I)) {
        // An unoptimised local holding the pointer is followed to it.
        auto *Slot = dyn_cast<AllocaInst>(Store->getPointerOperand());
        if (!Slot || onlyStoreToSlot(Slot) != Store)
          noteEscape(Store->getValueOperand());
      } else if (auto *Ret = dyn_cast<ReturnInst>(&I)) {
        if (Value *Returned = Ret->getReturnValue())
          noteEscape(Returned);
      } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
        noteEscape(RMW->getValOperand());
      } else if (auto *CmpXchg = dyn_cast<AtomicCmpXchgInst>(&I)) {
        noteEscape(CmpXchg->getNewValOperand());
      } else if (auto *ToInt = dyn_cast<PtrToIntInst>(&I)) {
        if (becomesPointerAgain(ToInt))
          noteEscape(ToInt->getPointerOperand());
      } else if (auto *Call = dyn_cast<CallBase>(&I)) {
        noteCallEscapes(*Call);
      }
    }
}

static Constant *createInt32Array(Module &M, ArrayRef<uint64_t> Values,
                                  const Twine &Name) {
  SmallVector<uint32_t, 8> Narrow(Values.begin(), Values.end());
  return createPrivateConstant(
      M, ConstantDataArray::get(M.getContext(), Narrow), Name);
}

// The version of the module info's layout (docs/InstrumentationABI.md), the
// runtime refuses a module of another: 2 added each field's flags.
static constexpr uint32_t kCacheFragABIVersion = 2;
// field_flags bit 0: the field's address escapes (noteFieldEscapes).
static constexpr uint8_t kFieldAddressEscapes = 1;

Constant *StructFieldTables::createCacheFragModuleInfo(MemberNames &Names) {
  StructType *StructInfoTy = StructType::get(
      Ctx, {PtrTy, Int32Ty, Int32Ty, PtrTy, PtrTy, PtrTy, PtrTy, PtrTy, PtrTy});
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
    // Null when no field escapes, as in most tables.
    Constant *FieldFlags = ConstantPointerNull::get(PtrTy);
    if (is_contained(Table.FieldEscapes, true)) {
      SmallVector<uint8_t, 8> Flags(NumFields, 0);
      for (size_t Field = 0; Field < Table.FieldEscapes.size(); ++Field)
        if (Table.FieldEscapes[Field])
          Flags[Field] = kFieldAddressEscapes;
      FieldFlags = createPrivateConstant(
          M, ConstantDataArray::get(Ctx, Flags), Prefix + ".field_flags");
    }
    StructInfos.push_back(ConstantStruct::get(
        StructInfoTy,
        {createCString(M, Table.HasDebugInfo ? Table.SourceName : Table.Name,
                       Prefix + ".name"),
         ConstantInt::get(Int32Ty, Table.Size),
         ConstantInt::get(Int32Ty, NumFields),
         createInt32Array(M, Table.FieldOffsets, Prefix + ".field_offsets"),
         createInt32Array(M, Table.FieldSizes, Prefix + ".field_sizes"),
         TypeNameArray, Table.Counters, FieldNameArray, FieldFlags}));
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
      StructType::get(Ctx, {Int32Ty, PtrTy, Int32Ty, PtrTy, Int32Ty, PtrTy});
  return new GlobalVariable(
      M, ModuleInfoTy, /*isConstant=*/true, GlobalValue::PrivateLinkage,
      ConstantStruct::get(
          ModuleInfoTy,
          {ConstantInt::get(Int32Ty, kCacheFragABIVersion),
           createCString(M, M.getModuleIdentifier(), "__efsan.module_name"),
           ConstantInt::get(Int32Ty, StructInfos.size()), StructArray,
           ConstantInt::get(Int32Ty, NumGlobals), GlobalArray}),
      "__efsan.cache_frag_module_info");
}
