; cache-frag: per-thread countdown sampling. A function with accesses loads
; the thread's countdown at entry and keeps it in a register; each run of n
; accesses (the part of a block between call sites) subtracts n at its end and
; branches, when the count has run out, to a cold block that reports to
; __efsan_cache_frag_access (address, size, flags with bit 0 = write and bit
; 1 = locked read-modify-write, field counter or null) and reloads the
; countdown. For n = 1 it stores the count from before the run back and makes
; the one call. For n >= 2 it switches on
; c - 1, the access at which the count ran out: that case stores 1 and calls
; for that access only, then counts the accesses after it off the new period
; if it is longer, else goes on down a chain that calls for each access in
; order from the next one; any other c (the default) stores c and takes the
; whole chain. Struct field counters are passed, not bumped.
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -S %s | FileCheck %s --check-prefix=NOBUMP
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -S %s | %opt -passes=verify -disable-output
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -efsan-cache-frag-stack -S %s | FileCheck %s --check-prefix=STACK

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%struct.node = type { i32, i64, [10 x i8], ptr }
%struct.outer = type { i8, %struct.node }

@gnode = global %struct.node zeroinitializer, align 8

; CHECK-NOT: __efsan_cache_frag_tracking
; CHECK: @__efsan_cache_frag_countdown = external thread_local(initialexec) global i64
; CHECK: @__efsan.struct.node.counters = private global [4 x i64] zeroinitializer
; CHECK: @__efsan.struct.outer.counters = private global [2 x i64] zeroinitializer
; CHECK: @__efsan.struct.node.field_type.0 = private unnamed_addr constant [4 x i8] c"i32\00"
; CHECK: @__efsan.struct.node.field_type.1 = private unnamed_addr constant [4 x i8] c"i64\00"
; CHECK: @__efsan.struct.node.field_type.2 = private unnamed_addr constant [10 x i8] c"[10 x i8]\00"
; CHECK: @__efsan.struct.node.field_type.3 = private unnamed_addr constant [4 x i8] c"ptr\00"
; CHECK: @__efsan.struct.node.field_type_names = private unnamed_addr constant [4 x ptr] [ptr @__efsan.struct.node.field_type.0, ptr @__efsan.struct.node.field_type.1, ptr @__efsan.struct.node.field_type.2, ptr @__efsan.struct.node.field_type.3]
; CHECK: @__efsan.struct.node.name = private unnamed_addr constant [12 x i8] c"struct.node\00"
; CHECK: @__efsan.struct.node.field_offsets = private unnamed_addr constant [4 x i32] [i32 0, i32 8, i32 16, i32 32]
; CHECK: @__efsan.struct.node.field_sizes = private unnamed_addr constant [4 x i32] [i32 4, i32 8, i32 10, i32 8]
; CHECK: @__efsan.struct.outer.field_type.0 = private unnamed_addr constant [3 x i8] c"i8\00"
; CHECK: @__efsan.struct.outer.field_type.1 = private unnamed_addr constant [12 x i8] c"struct.node\00"
; CHECK: @__efsan.struct.outer.name = private unnamed_addr constant [13 x i8] c"struct.outer\00"
; CHECK: @__efsan.struct.outer.field_offsets = private unnamed_addr constant [2 x i32] [i32 0, i32 8]
; CHECK: @__efsan.struct.outer.field_sizes = private unnamed_addr constant [2 x i32] [i32 1, i32 40]
; CHECK: @__efsan.struct_infos = private constant [2 x { ptr, i32, i32, ptr, ptr, ptr, ptr, ptr, ptr }]
; CHECK-SAME: [{ ptr, i32, i32, ptr, ptr, ptr, ptr, ptr, ptr } { ptr @__efsan.struct.node.name, i32 40, i32 4, ptr @__efsan.struct.node.field_offsets, ptr @__efsan.struct.node.field_sizes, ptr @__efsan.struct.node.field_type_names, ptr @__efsan.struct.node.counters, ptr null, ptr null },
; CHECK-SAME:  { ptr, i32, i32, ptr, ptr, ptr, ptr, ptr, ptr } { ptr @__efsan.struct.outer.name, i32 48, i32 2, ptr @__efsan.struct.outer.field_offsets, ptr @__efsan.struct.outer.field_sizes, ptr @__efsan.struct.outer.field_type_names, ptr @__efsan.struct.outer.counters, ptr null, ptr null }]
; CHECK: @__efsan.module_name = private unnamed_addr constant [{{[0-9]+}} x i8] c"{{.*}}cache-frag.ll\00"
; CHECK: @__efsan.cache_frag_module_info = private constant { i32, ptr, i32, ptr, i32, ptr } { i32 2, ptr @__efsan.module_name, i32 2, ptr @__efsan.struct_infos, i32 0, ptr null }
; CHECK: @__efsan_which_tool = weak constant i32 1

define i64 @field_load(ptr %n) {
  %f = getelementptr inbounds %struct.node, ptr %n, i64 0, i32 1
  %v = load i64, ptr %f, align 8
  ret i64 %v
}
; The countdown is loaded at entry (after the allocas, if any) and stored
; back before the return. c2 = c - 1 is an `add nsw` of -1: the backend then
; branches on the flags of the subtraction itself.
; CHECK-LABEL: define i64 @field_load(ptr %n)
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown), !nosanitize ![[NOSAN:[0-9]+]]
; CHECK-NEXT:    [[C:%[0-9]+]] = load i64, ptr [[TLS]], align 8, !nosanitize ![[NOSAN]]
; CHECK-NEXT:    %f = getelementptr inbounds %struct.node, ptr %n, i64 0, i32 1
; CHECK-NEXT:    %v = load i64, ptr %f, align 8
; CHECK-NEXT:    [[C2:%[0-9]+]] = add nsw i64 [[C]], -1
; CHECK-NEXT:    [[DUE:%[0-9]+]] = icmp sle i64 [[C2]], 0
; CHECK-NEXT:    br i1 [[DUE]], label %[[SAMPLE:[0-9]+]], label %[[JOIN:[0-9]+]], !prof ![[UNLIKELY:[0-9]+]]
; CHECK:       [[SAMPLE]]:
; CHECK-NEXT:    [[BEFORE:%[0-9]+]] = add nsw i64 [[C2]], 1
; CHECK-NEXT:    [[TLS1:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown), !nosanitize ![[NOSAN]]
; CHECK-NEXT:    store i64 [[BEFORE]], ptr [[TLS1]], align 8, !nosanitize ![[NOSAN]]
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %f, i64 8, i32 0, ptr getelementptr inbounds ([4 x i64], ptr @__efsan.struct.node.counters, i32 0, i32 1)), !nosanitize ![[NOSAN]]
; CHECK-NEXT:    [[TLS2:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown), !nosanitize ![[NOSAN]]
; CHECK-NEXT:    [[C3:%[0-9]+]] = load i64, ptr [[TLS2]], align 8, !nosanitize ![[NOSAN]]
; CHECK-NEXT:    br label %[[JOIN]]
; CHECK:       [[JOIN]]:
; CHECK-NEXT:    [[CJ:%.+]] = phi i64 [ [[C3]], %[[SAMPLE]] ], [ [[C2]], %0 ]
; CHECK-NEXT:    [[TLS3:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown), !nosanitize ![[NOSAN]]
; CHECK-NEXT:    store i64 [[CJ]], ptr [[TLS3]], align 8, !nosanitize ![[NOSAN]]
; CHECK-NEXT:    ret i64 %v

; A field of a nested struct counts for the outer struct's member that holds
; it, as does a field that is a struct. A store to a global's field (a constant
; GEP) counts too. Three accesses: one subtraction of 3.
define void @nested(ptr %o, i8 %c) {
  %inner = getelementptr inbounds %struct.outer, ptr %o, i64 0, i32 1, i32 2, i64 3
  store i8 %c, ptr %inner, align 1
  %whole = getelementptr inbounds %struct.outer, ptr %o, i64 0, i32 1
  store i32 0, ptr %whole, align 8
  store ptr null, ptr getelementptr inbounds (%struct.node, ptr @gnode, i64 0, i32 3), align 8
  ret void
}
; CHECK-LABEL: define void @nested(ptr %o, i8 %c)
; CHECK:         [[C:%[0-9]+]] = load i64, ptr
; CHECK:         store ptr null, ptr getelementptr inbounds (%struct.node, ptr @gnode, i64 0, i32 3), align 8
; CHECK-NEXT:    [[C2:%[0-9]+]] = add nsw i64 [[C]], -3
; CHECK-NEXT:    [[DUE:%[0-9]+]] = icmp sle i64 [[C2]], 0
; CHECK-NEXT:    br i1 [[DUE]], label %[[SAMPLE:[0-9]+]], label %[[JOIN:[0-9]+]], !prof ![[UNLIKELY]]
; The count ran out at access c - 1 of the run (c = c2 + 3).
; CHECK:       {{^}}[[SAMPLE]]:
; CHECK-NEXT:    [[BEFORE:%[0-9]+]] = add nsw i64 [[C2]], 3
; CHECK-NEXT:    [[IDX:%[0-9]+]] = add nsw i64 [[BEFORE]], -1
; CHECK-NEXT:    switch i64 [[IDX]], label %[[WHOLE:[0-9]+]] [
; CHECK-NEXT:      i64 0, label %[[CASE0:[0-9]+]]
; CHECK-NEXT:      i64 1, label %[[CASE1:[0-9]+]]
; CHECK-NEXT:      i64 2, label %[[CASE2:[0-9]+]]
; CHECK-NEXT:    ]
; Case i: the runtime gets access i only, with the countdown at 1 (sampled);
; the 3 - 1 - i accesses after it are counted off the new period if it is
; longer, else they go down the chain from access i + 1.
; CHECK:       {{^}}[[CASE0]]:
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown), !nosanitize ![[NOSAN]]
; CHECK-NEXT:    store i64 1, ptr [[TLS]], align 8, !nosanitize ![[NOSAN]]
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %inner, i64 1, i32 1, ptr getelementptr inbounds ([2 x i64], ptr @__efsan.struct.outer.counters, i32 0, i32 1)), !nosanitize ![[NOSAN]]
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown), !nosanitize ![[NOSAN]]
; CHECK-NEXT:    [[T:%[0-9]+]] = load i64, ptr [[TLS]], align 8, !nosanitize ![[NOSAN]]
; CHECK-NEXT:    [[COVERS:%[0-9]+]] = icmp sgt i64 [[T]], 2
; CHECK-NEXT:    [[REST:%[0-9]+]] = add nsw i64 [[T]], -2
; CHECK-NEXT:    [[NEW:%[0-9]+]] = select i1 [[COVERS]], i64 [[REST]], i64 [[T]]
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown), !nosanitize ![[NOSAN]]
; CHECK-NEXT:    store i64 [[NEW]], ptr [[TLS]], align 8, !nosanitize ![[NOSAN]]
; CHECK-NEXT:    br i1 [[COVERS]], label %[[DONE:[0-9]+]], label %[[CHAIN1:[0-9]+]]
; CHECK:       {{^}}[[CASE1]]:
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown), !nosanitize ![[NOSAN]]
; CHECK-NEXT:    store i64 1, ptr [[TLS]], align 8, !nosanitize ![[NOSAN]]
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %whole, i64 4, i32 1, ptr getelementptr inbounds ([2 x i64], ptr @__efsan.struct.outer.counters, i32 0, i32 1)), !nosanitize ![[NOSAN]]
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown), !nosanitize ![[NOSAN]]
; CHECK-NEXT:    [[T:%[0-9]+]] = load i64, ptr [[TLS]], align 8, !nosanitize ![[NOSAN]]
; CHECK-NEXT:    [[COVERS:%[0-9]+]] = icmp sgt i64 [[T]], 1
; CHECK-NEXT:    [[REST:%[0-9]+]] = add nsw i64 [[T]], -1
; CHECK-NEXT:    [[NEW:%[0-9]+]] = select i1 [[COVERS]], i64 [[REST]], i64 [[T]]
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown), !nosanitize ![[NOSAN]]
; CHECK-NEXT:    store i64 [[NEW]], ptr [[TLS]], align 8, !nosanitize ![[NOSAN]]
; CHECK-NEXT:    br i1 [[COVERS]], label %[[DONE]], label %[[CHAIN2:[0-9]+]]
; The last access has none after it.
; CHECK:       {{^}}[[CASE2]]:
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown), !nosanitize ![[NOSAN]]
; CHECK-NEXT:    store i64 1, ptr [[TLS]], align 8, !nosanitize ![[NOSAN]]
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr getelementptr inbounds (%struct.node, ptr @gnode, i64 0, i32 3), i64 8, i32 1, ptr getelementptr inbounds ([4 x i64], ptr @__efsan.struct.node.counters, i32 0, i32 3)), !nosanitize ![[NOSAN]]
; CHECK-NEXT:    br label %[[DONE]]
; Any other c: the count from before the run, and every access in order.
; CHECK:       {{^}}[[WHOLE]]:
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown), !nosanitize ![[NOSAN]]
; CHECK-NEXT:    store i64 [[BEFORE]], ptr [[TLS]], align 8, !nosanitize ![[NOSAN]]
; CHECK-NEXT:    br label %[[CHAIN0:[0-9]+]]
; CHECK:       {{^}}[[CHAIN0]]:
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %inner, i64 1, i32 1, ptr getelementptr inbounds ([2 x i64], ptr @__efsan.struct.outer.counters, i32 0, i32 1)), !nosanitize ![[NOSAN]]
; CHECK-NEXT:    br label %[[CHAIN1]]
; CHECK:       {{^}}[[CHAIN1]]:
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %whole, i64 4, i32 1, ptr getelementptr inbounds ([2 x i64], ptr @__efsan.struct.outer.counters, i32 0, i32 1)), !nosanitize ![[NOSAN]]
; CHECK-NEXT:    br label %[[CHAIN2]]
; CHECK:       {{^}}[[CHAIN2]]:
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr getelementptr inbounds (%struct.node, ptr @gnode, i64 0, i32 3), i64 8, i32 1, ptr getelementptr inbounds ([4 x i64], ptr @__efsan.struct.node.counters, i32 0, i32 3)), !nosanitize ![[NOSAN]]
; CHECK-NEXT:    br label %[[DONE]]
; CHECK:       {{^}}[[DONE]]:
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown), !nosanitize ![[NOSAN]]
; CHECK-NEXT:    [[C3:%[0-9]+]] = load i64, ptr [[TLS]], align 8, !nosanitize ![[NOSAN]]
; CHECK-NEXT:    br label %[[JOIN]]
; CHECK:       {{^}}[[JOIN]]:
; CHECK-NEXT:    [[CJ:%.+]] = phi i64 [ [[C3]], %[[DONE]] ], [ [[C2]], %0 ]
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown)
; CHECK-NEXT:    store i64 [[CJ]], ptr [[TLS]]
; CHECK-NEXT:    ret void

; Plain pointers: a null counter, the access's size whatever its alignment
; (the runtime handles accesses that straddle lines); atomicrmw and cmpxchg are
; writes and locked read-modify-writes (flags 3). No repeated-access skipping
; for cache-frag: reads and writes are told apart.
define void @callouts(ptr %p) {
  %a = load i16, ptr %p, align 2
  store i16 %a, ptr %p, align 2
  %b = load i32, ptr %p, align 1
  %c = load <8 x i32>, ptr %p, align 32
  %d = atomicrmw add ptr %p, i64 1 seq_cst, align 8
  %x = cmpxchg ptr %p, i32 0, i32 1 seq_cst seq_cst, align 4
  %e = load i128, ptr %p, align 16
  ret void
}
; Seven accesses: a case per access, each with its own call and the count of
; the accesses after it (6 down to none), and a chain of seven calls in order.
; CHECK-LABEL: define void @callouts(ptr %p)
; CHECK:         %e = load i128, ptr %p, align 16
; CHECK-NEXT:    [[C2:%[0-9]+]] = add nsw i64 %{{[0-9]+}}, -7
; CHECK-NEXT:    [[DUE:%[0-9]+]] = icmp sle i64 [[C2]], 0
; CHECK-NEXT:    br i1 [[DUE]], label %[[SAMPLE:[0-9]+]], label %[[JOIN:[0-9]+]]
; CHECK:       {{^}}[[SAMPLE]]:
; CHECK-NEXT:    [[BEFORE:%[0-9]+]] = add nsw i64 [[C2]], 7
; CHECK-NEXT:    [[IDX:%[0-9]+]] = add nsw i64 [[BEFORE]], -1
; CHECK-NEXT:    switch i64 [[IDX]], label %[[WHOLE:[0-9]+]] [
; CHECK-NEXT:      i64 0, label %[[CASE0:[0-9]+]]
; CHECK-NEXT:      i64 1, label %[[CASE1:[0-9]+]]
; CHECK-NEXT:      i64 2, label %[[CASE2:[0-9]+]]
; CHECK-NEXT:      i64 3, label %[[CASE3:[0-9]+]]
; CHECK-NEXT:      i64 4, label %[[CASE4:[0-9]+]]
; CHECK-NEXT:      i64 5, label %[[CASE5:[0-9]+]]
; CHECK-NEXT:      i64 6, label %[[CASE6:[0-9]+]]
; CHECK-NEXT:    ]
; CHECK:       {{^}}[[CASE0]]:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 1, ptr
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %p, i64 2, i32 0, ptr null)
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    [[T:%[0-9]+]] = load i64, ptr
; CHECK-NEXT:    [[COVERS:%[0-9]+]] = icmp sgt i64 [[T]], 6
; CHECK-NEXT:    [[REST:%[0-9]+]] = add nsw i64 [[T]], -6
; CHECK-NEXT:    [[NEW:%[0-9]+]] = select i1 [[COVERS]], i64 [[REST]], i64 [[T]]
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 [[NEW]], ptr
; CHECK-NEXT:    br i1 [[COVERS]], label %[[DONE:[0-9]+]], label %[[CHAIN1:[0-9]+]]
; CHECK:       {{^}}[[CASE1]]:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 1, ptr
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %p, i64 2, i32 1, ptr null)
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    [[T:%[0-9]+]] = load i64, ptr
; CHECK-NEXT:    [[COVERS:%[0-9]+]] = icmp sgt i64 [[T]], 5
; CHECK-NEXT:    [[REST:%[0-9]+]] = add nsw i64 [[T]], -5
; CHECK-NEXT:    [[NEW:%[0-9]+]] = select i1 [[COVERS]], i64 [[REST]], i64 [[T]]
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 [[NEW]], ptr
; CHECK-NEXT:    br i1 [[COVERS]], label %[[DONE]], label %[[CHAIN2:[0-9]+]]
; CHECK:       {{^}}[[CASE2]]:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 1, ptr
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %p, i64 4, i32 0, ptr null)
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    [[T:%[0-9]+]] = load i64, ptr
; CHECK-NEXT:    [[COVERS:%[0-9]+]] = icmp sgt i64 [[T]], 4
; CHECK-NEXT:    [[REST:%[0-9]+]] = add nsw i64 [[T]], -4
; CHECK-NEXT:    [[NEW:%[0-9]+]] = select i1 [[COVERS]], i64 [[REST]], i64 [[T]]
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 [[NEW]], ptr
; CHECK-NEXT:    br i1 [[COVERS]], label %[[DONE]], label %[[CHAIN3:[0-9]+]]
; CHECK:       {{^}}[[CASE3]]:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 1, ptr
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %p, i64 32, i32 0, ptr null)
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    [[T:%[0-9]+]] = load i64, ptr
; CHECK-NEXT:    [[COVERS:%[0-9]+]] = icmp sgt i64 [[T]], 3
; CHECK-NEXT:    [[REST:%[0-9]+]] = add nsw i64 [[T]], -3
; CHECK-NEXT:    [[NEW:%[0-9]+]] = select i1 [[COVERS]], i64 [[REST]], i64 [[T]]
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 [[NEW]], ptr
; CHECK-NEXT:    br i1 [[COVERS]], label %[[DONE]], label %[[CHAIN4:[0-9]+]]
; CHECK:       {{^}}[[CASE4]]:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 1, ptr
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %p, i64 8, i32 3, ptr null)
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    [[T:%[0-9]+]] = load i64, ptr
; CHECK-NEXT:    [[COVERS:%[0-9]+]] = icmp sgt i64 [[T]], 2
; CHECK-NEXT:    [[REST:%[0-9]+]] = add nsw i64 [[T]], -2
; CHECK-NEXT:    [[NEW:%[0-9]+]] = select i1 [[COVERS]], i64 [[REST]], i64 [[T]]
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 [[NEW]], ptr
; CHECK-NEXT:    br i1 [[COVERS]], label %[[DONE]], label %[[CHAIN5:[0-9]+]]
; CHECK:       {{^}}[[CASE5]]:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 1, ptr
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %p, i64 4, i32 3, ptr null)
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    [[T:%[0-9]+]] = load i64, ptr
; CHECK-NEXT:    [[COVERS:%[0-9]+]] = icmp sgt i64 [[T]], 1
; CHECK-NEXT:    [[REST:%[0-9]+]] = add nsw i64 [[T]], -1
; CHECK-NEXT:    [[NEW:%[0-9]+]] = select i1 [[COVERS]], i64 [[REST]], i64 [[T]]
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 [[NEW]], ptr
; CHECK-NEXT:    br i1 [[COVERS]], label %[[DONE]], label %[[CHAIN6:[0-9]+]]
; CHECK:       {{^}}[[CASE6]]:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 1, ptr
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %p, i64 16, i32 0, ptr null)
; CHECK-NEXT:    br label %[[DONE]]
; CHECK:       {{^}}[[WHOLE]]:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 [[BEFORE]], ptr
; CHECK-NEXT:    br label %[[CHAIN0:[0-9]+]]
; CHECK:       {{^}}[[CHAIN0]]:
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %p, i64 2, i32 0, ptr null)
; CHECK-NEXT:    br label %[[CHAIN1]]
; CHECK:       {{^}}[[CHAIN1]]:
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %p, i64 2, i32 1, ptr null)
; CHECK-NEXT:    br label %[[CHAIN2]]
; CHECK:       {{^}}[[CHAIN2]]:
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %p, i64 4, i32 0, ptr null)
; CHECK-NEXT:    br label %[[CHAIN3]]
; CHECK:       {{^}}[[CHAIN3]]:
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %p, i64 32, i32 0, ptr null)
; CHECK-NEXT:    br label %[[CHAIN4]]
; CHECK:       {{^}}[[CHAIN4]]:
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %p, i64 8, i32 3, ptr null)
; CHECK-NEXT:    br label %[[CHAIN5]]
; CHECK:       {{^}}[[CHAIN5]]:
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %p, i64 4, i32 3, ptr null)
; CHECK-NEXT:    br label %[[CHAIN6]]
; CHECK:       {{^}}[[CHAIN6]]:
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %p, i64 16, i32 0, ptr null)
; CHECK-NEXT:    br label %[[DONE]]
; CHECK:       {{^}}[[DONE]]:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    [[C3:%[0-9]+]] = load i64, ptr
; CHECK-NEXT:    br label %[[JOIN]]
; CHECK:       {{^}}[[JOIN]]:
; CHECK-NEXT:    phi i64 [ [[C3]], %[[DONE]] ], [ [[C2]], %0 ]

; Every call ends a run, also one that only reads memory (@checksum) and a
; memcpy longer than a line (which becomes a runtime call): the countdown is stored back before
; it and reloaded after it. Between two calls with no access in between, the
; store and the reload cancel out and are dropped.
define void @runs(ptr %p, ptr %q) {
  store i32 1, ptr %p, align 4
  %len = call i64 @checksum(ptr %q)
  call void @llvm.memcpy.p0.p0.i64(ptr %q, ptr %p, i64 128, i1 false)
  store i32 2, ptr %q, align 4
  call void @free(ptr %p)
  %v = load i32, ptr %q, align 4
  ret void
}
; CHECK-LABEL: define void @runs(ptr %p, ptr %q)
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    [[C:%[0-9]+]] = load i64, ptr
; CHECK-NEXT:    store i32 1, ptr %p, align 4
; CHECK-NEXT:    [[C2:%[0-9]+]] = add nsw i64 [[C]], -1
; CHECK-NEXT:    icmp sle i64 [[C2]], 0
; CHECK-NEXT:    br i1
; CHECK:         call preserve_mostcc void @__efsan_cache_frag_access(ptr %p, i64 4, i32 1, ptr null)
; CHECK:         [[CJ:%.+]] = phi i64
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown)
; CHECK-NEXT:    store i64 [[CJ]], ptr [[TLS]], align 8
; CHECK-NEXT:    %len = call i64 @checksum(ptr %q)
; CHECK-NEXT:    call ptr @__efsan_memcpy(ptr %q, ptr %p, i64 128)
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown)
; CHECK-NEXT:    [[C:%[0-9]+]] = load i64, ptr [[TLS]], align 8
; CHECK-NEXT:    store i32 2, ptr %q, align 4
; CHECK-NEXT:    [[C2:%[0-9]+]] = add nsw i64 [[C]], -1
; CHECK-NEXT:    icmp sle i64 [[C2]], 0
; CHECK-NEXT:    br i1
; CHECK:         call preserve_mostcc void @__efsan_cache_frag_access(ptr %q, i64 4, i32 1, ptr null)
; CHECK:         [[CJ:%.+]] = phi i64
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown)
; CHECK-NEXT:    store i64 [[CJ]], ptr [[TLS]], align 8
; CHECK-NEXT:    call void @free(ptr %p)
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    [[C:%[0-9]+]] = load i64, ptr
; CHECK-NEXT:    %v = load i32, ptr %q, align 4
; CHECK-NEXT:    [[C2:%[0-9]+]] = add nsw i64 [[C]], -1
; CHECK-NEXT:    icmp sle i64 [[C2]], 0
; CHECK-NEXT:    br i1
; CHECK:         call preserve_mostcc void @__efsan_cache_frag_access(ptr %q, i64 4, i32 0, ptr null)
; CHECK:         [[CJ:%.+]] = phi i64
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown)
; CHECK-NEXT:    store i64 [[CJ]], ptr [[TLS]], align 8
; CHECK-NEXT:    ret void

; A stack slot whose address does not escape cannot be falsely shared: not
; instrumented by default. One passed to a call is. The reload after the last
; call would only be stored back at the return: neither is emitted.
define i32 @stack() {
  %local = alloca i32, align 4
  store i32 1, ptr %local, align 4
  %v = load i32, ptr %local, align 4
  %shared = alloca i32, align 4
  store i32 2, ptr %shared, align 4
  call void @escape(ptr %shared)
  ret i32 %v
}
; CHECK-LABEL: define i32 @stack()
; CHECK-NEXT:    %local = alloca i32, align 4
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    [[C:%[0-9]+]] = load i64, ptr
; CHECK-NEXT:    store i32 1, ptr %local, align 4
; CHECK-NEXT:    %v = load i32, ptr %local, align 4
; CHECK-NEXT:    %shared = alloca i32, align 4
; CHECK-NEXT:    store i32 2, ptr %shared, align 4
; CHECK-NEXT:    add nsw i64 [[C]], -1
; CHECK-NOT:     __efsan_cache_frag_access(ptr %local
; CHECK:         call preserve_mostcc void @__efsan_cache_frag_access(ptr %shared, i64 4, i32 1, ptr null)
; CHECK:         phi i64
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64
; CHECK-NEXT:    call void @escape(ptr %shared)
; CHECK-NEXT:    ret i32 %v

; Replacing a memcpy by a runtime call (which takes the slot's address) does
; not make the slot's own accesses count as escaping. A function with no run
; has no copy of the countdown: its callees keep the thread's current.
define void @stack_memcpy(ptr %dst) {
  %local = alloca [32 x i32], align 4
  store i32 1, ptr %local, align 4
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %local, i64 128, i1 false)
  ret void
}
; CHECK-LABEL: define void @stack_memcpy(ptr %dst)
; CHECK-NEXT:    %local = alloca [32 x i32], align 4
; CHECK-NEXT:    store i32 1, ptr %local, align 4
; CHECK-NEXT:    call ptr @__efsan_memcpy(ptr %dst, ptr %local, i64 128)
; CHECK-NEXT:    ret void

; A memcpy of at most a line stays an intrinsic and is two accesses of the
; run, a read of the source and a write of the destination (a stack slot
; that does not escape is left out as for a load): no call site.
define void @small_memcpy(ptr %dst, ptr %src) {
  %local = alloca [4 x i32], align 4
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 16, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr %local, ptr %dst, i64 12, i1 false)
  ret void
}
; CHECK-LABEL: define void @small_memcpy(ptr %dst, ptr %src)
; CHECK:         call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 16, i1 false)
; CHECK-NEXT:    call void @llvm.memcpy.p0.p0.i64(ptr %local, ptr %dst, i64 12, i1 false)
; CHECK-NEXT:    add nsw i64 %{{[0-9]+}}, -3
; CHECK-NOT:     @__efsan_memcpy
; CHECK:         call preserve_mostcc void @__efsan_cache_frag_access(ptr %src, i64 16, i32 0, ptr null)
; CHECK:         call preserve_mostcc void @__efsan_cache_frag_access(ptr %dst, i64 16, i32 1, ptr null)
; CHECK:         call preserve_mostcc void @__efsan_cache_frag_access(ptr %dst, i64 12, i32 0, ptr null)
; CHECK-NOT:     @__efsan_memcpy
; CHECK:         ret void

; With -efsan-cache-frag-stack the run has three accesses, %local's included,
; in the cases and in the chain.
; STACK-LABEL: define i32 @stack()
; STACK:         add nsw i64 %{{[0-9]+}}, -3
; STACK:         switch i64 %{{[0-9]+}}, label %[[WHOLE:[0-9]+]] [
; STACK-NEXT:      i64 0, label %[[CASE0:[0-9]+]]
; STACK-NEXT:      i64 1, label %[[CASE1:[0-9]+]]
; STACK-NEXT:      i64 2, label %[[CASE2:[0-9]+]]
; STACK-NEXT:    ]
; STACK:       {{^}}[[CASE0]]:
; STACK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; STACK-NEXT:    store i64 1, ptr
; STACK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %local, i64 4, i32 1, ptr null)
; STACK:       {{^}}[[CASE1]]:
; STACK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; STACK-NEXT:    store i64 1, ptr
; STACK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %local, i64 4, i32 0, ptr null)
; STACK:       {{^}}[[CASE2]]:
; STACK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; STACK-NEXT:    store i64 1, ptr
; STACK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %shared, i64 4, i32 1, ptr null)
; STACK:       {{^}}[[WHOLE]]:
; STACK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; STACK-NEXT:    store i64 %{{[0-9]+}}, ptr
; STACK-NEXT:    br label %[[CHAIN0:[0-9]+]]
; STACK:       {{^}}[[CHAIN0]]:
; STACK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %local, i64 4, i32 1, ptr null)
; STACK-NEXT:    br label %[[CHAIN1:[0-9]+]]
; STACK:       {{^}}[[CHAIN1]]:
; STACK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %local, i64 4, i32 0, ptr null)
; STACK-NEXT:    br label %[[CHAIN2:[0-9]+]]
; STACK:       {{^}}[[CHAIN2]]:
; STACK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %shared, i64 4, i32 1, ptr null)

; The runtime gets the access callout only, and bumps the counters itself.
; CHECK-NOT: declare void @__efsan_{{load|store|unaligned}}
; CHECK: declare preserve_mostcc void @__efsan_cache_frag_access(ptr, i64, i32, ptr)
; CHECK-NOT: declare void @__efsan_{{load|store|unaligned}}

; CHECK-LABEL: define internal void @efsan.module_ctor()
; CHECK-NEXT:    call void @__efsan_init(i32 1, ptr @__efsan.cache_frag_module_info)
; CHECK-LABEL: define internal void @efsan.module_dtor()
; CHECK-NEXT:    call void @__efsan_module_fini(ptr @__efsan.cache_frag_module_info)

; CHECK-DAG: ![[NOSAN]] = !{}
; CHECK-DAG: ![[UNLIKELY]] = !{!"branch_weights", i32 1, i32 1048575}

declare void @escape(ptr)
declare i64 @checksum(ptr) nounwind willreturn memory(argmem: read)
declare void @free(ptr) nounwind willreturn allockind("free") memory(argmem: readwrite, inaccessiblemem: readwrite)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

; The field counters are the runtime's to bump, when it samples the access.
; NOBUMP-NOT: {{(load|store) i64.*counters}}
