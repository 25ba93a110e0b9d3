//===- EfficiencySanitizerInternal.h - efsan pass internals -----*- C++ -*-===//
//
// Part of the efsan project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Private to the EfficiencySanitizer pass: what its files share. It owns the
// shadow mapping constants, the description of one memory access, the module
// context every part builds IR with, and the interfaces between the parts:
//
//  - EfficiencySanitizer.cpp: the pass entry, the module's runtime
//    declarations and constructor, and the instrumentation of each access
//    (working-set checks and their fast paths);
//  - EfficiencySanitizerLoopRanges.cpp: working-set loop-level marking
//    (LoopRangeMarker);
//  - EfficiencySanitizerCountdown.cpp: cache-frag's sampling countdown
//    (CacheFragCountdown);
//  - EfficiencySanitizerStructFields.cpp: cache-frag's struct field tables
//    and the field each access counts for (StructFieldTables);
//  - EfficiencySanitizerMemberNames.cpp: cache-frag's source names of types
//    and members, from the debug info (MemberNames);
//  - EfficiencySanitizerCompares.cpp: the working set's inline checks of
//    memcmp and bcmp, called past the interceptor;
//  - EfficiencySanitizerAllocWrappers.cpp: the program's allocation wrappers
//    (both tools), found by their shape and registered with the runtime.
//
// It owns no IR emission itself; the contract of what is emitted is
// docs/InstrumentationABI.md.
//
//===----------------------------------------------------------------------===//

#ifndef LLVM_LIB_TRANSFORMS_INSTRUMENTATION_EFFICIENCYSANITIZERINTERNAL_H
#define LLVM_LIB_TRANSFORMS_INSTRUMENTATION_EFFICIENCYSANITIZERINTERNAL_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Transforms/Instrumentation/EfficiencySanitizer.h"
#include <optional>

namespace llvm {
class DICompositeType;
class DILocalVariable;
class DIType;
class Loop;
class ScalarEvolution;
class TargetLibraryInfo;
class TargetTransformInfo;
class SCEV;
class SCEVExpander;

namespace efsan {

// Shadow mapping and working-set bits; see docs/InstrumentationABI.md. The
// offset is below 2^31 so that it is the displacement of the shadow load
// (testb $1, 0x7fff8000(%reg)) instead of a 64-bit constant held in a
// register through every instrumented loop.
static constexpr uint64_t kShadowScale = 6; // 64-byte cache lines
static constexpr uint64_t kShadowOffset = 0x7fff8000ULL;
static constexpr uint8_t kWorkingSetSampledBit = 0x01; // since last sample
static constexpr uint8_t kWorkingSetAccessBits = 0x81; // sampled | ever
// The working set's changed-page map: one byte per 4 KiB page of shadow at
// (shadow >> 12) + kDirtyMapDelta, i.e. from 0x82000000 on (the shadow of
// the shadow, which no application address maps to).
static constexpr uint64_t kShadowPageShift = 12;
static constexpr uint64_t kDirtyMap = 0x82000000ULL;
static constexpr uint64_t kDirtyMapDelta =
    kDirtyMap - (kShadowOffset >> kShadowPageShift);

/// What the pass knows about one instrumented memory access.
struct MemoryAccess {
  Instruction *I;
  Value *Addr;
  Type *AccessTy; // the loaded/stored value's type
  uint64_t Size;  // bytes
  Align Alignment;
  bool IsWrite;
};

/// A run of accesses: the instruction the run ends before, and the accesses
/// in program order.
using AccessRun = std::pair<Instruction *, SmallVector<MemoryAccess, 8>>;

/// The access I makes if the pass instruments it (EfficiencySanitizer.cpp
/// decides which accesses it instruments).
using AccessDescriber =
    function_ref<std::optional<MemoryAccess>(Instruction &I)>;

/// The module being instrumented and the types the pass builds IR with.
struct ModuleContext {
  explicit ModuleContext(Module &M);
  Module &M;
  LLVMContext &Ctx;
  const DataLayout &DL;
  IntegerType *Int8Ty, *Int32Ty, *Int64Ty, *IntptrTy;
  PointerType *PtrTy;
  MDNode *UnlikelyWeights;
};

/// Marks the functions that the -efsan-ignorelist= files take out of Tool
/// no_sanitize_efficiency, as a clang with efsan built in marks those of
/// -fsanitize-ignorelist=. Whether a function changed.
bool applyIgnorelists(Module &M, EfficiencySanitizerOptions::Type Tool);

/// Tags an instruction the pass emitted so that no later instrumentation
/// (nor a second run of the pass) touches it.
void markNoSanitize(Instruction *I);

/// Working set: checks the line of Addr before InsertBefore and marks it in
/// a cold block if it lacks bit 0 (an access within one line).
void emitWorkingSetFastPath(const ModuleContext &MC, Instruction *InsertBefore,
                            Value *Addr);
/// The same for the lines of Addr and Addr + LastOffset (an intptr, 0 to
/// 63): the bytes of an access of at most 64 bytes.
void emitWorkingSetTwoLineFastPath(const ModuleContext &MC,
                                   Instruction *InsertBefore, Value *Addr,
                                   Value *LastOffset);

/// Working set, memcmp and bcmp (EfficiencySanitizerCompares.cpp): whether
/// the pass checks a call's ranges inline (-efsan-inline-compares: a size
/// that is not a constant, or one from 1 to 64), and those checks with the
/// call past the interceptor for one such call. TTI and TLI (may be null)
/// tell which calls of a constant size codegen expands into loads.
bool isWorkingSetCompare(const CallInst &CI);
void instrumentWorkingSetCompare(const ModuleContext &MC, CallInst *CI,
                                 const TargetTransformInfo *TTI,
                                 const TargetLibraryInfo *TLI);

/// Miss-ratio curves (docs/InstrumentationABI.md): whether the line of the
/// shadow byte at ShadowInt is observed, and the runtime's marking of the
/// shadow bytes [First, Last] (intptrs), which records those accesses.
static constexpr uint64_t kMrcHash = 0x9e3779b97f4a7c15ULL;
static constexpr const char *kMrcThresholdName = "__efsan_mrc_threshold";
static constexpr const char *kMarkLinesName = "__efsan_ws_mark_lines";
/// __efsan_ws_mrc_table_hits(line, n): n accesses to the observed line at
/// address line, counted by a loop's counting copy (preserve_all).
static constexpr const char *kTableHitsName = "__efsan_ws_mrc_table_hits";
/// __efsan_ws_table_unmarked(first, end): of the shadow bytes [first, end),
/// 0 if each has bit 0, 1 if two or more lack it, else the address of the
/// only one lacking it (preserve_all).
static constexpr const char *kTableUnmarkedName = "__efsan_ws_table_unmarked";
Value *emitObservedTest(const ModuleContext &MC, IRBuilder<> &IRB,
                        Value *ShadowInt);
void emitMarkLinesCall(const ModuleContext &MC, IRBuilder<> &IRB,
                       Value *First, Value *Last);
/// A call of the runtime's preserve_all, nonlazybind function Name.
CallInst *emitPreserveAllCall(const ModuleContext &MC, IRBuilder<> &IRB,
                              StringRef Name, Type *Result,
                              ArrayRef<Value *> Args);

/// changed[shadow >> 12] = 1 for the shadow byte at ShadowInt (an intptr).
void emitChangedPageMark(IRBuilder<> &IRB, Value *ShadowInt);

/// A private, unnamed_addr constant, and one that holds a C string.
GlobalVariable *createPrivateConstant(Module &M, Constant *Init,
                                      const Twine &Name);
Constant *createCString(Module &M, StringRef Str, const Twine &Name);

/// Registers the module's allocation wrappers (those recorded before
/// inlining and those found now) from the module constructor Ctor.
void registerAllocationWrappers(Module &M, Function *Ctor);

// Debug-info helpers (EfficiencySanitizerMemberNames.cpp) that finding a
// struct field uses too.
bool isCXXModule(const Module &M);
std::string qualifiedDebugName(const DIType *Ty);
SmallVector<DILocalVariable *, 4> variablesHolding(Value *Pointer);
StringRef typedefOfAnonymousStruct(const DIType *Ty, DICompositeType *&Struct);

/// A struct type whose fields the cache-frag tool counts, with the layout
/// the runtime prints next to the counts.
struct StructFieldTable {
  std::string Name;
  uint64_t Size = 0;
  SmallVector<uint64_t, 8> FieldOffsets;
  SmallVector<uint64_t, 8> FieldSizes;
  SmallVector<std::string, 8> FieldTypeNames;
  GlobalVariable *Counters = nullptr; // [num_fields x i64]
  bool ExactLayout = false; // from an LLVM struct type, not only from TBAA
  // From the debug info, when the module has it for this type: the name as
  // the source spells it and each field's member name(s), empty for a field
  // no source member is in (padding the compiler added).
  bool HasDebugInfo = false;
  std::string SourceName;
  SmallVector<std::string, 8> FieldNames;
  // Fields whose address leaves the accesses the pass attributes (passed to
  // a call, stored, returned, ...): their counts miss what is done through
  // it. Indexed like FieldOffsets; shorter when the last fields do not.
  SmallVector<bool, 8> FieldEscapes;
};

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

/// The counter an access hands the runtime with its flags' span bits.
struct FieldCounter {
  Constant *Address; // null: the access goes to no counted field
  uint32_t SpanFlags = 0;
};

class MemberNames;

/// Cache-frag struct field tables: the struct field each access goes to, the
/// table (layout and counters) of every struct met, and the module info
/// that hands the tables to the runtime. It owns the tables and the lookups
/// (LLVM types, TBAA, debug-info pointer variables) behind them.
class StructFieldTables : ModuleContext {
public:
  explicit StructFieldTables(Module &M);
  /// The counter of the field the access goes to, or null.
  FieldCounter fieldCounter(const MemoryAccess &Access);
  /// Before F is instrumented: flags the fields whose address (or a pointer
  /// derived from it) F lets go where the pass cannot follow it.
  void noteFieldEscapes(Function &F);
  /// The module's cache-frag info: its tables (named by Names) and globals.
  Constant *createCacheFragModuleInfo(MemberNames &Names);

private:
  std::optional<FieldRef> findStructField(const MemoryAccess &Access);
  std::optional<FieldRef> findFieldFromGEP(Value *Addr, uint64_t AccessSize);
  std::optional<FieldRef> findFieldFromTBAA(const MemoryAccess &Access);
  std::optional<FieldRef> findFieldFromAddress(const MemoryAccess &Access);
  std::optional<StructOffset> findStructAtAddress(Value *Addr);
  std::optional<StructOffset>
  findOutermostStruct(Value *Addr, bool &ThroughFieldIndex, bool Loose = false,
                      uint64_t *SmallestStride = nullptr);
  std::optional<StructOffset> findPointedStruct(Value *Pointer,
                                                bool &IntoMember);
  void noteEscape(Value *Pointer);
  void noteRangeEscape(Value *Pointer, Value *Length);
  void noteCallEscapes(CallBase &Call);
  bool parameterPointsIntoStruct(const CallBase &Call, unsigned ArgNo,
                                 StructType *Struct);
  void markEscaping(StructOffset Found, uint64_t Length);
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

  // Cache-frag struct tables, in the order the pass met them.
  SmallVector<std::unique_ptr<StructFieldTable>, 8> StructTables;
  StringMap<StructFieldTable *> StructTableByName;
  // Anonymous structs behind a typedef, from the debug info (built on first
  // use), and the typedef name found for each anonymous TBAA base type.
  std::optional<SmallVector<std::pair<StringRef, DICompositeType *>, 8>>
      TypedefedAnonymousStructs;
  DenseMap<const MDNode *, std::string> TypedefNameOfTBAABase;
};

/// Cache-frag sampling: the thread-local countdown, each function's copy of
/// it (a register once promoted), the count-down of each run of accesses and
/// the cold block that hands a sample to the runtime, and the syncs with the
/// thread's countdown around calls, at landing pads and at exits.
struct CleanLoopPlan;  // EfficiencySanitizerCountdown.cpp
struct BudgetLoopPlan; // EfficiencySanitizerCountdown.cpp

class CacheFragCountdown : ModuleContext {
public:
  /// A call of a libc string function whose interceptor counts Ranges
  /// ranges off the countdown when it samples none of them.
  struct LibcCall {
    CallInst *Call;
    unsigned Ranges;
  };
  /// The ranges the interceptor counts for CI, if CI may call libc's
  /// function directly (docs/Pass.md, "libc string calls").
  static std::optional<unsigned> directLibcCallRanges(const CallInst &CI,
                                                      const TargetLibraryInfo &TLI);

  CacheFragCountdown(Module &M, StructFieldTables &StructFields);
  void declareRuntimeFunctions(AttributeList Attrs);
  /// Counts down F's runs (each ends before a call site or terminator),
  /// syncs the copy at CallSites, LandingPads and Exits, and counts down
  /// LibcCalls, which call libc directly when none of their ranges is sampled.
  void instrumentFunction(Function &F, ArrayRef<AccessRun> AccessRuns,
                          ArrayRef<CallBase *> CallSites,
                          ArrayRef<LibcCall> LibcCalls,
                          ArrayRef<LandingPadInst *> LandingPads,
                          ArrayRef<Instruction *> Exits);
  /// First for each function: innermost loops that qualify get a clean
  /// copy for the iterations no sample falls in (before the accesses are
  /// collected: the copy's are nosanitize). IsAccess tells the accesses
  /// that will be instrumented, IsCallSite the call sites.
  bool versionCleanLoops(Function &F, FunctionAnalysisManager *FAM,
                         function_ref<bool(Instruction &)> IsAccess,
                         function_ref<bool(Instruction &)> IsCallSite);
  /// Last for each function: its copy of the countdown becomes SSA values.
  void promoteCountdown(Function &F);
  /// __efsan_cache_frag_access(Addr, Size, flags, Field's counter).
  void emitCacheFragAccess(IRBuilder<> &IRB, Value *Addr, Value *Size,
                           bool IsWrite, FieldCounter Field,
                           uint32_t LockedRMWFlag = 0,
                           uint32_t LoopWorkFlags = 0);
  /// First of all for each function: each write in a loop is marked with
  /// the instructions per write of its innermost loop (flags bits 16-23 of
  /// its access call), the accesses (IsAccess) per write in quarters (bits
  /// 24-31), and bit 3 where that loop writes its address more than once
  /// per iteration.
  void markLoopWork(Function &F, FunctionAnalysisManager *FAM,
                    function_ref<bool(Instruction &)> IsAccess);

private:
  static uint32_t loopWorkFlags(const Instruction &I);
  void emitCleanLoop(Function &F, const CleanLoopPlan &Plan);
  void emitBudgetLoop(Function &F, const BudgetLoopPlan &Plan);
  void instrumentCacheFragRun(Instruction *End,
                              ArrayRef<MemoryAccess> Accesses);
  Instruction *countDownInMemory(Instruction *End, uint64_t N);
  ArrayRef<MemoryAccess> rematerializeAddresses(ArrayRef<MemoryAccess> Accesses,
                                                Instruction *InsertPt);
  void instrumentCacheFragCallSite(CallBase *Call);
  void instrumentDirectLibcCall(const LibcCall &Libc);
  void emitCacheFragAccess(IRBuilder<> &IRB, const MemoryAccess &Access,
                           FieldCounter Field);
  Value *loadLocalCountdown(IRBuilder<> &IRB);
  void storeLocalCountdown(IRBuilder<> &IRB, Value *Count);
  LoadInst *loadThreadCountdown(IRBuilder<> &IRB);
  void storeThreadCountdown(IRBuilder<> &IRB, Value *Count);
  void reloadCountdown(IRBuilder<> &IRB);
  void writeBackCountdown(IRBuilder<> &IRB);

  StructFieldTables &StructFields;
  FunctionCallee CacheFragAccess;
  GlobalVariable *Countdown = nullptr; // the thread's countdown (TLS)

  // Per function: the slot that holds the function's copy of the countdown
  // until promoteCountdown() turns it into SSA values (null in a function
  // with no run of accesses), and the thread-local loads and stores emitted
  // for it.
  AllocaInst *CountdownSlot = nullptr;
  // An optnone function (clang -O0) counts down in the thread's countdown
  // itself: no copy, no syncs (see instrumentFunction).
  bool InMemory = false;
  SmallVector<MemoryAccess, 8> ColdAccesses; // a run's, addresses recomputed
  SmallPtrSet<LoadInst *, 16> ThreadCountdownLoads;
  SmallVector<StoreInst *, 16> ThreadCountdownStores;
};

/// Cache-frag, source names from the debug info: a struct field table's
/// source type name, member names and member types, and the member layouts
/// of globals and heap allocations that let the runtime name the bytes of a
/// finding. It owns the debug-info lookups behind them (built on first use)
/// and the calls that tell the runtime a heap block's type.
class MemberNames : ModuleContext {
public:
  explicit MemberNames(Module &M);
  void declareRuntimeFunctions(AttributeList Attrs);
  /// Names Table after the source when the debug info has its type.
  void addDebugNames(StructFieldTable &Table);
  /// The module's array of {global, source name, layout} and its length.
  std::pair<Constant *, unsigned> createGlobalLayouts();
  /// After each allocation whose type the debug info tells, a call that
  /// tells the runtime the block's type.
  void describeHeapAllocations(Function &F);

private:
  std::string memberLayout(const DIType *Ty);
  std::string memberLayoutOf(const DIType *Ty, unsigned Depth);
  Constant *layoutString(const std::string &Layout);

  FunctionCallee CacheFragHeapType;
  DenseMap<const DIType *, std::string> MemberLayouts;
  StringMap<Constant *> LayoutStrings;
  // Debug info struct types by the LLVM name clang gives them (built on first
  // use); several types under one name are told apart by size.
  std::optional<StringMap<SmallVector<DICompositeType *, 1>>> DebugStructs;
  std::optional<StringMap<std::string>> DebugStructSourceNames;
  bool ModuleIsCXX = false;
};

struct ExpandedRange; // a loop's range, expanded before it (markLoopRanges)
struct LoopRangePlan;
struct TableCounting;
/// Bytes that one or more accesses of a loop with the same stride touch in
/// iteration i: [Base + Stride * i, Base + Stride * i + Width), every line of
/// them (Base is the lowest of their addresses in iteration 0).
struct LoopRange {
  const SCEV *Base; // pointer
  int64_t Stride;   // bytes per iteration, 0 for a loop-invariant address
  int64_t Width;    // bytes
};
/// -efsan-loop-range-marks.
bool loopRangeMarksEnabled();
/// Iterations of a chunk whose largest stride is MaxStride bytes (>= 1).
uint64_t chunkIterations(uint64_t MaxStride);
/// The range of an access of L (loop-invariant or affine address, step and
/// size at most a line, start expandable before Before), if it has one.
std::optional<LoopRange> affineLoopRange(Instruction &I, Loop *L,
                                         ScalarEvolution &SE,
                                         SCEVExpander &Probe,
                                         Instruction *Before,
                                         AccessDescriber DescribeAccess);
/// Adds Range to Ranges, merged into one of the same stride that starts at
/// most a line away.
void addLoopRange(SmallVectorImpl<LoopRange> &Ranges, LoopRange Range,
                  ScalarEvolution &SE);

/// Working set, loop level: marks the lines of the affine accesses of
/// innermost loops once before a loop (or a chunk of iterations at a time)
/// instead of checking them in every iteration, and skips the checks of
/// accesses into small loop-invariant tables while their lines are marked. It owns the loop analysis,
/// the versioning of the loops and the range marks; the per-access checks
/// that remain are the pass's.
class LoopRangeMarker : ModuleContext {
public:
  /// FAM null: no loop-level marking.
  LoopRangeMarker(Module &M, FunctionAnalysisManager *FAM);
  /// Marks F's eligible loops by ranges; the accesses they cover get
  /// !nosanitize in the copies that need no check. Whether F changed.
  bool markLoopRanges(Function &F, AccessDescriber DescribeAccess);
  /// Marks the affine accesses of F's innermost loops that may leave early
  /// (EfficiencySanitizerEarlyExitLoops.cpp): the lines of the iterations
  /// that ran, on each exit edge and every chunk of iterations, instead of a
  /// check per access. Whether F changed.
  bool markEarlyExitLoops(Function &F, AccessDescriber DescribeAccess);

private:
  void emitRangeMark(Instruction *InsertBefore, Value *Lo, Value *Size);
  void emitShortRangeMark(Instruction *InsertBefore, Value *Lo, Value *Size);
  std::tuple<BasicBlock *, BasicBlock *, PHINode *>
  splitForCountdown(BasicBlock *Header, const Twine &MarkName,
                    const Twine &LeftName);
  Value *emitRangeMarkedTest(Instruction *InsertBefore, Value *Lo,
                             uint64_t Size);
  std::pair<Value *, Value *> shadowBytesOf(IRBuilder<> &IRB, Value *Lo,
                                            Value *Size);
  Value *emitTablesMarkedTest(Instruction *InsertBefore,
                              ArrayRef<std::pair<Value *, uint64_t>> Tables,
                              Value *Worth = nullptr,
                              const TableCounting *Counting = nullptr);
  void emitCountingChoice(Instruction *InsertBefore,
                          ArrayRef<std::pair<Value *, uint64_t>> Tables,
                          Value *All, const TableCounting &Counting);
  std::optional<TableCounting> planTableCounting(Function &F,
                                                 const LoopRangePlan &Plan);
  void emitTableCount(Instruction *I, const TableCounting &Counting,
                      AllocaInst *Into);
  void emitTableFlush(Instruction *InsertBefore,
                      const TableCounting &Counting);
  void findLoopTables(LoopRangePlan &Plan, ScalarEvolution &SE,
                      SCEVExpander &Probe, Instruction *Before,
                      AccessDescriber DescribeAccess);
  PHINode *emitChunkMarks(BasicBlock *Header, BasicBlock *Latch, Value *Count,
                          ArrayRef<ExpandedRange> Ranges,
                          ArrayRef<std::pair<Value *, uint64_t>> Tables,
                          const TableCounting *Counting, PHINode *&LeftOut);
  void splitLoopByTables(BasicBlock *Header, BasicBlock *Top,
                         BasicBlock *Latch, ArrayRef<BasicBlock *> LoopBlocks,
                         Value *TablesMarked,
                         ArrayRef<Instruction *> TableAccesses,
                         ArrayRef<unsigned> TableOf,
                         const TableCounting *Counting,
                         Instruction *ChunkStart, PHINode *Left);

  FunctionAnalysisManager *FAM;
  // The counting loops' own counts in the function being marked.
  SmallVector<AllocaInst *, 4> LocalCounts;
};

} // namespace efsan
} // namespace llvm

#endif // LLVM_LIB_TRANSFORMS_INSTRUMENTATION_EFFICIENCYSANITIZERINTERNAL_H
