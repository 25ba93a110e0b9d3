//===- EfficiencySanitizerMemberNames.cpp - cache-frag source names -------===//
//
// Part of the efsan project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file is a part of EfficiencySanitizer (efsan). It owns what the
// cache-frag tool reads from the debug info to name things as the source
// does (MemberNames): a struct field table's source type name, member names
// and member types; the member layouts of globals and of heap allocations
// (below) and the calls that tell the runtime a heap block's type; and the
// debug-info helpers that finding struct fields shares (C++ or not,
// qualified names, the variables holding a pointer, typedefs of anonymous
// structs).
//
// It does not decide which struct field an access goes to nor lay out the
// tables (EfficiencySanitizerStructFields.cpp), and emits no access
// instrumentation (EfficiencySanitizer.cpp).
//
// The debug-info type of a global or of a heap allocation, as a string the
// runtime walks to name the bytes of a finding (`wstats[1].ops`):
//   type   := 'b' size              a scalar (or anything not worth naming)
//           | 'a' count '*' type    an array
//           | 's' size ['`' name '`'] '{' member* '}'   a struct, class or
//                                   union, with its source name if it has one
//   member := offset ':' name '=' type ';'
// Sizes and offsets are decimal bytes; a base class is a member without a
// name. docs/InstrumentationABI.md has the contract.
//
//===----------------------------------------------------------------------===//

#include "EfficiencySanitizerInternal.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;
using namespace llvm::efsan;

static cl::opt<bool> ClCacheFragMemberNames(
    "efsan-cache-frag-member-names",
    cl::desc("cache-frag: describe the debug-info types of globals and of "
             "heap allocations, so that reports name members"),
    cl::init(true), cl::Hidden);

MemberNames::MemberNames(Module &M) : ModuleContext(M) {}

void MemberNames::declareRuntimeFunctions(AttributeList Attrs) {
  CacheFragHeapType = M.getOrInsertFunction("__efsan_cache_frag_heap_type",
                                            Attrs, Type::getVoidTy(Ctx), PtrTy,
                                            PtrTy, PtrTy);
}

// Whether the module's debug info is for C++, where clang names struct types
// by their scope-qualified names.
bool efsan::isCXXModule(const Module &M) {
  for (DICompileUnit *CU : M.debug_compile_units()) {
    unsigned Lang = CU->getSourceLanguage();
    if (Lang == dwarf::DW_LANG_C_plus_plus ||
        Lang == dwarf::DW_LANG_C_plus_plus_03 ||
        Lang == dwarf::DW_LANG_C_plus_plus_11 ||
        Lang == dwarf::DW_LANG_C_plus_plus_14 ||
        Lang == dwarf::DW_LANG_C_plus_plus_17 ||
        Lang == dwarf::DW_LANG_C_plus_plus_20)
      return true;
  }
  return false;
}

// The scope-qualified name of a debug info type (`ns::node`), empty for a
// type inside a function or an anonymous scope, whose LLVM name would not be
// rebuilt the same way.
std::string efsan::qualifiedDebugName(const DIType *Ty) {
  std::string Name = Ty->getName().str();
  for (const DIScope *Scope = Ty->getScope(); Scope;
       Scope = Scope->getScope()) {
    if (isa<DIFile>(Scope) || isa<DICompileUnit>(Scope))
      break;
    if (!isa<DINamespace>(Scope) && !isa<DICompositeType>(Scope))
      return "";
    if (Scope->getName().empty())
      return "";
    Name = (Scope->getName() + "::" + Name).str();
  }
  return Name;
}

// The source variables whose value is exactly the pointer (debug intrinsics
// and records without an expression).
SmallVector<DILocalVariable *, 4> efsan::variablesHolding(Value *Pointer) {
  SmallVector<DbgValueInst *, 4> Intrinsics;
  SmallVector<DbgVariableRecord *, 4> Records;
  findDbgValues(Intrinsics, Pointer, &Records);
  SmallVector<DILocalVariable *, 4> Variables;
  for (DbgValueInst *DVI : Intrinsics)
    if (DVI->getExpression()->getNumElements() == 0)
      Variables.push_back(DVI->getVariable());
  for (DbgVariableRecord *DVR : Records)
    if (DVR->getExpression()->getNumElements() == 0)
      Variables.push_back(DVR->getVariable());
  return Variables;
}

// The typedef's name if Ty is `typedef struct { ... } Name`.
StringRef efsan::typedefOfAnonymousStruct(const DIType *Ty,
                                          DICompositeType *&Struct) {
  auto *Typedef = dyn_cast_or_null<DIDerivedType>(Ty);
  if (!Typedef || Typedef->getTag() != dwarf::DW_TAG_typedef)
    return "";
  Struct = dyn_cast_or_null<DICompositeType>(Typedef->getBaseType());
  if (!Struct || Struct->getTag() != dwarf::DW_TAG_structure_type ||
      !Struct->getName().empty() || Struct->isForwardDecl())
    return "";
  return Typedef->getName();
}

// A type as the source spells it: `long`, `char[16]`, `struct vec`,
// `const char *`, `std::string` (C++ names as the debug info has them).
static std::string sourceTypeName(const DIType *Ty, bool CXX, unsigned Depth = 0) {
  if (!Ty)
    return "void";
  if (Depth > 8)
    return "...";
  if (auto *Basic = dyn_cast<DIBasicType>(Ty))
    return Basic->getName().str();
  if (auto *Derived = dyn_cast<DIDerivedType>(Ty)) {
    std::string Base = sourceTypeName(Derived->getBaseType(), CXX, Depth + 1);
    switch (Derived->getTag()) {
    case dwarf::DW_TAG_typedef:
      return CXX ? qualifiedDebugName(Derived) : Derived->getName().str();
    case dwarf::DW_TAG_pointer_type:
      return Base + " *";
    case dwarf::DW_TAG_reference_type:
      return Base + " &";
    case dwarf::DW_TAG_rvalue_reference_type:
      return Base + " &&";
    // A qualified pointer is qualified after its star: "const char *const".
    case dwarf::DW_TAG_const_type:
      return StringRef(Base).ends_with("*") ? Base + "const" : "const " + Base;
    case dwarf::DW_TAG_volatile_type:
      return StringRef(Base).ends_with("*") ? Base + "volatile"
                                            : "volatile " + Base;
    case dwarf::DW_TAG_atomic_type:
      return "_Atomic(" + Base + ")";
    default:
      return Base;
    }
  }
  if (auto *Composite = dyn_cast<DICompositeType>(Ty)) {
    if (Composite->getTag() == dwarf::DW_TAG_array_type) {
      std::string Dimensions;
      for (DINode *Node : Composite->getElements())
        if (auto *Range = dyn_cast<DISubrange>(Node)) {
          auto *Count = dyn_cast_if_present<ConstantInt *>(Range->getCount());
          Dimensions += Count && Count->getSExtValue() >= 0
                            ? "[" + itostr(Count->getSExtValue()) + "]"
                            : "[]";
        }
      return sourceTypeName(Composite->getBaseType(), CXX, Depth + 1) +
             Dimensions;
    }
    std::string Name = CXX ? qualifiedDebugName(Composite)
                           : Composite->getName().str();
    if (Name.empty())
      Name = "<anonymous>";
    if (CXX)
      return Name;
    switch (Composite->getTag()) {
    case dwarf::DW_TAG_union_type:
      return "union " + Name;
    case dwarf::DW_TAG_enumeration_type:
      return "enum " + Name;
    default:
      return "struct " + Name;
    }
  }
  if (isa<DISubroutineType>(Ty))
    return "function";
  return Ty->getName().str();
}

// Names the table after the source when the debug info has its type: the
// type's name (`struct particle` in C, `ns::node` in C++) and, per field, the
// source members it holds. A field that holds none is padding the compiler
// added (clang inserts `[N x i8]` fields to place over-aligned or packed
// members); only such a field is shown as padding.
void MemberNames::addDebugNames(StructFieldTable &Table) {
  if (!DebugStructs) {
    DebugStructs.emplace();
    DebugStructSourceNames.emplace();
    ModuleIsCXX = isCXXModule(M);
    DebugInfoFinder Finder;
    Finder.processModule(M);
    for (DIType *Ty : Finder.types()) {
      DICompositeType *Struct = nullptr;
      std::string LLVMName, SourceName;
      StringRef TypedefName = typedefOfAnonymousStruct(Ty, Struct);
      if (!TypedefName.empty()) {
        SourceName =
            ModuleIsCXX ? qualifiedDebugName(Ty) : TypedefName.str();
        if (SourceName.empty())
          continue;
        LLVMName = "struct." + SourceName;
      } else {
        Struct = dyn_cast<DICompositeType>(Ty);
        if (!Struct || Struct->isForwardDecl() || Struct->getName().empty())
          continue;
        StringRef Kind;
        switch (Struct->getTag()) {
        case dwarf::DW_TAG_structure_type:
          Kind = "struct";
          break;
        case dwarf::DW_TAG_class_type:
          Kind = "class";
          break;
        case dwarf::DW_TAG_union_type:
          Kind = "union";
          break;
        default:
          continue;
        }
        std::string Qualified = ModuleIsCXX ? qualifiedDebugName(Struct)
                                            : Struct->getName().str();
        if (Qualified.empty())
          continue;
        LLVMName = (Kind + "." + Qualified).str();
        SourceName = ModuleIsCXX ? Qualified : (Kind + " " + Qualified).str();
      }
      SmallVector<DICompositeType *, 1> &Known = (*DebugStructs)[LLVMName];
      if (!is_contained(Known, Struct))
        Known.push_back(Struct);
      (*DebugStructSourceNames)[LLVMName] = SourceName;
    }
    // A struct with no name that a variable has (`static struct {...} g;`,
    // pigz's global state): LLVM calls its type struct.anon[.N], which no
    // debug name matches; it is named after the first global of it (or of
    // an array of it), `struct <anonymous> g`, with its members.
    for (GlobalVariable &G : M.globals()) {
      SmallVector<DIGlobalVariableExpression *, 1> Expressions;
      G.getDebugInfo(Expressions);
      Type *Ty = G.getValueType();
      while (auto *Array = dyn_cast<ArrayType>(Ty))
        Ty = Array->getElementType();
      auto *LLVMStruct = dyn_cast<StructType>(Ty);
      if (Expressions.empty() || !LLVMStruct || !LLVMStruct->hasName() ||
          DebugStructs->count(LLVMStruct->getName()))
        continue;
      DIVariable *Variable = Expressions[0]->getVariable();
      DIType *DITy = Variable->getType();
      for (;;) {
        if (auto *Derived = dyn_cast_or_null<DIDerivedType>(DITy);
            Derived && (Derived->getTag() == dwarf::DW_TAG_const_type ||
                        Derived->getTag() == dwarf::DW_TAG_volatile_type)) {
          DITy = Derived->getBaseType();
          continue;
        }
        if (auto *Array = dyn_cast_or_null<DICompositeType>(DITy);
            Array && Array->getTag() == dwarf::DW_TAG_array_type) {
          DITy = Array->getBaseType();
          continue;
        }
        break;
      }
      auto *Struct = dyn_cast_or_null<DICompositeType>(DITy);
      if (!Struct || !Struct->getName().empty() || Struct->isForwardDecl() ||
          (Struct->getTag() != dwarf::DW_TAG_structure_type &&
           Struct->getTag() != dwarf::DW_TAG_union_type) ||
          Variable->getName().empty())
        continue;
      (*DebugStructs)[LLVMStruct->getName()].push_back(Struct);
      (*DebugStructSourceNames)[LLVMStruct->getName()] =
          (Struct->getTag() == dwarf::DW_TAG_union_type ? "union <anonymous> "
                                                         : "struct <anonymous> ") +
          Variable->getName().str();
    }
  }
  auto Found = DebugStructs->find(Table.Name);
  if (Found == DebugStructs->end())
    return;
  // The one type of that name and size: an exact layout has the type's
  // size; a TBAA-only one ends at the end of the last access seen.
  DICompositeType *Struct = nullptr;
  for (DICompositeType *Candidate : Found->second) {
    uint64_t Size = Candidate->getSizeInBits() / 8;
    if (Table.ExactLayout ? Size != Table.Size : Size < Table.Size)
      continue;
    if (Struct)
      return; // ambiguous: no names rather than wrong ones
    Struct = Candidate;
  }
  if (!Struct)
    return;
  struct DebugMember {
    uint64_t Offset;
    StringRef Name;
    const DIDerivedType *Member;
  };
  SmallVector<DebugMember, 8> Members;
  for (DINode *Element : Struct->getElements()) {
    auto *Member = dyn_cast_or_null<DIDerivedType>(Element);
    if (!Member || Member->getTag() != dwarf::DW_TAG_member ||
        Member->isStaticMember())
      continue;
    StringRef Name = Member->getName();
    Members.push_back({Member->getOffsetInBits() / 8,
                       Name.empty() ? StringRef("<anonymous>") : Name,
                       Member});
  }
  if (Members.empty())
    return; // a declaration: every field would look like padding
  Table.FieldNames.clear();
  for (size_t Field = 0, N = Table.FieldOffsets.size(); Field < N; ++Field) {
    uint64_t Begin = Table.FieldOffsets[Field];
    uint64_t End = Begin + std::max<uint64_t>(Table.FieldSizes[Field], 1);
    // Bit-fields share a field; a union's members all start at 0.
    std::string Names;
    const DIDerivedType *Only = nullptr;
    unsigned Count = 0;
    for (const DebugMember &Member : Members)
      if (Member.Offset >= Begin && Member.Offset < End) {
        Names += (Names.empty() ? "" : ",") + Member.Name.str();
        Only = Member.Member;
        Count++;
      }
    Table.FieldNames.push_back(Names);
    // One member (not bit-fields sharing a unit): its source type.
    if (Count == 1 && !Only->isBitField() && Field < Table.FieldTypeNames.size())
      Table.FieldTypeNames[Field] =
          sourceTypeName(Only->getBaseType(), ModuleIsCXX);
  }
  Table.HasDebugInfo = true;
  Table.SourceName = (*DebugStructSourceNames)[Table.Name];
}

static const DIType *withoutTypedefs(const DIType *Ty) {
  while (auto *Derived = dyn_cast_or_null<DIDerivedType>(Ty)) {
    switch (Derived->getTag()) {
    case dwarf::DW_TAG_typedef:
    case dwarf::DW_TAG_const_type:
    case dwarf::DW_TAG_volatile_type:
    case dwarf::DW_TAG_restrict_type:
    case dwarf::DW_TAG_atomic_type:
      Ty = Derived->getBaseType();
      continue;
    default:
      return Ty;
    }
  }
  return Ty;
}

// Deeper types are named down to this depth; a layout longer than the limit
// is only its size (a huge struct is not worth a huge string per module).
static constexpr unsigned kMaxLayoutDepth = 8;
static constexpr size_t kMaxLayoutLength = 8192;

std::string MemberNames::memberLayout(const DIType *Ty) {
  Ty = withoutTypedefs(Ty);
  if (!Ty)
    return "";
  auto It = MemberLayouts.find(Ty);
  if (It != MemberLayouts.end())
    return It->second;
  std::string Layout = memberLayoutOf(Ty, 0);
  if (Layout.size() > kMaxLayoutLength)
    Layout = "b" + utostr(Ty->getSizeInBits() / 8);
  // A type a C++ unit declares is marked, so that the report's advice is
  // spelt in C++ (alignas(64), not C's _Alignas(64)).
  if (isCXXModule(M))
    Layout = "+" + Layout;
  MemberLayouts[Ty] = Layout;
  return Layout;
}

std::string MemberNames::memberLayoutOf(const DIType *Ty, unsigned Depth) {
  // `typedef struct {...} name_t`: the struct is known by the typedef.
  StringRef TypedefName;
  for (auto *Derived = dyn_cast_or_null<DIDerivedType>(Ty); Derived;
       Derived = dyn_cast_or_null<DIDerivedType>(Derived->getBaseType()))
    if (Derived->getTag() == dwarf::DW_TAG_typedef) {
      TypedefName = Derived->getName();
      break;
    }
  Ty = withoutTypedefs(Ty);
  if (!Ty)
    return "";
  uint64_t Size = Ty->getSizeInBits() / 8;
  auto *Composite = dyn_cast<DICompositeType>(Ty);
  if (!Composite || Depth >= kMaxLayoutDepth ||
      Composite->getTag() == dwarf::DW_TAG_enumeration_type)
    return Size ? "b" + utostr(Size) : "";
  if (Composite->isForwardDecl() || !Size)
    return "";
  if (Composite->getTag() == dwarf::DW_TAG_array_type) {
    std::string Element = memberLayoutOf(Composite->getBaseType(), Depth + 1);
    if (Element.empty())
      return "b" + utostr(Size);
    std::string Dimensions;
    for (DINode *Node : Composite->getElements()) {
      auto *Range = dyn_cast<DISubrange>(Node);
      if (!Range)
        return "b" + utostr(Size);
      int64_t Count = 0; // a flexible array member: no elements
      if (auto *C = dyn_cast_if_present<ConstantInt *>(Range->getCount()))
        Count = std::max<int64_t>(C->getSExtValue(), 0);
      Dimensions += "a" + utostr(Count) + "*";
    }
    return Dimensions + Element;
  }
  std::string SourceName;
  if (!Composite->getName().empty()) {
    if (isCXXModule(M))
      SourceName = qualifiedDebugName(Composite);
    else
      SourceName =
          (Composite->getTag() == dwarf::DW_TAG_union_type ? "union " : "struct ") +
          Composite->getName().str();
  } else {
    SourceName = TypedefName.str();
  }
  if (SourceName.find_first_of("`{") != std::string::npos)
    SourceName.clear();
  std::string Layout = "s" + utostr(Size);
  if (!SourceName.empty())
    Layout += "`" + SourceName + "`";
  Layout += "{";
  // The C++ library's types are named, not opened: `_M_i` of a std::atomic
  // means nothing to a user.
  if (StringRef(SourceName).starts_with("std::") ||
      StringRef(SourceName).starts_with("__gnu_cxx::"))
    return Layout + "}";
  for (DINode *Node : Composite->getElements()) {
    auto *Member = dyn_cast<DIDerivedType>(Node);
    if (!Member || Member->isStaticMember() ||
        (Member->getTag() != dwarf::DW_TAG_member &&
         Member->getTag() != dwarf::DW_TAG_inheritance))
      continue;
    std::string Type;
    uint64_t Offset = Member->getOffsetInBits() / 8;
    if (Member->isBitField()) {
      // The bytes the bit-field's bits are in.
      uint64_t First = Member->getOffsetInBits() / 8;
      uint64_t End = (Member->getOffsetInBits() + Member->getSizeInBits() + 7) / 8;
      Offset = First;
      Type = "b" + utostr(End - First);
    } else {
      Type = memberLayoutOf(Member->getBaseType(), Depth + 1);
    }
    if (Type.empty())
      continue;
    StringRef Name =
        Member->getTag() == dwarf::DW_TAG_inheritance ? "" : Member->getName();
    Layout += utostr(Offset) + ":" + Name.str() + "=" + Type + ";";
    if (Layout.size() > kMaxLayoutLength)
      return "b" + utostr(Size);
  }
  return Layout + "}";
}

Constant *MemberNames::layoutString(const std::string &Layout) {
  Constant *&String = LayoutStrings[Layout];
  if (!String)
    String = createCString(M, Layout, "__efsan.layout");
  return String;
}

// The member of Ty at [Offset, Offset + Size) as a source path (`.items`,
// `[2].x`) and its type: a global that the optimiser split into one global
// per member (`totals.0`) is a fragment of the source variable.
static const DIType *memberAt(const DIType *Ty, uint64_t Offset, uint64_t Size,
                              std::string &Path) {
  for (unsigned Depth = 0; Depth < kMaxLayoutDepth; ++Depth) {
    Ty = withoutTypedefs(Ty);
    if (!Ty)
      return nullptr;
    uint64_t TySize = Ty->getSizeInBits() / 8;
    if (Offset == 0 && Size == TySize)
      return Ty;
    auto *Composite = dyn_cast<DICompositeType>(Ty);
    if (!Composite)
      return nullptr;
    if (Composite->getTag() == dwarf::DW_TAG_array_type) {
      const DIType *Element = withoutTypedefs(Composite->getBaseType());
      uint64_t ElementSize = Element ? Element->getSizeInBits() / 8 : 0;
      if (!ElementSize || Composite->getElements().size() != 1)
        return nullptr;
      Path += "[" + utostr(Offset / ElementSize) + "]";
      Offset %= ElementSize;
      Ty = Element;
      continue;
    }
    const DIDerivedType *Holder = nullptr;
    for (DINode *Node : Composite->getElements()) {
      auto *Member = dyn_cast<DIDerivedType>(Node);
      if (!Member || Member->isStaticMember() || Member->isBitField() ||
          Member->getTag() != dwarf::DW_TAG_member)
        continue;
      uint64_t Start = Member->getOffsetInBits() / 8;
      uint64_t End = Start + Member->getSizeInBits() / 8;
      if (Offset >= Start && Offset + Size <= End) {
        Holder = Member;
        break;
      }
    }
    if (!Holder)
      return nullptr;
    if (!Holder->getName().empty())
      Path += "." + Holder->getName().str();
    Offset -= Holder->getOffsetInBits() / 8;
    Ty = Holder->getBaseType();
  }
  return nullptr;
}

// {address, source name, layout} of every global of the module with a
// struct or array type in its debug info, or that holds one member of a
// source variable.
std::pair<Constant *, unsigned> MemberNames::createGlobalLayouts() {
  StructType *EntryTy = StructType::get(Ctx, {PtrTy, PtrTy, PtrTy});
  SmallVector<Constant *, 16> Entries;
  if (ClCacheFragMemberNames) {
    for (GlobalVariable &G : M.globals()) {
      // Constants are never written: no finding names them.
      if (G.isDeclaration() || G.isConstant() ||
          G.getName().starts_with("__efsan") || G.isThreadLocal())
        continue;
      SmallVector<DIGlobalVariableExpression *, 1> Expressions;
      G.getDebugInfo(Expressions);
      for (DIGlobalVariableExpression *Expression : Expressions) {
        DIGlobalVariable *Variable = Expression->getVariable();
        if (!Variable)
          continue;
        const DIType *Ty = withoutTypedefs(Variable->getType());
        std::string Name = Variable->getName().str();
        if (auto Fragment = Expression->getExpression()->getFragmentInfo()) {
          if (Fragment->OffsetInBits % 8 || Fragment->SizeInBits % 8)
            break;
          Ty = memberAt(Ty, Fragment->OffsetInBits / 8,
                        Fragment->SizeInBits / 8, Name);
        } else if (Expression->getExpression()->getNumElements() ||
                   !isa_and_nonnull<DICompositeType>(Ty)) {
          continue;
        }
        std::string Layout = Ty ? memberLayout(Ty) : "";
        if (Layout.empty())
          break;
        Entries.push_back(ConstantStruct::get(
            EntryTy, {&G, createCString(M, Name, "__efsan.global_name"),
                      layoutString(Layout)}));
        break;
      }
    }
  }
  if (Entries.empty())
    return {ConstantPointerNull::get(PtrTy), 0};
  auto *ArrayTy = ArrayType::get(EntryTy, Entries.size());
  return {new GlobalVariable(M, ArrayTy, /*isConstant=*/true,
                             GlobalValue::PrivateLinkage,
                             ConstantArray::get(ArrayTy, Entries),
                             "__efsan.global_layouts"),
          (unsigned)Entries.size()};
}

static bool isAllocationFunctionName(StringRef Name) {
  return Name == "malloc" || Name == "calloc" || Name == "realloc" ||
         Name == "aligned_alloc" || Name == "memalign" || Name == "valloc" ||
         Name == "reallocarray" || Name.starts_with("_Znw") ||
         Name.starts_with("_Zna");
}

// Code and variables of the system's headers (the C++ library's containers
// allocate for the program): their names mean nothing to a user.
static bool inSystemHeader(const DIFile *File) {
  if (!File)
    return false;
  StringRef Name = File->getFilename();
  return Name.starts_with("/usr/") ||
         (!Name.starts_with("/") && File->getDirectory().starts_with("/usr/"));
}

// The type a new heap block is used as, and the name of what holds it: a
// new-expression's allocated type (clang's heapallocsite), or in C the type
// a pointer variable or pointer global holding the block points to.
static std::pair<const DIType *, StringRef> allocatedType(CallBase *Call) {
  if (const DILocation *Loc = Call->getDebugLoc())
    if (inSystemHeader(Loc->getFile()))
      return {nullptr, ""};
  auto *NewType = dyn_cast_or_null<DIType>(Call->getMetadata("heapallocsite"));
  auto Pointee = [](const DIType *Ty) -> const DIType * {
    auto *Pointer = dyn_cast_or_null<DIDerivedType>(withoutTypedefs(Ty));
    if (!Pointer || Pointer->getTag() != dwarf::DW_TAG_pointer_type)
      return nullptr;
    return withoutTypedefs(Pointer->getBaseType());
  };
  for (DILocalVariable *Variable : variablesHolding(Call))
    if (!inSystemHeader(Variable->getFile()))
      if (const DIType *Ty = Pointee(Variable->getType()))
        return {NewType ? NewType : Ty, Variable->getName()};
  for (User *U : Call->users()) {
    auto *Store = dyn_cast<StoreInst>(U);
    if (!Store || Store->getValueOperand() != Call)
      continue;
    auto *G = dyn_cast<GlobalVariable>(Store->getPointerOperand());
    if (!G)
      continue;
    SmallVector<DIGlobalVariableExpression *, 1> Expressions;
    G->getDebugInfo(Expressions);
    for (DIGlobalVariableExpression *Expression : Expressions)
      if (DIGlobalVariable *Variable = Expression->getVariable())
        if (const DIType *Ty = Pointee(Variable->getType()))
          return {NewType ? NewType : Ty, Variable->getName()};
  }
  return {NewType, ""};
}

// After each allocation whose type the debug info tells, the runtime learns
// the type of the block (once per allocation stack): a finding on the block
// then names members.
void MemberNames::describeHeapAllocations(Function &F) {
  if (!ClCacheFragMemberNames)
    return;
  SmallVector<std::pair<CallBase *, std::pair<const DIType *, StringRef>>, 4>
      Allocations;
  for (Instruction &I : instructions(F)) {
    auto *Call = dyn_cast<CallBase>(&I);
    Function *Callee = Call ? Call->getCalledFunction() : nullptr;
    if (!Callee || !isAllocationFunctionName(Callee->getName()) ||
        !Call->getType()->isPointerTy())
      continue;
    auto Found = allocatedType(Call);
    if (Found.first)
      Allocations.push_back({Call, Found});
  }
  for (auto &[Call, Found] : Allocations) {
    std::string Layout = memberLayout(Found.first);
    if (Layout.empty())
      continue;
    // Without a variable, the block is named by its type: `Counter[1].hits`.
    std::string Holder = Found.second.str();
    if (Holder.empty())
      Holder = Found.first->getName().str();
    Instruction *After = nullptr;
    if (auto *Invoke = dyn_cast<InvokeInst>(Call)) {
      BasicBlock *Normal = Invoke->getNormalDest();
      if (!Normal->getSinglePredecessor())
        continue;
      After = &*Normal->getFirstInsertionPt();
    } else {
      After = Call->getNextNode();
    }
    IRBuilder<> IRB(After);
    IRB.SetCurrentDebugLocation(Call->getDebugLoc());
    markNoSanitize(IRB.CreateCall(
        CacheFragHeapType,
        {Call, layoutString(Layout),
         createCString(M, Holder, "__efsan.heap_holder")}));
  }
}
