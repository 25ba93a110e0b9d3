; What is never instrumented: functions marked no_sanitize_efficiency,
; disable_sanitizer_instrumentation or naked; the runtime's and LLVM's own
; globals; swifterror slots; other address spaces; accesses tagged nosanitize.
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<working-set>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -efsan-cache-frag-stack -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@__efsan_runtime_state = external global i64
@llvm.some_table = global i32 0

define void @attr_no_sanitize(ptr %p) "no_sanitize_efficiency" {
  store i32 1, ptr %p, align 4
  call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 8, i1 false)
  ret void
}
; CHECK-LABEL: define void @attr_no_sanitize(ptr %p)
; CHECK-NEXT:    store i32 1, ptr %p, align 4
; CHECK-NEXT:    call void @llvm.memset.p0.i64(
; CHECK-NEXT:    ret void

define void @attr_disable(ptr %p) disable_sanitizer_instrumentation {
  store i32 1, ptr %p, align 4
  ret void
}
; CHECK-LABEL: define void @attr_disable(ptr %p)
; CHECK-NEXT:    store i32 1, ptr %p, align 4
; CHECK-NEXT:    ret void

define void @attr_naked(ptr %p) naked {
  store i32 1, ptr %p, align 4
  unreachable
}
; CHECK-LABEL: define void @attr_naked(ptr %p)
; CHECK-NEXT:    store i32 1, ptr %p, align 4
; CHECK-NEXT:    unreachable

define i64 @own_globals() {
  %a = load i64, ptr @__efsan_runtime_state, align 8
  %b = load i32, ptr @llvm.some_table, align 4
  %c = load i8, ptr getelementptr (i8, ptr @__efsan_runtime_state, i64 4), align 1
  ret i64 %a
}
; CHECK-LABEL: define i64 @own_globals()
; CHECK-NEXT:    %a = load i64, ptr @__efsan_runtime_state, align 8
; CHECK-NEXT:    %b = load i32, ptr @llvm.some_table, align 4
; CHECK-NEXT:    %c = load i8, ptr getelementptr (i8, ptr @__efsan_runtime_state, i64 4), align 1
; CHECK-NEXT:    ret i64 %a

define void @swift(ptr swifterror %err) {
  store ptr null, ptr %err, align 8
  ret void
}
; CHECK-LABEL: define void @swift(ptr swifterror %err)
; CHECK-NEXT:    store ptr null, ptr %err, align 8
; CHECK-NEXT:    ret void

define i32 @other_address_space(ptr addrspace(256) %p) {
  %v = load i32, ptr addrspace(256) %p, align 4
  ret i32 %v
}
; CHECK-LABEL: define i32 @other_address_space(ptr addrspace(256) %p)
; CHECK-NEXT:    %v = load i32, ptr addrspace(256) %p, align 4
; CHECK-NEXT:    ret i32 %v

define i32 @tagged(ptr %p) {
  %v = load i32, ptr %p, align 4, !nosanitize !0
  ret i32 %v
}
; CHECK-LABEL: define i32 @tagged(ptr %p)
; CHECK-NEXT:    %v = load i32, ptr %p, align 4, !nosanitize
; CHECK-NEXT:    ret i32 %v

; The control: the same store in a plain function is instrumented.
define void @plain(ptr %p) {
  store i32 1, ptr %p, align 4
  ret void
}
; CHECK-LABEL: define void @plain(ptr %p)
; CHECK:         br i1 {{.*}}, !prof
; CHECK:         ret void

declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
!0 = !{}
