; An access to an element of an array member or to a field of an embedded
; struct counts for the member of the outermost struct that holds it: at -O0
; (a struct GEP, then an array GEP with a variable index), in one GEP, through
; a constant offset into a global, at -O2 where only byte offsets from a
; pointer parameter are left and the parameter's debug info names the struct
; (also through a typedef of an anonymous struct), and through a loop's
; pointer that steps through the array.
; Loops without their clean copies (cache-frag-clean-loops.ll tests those).
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -efsan-cache-frag-clean-loops=0 -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -S %s | %opt -passes=verify -disable-output

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; struct record { int id; struct vec pos; char buf[256]; long tail; };
%struct.record = type { i32, %struct.vec, [256 x i8], i64 }
%struct.vec = type { i32, i32 }

@grec = global %struct.record zeroinitializer, align 8

; The outer struct's table; none for struct vec, whose field is only reached
; through record.
; CHECK-DAG: @__efsan.struct.record.counters = private global [4 x i64] zeroinitializer
; CHECK-NOT: @__efsan.struct.vec.counters
; The debug info's member names, one per field (none is padding).
; CHECK-DAG: @__efsan.struct.record.field_name.0 = private unnamed_addr constant [3 x i8] c"id\00"
; CHECK-DAG: @__efsan.struct.record.field_name.2 = private unnamed_addr constant [4 x i8] c"buf\00"
; CHECK-DAG: @__efsan.struct.record.field_names = private unnamed_addr constant [4 x ptr] [ptr @__efsan.struct.record.field_name.0, ptr @__efsan.struct.record.field_name.1, ptr @__efsan.struct.record.field_name.2, ptr @__efsan.struct.record.field_name.3]

; -O0: &r->buf, then buf[i].
define void @buf_O0(ptr %r, i64 %i) {
  %buf = getelementptr inbounds %struct.record, ptr %r, i32 0, i32 2
  %e = getelementptr inbounds [256 x i8], ptr %buf, i64 0, i64 %i
  store i8 1, ptr %e, align 1
  ret void
}
; CHECK-LABEL: define void @buf_O0(
; CHECK: call preserve_mostcc void @__efsan_cache_frag_access(ptr %e, i64 1, i32 1, ptr getelementptr inbounds ([4 x i64], ptr @__efsan.struct.record.counters, i32 0, i32 2))

; One GEP down to the element.
define i8 @buf_one_gep(ptr %r, i64 %i) {
  %e = getelementptr inbounds %struct.record, ptr %r, i64 0, i32 2, i64 %i
  %v = load i8, ptr %e, align 1
  ret i8 %v
}
; CHECK-LABEL: define i8 @buf_one_gep(
; CHECK: call preserve_mostcc void @__efsan_cache_frag_access(ptr %e, i64 1, i32 0, ptr getelementptr inbounds ([4 x i64], ptr @__efsan.struct.record.counters, i32 0, i32 2))

; -O0: r->pos.y counts for pos, not for vec.y.
define void @pos_y_O0(ptr %r) {
  %pos = getelementptr inbounds %struct.record, ptr %r, i32 0, i32 1
  %y = getelementptr inbounds %struct.vec, ptr %pos, i32 0, i32 1
  store i32 1, ptr %y, align 4
  ret void
}
; CHECK-LABEL: define void @pos_y_O0(
; CHECK: call preserve_mostcc void @__efsan_cache_frag_access(ptr %y, i64 4, i32 1, ptr getelementptr inbounds ([4 x i64], ptr @__efsan.struct.record.counters, i32 0, i32 1))

; A constant offset into a global's array member (grec.buf[20]).
define i8 @global_buf() {
  %v = load i8, ptr getelementptr inbounds (i8, ptr @grec, i64 32), align 1
  ret i8 %v
}
; CHECK-LABEL: define i8 @global_buf(
; CHECK: call preserve_mostcc void @__efsan_cache_frag_access(ptr getelementptr inbounds (i8, ptr @grec, i64 32), i64 1, i32 0, ptr getelementptr inbounds ([4 x i64], ptr @__efsan.struct.record.counters, i32 0, i32 2))

; -O2: byte offsets from the parameter; its debug info says struct record *.
define void @buf_O2(ptr %r, i32 %i) !dbg !10 {
    #dbg_value(ptr %r, !20, !DIExpression(), !30)
  %buf = getelementptr inbounds i8, ptr %r, i64 12
  %idx = sext i32 %i to i64
  %e = getelementptr inbounds [256 x i8], ptr %buf, i64 0, i64 %idx
  store i8 1, ptr %e, align 1, !dbg !30
  ret void
}
; CHECK-LABEL: define void @buf_O2(
; CHECK: call preserve_mostcc void @__efsan_cache_frag_access(ptr %e, i64 1, i32 1, ptr getelementptr inbounds ([4 x i64], ptr @__efsan.struct.record.counters, i32 0, i32 2))

; A punned access into the array (an i32 load at buf's start) is still not
; taken for the member without a struct GEP to say so.
define i32 @buf_punned_O2(ptr %r) !dbg !11 {
    #dbg_value(ptr %r, !21, !DIExpression(), !31)
  %buf = getelementptr inbounds i8, ptr %r, i64 12
  %v = load i32, ptr %buf, align 4, !dbg !31
  ret i32 %v
}
; CHECK-LABEL: define i32 @buf_punned_O2(
; CHECK: call preserve_mostcc void @__efsan_cache_frag_access(ptr %buf, i64 4, i32 0, ptr null)

; A loop's pointer stepped through buf (loop strength reduction): the phi's
; start is &r->buf. A vectorised access to elements of buf counts too.
define void @buf_loop(i64 %n) {
entry:
  %start = getelementptr inbounds i8, ptr @grec, i64 12
  br label %loop
loop:
  %p = phi ptr [ %start, %entry ], [ %next, %loop ]
  %k = phi i64 [ 0, %entry ], [ %k.next, %loop ]
  store <16 x i8> zeroinitializer, ptr %p, align 1
  %next = getelementptr inbounds i8, ptr %p, i64 16
  %k.next = add i64 %k, 1
  %done = icmp eq i64 %k.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
; CHECK-LABEL: define void @buf_loop(
; The loop's 5 instructions per write are in flags bits 16-23, its one
; access per write in bits 24-31, in quarters (4 << 24 | 5 << 16 | 1:
; cache-frag-loop-work.c).
; CHECK: call preserve_mostcc void @__efsan_cache_frag_access(ptr %p, i64 16, i32 67436545, ptr getelementptr inbounds ([4 x i64], ptr @__efsan.struct.record.counters, i32 0, i32 2))

; An element of a global array of structs, in one GEP (recs[i].pos.y): the
; first struct the GEP indexes into is the outermost.
@grecs = global [4 x %struct.record] zeroinitializer, align 8

define i32 @array_of_structs(i64 %i) {
  %y = getelementptr inbounds [4 x %struct.record], ptr @grecs, i64 0, i64 %i, i32 1, i32 1
  %v = load i32, ptr %y, align 4
  ret i32 %v
}
; CHECK-LABEL: define i32 @array_of_structs(
; CHECK: call preserve_mostcc void @__efsan_cache_frag_access(ptr %y, i64 4, i32 0, ptr getelementptr inbounds ([4 x i64], ptr @__efsan.struct.record.counters, i32 0, i32 1))

; A typedef of an anonymous struct through a pointer parameter at -O2
; (`typedef struct { int n; unsigned char used[8]; } state_t;`).
%struct.state_t = type { i32, [8 x i8] }

define void @typedef_param(ptr %s, i64 %i) !dbg !40 {
    #dbg_value(ptr %s, !41, !DIExpression(), !42)
  %used = getelementptr inbounds i8, ptr %s, i64 4
  %e = getelementptr inbounds [8 x i8], ptr %used, i64 0, i64 %i
  store i8 1, ptr %e, align 1, !dbg !42
  ret void
}
; CHECK-LABEL: define void @typedef_param(
; CHECK: call preserve_mostcc void @__efsan_cache_frag_access(ptr %e, i64 1, i32 1, ptr getelementptr inbounds ([2 x i64], ptr @__efsan.struct.state_t.counters, i32 0, i32 1))

; A cast between struct types: p is a `struct base *` in the debug info but
; the code reads ((struct derived *)p)->z. The access is derived's, not a
; field of base that happens to be at the same offset.
%struct.base = type { i32, i32, i32 }
%struct.derived = type { i32, i32 }

define i32 @cast_between_structs(ptr %p) !dbg !50 {
    #dbg_value(ptr %p, !51, !DIExpression(), !52)
  %z = getelementptr inbounds %struct.derived, ptr %p, i64 0, i32 1
  %v = load i32, ptr %z, align 4, !dbg !52
  ret i32 %v
}
; CHECK-LABEL: define i32 @cast_between_structs(
; CHECK: call preserve_mostcc void @__efsan_cache_frag_access(ptr %z, i64 4, i32 0, ptr getelementptr inbounds ([2 x i64], ptr @__efsan.struct.derived.counters, i32 0, i32 1))

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "t.c", directory: "/")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!5 = !DICompositeType(tag: DW_TAG_structure_type, name: "record", file: !1, line: 1, size: 2240, elements: !7)
!7 = !{!8, !9, !12, !13}
!8 = !DIDerivedType(tag: DW_TAG_member, name: "id", scope: !5, file: !1, baseType: !14, size: 32)
!9 = !DIDerivedType(tag: DW_TAG_member, name: "pos", scope: !5, file: !1, baseType: !15, size: 64, offset: 32)
!12 = !DIDerivedType(tag: DW_TAG_member, name: "buf", scope: !5, file: !1, baseType: !16, size: 2048, offset: 96)
!13 = !DIDerivedType(tag: DW_TAG_member, name: "tail", scope: !5, file: !1, baseType: !17, size: 64, offset: 2176)
!14 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!15 = !DICompositeType(tag: DW_TAG_structure_type, name: "vec", file: !1, line: 1, size: 64, elements: !{})
!16 = !DICompositeType(tag: DW_TAG_array_type, baseType: !18, size: 2048, elements: !{})
!17 = !DIBasicType(name: "long", size: 64, encoding: DW_ATE_signed)
!18 = !DIBasicType(name: "char", size: 8, encoding: DW_ATE_signed_char)
!6 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !5, size: 64)
!10 = distinct !DISubprogram(name: "buf_O2", scope: !1, file: !1, line: 1, type: !4, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!11 = distinct !DISubprogram(name: "buf_punned_O2", scope: !1, file: !1, line: 2, type: !4, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!20 = !DILocalVariable(name: "r", arg: 1, scope: !10, file: !1, line: 1, type: !6)
!21 = !DILocalVariable(name: "r", arg: 1, scope: !11, file: !1, line: 2, type: !6)
!30 = !DILocation(line: 1, scope: !10)
!31 = !DILocation(line: 2, scope: !11)
!40 = distinct !DISubprogram(name: "typedef_param", scope: !1, file: !1, line: 3, type: !4, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!41 = !DILocalVariable(name: "s", arg: 1, scope: !40, file: !1, line: 3, type: !43)
!42 = !DILocation(line: 3, scope: !40)
!43 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !44, size: 64)
!44 = !DIDerivedType(tag: DW_TAG_typedef, name: "state_t", file: !1, line: 3, baseType: !45)
!45 = !DICompositeType(tag: DW_TAG_structure_type, file: !1, line: 3, size: 96, elements: !46)
!46 = !{!47, !48}
!47 = !DIDerivedType(tag: DW_TAG_member, name: "n", scope: !45, file: !1, baseType: !14, size: 32)
!48 = !DIDerivedType(tag: DW_TAG_member, name: "used", scope: !45, file: !1, baseType: !49, size: 64, offset: 32)
!49 = !DICompositeType(tag: DW_TAG_array_type, baseType: !18, size: 64, elements: !{})
!50 = distinct !DISubprogram(name: "cast_between_structs", scope: !1, file: !1, line: 4, type: !4, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!51 = !DILocalVariable(name: "p", arg: 1, scope: !50, file: !1, line: 4, type: !53)
!52 = !DILocation(line: 4, scope: !50)
!53 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !54, size: 64)
!54 = !DICompositeType(tag: DW_TAG_structure_type, name: "base", file: !1, line: 4, size: 96, elements: !{})
