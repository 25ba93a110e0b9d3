; cache-frag: one load of the runtime's mode byte and a branch per run of
; accesses (a basic block, split at calls that may free memory), before the
; instruction that ends the run; inside the (cold) branch the struct field
; counter bumps and the callouts of all the run's accesses, in order.
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -efsan-cache-frag-stack -S %s | FileCheck %s --check-prefix=STACK

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%struct.node = type { i32, i64, [10 x i8], ptr }
%struct.outer = type { i8, %struct.node }

@gnode = global %struct.node zeroinitializer, align 8

; CHECK: @__efsan_cache_frag_tracking = external global i8
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
; CHECK: @__efsan.struct_infos = private constant [2 x { ptr, i32, i32, ptr, ptr, ptr, ptr }]
; CHECK-SAME: [{ ptr, i32, i32, ptr, ptr, ptr, ptr } { ptr @__efsan.struct.node.name, i32 40, i32 4, ptr @__efsan.struct.node.field_offsets, ptr @__efsan.struct.node.field_sizes, ptr @__efsan.struct.node.field_type_names, ptr @__efsan.struct.node.counters },
; CHECK-SAME:  { ptr, i32, i32, ptr, ptr, ptr, ptr } { ptr @__efsan.struct.outer.name, i32 48, i32 2, ptr @__efsan.struct.outer.field_offsets, ptr @__efsan.struct.outer.field_sizes, ptr @__efsan.struct.outer.field_type_names, ptr @__efsan.struct.outer.counters }]
; CHECK: @__efsan.module_name = private unnamed_addr constant [{{[0-9]+}} x i8] c"{{.*}}cache-frag.ll\00"
; CHECK: @__efsan.cache_frag_module_info = private constant { ptr, i32, ptr } { ptr @__efsan.module_name, i32 2, ptr @__efsan.struct_infos }
; CHECK: @__efsan_which_tool = weak constant i32 1

define i64 @field_load(ptr %n) {
  %f = getelementptr inbounds %struct.node, ptr %n, i64 0, i32 1
  %v = load i64, ptr %f, align 8
  ret i64 %v
}
; CHECK-LABEL: define i64 @field_load(ptr %n)
; CHECK-NEXT:    %f = getelementptr inbounds %struct.node, ptr %n, i64 0, i32 1
; CHECK-NEXT:    %v = load i64, ptr %f, align 8
; CHECK-NEXT:    %1 = load i8, ptr @__efsan_cache_frag_tracking, align 1, !nosanitize ![[NOSAN:[0-9]+]]
; CHECK-NEXT:    %2 = icmp ne i8 %1, 0
; CHECK-NEXT:    br i1 %2, label %3, label %6, !prof ![[UNLIKELY:[0-9]+]]
; CHECK:       3:
; CHECK-NEXT:    %4 = load i64, ptr getelementptr inbounds ([4 x i64], ptr @__efsan.struct.node.counters, i32 0, i32 1), align 8, !nosanitize ![[NOSAN]]
; CHECK-NEXT:    %5 = add i64 %4, 1
; CHECK-NEXT:    store i64 %5, ptr getelementptr inbounds ([4 x i64], ptr @__efsan.struct.node.counters, i32 0, i32 1), align 8, !nosanitize ![[NOSAN]]
; CHECK-NEXT:    call void @__efsan_load8(ptr %f)
; CHECK-NEXT:    br label %6
; CHECK:       6:
; CHECK-NEXT:    ret i64 %v

; A field of a nested struct counts for the innermost struct; a field that is
; a struct counts for the outer one. A store to a global's field (a constant
; GEP) counts too.
define void @nested(ptr %o, i8 %c) {
  %inner = getelementptr inbounds %struct.outer, ptr %o, i64 0, i32 1, i32 2, i64 3
  store i8 %c, ptr %inner, align 1
  %whole = getelementptr inbounds %struct.outer, ptr %o, i64 0, i32 1
  store i32 0, ptr %whole, align 8
  store ptr null, ptr getelementptr inbounds (%struct.node, ptr @gnode, i64 0, i32 3), align 8
  ret void
}
; CHECK-LABEL: define void @nested(ptr %o, i8 %c)
; CHECK:         store i8 %c, ptr %inner, align 1
; CHECK:         store i32 0, ptr %whole, align 8
; CHECK-NEXT:    store ptr null, ptr getelementptr inbounds (%struct.node, ptr @gnode, i64 0, i32 3), align 8
; CHECK-NEXT:    %1 = load i8, ptr @__efsan_cache_frag_tracking, align 1, !nosanitize
; CHECK-NEXT:    %2 = icmp ne i8 %1, 0
; CHECK-NEXT:    br i1 %2, label %3, label %10, !prof ![[UNLIKELY]]
; CHECK:       3:
; CHECK-NEXT:    load i64, ptr getelementptr inbounds ([4 x i64], ptr @__efsan.struct.node.counters, i32 0, i32 2)
; CHECK-NEXT:    add i64
; CHECK-NEXT:    store i64
; CHECK-NEXT:    call void @__efsan_store1(ptr %inner)
; CHECK-NEXT:    load i64, ptr getelementptr inbounds ([2 x i64], ptr @__efsan.struct.outer.counters, i32 0, i32 1)
; CHECK-NEXT:    add i64
; CHECK-NEXT:    store i64
; CHECK-NEXT:    call void @__efsan_store4(ptr %whole)
; CHECK-NEXT:    load i64, ptr getelementptr inbounds ([4 x i64], ptr @__efsan.struct.node.counters, i32 0, i32 3)
; CHECK-NEXT:    add i64
; CHECK-NEXT:    store i64
; CHECK-NEXT:    call void @__efsan_store8(ptr getelementptr inbounds (%struct.node, ptr @gnode, i64 0, i32 3))
; CHECK-NEXT:    br label %10
; CHECK:       10:
; CHECK-NEXT:    ret void

; Plain pointers: no counter, the sized callouts (aligned, unaligned, N);
; atomics count as stores. No repeated-access skipping for cache-frag: reads
; and writes are told apart.
define void @callouts(ptr %p) {
  %a = load i16, ptr %p, align 2
  store i16 %a, ptr %p, align 2
  %b = load i32, ptr %p, align 1
  %c = load <8 x i32>, ptr %p, align 32
  %d = atomicrmw add ptr %p, i64 1 seq_cst, align 8
  %e = load i128, ptr %p, align 16
  ret void
}
; CHECK-LABEL: define void @callouts(ptr %p)
; CHECK:         %e = load i128, ptr %p, align 16
; CHECK-NEXT:    %1 = load i8, ptr @__efsan_cache_frag_tracking, align 1, !nosanitize
; CHECK-NEXT:    %2 = icmp ne i8 %1, 0
; CHECK-NEXT:    br i1 %2, label %3, label %4, !prof ![[UNLIKELY]]
; CHECK:       3:
; CHECK-NEXT:    call void @__efsan_load2(ptr %p)
; CHECK-NEXT:    call void @__efsan_store2(ptr %p)
; CHECK-NEXT:    call void @__efsan_unaligned_load4(ptr %p)
; CHECK-NEXT:    call void @__efsan_loadN(ptr %p, i64 32)
; CHECK-NEXT:    call void @__efsan_store8(ptr %p)
; CHECK-NEXT:    call void @__efsan_load16(ptr %p)
; CHECK-NEXT:    br label %4
; CHECK:       4:
; CHECK-NEXT:    ret void

; A call that may free memory (or synchronise) ends a run: the accesses
; before it are reported before it. Calls that only read memory, or only
; touch their arguments' memory (memcpy, which becomes a runtime call that
; frees nothing), do not.
define void @runs(ptr %p, ptr %q) {
  store i32 1, ptr %p, align 4
  %len = call i64 @strlen(ptr %q)
  call void @llvm.memcpy.p0.p0.i64(ptr %q, ptr %p, i64 4, i1 false)
  store i32 2, ptr %q, align 4
  call void @free(ptr %p)
  %v = load i32, ptr %q, align 4
  ret void
}
; CHECK-LABEL: define void @runs(ptr %p, ptr %q)
; CHECK-NEXT:    store i32 1, ptr %p, align 4
; CHECK-NEXT:    %len = call i64 @strlen(ptr %q)
; CHECK-NEXT:    %1 = call ptr @__efsan_memcpy(ptr %q, ptr %p, i64 4)
; CHECK-NEXT:    store i32 2, ptr %q, align 4
; CHECK-NEXT:    %2 = load i8, ptr @__efsan_cache_frag_tracking
; CHECK-NEXT:    %3 = icmp ne i8 %2, 0
; CHECK-NEXT:    br i1 %3, label %4, label %5, !prof ![[UNLIKELY]]
; CHECK:       4:
; CHECK-NEXT:    call void @__efsan_store4(ptr %p)
; CHECK-NEXT:    call void @__efsan_store4(ptr %q)
; CHECK-NEXT:    br label %5
; CHECK:       5:
; CHECK-NEXT:    call void @free(ptr %p)
; CHECK-NEXT:    %v = load i32, ptr %q, align 4
; CHECK-NEXT:    %6 = load i8, ptr @__efsan_cache_frag_tracking
; CHECK-NEXT:    %7 = icmp ne i8 %6, 0
; CHECK-NEXT:    br i1 %7, label %8, label %9, !prof ![[UNLIKELY]]
; CHECK:       8:
; CHECK-NEXT:    call void @__efsan_load4(ptr %q)
; CHECK-NEXT:    br label %9
; CHECK:       9:
; CHECK-NEXT:    ret void

; A stack slot whose address does not escape cannot be falsely shared: not
; instrumented by default. One passed to a call is.
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
; CHECK-NEXT:    store i32 1, ptr %local, align 4
; CHECK-NEXT:    %v = load i32, ptr %local, align 4
; CHECK-NEXT:    %shared = alloca i32, align 4
; CHECK-NEXT:    store i32 2, ptr %shared, align 4
; CHECK-NEXT:    load i8, ptr @__efsan_cache_frag_tracking
; CHECK-NOT:     __efsan_{{load|store}}4(ptr %local)
; CHECK:         call void @__efsan_store4(ptr %shared)
; CHECK-NEXT:    br label
; CHECK:         call void @escape(ptr %shared)
; CHECK-NEXT:    ret i32 %v

; Replacing a memcpy by a runtime call (which takes the slot's address) does
; not make the slot's own accesses count as escaping.
define void @stack_memcpy(ptr %dst) {
  %local = alloca [4 x i32], align 4
  store i32 1, ptr %local, align 4
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %local, i64 16, i1 false)
  ret void
}
; CHECK-LABEL: define void @stack_memcpy(ptr %dst)
; CHECK-NEXT:    %local = alloca [4 x i32], align 4
; CHECK-NEXT:    store i32 1, ptr %local, align 4
; CHECK-NEXT:    call ptr @__efsan_memcpy(ptr %dst, ptr %local, i64 16)
; CHECK-NEXT:    ret void

; STACK-LABEL: define i32 @stack()
; STACK:         call void @__efsan_store4(ptr %local)
; STACK:         call void @__efsan_load4(ptr %local)
; STACK:         call void @__efsan_store4(ptr %shared)

; CHECK-LABEL: define internal void @efsan.module_ctor()
; CHECK-NEXT:    call void @__efsan_init(i32 1, ptr @__efsan.cache_frag_module_info)
; CHECK-LABEL: define internal void @efsan.module_dtor()
; CHECK-NEXT:    call void @__efsan_exit(ptr @__efsan.cache_frag_module_info)

; CHECK-DAG: ![[NOSAN]] = !{}
; CHECK-DAG: ![[UNLIKELY]] = !{!"branch_weights", i32 1, i32 1048575}

declare void @escape(ptr)
declare i64 @strlen(ptr) nounwind willreturn memory(argmem: read)
declare void @free(ptr) nounwind willreturn allockind("free") memory(argmem: readwrite, inaccessiblemem: readwrite)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
