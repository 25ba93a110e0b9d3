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

!llvm.module.flags = !{!0}
!0 = !{i32 8, !"PIE Level", i32 2}
