; The working-set fast path: accesses that fit in one cache line (size at most
; their alignment and at most 64 bytes) check the shadow byte inline and store
; only in a cold block; everything else calls out.
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<working-set>' -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i8 @load1(ptr %p) {
  %v = load i8, ptr %p, align 1
  ret i8 %v
}
; CHECK-LABEL: define i8 @load1(ptr %p)
; CHECK-NEXT:    %1 = ptrtoint ptr %p to i64
; CHECK-NEXT:    %2 = lshr i64 %1, 6
; CHECK-NEXT:    %3 = add i64 %2, 17592186044416
; CHECK-NEXT:    %4 = inttoptr i64 %3 to ptr
; CHECK-NEXT:    %5 = load i8, ptr %4, align 1, !nosanitize ![[NOSAN:[0-9]+]]
; CHECK-NEXT:    %6 = and i8 %5, 1
; CHECK-NEXT:    %7 = icmp eq i8 %6, 0
; CHECK-NEXT:    br i1 %7, label %8, label %11, !prof ![[UNLIKELY:[0-9]+]]
; CHECK:       8:
; CHECK-NEXT:    %9 = load i8, ptr %4, align 1, !nosanitize ![[NOSAN]]
; CHECK-NEXT:    %10 = or i8 %9, -127
; CHECK-NEXT:    store i8 %10, ptr %4, align 1, !nosanitize ![[NOSAN]]
; CHECK-NEXT:    br label %11
; CHECK:       11:
; CHECK-NEXT:    %v = load i8, ptr %p, align 1
; CHECK-NEXT:    ret i8 %v

define void @store2(ptr %p) {
  store i16 1, ptr %p, align 2
  ret void
}
; CHECK-LABEL: define void @store2(ptr %p)
; CHECK-NEXT:    %1 = ptrtoint ptr %p to i64
; CHECK-NEXT:    %2 = lshr i64 %1, 6
; CHECK-NEXT:    %3 = add i64 %2, 17592186044416
; CHECK-NEXT:    %4 = inttoptr i64 %3 to ptr
; CHECK-NEXT:    %5 = load i8, ptr %4, align 1, !nosanitize
; CHECK-NEXT:    %6 = and i8 %5, 1
; CHECK-NEXT:    %7 = icmp eq i8 %6, 0
; CHECK-NEXT:    br i1 %7, label %8, label %11, !prof ![[UNLIKELY]]
; CHECK:       8:
; CHECK-NEXT:    %9 = load i8, ptr %4, align 1, !nosanitize
; CHECK-NEXT:    %10 = or i8 %9, -127
; CHECK-NEXT:    store i8 %10, ptr %4, align 1, !nosanitize
; CHECK-NEXT:    br label %11
; CHECK:       11:
; CHECK-NEXT:    store i16 1, ptr %p, align 2
; CHECK-NEXT:    ret void

; Sizes 4, 8 and 16 at natural alignment, and over-aligned: one inline check
; each, no callout.
define void @sizes(ptr %p4, ptr %p8, ptr %p16, ptr %pover) {
  %a = load i32, ptr %p4, align 4
  store i64 2, ptr %p8, align 8
  %b = load i128, ptr %p16, align 16
  store i32 %a, ptr %pover, align 64
  ret void
}
; CHECK-LABEL: define void @sizes(
; CHECK:         ptrtoint ptr %p4 to i64
; CHECK:         and i8 %{{[0-9]+}}, 1
; CHECK:         %a = load i32, ptr %p4, align 4
; CHECK:         ptrtoint ptr %p8 to i64
; CHECK:         and i8 %{{[0-9]+}}, 1
; CHECK:         store i64 2, ptr %p8, align 8
; CHECK:         ptrtoint ptr %p16 to i64
; CHECK:         and i8 %{{[0-9]+}}, 1
; CHECK:         %b = load i128, ptr %p16, align 16
; CHECK:         ptrtoint ptr %pover to i64
; CHECK:         and i8 %{{[0-9]+}}, 1
; CHECK:         store i32 %a, ptr %pover, align 64
; CHECK-NOT:     call
; CHECK:         ret void

; Alignment below size: the access may straddle two lines.
define void @unaligned(ptr %p) {
  %a = load i16, ptr %p, align 1
  %b = load i32, ptr %p, align 2
  %c = load i64, ptr %p, align 4
  %d = load i128, ptr %p, align 8
  store i16 %a, ptr %p, align 1
  store i32 %b, ptr %p, align 2
  store i64 %c, ptr %p, align 4
  store i128 %d, ptr %p, align 8
  ret void
}
; CHECK-LABEL: define void @unaligned(ptr %p)
; CHECK-NEXT:    call void @__efsan_unaligned_load2(ptr %p)
; CHECK-NEXT:    %a = load i16, ptr %p, align 1
; CHECK-NEXT:    call void @__efsan_unaligned_load4(ptr %p)
; CHECK-NEXT:    %b = load i32, ptr %p, align 2
; CHECK-NEXT:    call void @__efsan_unaligned_load8(ptr %p)
; CHECK-NEXT:    %c = load i64, ptr %p, align 4
; CHECK-NEXT:    call void @__efsan_unaligned_load16(ptr %p)
; CHECK-NEXT:    %d = load i128, ptr %p, align 8
; The stores repeat the loads' address and size in the same block: the lines
; are already marked, so they are not instrumented again.
; CHECK-NEXT:    store i16 %a, ptr %p, align 1
; CHECK-NEXT:    store i32 %b, ptr %p, align 2
; CHECK-NEXT:    store i64 %c, ptr %p, align 4
; CHECK-NEXT:    store i128 %d, ptr %p, align 8
; CHECK-NEXT:    ret void

define void @unaligned_stores(ptr %p, ptr %q, ptr %r, ptr %s) {
  store i16 1, ptr %p, align 1
  store i32 1, ptr %q, align 1
  store i64 1, ptr %r, align 1
  store i128 1, ptr %s, align 1
  ret void
}
; CHECK-LABEL: define void @unaligned_stores(
; CHECK-NEXT:    call void @__efsan_unaligned_store2(ptr %p)
; CHECK-NEXT:    store i16 1, ptr %p, align 1
; CHECK-NEXT:    call void @__efsan_unaligned_store4(ptr %q)
; CHECK-NEXT:    store i32 1, ptr %q, align 1
; CHECK-NEXT:    call void @__efsan_unaligned_store8(ptr %r)
; CHECK-NEXT:    store i64 1, ptr %r, align 1
; CHECK-NEXT:    call void @__efsan_unaligned_store16(ptr %s)
; CHECK-NEXT:    store i128 1, ptr %s, align 1
; CHECK-NEXT:    ret void

; Odd sizes: 3 bytes (i24), 10 bytes (x86_fp80), a 12-byte struct.
define void @odd_sizes(ptr %p, ptr %q, ptr %r) {
  %a = load i24, ptr %p, align 1
  store x86_fp80 0xK3FFF8000000000000000, ptr %q, align 16
  %c = load { i32, i32, i32 }, ptr %r, align 4
  ret void
}
; CHECK-LABEL: define void @odd_sizes(
; CHECK-NEXT:    call void @__efsan_loadN(ptr %p, i64 3)
; CHECK-NEXT:    %a = load i24, ptr %p, align 1
; x86_fp80 is 10 bytes at 16-byte alignment: within one line.
; CHECK-NEXT:    ptrtoint ptr %q to i64
; CHECK:         store x86_fp80 0xK3FFF8000000000000000, ptr %q, align 16
; CHECK-NEXT:    call void @__efsan_loadN(ptr %r, i64 12)
; CHECK-NEXT:    %c = load { i32, i32, i32 }, ptr %r, align 4
; CHECK-NEXT:    ret void

; Vectors: up to 64 bytes aligned to their size stay inline; 128 bytes, or
; 64 bytes at 32-byte alignment, call out with their size.
define void @vectors(ptr %p32, ptr %p64, ptr %p128, ptr %pmis) {
  %a = load <8 x i32>, ptr %p32, align 32
  store <16 x i32> zeroinitializer, ptr %p64, align 64
  %b = load <32 x i32>, ptr %p128, align 128
  store <16 x i32> zeroinitializer, ptr %pmis, align 32
  ret void
}
; CHECK-LABEL: define void @vectors(
; CHECK-NEXT:    ptrtoint ptr %p32 to i64
; CHECK:         %a = load <8 x i32>, ptr %p32, align 32
; CHECK-NEXT:    ptrtoint ptr %p64 to i64
; CHECK:         store <16 x i32> zeroinitializer, ptr %p64, align 64
; CHECK-NEXT:    call void @__efsan_loadN(ptr %p128, i64 128)
; CHECK-NEXT:    %b = load <32 x i32>, ptr %p128, align 128
; CHECK-NEXT:    call void @__efsan_storeN(ptr %pmis, i64 64)
; CHECK-NEXT:    store <16 x i32> zeroinitializer, ptr %pmis, align 32
; CHECK-NEXT:    ret void

; A load and a store of the same address in one block are instrumented once;
; in different blocks, or with a larger second access, again.
define void @repeated(ptr %p, i1 %c) {
  %v = load i32, ptr %p, align 4
  %w = add i32 %v, 1
  store i32 %w, ptr %p, align 4
  store i64 0, ptr %p, align 4
  br i1 %c, label %next, label %done
next:
  store i32 %v, ptr %p, align 4
  br label %done
done:
  ret void
}
; CHECK-LABEL: define void @repeated(
; CHECK:         ptrtoint ptr %p to i64
; CHECK:         %v = load i32, ptr %p, align 4
; CHECK-NEXT:    %w = add i32 %v, 1
; CHECK-NEXT:    store i32 %w, ptr %p, align 4
; CHECK-NEXT:    call void @__efsan_unaligned_store8(ptr %p)
; CHECK-NEXT:    store i64 0, ptr %p, align 4
; CHECK:       next:
; CHECK-NEXT:    ptrtoint ptr %p to i64
; CHECK:         store i32 %v, ptr %p, align 4

; CHECK-DAG: ![[NOSAN]] = !{}
; CHECK-DAG: ![[UNLIKELY]] = !{!"branch_weights", i32 1, i32 1048575}
