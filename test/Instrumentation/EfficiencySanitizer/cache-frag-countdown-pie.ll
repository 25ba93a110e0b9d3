; In code for an executable (PIE), an optnone function's count-down reaches
; the thread's countdown at its constant offset from the thread pointer (the
; runtime defines it in the executable): one instruction and the branch, no
; GOT load (cache-frag-countdown.ll, @debug, has the other form).
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -S %s | %opt -passes=verify -disable-output

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define void @debug(ptr %p) noinline optnone {
entry:
  store i32 1, ptr %p, align 4
  ret void
}
; CHECK-LABEL: define void @debug(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    store i32 1, ptr %p, align 4
; CHECK-NEXT:    callbr void asm sideeffect "subq $$1, %fs:__efsan_cache_frag_countdown@TPOFF\0A\09jle ${0:l}", "!i,~{memory},~{dirflag},~{fpsr},~{flags}"()
; CHECK-NOT:     efsan.countdown
; CHECK:         ret void

; The cold block computes an address again from the local variable it was
; loaded from (so that the fast path keeps no copy of it in a stack slot for
; the cold block), unless that variable is stored to before the run's end.
define void @local_pointer(ptr %arg) noinline optnone {
entry:
  %p.addr = alloca ptr, align 8
  store ptr %arg, ptr %p.addr, align 8
  %p = load ptr, ptr %p.addr, align 8
  %f = getelementptr inbounds i64, ptr %p, i64 1
  store i64 1, ptr %f, align 8
  ret void
}
; CHECK-LABEL: define void @local_pointer(
; CHECK:         callbr void asm sideeffect "subq $$1, %fs:__efsan_cache_frag_countdown@TPOFF
; CHECK-NEXT:    to label %{{[a-z0-9.]+}} [label %[[COLD:[0-9]+]]]
; CHECK:       {{^}}[[COLD]]:
; CHECK:         [[P:%[0-9]+]] = load ptr, ptr %p.addr, align 8
; CHECK-NEXT:    [[F:%[0-9]+]] = getelementptr inbounds i64, ptr [[P]], i64 1
; The flags' bit 2 says the access is an optnone function's (the runtime's
; bound for code built without optimisation): a store, 1 | 4.
; CHECK:         call preserve_mostcc void @__efsan_cache_frag_access(ptr [[F]], i64 8, i32 5,

define void @local_pointer_stored(ptr %arg) noinline optnone {
entry:
  %p.addr = alloca ptr, align 8
  store ptr %arg, ptr %p.addr, align 8
  %p = load ptr, ptr %p.addr, align 8
  %f = getelementptr inbounds i64, ptr %p, i64 1
  store i64 1, ptr %f, align 8
  store ptr null, ptr %p.addr, align 8
  ret void
}
; CHECK-LABEL: define void @local_pointer_stored(
; CHECK:         call preserve_mostcc void @__efsan_cache_frag_access(ptr %f, i64 8, i32 5,

!llvm.module.flags = !{!0}
!0 = !{i32 8, !"PIE Level", i32 2}
