; Optimised code addresses fields by byte offset and the struct types are
; gone; the field comes from the struct-path TBAA tag. Sizes come from TBAA
; offsets (padding included; the last field as wide as its widest access),
; unless the module still has the LLVM struct type.
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -S %s | FileCheck %s --check-prefix=NOBUMP
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -efsan-cache-frag-field-counters=false -S %s | FileCheck %s --check-prefix=NOCOUNT

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; A C++ type known to the module only through TBAA (ns::item)...
; CHECK: @"__efsan.struct.ns::item.counters" = private global [3 x i64] zeroinitializer
; ... and a C type whose LLVM type is still around (a global of it).
%struct.pair = type { i32, i64 }
@gpair = global %struct.pair zeroinitializer
; CHECK: @__efsan.struct.pair.counters = private global [2 x i64] zeroinitializer

; CHECK: @"__efsan.struct.ns::item.field_type.0" = private unnamed_addr constant [4 x i8] c"int\00"
; CHECK: @"__efsan.struct.ns::item.field_type.1" = private unnamed_addr constant [5 x i8] c"long\00"
; CHECK: @"__efsan.struct.ns::item.field_type.2" = private unnamed_addr constant [12 x i8] c"any pointer\00"
; CHECK: @"__efsan.struct.ns::item.name" = private unnamed_addr constant [16 x i8] c"struct.ns::item\00"
; CHECK: @"__efsan.struct.ns::item.field_offsets" = private unnamed_addr constant [3 x i32] [i32 0, i32 8, i32 16]
; CHECK: @"__efsan.struct.ns::item.field_sizes" = private unnamed_addr constant [3 x i32] [i32 8, i32 8, i32 8]
; CHECK: @__efsan.struct.pair.field_sizes = private unnamed_addr constant [2 x i32] [i32 4, i32 8]
; CHECK: @__efsan.struct_infos = private constant [2 x { ptr, i32, i32, ptr, ptr, ptr, ptr, ptr, ptr }]
; CHECK-SAME: { ptr @"__efsan.struct.ns::item.name", i32 24, i32 3,
; CHECK-SAME: { ptr @__efsan.struct.pair.name, i32 16, i32 2,

define i64 @item_fields(ptr %p) {
  %f1 = getelementptr inbounds i8, ptr %p, i64 8
  %a = load i64, ptr %f1, align 8, !tbaa !5
  %f2 = getelementptr inbounds i8, ptr %p, i64 16
  %b = load ptr, ptr %f2, align 8, !tbaa !13
  %c = load i8, ptr %p, align 1, !tbaa !12
  ret i64 %a
}
; Each access's counter goes to the runtime in the access's case of the cold
; block's switch (countdown 1) and in its call of the chain.
; CHECK-LABEL: define i64 @item_fields(ptr %p)
; CHECK:         add nsw i64 %{{[0-9]+}}, -3
; CHECK-NEXT:    icmp sle i64 %{{[0-9]+}}, 0
; A scalar tag (base == access type) names no struct: a null counter for %p.
; CHECK:         switch i64 %{{[0-9]+}}, label %[[WHOLE:[0-9]+]] [
; CHECK-NEXT:      i64 0, label %[[CASE0:[0-9]+]]
; CHECK-NEXT:      i64 1, label %[[CASE1:[0-9]+]]
; CHECK-NEXT:      i64 2, label %[[CASE2:[0-9]+]]
; CHECK-NEXT:    ]
; CHECK:       {{^}}[[CASE0]]:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 1, ptr
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %f1, i64 8, i32 0, ptr getelementptr inbounds ([3 x i64], ptr @"__efsan.struct.ns::item.counters", i32 0, i32 1))
; CHECK:       {{^}}[[CASE1]]:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 1, ptr
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %f2, i64 8, i32 0, ptr getelementptr inbounds ([3 x i64], ptr @"__efsan.struct.ns::item.counters", i32 0, i32 2))
; CHECK:       {{^}}[[CASE2]]:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 1, ptr
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %p, i64 1, i32 0, ptr null)
; CHECK:       {{^}}[[WHOLE]]:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 %{{[0-9]+}}, ptr
; CHECK-NEXT:    br label %[[CHAIN0:[0-9]+]]
; CHECK:       {{^}}[[CHAIN0]]:
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %f1, i64 8, i32 0, ptr getelementptr inbounds ([3 x i64], ptr @"__efsan.struct.ns::item.counters", i32 0, i32 1))
; CHECK-NEXT:    br label %[[CHAIN1:[0-9]+]]
; CHECK:       {{^}}[[CHAIN1]]:
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %f2, i64 8, i32 0, ptr getelementptr inbounds ([3 x i64], ptr @"__efsan.struct.ns::item.counters", i32 0, i32 2))
; CHECK-NEXT:    br label %[[CHAIN2:[0-9]+]]
; CHECK:       {{^}}[[CHAIN2]]:
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %p, i64 1, i32 0, ptr null)
; CHECK-NEXT:    br label %{{[0-9]+}}
; CHECK:         ret

define void @pair_field(ptr %p) {
  %f = getelementptr inbounds i8, ptr %p, i64 8
  store i64 3, ptr %f, align 8, !tbaa !21
  ret void
}
; CHECK-LABEL: define void @pair_field(ptr %p)
; CHECK:         add nsw i64 %{{[0-9]+}}, -1
; CHECK-NEXT:    icmp sle i64 %{{[0-9]+}}, 0
; CHECK:         call preserve_mostcc void @__efsan_cache_frag_access(ptr %f, i64 8, i32 1, ptr getelementptr inbounds ([2 x i64], ptr @__efsan.struct.pair.counters, i32 0, i32 1))
; CHECK:         ret

; Without field counters every access passes a null counter.
; NOCOUNT-NOT: counters
; NOCOUNT:     call preserve_mostcc void @__efsan_cache_frag_access(ptr %f1, i64 8, i32 0, ptr null)
; NOCOUNT:     call preserve_mostcc void @__efsan_cache_frag_access(ptr %f, i64 8, i32 1, ptr null)
; NOCOUNT-NOT: counters

!5 = !{!6, !10, i64 8}
!6 = !{!"_ZTSN2ns4itemE", !7, i64 0, !10, i64 8, !11, i64 16}
!7 = !{!"int", !8, i64 0}
!8 = !{!"omnipotent char", !9, i64 0}
!9 = !{!"Simple C++ TBAA"}
!10 = !{!"long", !8, i64 0}
!11 = !{!"any pointer", !8, i64 0}
!12 = !{!8, !8, i64 0}
!13 = !{!6, !11, i64 16}
!20 = !{!"pair", !7, i64 0, !10, i64 8}
!21 = !{!20, !10, i64 8}

; The field counters are the runtime's to bump, when it samples the access.
; NOBUMP-NOT: {{(load|store) i64.*counters}}
