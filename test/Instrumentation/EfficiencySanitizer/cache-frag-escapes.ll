; cache-frag: a struct field whose address (or a pointer derived from it)
; leaves what the pass attributes gets bit 0 in its struct's field_flags:
; passed to a function (another file's loop over it), stored to memory,
; passed to memset (the runtime counts it for no field), returned, or
; accessed in a way that the pass cannot place in the field. Loads and
; stores through a pointer derived from the field in the same function are
; attributed, and so are not escapes; nor is clearing or passing the whole
; object. One struct type per case, so that each flag array says one thing.
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -S %s | %opt -passes=verify -disable-output
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -efsan-cache-frag-field-counters=false -S %s | FileCheck %s --check-prefix=OFF

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; The issue's shape: struct ctx { unsigned hash[16]; unsigned short chain[32];
; unsigned next; int level; }.
%struct.external = type { [16 x i32], [32 x i16], i32, i32 }
%struct.stored = type { [16 x i32], [32 x i16], i32, i32 }
%struct.cleared = type { [16 x i32], [32 x i16], i32, i32 }
%struct.returned = type { [16 x i32], [32 x i16], i32, i32 }
%struct.bytes = type { [16 x i32], [32 x i16], i32, i32 }
%struct.derived = type { [16 x i32], [32 x i16], i32, i32 }

@keep = global ptr null

; CHECK-DAG: @__efsan.struct.external.field_flags = private unnamed_addr constant [4 x i8] c"\00\01\00\00"
; CHECK-DAG: @__efsan.struct.stored.field_flags = private unnamed_addr constant [4 x i8] c"\00\01\00\00"
; CHECK-DAG: @__efsan.struct.cleared.field_flags = private unnamed_addr constant [4 x i8] c"\01\00\00\00"
; CHECK-DAG: @__efsan.struct.returned.field_flags = private unnamed_addr constant [4 x i8] c"\00\00\01\00"
; CHECK-DAG: @__efsan.struct.bytes.field_flags = private unnamed_addr constant [4 x i8] c"\00\01\00\00"
; CHECK-NOT: @__efsan.struct.derived.field_flags
; CHECK: @__efsan.struct_infos = private constant [6 x { ptr, i32, i32, ptr, ptr, ptr, ptr, ptr, ptr }]
; CHECK-SAME: ptr @__efsan.struct.external.counters, ptr null, ptr @__efsan.struct.external.field_flags }
; CHECK-SAME: ptr @__efsan.struct.derived.counters, ptr null, ptr null }
; CHECK: @__efsan.cache_frag_module_info = private constant { i32, ptr, i32, ptr, i32, ptr } { i32 2,

; Without field counters there are no tables, so nothing to flag.
; OFF-NOT: field_flags
; OFF: @__efsan.cache_frag_module_info = private constant { i32, ptr, i32, ptr, i32, ptr } { i32 2, ptr @__efsan.module_name, i32 0, ptr null,

declare void @fill_chain(ptr, i32)
declare void @use_ctx(ptr)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

; fill_chain(c->chain, n), defined in another file; c->next is counted here.
define void @external(ptr %c, i32 %n) {
  %chain = getelementptr inbounds %struct.external, ptr %c, i64 0, i32 1
  call void @fill_chain(ptr %chain, i32 %n)
  %next = getelementptr inbounds %struct.external, ptr %c, i64 0, i32 2
  store i32 %n, ptr %next
  ret void
}

; keep = &c->chain[4]: a pointer derived from the member, into memory.
define void @stored(ptr %c) {
  %chain = getelementptr inbounds %struct.stored, ptr %c, i64 0, i32 1
  %at = getelementptr inbounds i16, ptr %chain, i64 4
  store ptr %at, ptr @keep
  %next = getelementptr inbounds %struct.stored, ptr %c, i64 0, i32 2
  store i32 0, ptr %next
  ret void
}

; memset(c->hash, 0, sizeof c->hash) as optimised code has it: from the
; object's own address (no field index), but over the first member only.
; Then clearing the whole object, which flags nothing.
define void @cleared(ptr %c) {
  %whole = getelementptr inbounds %struct.cleared, ptr %c, i64 0
  call void @llvm.memset.p0.i64(ptr %whole, i8 0, i64 64, i1 false)
  call void @llvm.memset.p0.i64(ptr %whole, i8 0, i64 136, i1 false)
  ret void
}

; return &c->next
define ptr @returned(ptr %c) {
  %next = getelementptr inbounds %struct.returned, ptr %c, i64 0, i32 2
  %level = getelementptr inbounds %struct.returned, ptr %c, i64 0, i32 3
  store i32 1, ptr %level
  ret ptr %next
}

; ((char *)c->chain)[i] = 0: a byte stride over an array of i16 is in the
; member, but the pass cannot place the access in it.
define void @bytes(ptr %c, i64 %i) {
  %chain = getelementptr inbounds %struct.bytes, ptr %c, i64 0, i32 1
  %at = getelementptr inbounds i8, ptr %chain, i64 %i
  store i8 0, ptr %at
  ret void
}

; unsigned *ht = c->hash; unsigned short *ch = c->chain;
; for (i...) { ch[i & 31] = i - ht[h]; ht[h] = i; }, then use_ctx(c), a
; clear of the whole object and one whose tail the optimiser trimmed (later
; stores overwrite it): all attributed or whole-object, no flag.
define void @derived(ptr %c, ptr %p, i64 %n) {
entry:
  %ht = getelementptr inbounds %struct.derived, ptr %c, i64 0, i32 0
  %ch = getelementptr inbounds %struct.derived, ptr %c, i64 0, i32 1
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %pi = getelementptr inbounds i8, ptr %p, i64 %i
  %byte = load i8, ptr %pi
  %h = zext i8 %byte to i64
  %h.masked = and i64 %h, 15
  %slot = getelementptr inbounds i32, ptr %ht, i64 %h.masked
  %old = load i32, ptr %slot
  %i32 = trunc i64 %i to i32
  %delta = sub i32 %i32, %old
  %delta16 = trunc i32 %delta to i16
  %ci = and i64 %i, 31
  %chslot = getelementptr inbounds i16, ptr %ch, i64 %ci
  store i16 %delta16, ptr %chslot
  store i32 %i32, ptr %slot
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  %whole = getelementptr inbounds %struct.derived, ptr %c, i64 0
  call void @use_ctx(ptr %whole)
  call void @llvm.memset.p0.i64(ptr %whole, i8 0, i64 136, i1 false)
  call void @llvm.memset.p0.i64(ptr %whole, i8 0, i64 132, i1 false)
  ret void
}
