; The -efsan-* options switch instrumentation kinds off, and the working-set
; fast path out for callouts.
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<working-set>' -efsan-inline-fast-path=false -S %s | FileCheck %s --check-prefix=CALLOUT
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<working-set>' -efsan-skip-repeated-accesses=false -S %s | FileCheck %s --check-prefix=REPEAT
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<working-set>' -efsan-coalesce-accesses=false -S %s | FileCheck %s --check-prefix=NOCOALESCE
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<working-set>' -S %s | FileCheck %s --check-prefix=COALESCE
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<working-set>' -efsan-instrument-loads-and-stores=false -S %s | FileCheck %s --check-prefix=NOLS
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<working-set>' -efsan-instrument-atomics=false -S %s | FileCheck %s --check-prefix=NOATOMIC
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<working-set>' -efsan-instrument-masked=false -S %s | FileCheck %s --check-prefix=NOMASKED

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define void @f(ptr %p, ptr %q, <2 x i1> %m) {
  %v = load i32, ptr %p, align 4
  store i32 %v, ptr %p, align 4
  %old = atomicrmw add ptr %q, i64 1 monotonic, align 8
  %w = call <2 x i32> @llvm.masked.load.v2i32.p0(ptr %q, i32 4, <2 x i1> %m, <2 x i32> zeroinitializer)
  ret void
}

; CALLOUT-LABEL: define void @f(
; CALLOUT-NEXT:    call void @__efsan_load4(ptr %p)
; CALLOUT-NEXT:    %v = load i32, ptr %p, align 4
; CALLOUT-NEXT:    store i32 %v, ptr %p, align 4
; CALLOUT-NEXT:    call void @__efsan_store8(ptr %q)
; CALLOUT-NEXT:    %old = atomicrmw

; REPEAT-LABEL: define void @f(
; REPEAT:          %v = load i32, ptr %p, align 4
; REPEAT-NEXT:     ptrtoint ptr %p to i64
; REPEAT:          store i32 %v, ptr %p, align 4

; NOLS-LABEL: define void @f(
; NOLS-NEXT:    %v = load i32, ptr %p, align 4
; NOLS-NEXT:    store i32 %v, ptr %p, align 4
; NOLS-NEXT:    ptrtoint ptr %q to i64
; NOLS:         %old = atomicrmw
; NOLS-NEXT:    extractelement
; NOLS:         call void @__efsan_loadN

; NOATOMIC-LABEL: define void @f(
; NOATOMIC:         store i32 %v, ptr %p, align 4
; NOATOMIC-NEXT:    %old = atomicrmw
; NOATOMIC-NEXT:    extractelement

; NOMASKED-LABEL: define void @f(
; NOMASKED:         %old = atomicrmw
; NOMASKED-NEXT:    %w = call <2 x i32> @llvm.masked.load
; NOMASKED-NEXT:    ret void

; Neighbouring fields: one check of both by default; without coalescing one
; per access (the repeated load of %p is still skipped).
define i64 @g(ptr %p) {
  %a = load i64, ptr %p, align 8
  %q = getelementptr inbounds i8, ptr %p, i64 8
  %b = load i64, ptr %q, align 8
  %c = load i64, ptr %p, align 8
  %s = add i64 %a, %b
  %t = add i64 %s, %c
  ret i64 %t
}
; COALESCE-LABEL: define i64 @g(
; COALESCE-COUNT-1: ptrtoint
; COALESCE-NOT:     ptrtoint
; COALESCE:         add i64 %{{[0-9]+}}, 15
; COALESCE-NEXT:    lshr i64 %{{[0-9]+}}, 6
; COALESCE-NOT:     ptrtoint
; COALESCE:         ret i64

; NOCOALESCE-LABEL: define i64 @g(
; NOCOALESCE-NEXT:    ptrtoint ptr %p to i64
; NOCOALESCE-NOT:     call {{void|ptr|i8|i16|i32|i64}}
; NOCOALESCE:         %a = load i64, ptr %p, align 8
; NOCOALESCE-NEXT:    %q = getelementptr inbounds i8, ptr %p, i64 8
; NOCOALESCE-NEXT:    ptrtoint ptr %q to i64
; NOCOALESCE-NOT:     call {{void|ptr|i8|i16|i32|i64}}
; NOCOALESCE:         %b = load i64, ptr %q, align 8
; NOCOALESCE-NEXT:    %c = load i64, ptr %p, align 8

declare <2 x i32> @llvm.masked.load.v2i32.p0(ptr, i32, <2 x i1>, <2 x i32>)
