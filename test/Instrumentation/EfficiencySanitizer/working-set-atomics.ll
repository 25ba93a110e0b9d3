; Atomic loads and stores, atomicrmw and cmpxchg use the same fast path as
; plain accesses when naturally aligned, and the callouts otherwise.
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<working-set>' -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i32 @atomic_load(ptr %p) {
  %v = load atomic i32, ptr %p seq_cst, align 4
  ret i32 %v
}
; CHECK-LABEL: define i32 @atomic_load(ptr %p)
; CHECK-NEXT:    %1 = ptrtoint ptr %p to i64
; CHECK-NEXT:    %2 = lshr i64 %1, 6
; CHECK-NEXT:    %3 = add i64 %2, 2147450880
; CHECK-NEXT:    %4 = inttoptr i64 %3 to ptr
; CHECK-NEXT:    %5 = load i8, ptr %4, align 1, !nosanitize
; CHECK-NEXT:    %6 = and i8 %5, 1
; CHECK-NEXT:    %7 = icmp eq i8 %6, 0
; CHECK-NEXT:    br i1 %7, label %8, label %14, !prof
; CHECK:       14:
; CHECK-NEXT:    %v = load atomic i32, ptr %p seq_cst, align 4

define void @atomic_store(ptr %p) {
  store atomic i64 1, ptr %p release, align 8
  ret void
}
; CHECK-LABEL: define void @atomic_store(ptr %p)
; CHECK-NEXT:    %1 = ptrtoint ptr %p to i64
; CHECK:         br i1 %7, label %8, label %14, !prof
; CHECK:       14:
; CHECK-NEXT:    store atomic i64 1, ptr %p release, align 8

define i16 @rmw(ptr %p) {
  %old = atomicrmw add ptr %p, i16 1 monotonic, align 2
  ret i16 %old
}
; CHECK-LABEL: define i16 @rmw(ptr %p)
; CHECK-NEXT:    %1 = ptrtoint ptr %p to i64
; CHECK:         br i1 %7, label %8, label %14, !prof
; CHECK:       14:
; CHECK-NEXT:    %old = atomicrmw add ptr %p, i16 1 monotonic, align 2

define { i64, i1 } @cmpxchg(ptr %p) {
  %r = cmpxchg ptr %p, i64 0, i64 1 acq_rel monotonic, align 8
  ret { i64, i1 } %r
}
; CHECK-LABEL: define { i64, i1 } @cmpxchg(ptr %p)
; CHECK-NEXT:    %1 = ptrtoint ptr %p to i64
; CHECK:         br i1 %7, label %8, label %14, !prof
; CHECK:       14:
; CHECK-NEXT:    %r = cmpxchg ptr %p, i64 0, i64 1 acq_rel monotonic, align 8

define i128 @cmpxchg16(ptr %p) {
  %r = cmpxchg ptr %p, i128 0, i128 1 seq_cst seq_cst, align 16
  %v = extractvalue { i128, i1 } %r, 0
  ret i128 %v
}
; CHECK-LABEL: define i128 @cmpxchg16(ptr %p)
; CHECK-NEXT:    %1 = ptrtoint ptr %p to i64
; CHECK:         br i1 %7, label %8, label %14, !prof
; CHECK:       14:
; CHECK-NEXT:    %r = cmpxchg ptr %p, i128 0, i128 1 seq_cst seq_cst, align 16

; Under-aligned atomics may straddle: the two-line inline check, whose cold
; block marks both lines inline.
define void @unaligned_atomics(ptr %p, ptr %q) {
  %a = atomicrmw xchg ptr %p, i32 1 monotonic, align 1
  %b = cmpxchg ptr %q, i64 0, i64 1 monotonic monotonic, align 4
  ret void
}
; CHECK-LABEL: define void @unaligned_atomics(ptr %p, ptr %q)
; CHECK-NEXT:    %1 = ptrtoint ptr %p to i64
; CHECK-NEXT:    %2 = lshr i64 %1, 6
; CHECK-NEXT:    %3 = add i64 %2, 2147450880
; CHECK-NEXT:    %4 = add i64 %1, 3
; CHECK-NEXT:    %5 = lshr i64 %4, 6
; CHECK-NEXT:    %6 = add i64 %5, 2147450880
; CHECK-NEXT:    %7 = inttoptr i64 %3 to ptr
; CHECK-NEXT:    %8 = inttoptr i64 %6 to ptr
; CHECK-NEXT:    %9 = load i8, ptr %7, align 1, !nosanitize
; CHECK-NEXT:    %10 = load i8, ptr %8, align 1, !nosanitize
; CHECK-NEXT:    %11 = and i8 %9, %10
; CHECK-NEXT:    %12 = and i8 %11, 1
; CHECK-NEXT:    %13 = icmp eq i8 %12, 0
; CHECK-NEXT:    br i1 %13, label %14, label %25, !prof
; CHECK:       14:
; CHECK-NOT:     call
; CHECK:         or i8 %{{[0-9]+}}, -127
; CHECK:         or i8 %{{[0-9]+}}, -127
; CHECK:         br label %25
; CHECK:       25:
; CHECK-NEXT:    %a = atomicrmw xchg ptr %p, i32 1 monotonic, align 1
; CHECK-NEXT:    %26 = ptrtoint ptr %q to i64
; CHECK:         %29 = add i64 %26, 7
; CHECK-NOT:     call
; CHECK:         br label %50
; CHECK:       50:
; CHECK-NEXT:    %b = cmpxchg ptr %q, i64 0, i64 1 monotonic monotonic, align 4
; CHECK-NEXT:    ret void
