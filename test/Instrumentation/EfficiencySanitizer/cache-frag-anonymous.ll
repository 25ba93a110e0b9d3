; Struct field counters for accesses that neither a struct GEP nor a named
; TBAA base type ties to a struct:
;  - `typedef struct { ... } point_t;` has an empty TBAA name; clang calls its
;    LLVM type %struct.point_t, which the address gives when it is an
;    array-style GEP (p[i].x, field 0 at offset 0 with no field index) or a
;    constant offset from one, and which must agree with the tag's offset;
;  - a bare pointer has only the debug info: the type of the variable that
;    holds it (`pair_a *a`, also for a[1].x), else the typedef of an
;    anonymous struct whose members start at the TBAA member offsets (`seg_t`;
;    none if two such typedefs fit);
;  - with no struct-path tag at all, an access that reads or writes exactly a
;    member of the struct the address points into.
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -S %s | FileCheck %s --check-prefix=NOBUMP
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -efsan-cache-frag-field-counters=false -S %s | FileCheck %s --check-prefix=NOCOUNT

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%struct.point_t = type { double, double, i32 }
%struct.line = type { %struct.point_t, %struct.point_t }

@origin = global %struct.point_t zeroinitializer, align 8

; point_t has its LLVM type: exact layout. seg_t only has TBAA and debug info:
; sizes from the TBAA offsets, the last field as wide as its widest access.
; CHECK-DAG: @__efsan.struct.point_t.counters = private global [3 x i64] zeroinitializer
; CHECK-DAG: @__efsan.struct.seg_t.counters = private global [2 x i64] zeroinitializer
; With debug info the tables carry the source names: the typedef's for an
; anonymous struct; struct line has no debug info here and keeps its LLVM name.
; CHECK-DAG: @__efsan.struct.point_t.name = private unnamed_addr constant [8 x i8] c"point_t\00"
; CHECK-DAG: @__efsan.struct.line.name = private unnamed_addr constant [12 x i8] c"struct.line\00"
; CHECK-DAG: @__efsan.struct.point_t.field_sizes = private unnamed_addr constant [3 x i32] [i32 8, i32 8, i32 4]
; CHECK-DAG: @__efsan.struct.seg_t.name = private unnamed_addr constant [6 x i8] c"seg_t\00"
; CHECK-DAG: @__efsan.struct.seg_t.field_offsets = private unnamed_addr constant [2 x i32] [i32 0, i32 8]
; CHECK-DAG: @__efsan.struct.seg_t.field_sizes = private unnamed_addr constant [2 x i32] [i32 8, i32 4]
; CHECK-DAG: @__efsan.struct.seg_t.field_type.0 = private unnamed_addr constant [5 x i8] c"long\00"
; CHECK-DAG: @__efsan.struct.pair_a.counters = private global [2 x i64] zeroinitializer
; CHECK-DAG: @__efsan.struct.pair_b.counters = private global [2 x i64] zeroinitializer
; CHECK-DAG: @__efsan.struct.line.counters = private global [2 x i64] zeroinitializer
; No table for the anonymous struct itself.
; CHECK-NOT: @"__efsan.struct..counters"
; CHECK: @__efsan.struct_infos = private constant [5 x

; p[i].x += p[i].y: field 0 at the array element's address, field 1 at a
; constant offset from it.
define void @array_element(ptr %p, i64 %i) {
  %e = getelementptr inbounds %struct.point_t, ptr %p, i64 %i
  %y.addr = getelementptr inbounds i8, ptr %e, i64 8
  %y = load double, ptr %y.addr, align 8, !tbaa !20
  %x = load double, ptr %e, align 8, !tbaa !22
  %sum = fadd double %x, %y
  store double %sum, ptr %e, align 8, !tbaa !22
  ret void
}
; Each access's counter goes to the runtime in the access's case of the cold
; block's switch (countdown 1) and in its call of the chain.
; CHECK-LABEL: define void @array_element(
; CHECK:         add nsw i64 %{{[0-9]+}}, -3
; CHECK-NEXT:    icmp sle i64 %{{[0-9]+}}, 0
; CHECK:         switch i64 %{{[0-9]+}}, label %[[WHOLE:[0-9]+]] [
; CHECK-NEXT:      i64 0, label %[[CASE0:[0-9]+]]
; CHECK-NEXT:      i64 1, label %[[CASE1:[0-9]+]]
; CHECK-NEXT:      i64 2, label %[[CASE2:[0-9]+]]
; CHECK-NEXT:    ]
; CHECK:       {{^}}[[CASE0]]:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 1, ptr
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %y.addr, i64 8, i32 0, ptr getelementptr inbounds ([3 x i64], ptr @__efsan.struct.point_t.counters, i32 0, i32 1))
; CHECK:       {{^}}[[CASE1]]:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 1, ptr
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %e, i64 8, i32 0, ptr @__efsan.struct.point_t.counters)
; CHECK:       {{^}}[[CASE2]]:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 1, ptr
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %e, i64 8, i32 1, ptr @__efsan.struct.point_t.counters)
; CHECK:       {{^}}[[WHOLE]]:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 %{{[0-9]+}}, ptr
; CHECK-NEXT:    br label %[[CHAIN0:[0-9]+]]
; CHECK:       {{^}}[[CHAIN0]]:
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %y.addr, i64 8, i32 0, ptr getelementptr inbounds ([3 x i64], ptr @__efsan.struct.point_t.counters, i32 0, i32 1))
; CHECK-NEXT:    br label %[[CHAIN1:[0-9]+]]
; CHECK:       {{^}}[[CHAIN1]]:
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %e, i64 8, i32 0, ptr @__efsan.struct.point_t.counters)
; CHECK-NEXT:    br label %[[CHAIN2:[0-9]+]]
; CHECK:       {{^}}[[CHAIN2]]:
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %e, i64 8, i32 1, ptr @__efsan.struct.point_t.counters)
; CHECK-NEXT:    br label %{{[0-9]+}}
; CHECK:         ret

; The unrolled form: an array-style GEP off a constant offset from the base
; (p + 1 element), and a global of the type (offset 0, no GEP).
define void @unrolled_and_global(ptr %p, i64 %i) {
  %next = getelementptr inbounds i8, ptr %p, i64 24
  %e = getelementptr inbounds %struct.point_t, ptr %next, i64 %i
  %id.addr = getelementptr inbounds i8, ptr %e, i64 16
  store i32 7, ptr %id.addr, align 8, !tbaa !23
  store double 1.0, ptr @origin, align 8, !tbaa !22
  ret void
}
; CHECK-LABEL: define void @unrolled_and_global(
; CHECK:         add nsw i64 %{{[0-9]+}}, -2
; CHECK-NEXT:    icmp sle i64 %{{[0-9]+}}, 0
; CHECK:         switch i64 %{{[0-9]+}}, label %[[WHOLE:[0-9]+]] [
; CHECK-NEXT:      i64 0, label %[[CASE0:[0-9]+]]
; CHECK-NEXT:      i64 1, label %[[CASE1:[0-9]+]]
; CHECK-NEXT:    ]
; CHECK:       {{^}}[[CASE0]]:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 1, ptr
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %id.addr, i64 4, i32 1, ptr getelementptr inbounds ([3 x i64], ptr @__efsan.struct.point_t.counters, i32 0, i32 2))
; CHECK:       {{^}}[[CASE1]]:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 1, ptr
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr @origin, i64 8, i32 1, ptr @__efsan.struct.point_t.counters)
; CHECK:       {{^}}[[WHOLE]]:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 %{{[0-9]+}}, ptr
; CHECK-NEXT:    br label %[[CHAIN0:[0-9]+]]
; CHECK:       {{^}}[[CHAIN0]]:
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %id.addr, i64 4, i32 1, ptr getelementptr inbounds ([3 x i64], ptr @__efsan.struct.point_t.counters, i32 0, i32 2))
; CHECK-NEXT:    br label %[[CHAIN1:[0-9]+]]
; CHECK:       {{^}}[[CHAIN1]]:
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr @origin, i64 8, i32 1, ptr @__efsan.struct.point_t.counters)
; CHECK-NEXT:    br label %{{[0-9]+}}
; CHECK:         ret

; A bare pointer: the debug info's typedef names the struct.
define i64 @bare_pointer(ptr %s) {
  %len = load i64, ptr %s, align 8, !tbaa !31
  %kind.addr = getelementptr inbounds i8, ptr %s, i64 8
  %kind = load i32, ptr %kind.addr, align 8, !tbaa !32
  %k = sext i32 %kind to i64
  %r = add i64 %len, %k
  ret i64 %r
}
; CHECK-LABEL: define i64 @bare_pointer(
; CHECK:         add nsw i64 %{{[0-9]+}}, -2
; CHECK-NEXT:    icmp sle i64 %{{[0-9]+}}, 0
; CHECK:         switch i64 %{{[0-9]+}}, label %[[WHOLE:[0-9]+]] [
; CHECK-NEXT:      i64 0, label %[[CASE0:[0-9]+]]
; CHECK-NEXT:      i64 1, label %[[CASE1:[0-9]+]]
; CHECK-NEXT:    ]
; CHECK:       {{^}}[[CASE0]]:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 1, ptr
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %s, i64 8, i32 0, ptr @__efsan.struct.seg_t.counters)
; CHECK:       {{^}}[[CASE1]]:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 1, ptr
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %kind.addr, i64 4, i32 0, ptr getelementptr inbounds ([2 x i64], ptr @__efsan.struct.seg_t.counters, i32 0, i32 1))
; CHECK:       {{^}}[[WHOLE]]:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 %{{[0-9]+}}, ptr
; CHECK-NEXT:    br label %[[CHAIN0:[0-9]+]]
; CHECK:       {{^}}[[CHAIN0]]:
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %s, i64 8, i32 0, ptr @__efsan.struct.seg_t.counters)
; CHECK-NEXT:    br label %[[CHAIN1:[0-9]+]]
; CHECK:       {{^}}[[CHAIN1]]:
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %kind.addr, i64 4, i32 0, ptr getelementptr inbounds ([2 x i64], ptr @__efsan.struct.seg_t.counters, i32 0, i32 1))
; CHECK-NEXT:    br label %{{[0-9]+}}
; CHECK:         ret

; pair_a and pair_b have the same members, hence the same TBAA node: the
; variables holding the pointers tell them apart (also one element further
; on, not half an element).
define void @pointer_variables(ptr %a, ptr %b) !dbg !90 {
    #dbg_value(ptr %a, !93, !DIExpression(), !96)
    #dbg_value(ptr %b, !94, !DIExpression(), !96)
  store i32 1, ptr %a, align 4, !tbaa !41
  %a1.y = getelementptr inbounds i8, ptr %a, i64 12
  store i32 2, ptr %a1.y, align 4, !tbaa !43
  %b.y = getelementptr inbounds i8, ptr %b, i64 4
  store i32 3, ptr %b.y, align 4, !tbaa !43
  %half = getelementptr inbounds i8, ptr %b, i64 4
  store i32 4, ptr %half, align 4, !tbaa !41
  ret void
}
; CHECK-LABEL: define void @pointer_variables(
; CHECK:         add nsw i64 %{{[0-9]+}}, -4
; CHECK-NEXT:    icmp sle i64 %{{[0-9]+}}, 0
; CHECK:         switch i64 %{{[0-9]+}}, label %[[WHOLE:[0-9]+]] [
; CHECK-NEXT:      i64 0, label %[[CASE0:[0-9]+]]
; CHECK-NEXT:      i64 1, label %[[CASE1:[0-9]+]]
; CHECK-NEXT:      i64 2, label %[[CASE2:[0-9]+]]
; CHECK-NEXT:      i64 3, label %[[CASE3:[0-9]+]]
; CHECK-NEXT:    ]
; CHECK:       {{^}}[[CASE0]]:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 1, ptr
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %a, i64 4, i32 1, ptr @__efsan.struct.pair_a.counters)
; CHECK:       {{^}}[[CASE1]]:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 1, ptr
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %a1.y, i64 4, i32 1, ptr getelementptr inbounds ([2 x i64], ptr @__efsan.struct.pair_a.counters, i32 0, i32 1))
; CHECK:       {{^}}[[CASE2]]:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 1, ptr
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %b.y, i64 4, i32 1, ptr getelementptr inbounds ([2 x i64], ptr @__efsan.struct.pair_b.counters, i32 0, i32 1))
; CHECK:       {{^}}[[CASE3]]:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 1, ptr
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %half, i64 4, i32 1, ptr null)
; CHECK:       {{^}}[[WHOLE]]:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 %{{[0-9]+}}, ptr
; CHECK-NEXT:    br label %[[CHAIN0:[0-9]+]]
; CHECK:       {{^}}[[CHAIN0]]:
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %a, i64 4, i32 1, ptr @__efsan.struct.pair_a.counters)
; CHECK-NEXT:    br label %[[CHAIN1:[0-9]+]]
; CHECK:       {{^}}[[CHAIN1]]:
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %a1.y, i64 4, i32 1, ptr getelementptr inbounds ([2 x i64], ptr @__efsan.struct.pair_a.counters, i32 0, i32 1))
; CHECK-NEXT:    br label %[[CHAIN2:[0-9]+]]
; CHECK:       {{^}}[[CHAIN2]]:
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %b.y, i64 4, i32 1, ptr getelementptr inbounds ([2 x i64], ptr @__efsan.struct.pair_b.counters, i32 0, i32 1))
; CHECK-NEXT:    br label %[[CHAIN3:[0-9]+]]
; CHECK:       {{^}}[[CHAIN3]]:
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %half, i64 4, i32 1, ptr null)
; CHECK-NEXT:    br label %{{[0-9]+}}
; CHECK:         ret

; Without such a variable, pair_a and pair_b cannot be told apart: no
; counter. Nor when the address says point_t but at another offset than the
; tag: an unresolved struct-path tag is not second-guessed from the address.
define void @unresolved(ptr %q, ptr %p, i64 %i) {
  store i32 1, ptr %q, align 4, !tbaa !41
  %e = getelementptr inbounds %struct.point_t, ptr %p, i64 %i
  %y.addr = getelementptr inbounds i8, ptr %e, i64 8
  %y = load double, ptr %y.addr, align 8, !tbaa !42
  ret void
}
; CHECK-LABEL: define void @unresolved(
; CHECK:         add nsw i64 %{{[0-9]+}}, -2
; CHECK-NEXT:    icmp sle i64 %{{[0-9]+}}, 0
; CHECK:         switch i64 %{{[0-9]+}}, label %[[WHOLE:[0-9]+]] [
; CHECK-NEXT:      i64 0, label %[[CASE0:[0-9]+]]
; CHECK-NEXT:      i64 1, label %[[CASE1:[0-9]+]]
; CHECK-NEXT:    ]
; CHECK:       {{^}}[[CASE0]]:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 1, ptr
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %q, i64 4, i32 1, ptr null)
; CHECK:       {{^}}[[CASE1]]:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 1, ptr
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %y.addr, i64 8, i32 0, ptr null)
; CHECK:       {{^}}[[WHOLE]]:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 %{{[0-9]+}}, ptr
; CHECK-NEXT:    br label %[[CHAIN0:[0-9]+]]
; CHECK:       {{^}}[[CHAIN0]]:
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %q, i64 4, i32 1, ptr null)
; CHECK-NEXT:    br label %[[CHAIN1:[0-9]+]]
; CHECK:       {{^}}[[CHAIN1]]:
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %y.addr, i64 8, i32 0, ptr null)
; CHECK-NEXT:    br label %{{[0-9]+}}
; CHECK:         ret

; No struct-path tag (none at all, or a scalar one as for *(double *)&p[i]):
; an access of exactly a member type at a member's offset counts, a punned or
; partial one does not; a nested struct's field counts for the outer struct's
; member that holds it (line's second point_t).
define void @no_struct_path(ptr %p, ptr %l, i64 %i) {
  %e = getelementptr inbounds %struct.point_t, ptr %p, i64 %i
  %x = load double, ptr %e, align 8
  %x.scalar = load double, ptr %e, align 8, !tbaa !12
  %punned = load i64, ptr %e, align 8
  %half = getelementptr inbounds i8, ptr %e, i64 4
  %part = load i32, ptr %half, align 4
  %id.addr = getelementptr inbounds i8, ptr %e, i64 16
  %id = load i32, ptr %id.addr, align 8
  %seg = getelementptr inbounds %struct.line, ptr %l, i64 %i
  %end.y = getelementptr inbounds i8, ptr %seg, i64 32
  %v = load double, ptr %end.y, align 8
  ret void
}
; CHECK-LABEL: define void @no_struct_path(
; CHECK:         add nsw i64 %{{[0-9]+}}, -6
; CHECK-NEXT:    icmp sle i64 %{{[0-9]+}}, 0
; CHECK:         switch i64 %{{[0-9]+}}, label %[[WHOLE:[0-9]+]] [
; CHECK-NEXT:      i64 0, label %[[CASE0:[0-9]+]]
; CHECK-NEXT:      i64 1, label %[[CASE1:[0-9]+]]
; CHECK-NEXT:      i64 2, label %[[CASE2:[0-9]+]]
; CHECK-NEXT:      i64 3, label %[[CASE3:[0-9]+]]
; CHECK-NEXT:      i64 4, label %[[CASE4:[0-9]+]]
; CHECK-NEXT:      i64 5, label %[[CASE5:[0-9]+]]
; CHECK-NEXT:    ]
; CHECK:       {{^}}[[CASE0]]:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 1, ptr
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %e, i64 8, i32 0, ptr @__efsan.struct.point_t.counters)
; CHECK:       {{^}}[[CASE1]]:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 1, ptr
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %e, i64 8, i32 0, ptr @__efsan.struct.point_t.counters)
; CHECK:       {{^}}[[CASE2]]:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 1, ptr
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %e, i64 8, i32 0, ptr null)
; CHECK:       {{^}}[[CASE3]]:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 1, ptr
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %half, i64 4, i32 0, ptr null)
; CHECK:       {{^}}[[CASE4]]:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 1, ptr
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %id.addr, i64 4, i32 0, ptr getelementptr inbounds ([3 x i64], ptr @__efsan.struct.point_t.counters, i32 0, i32 2))
; CHECK:       {{^}}[[CASE5]]:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 1, ptr
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %end.y, i64 8, i32 0, ptr getelementptr inbounds ([2 x i64], ptr @__efsan.struct.line.counters, i32 0, i32 1))
; CHECK:       {{^}}[[WHOLE]]:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 %{{[0-9]+}}, ptr
; CHECK-NEXT:    br label %[[CHAIN0:[0-9]+]]
; CHECK:       {{^}}[[CHAIN0]]:
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %e, i64 8, i32 0, ptr @__efsan.struct.point_t.counters)
; CHECK-NEXT:    br label %[[CHAIN1:[0-9]+]]
; CHECK:       {{^}}[[CHAIN1]]:
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %e, i64 8, i32 0, ptr @__efsan.struct.point_t.counters)
; CHECK-NEXT:    br label %[[CHAIN2:[0-9]+]]
; CHECK:       {{^}}[[CHAIN2]]:
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %e, i64 8, i32 0, ptr null)
; CHECK-NEXT:    br label %[[CHAIN3:[0-9]+]]
; CHECK:       {{^}}[[CHAIN3]]:
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %half, i64 4, i32 0, ptr null)
; CHECK-NEXT:    br label %[[CHAIN4:[0-9]+]]
; CHECK:       {{^}}[[CHAIN4]]:
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %id.addr, i64 4, i32 0, ptr getelementptr inbounds ([3 x i64], ptr @__efsan.struct.point_t.counters, i32 0, i32 2))
; CHECK-NEXT:    br label %[[CHAIN5:[0-9]+]]
; CHECK:       {{^}}[[CHAIN5]]:
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %end.y, i64 8, i32 0, ptr getelementptr inbounds ([2 x i64], ptr @__efsan.struct.line.counters, i32 0, i32 1))
; CHECK-NEXT:    br label %{{[0-9]+}}
; CHECK:         ret

; Without field counters every access passes a null counter.
; NOCOUNT-NOT: counters
; NOCOUNT:     call preserve_mostcc void @__efsan_cache_frag_access(ptr %y.addr, i64 8, i32 0, ptr null)
; NOCOUNT-NOT: counters

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, retainedTypes: !3)
!1 = !DIFile(filename: "anon.c", directory: "/")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{!50, !60, !70, !80}

; TBAA
!10 = !{!"omnipotent char", !11, i64 0}
!11 = !{!"Simple C/C++ TBAA"}
!12 = !{!13, !13, i64 0}
!13 = !{!"double", !10, i64 0}
!14 = !{!"int", !10, i64 0}
!15 = !{!"long", !10, i64 0}
; point_t
!19 = !{!"", !13, i64 0, !13, i64 8, !14, i64 16}
!20 = !{!19, !13, i64 8}
!22 = !{!19, !13, i64 0}
!23 = !{!19, !14, i64 16}
; seg_t
!30 = !{!"", !15, i64 0, !14, i64 8}
!31 = !{!30, !15, i64 0}
!32 = !{!30, !14, i64 8}
; pair_a, pair_b
!40 = !{!"", !14, i64 0, !14, i64 4}
!41 = !{!40, !14, i64 0}
!42 = !{!40, !14, i64 0}
!43 = !{!40, !14, i64 4}

; Debug info: typedefs of anonymous structs.
!49 = !DIBasicType(name: "double", size: 64, encoding: DW_ATE_float)
!48 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!47 = !DIBasicType(name: "long", size: 64, encoding: DW_ATE_signed)
!50 = !DIDerivedType(tag: DW_TAG_typedef, name: "point_t", file: !1, line: 1, baseType: !51)
!51 = distinct !DICompositeType(tag: DW_TAG_structure_type, file: !1, line: 1, size: 192, elements: !52)
!52 = !{!53, !54, !55}
!53 = !DIDerivedType(tag: DW_TAG_member, name: "x", scope: !51, file: !1, line: 1, baseType: !49, size: 64)
!54 = !DIDerivedType(tag: DW_TAG_member, name: "y", scope: !51, file: !1, line: 1, baseType: !49, size: 64, offset: 64)
!55 = !DIDerivedType(tag: DW_TAG_member, name: "id", scope: !51, file: !1, line: 1, baseType: !48, size: 32, offset: 128)
!60 = !DIDerivedType(tag: DW_TAG_typedef, name: "seg_t", file: !1, line: 2, baseType: !61)
!61 = distinct !DICompositeType(tag: DW_TAG_structure_type, file: !1, line: 2, size: 128, elements: !62)
!62 = !{!63, !64}
!63 = !DIDerivedType(tag: DW_TAG_member, name: "len", scope: !61, file: !1, line: 2, baseType: !47, size: 64)
!64 = !DIDerivedType(tag: DW_TAG_member, name: "kind", scope: !61, file: !1, line: 2, baseType: !48, size: 32, offset: 64)
!70 = !DIDerivedType(tag: DW_TAG_typedef, name: "pair_a", file: !1, line: 3, baseType: !71)
!71 = distinct !DICompositeType(tag: DW_TAG_structure_type, file: !1, line: 3, size: 64, elements: !72)
!72 = !{!73, !74}
!73 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !71, file: !1, line: 3, baseType: !48, size: 32)
!74 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !71, file: !1, line: 3, baseType: !48, size: 32, offset: 32)
!80 = !DIDerivedType(tag: DW_TAG_typedef, name: "pair_b", file: !1, line: 4, baseType: !81)
!81 = distinct !DICompositeType(tag: DW_TAG_structure_type, file: !1, line: 4, size: 64, elements: !82)
!82 = !{!83, !84}
!83 = !DIDerivedType(tag: DW_TAG_member, name: "c", scope: !81, file: !1, line: 4, baseType: !48, size: 32)
!84 = !DIDerivedType(tag: DW_TAG_member, name: "d", scope: !81, file: !1, line: 4, baseType: !48, size: 32, offset: 32)

; void pointer_variables(pair_a *a, const pair_b *b)
!90 = distinct !DISubprogram(name: "pointer_variables", scope: !1, file: !1, line: 5, type: !91, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!91 = !DISubroutineType(types: !92)
!92 = !{null, !97, !98}
!93 = !DILocalVariable(name: "a", arg: 1, scope: !90, file: !1, line: 5, type: !97)
!94 = !DILocalVariable(name: "b", arg: 2, scope: !90, file: !1, line: 5, type: !98)
!96 = !DILocation(line: 5, scope: !90)
!97 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !70, size: 64)
!98 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !99, size: 64)
!99 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !80)

; The field counters are the runtime's to bump, when it samples the access.
; NOBUMP-NOT: {{(load|store) i64.*counters}}
