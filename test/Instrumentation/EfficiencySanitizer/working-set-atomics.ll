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
; CHECK-NEXT:    %5 = load i8, ptr %4, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %6 = and i8 %5, 1
; CHECK-NEXT:    %7 = icmp eq i8 %6, 0
; CHECK-NEXT:    br i1 %7, label %8, label %20, !prof !{{[0-9]+}}
; CHECK:       8:
; CHECK-NEXT:    %9 = load i64, ptr @__efsan_mrc_threshold, align 8, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %10 = mul i64 %3, -7046029254386353131
; CHECK-NEXT:    %11 = icmp ule i64 %10, %9
; CHECK-NEXT:    br i1 %11, label %12, label %13, !prof !{{[0-9]+}}
; CHECK:       12:
; CHECK-NEXT:    call preserve_allcc void @__efsan_ws_mark_lines(i64 %3, i64 %3), !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %19
; CHECK:       13:
; CHECK-NEXT:    %14 = load i8, ptr %4, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %15 = or i8 %14, -127
; CHECK-NEXT:    store i8 %15, ptr %4, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %16 = lshr i64 %3, 12
; CHECK-NEXT:    %17 = add i64 %16, 2180513800
; CHECK-NEXT:    %18 = inttoptr i64 %17 to ptr
; CHECK-NEXT:    store atomic i8 1, ptr %18 release, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %19
; CHECK:       19:
; CHECK-NEXT:    br label %20
; CHECK:       20:
; CHECK-NEXT:    %v = load atomic i32, ptr %p seq_cst, align 4
; CHECK-NEXT:    ret i32 %v

define void @atomic_store(ptr %p) {
  store atomic i64 1, ptr %p release, align 8
  ret void
}
; CHECK-LABEL: define void @atomic_store(ptr %p)
; CHECK-NEXT:    %1 = ptrtoint ptr %p to i64
; CHECK-NEXT:    %2 = lshr i64 %1, 6
; CHECK-NEXT:    %3 = add i64 %2, 2147450880
; CHECK-NEXT:    %4 = inttoptr i64 %3 to ptr
; CHECK-NEXT:    %5 = load i8, ptr %4, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %6 = and i8 %5, 1
; CHECK-NEXT:    %7 = icmp eq i8 %6, 0
; CHECK-NEXT:    br i1 %7, label %8, label %20, !prof !{{[0-9]+}}
; CHECK:       8:
; CHECK-NEXT:    %9 = load i64, ptr @__efsan_mrc_threshold, align 8, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %10 = mul i64 %3, -7046029254386353131
; CHECK-NEXT:    %11 = icmp ule i64 %10, %9
; CHECK-NEXT:    br i1 %11, label %12, label %13, !prof !{{[0-9]+}}
; CHECK:       12:
; CHECK-NEXT:    call preserve_allcc void @__efsan_ws_mark_lines(i64 %3, i64 %3), !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %19
; CHECK:       13:
; CHECK-NEXT:    %14 = load i8, ptr %4, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %15 = or i8 %14, -127
; CHECK-NEXT:    store i8 %15, ptr %4, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %16 = lshr i64 %3, 12
; CHECK-NEXT:    %17 = add i64 %16, 2180513800
; CHECK-NEXT:    %18 = inttoptr i64 %17 to ptr
; CHECK-NEXT:    store atomic i8 1, ptr %18 release, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %19
; CHECK:       19:
; CHECK-NEXT:    br label %20
; CHECK:       20:
; CHECK-NEXT:    store atomic i64 1, ptr %p release, align 8
; CHECK-NEXT:    ret void

define i16 @rmw(ptr %p) {
  %old = atomicrmw add ptr %p, i16 1 monotonic, align 2
  ret i16 %old
}
; CHECK-LABEL: define i16 @rmw(ptr %p)
; CHECK-NEXT:    %1 = ptrtoint ptr %p to i64
; CHECK-NEXT:    %2 = lshr i64 %1, 6
; CHECK-NEXT:    %3 = add i64 %2, 2147450880
; CHECK-NEXT:    %4 = inttoptr i64 %3 to ptr
; CHECK-NEXT:    %5 = load i8, ptr %4, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %6 = and i8 %5, 1
; CHECK-NEXT:    %7 = icmp eq i8 %6, 0
; CHECK-NEXT:    br i1 %7, label %8, label %20, !prof !{{[0-9]+}}
; CHECK:       8:
; CHECK-NEXT:    %9 = load i64, ptr @__efsan_mrc_threshold, align 8, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %10 = mul i64 %3, -7046029254386353131
; CHECK-NEXT:    %11 = icmp ule i64 %10, %9
; CHECK-NEXT:    br i1 %11, label %12, label %13, !prof !{{[0-9]+}}
; CHECK:       12:
; CHECK-NEXT:    call preserve_allcc void @__efsan_ws_mark_lines(i64 %3, i64 %3), !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %19
; CHECK:       13:
; CHECK-NEXT:    %14 = load i8, ptr %4, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %15 = or i8 %14, -127
; CHECK-NEXT:    store i8 %15, ptr %4, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %16 = lshr i64 %3, 12
; CHECK-NEXT:    %17 = add i64 %16, 2180513800
; CHECK-NEXT:    %18 = inttoptr i64 %17 to ptr
; CHECK-NEXT:    store atomic i8 1, ptr %18 release, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %19
; CHECK:       19:
; CHECK-NEXT:    br label %20
; CHECK:       20:
; CHECK-NEXT:    %old = atomicrmw add ptr %p, i16 1 monotonic, align 2
; CHECK-NEXT:    ret i16 %old

define { i64, i1 } @cmpxchg(ptr %p) {
  %r = cmpxchg ptr %p, i64 0, i64 1 acq_rel monotonic, align 8
  ret { i64, i1 } %r
}
; CHECK-LABEL: define { i64, i1 } @cmpxchg(ptr %p)
; CHECK-NEXT:    %1 = ptrtoint ptr %p to i64
; CHECK-NEXT:    %2 = lshr i64 %1, 6
; CHECK-NEXT:    %3 = add i64 %2, 2147450880
; CHECK-NEXT:    %4 = inttoptr i64 %3 to ptr
; CHECK-NEXT:    %5 = load i8, ptr %4, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %6 = and i8 %5, 1
; CHECK-NEXT:    %7 = icmp eq i8 %6, 0
; CHECK-NEXT:    br i1 %7, label %8, label %20, !prof !{{[0-9]+}}
; CHECK:       8:
; CHECK-NEXT:    %9 = load i64, ptr @__efsan_mrc_threshold, align 8, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %10 = mul i64 %3, -7046029254386353131
; CHECK-NEXT:    %11 = icmp ule i64 %10, %9
; CHECK-NEXT:    br i1 %11, label %12, label %13, !prof !{{[0-9]+}}
; CHECK:       12:
; CHECK-NEXT:    call preserve_allcc void @__efsan_ws_mark_lines(i64 %3, i64 %3), !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %19
; CHECK:       13:
; CHECK-NEXT:    %14 = load i8, ptr %4, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %15 = or i8 %14, -127
; CHECK-NEXT:    store i8 %15, ptr %4, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %16 = lshr i64 %3, 12
; CHECK-NEXT:    %17 = add i64 %16, 2180513800
; CHECK-NEXT:    %18 = inttoptr i64 %17 to ptr
; CHECK-NEXT:    store atomic i8 1, ptr %18 release, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %19
; CHECK:       19:
; CHECK-NEXT:    br label %20
; CHECK:       20:
; CHECK-NEXT:    %r = cmpxchg ptr %p, i64 0, i64 1 acq_rel monotonic, align 8
; CHECK-NEXT:    ret { i64, i1 } %r

define i128 @cmpxchg16(ptr %p) {
  %r = cmpxchg ptr %p, i128 0, i128 1 seq_cst seq_cst, align 16
  %v = extractvalue { i128, i1 } %r, 0
  ret i128 %v
}
; CHECK-LABEL: define i128 @cmpxchg16(ptr %p)
; CHECK-NEXT:    %1 = ptrtoint ptr %p to i64
; CHECK-NEXT:    %2 = lshr i64 %1, 6
; CHECK-NEXT:    %3 = add i64 %2, 2147450880
; CHECK-NEXT:    %4 = inttoptr i64 %3 to ptr
; CHECK-NEXT:    %5 = load i8, ptr %4, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %6 = and i8 %5, 1
; CHECK-NEXT:    %7 = icmp eq i8 %6, 0
; CHECK-NEXT:    br i1 %7, label %8, label %20, !prof !{{[0-9]+}}
; CHECK:       8:
; CHECK-NEXT:    %9 = load i64, ptr @__efsan_mrc_threshold, align 8, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %10 = mul i64 %3, -7046029254386353131
; CHECK-NEXT:    %11 = icmp ule i64 %10, %9
; CHECK-NEXT:    br i1 %11, label %12, label %13, !prof !{{[0-9]+}}
; CHECK:       12:
; CHECK-NEXT:    call preserve_allcc void @__efsan_ws_mark_lines(i64 %3, i64 %3), !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %19
; CHECK:       13:
; CHECK-NEXT:    %14 = load i8, ptr %4, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %15 = or i8 %14, -127
; CHECK-NEXT:    store i8 %15, ptr %4, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %16 = lshr i64 %3, 12
; CHECK-NEXT:    %17 = add i64 %16, 2180513800
; CHECK-NEXT:    %18 = inttoptr i64 %17 to ptr
; CHECK-NEXT:    store atomic i8 1, ptr %18 release, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %19
; CHECK:       19:
; CHECK-NEXT:    br label %20
; CHECK:       20:
; CHECK-NEXT:    %r = cmpxchg ptr %p, i128 0, i128 1 seq_cst seq_cst, align 16
; CHECK-NEXT:    %v = extractvalue { i128, i1 } %r, 0
; CHECK-NEXT:    ret i128 %v

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
; CHECK-NEXT:    %9 = load i8, ptr %7, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %10 = load i8, ptr %8, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %11 = and i8 %9, %10
; CHECK-NEXT:    %12 = and i8 %11, 1
; CHECK-NEXT:    %13 = icmp eq i8 %12, 0
; CHECK-NEXT:    br i1 %13, label %14, label %35, !prof !{{[0-9]+}}
; CHECK:       14:
; CHECK-NEXT:    %15 = load i64, ptr @__efsan_mrc_threshold, align 8, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %16 = mul i64 %3, -7046029254386353131
; CHECK-NEXT:    %17 = icmp ule i64 %16, %15
; CHECK-NEXT:    %18 = load i64, ptr @__efsan_mrc_threshold, align 8, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %19 = mul i64 %6, -7046029254386353131
; CHECK-NEXT:    %20 = icmp ule i64 %19, %18
; CHECK-NEXT:    %21 = or i1 %17, %20
; CHECK-NEXT:    br i1 %21, label %22, label %23, !prof !{{[0-9]+}}
; CHECK:       22:
; CHECK-NEXT:    call preserve_allcc void @__efsan_ws_mark_lines(i64 %3, i64 %6), !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %34
; CHECK:       23:
; CHECK-NEXT:    %24 = load i8, ptr %7, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %25 = or i8 %24, -127
; CHECK-NEXT:    store i8 %25, ptr %7, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %26 = load i8, ptr %8, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %27 = or i8 %26, -127
; CHECK-NEXT:    store i8 %27, ptr %8, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %28 = lshr i64 %3, 12
; CHECK-NEXT:    %29 = add i64 %28, 2180513800
; CHECK-NEXT:    %30 = inttoptr i64 %29 to ptr
; CHECK-NEXT:    store atomic i8 1, ptr %30 release, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %31 = lshr i64 %6, 12
; CHECK-NEXT:    %32 = add i64 %31, 2180513800
; CHECK-NEXT:    %33 = inttoptr i64 %32 to ptr
; CHECK-NEXT:    store atomic i8 1, ptr %33 release, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %34
; CHECK:       34:
; CHECK-NEXT:    br label %35
; CHECK:       35:
; CHECK-NEXT:    %a = atomicrmw xchg ptr %p, i32 1 monotonic, align 1
; CHECK-NEXT:    %36 = ptrtoint ptr %q to i64
; CHECK-NEXT:    %37 = lshr i64 %36, 6
; CHECK-NEXT:    %38 = add i64 %37, 2147450880
; CHECK-NEXT:    %39 = add i64 %36, 7
; CHECK-NEXT:    %40 = lshr i64 %39, 6
; CHECK-NEXT:    %41 = add i64 %40, 2147450880
; CHECK-NEXT:    %42 = inttoptr i64 %38 to ptr
; CHECK-NEXT:    %43 = inttoptr i64 %41 to ptr
; CHECK-NEXT:    %44 = load i8, ptr %42, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %45 = load i8, ptr %43, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %46 = and i8 %44, %45
; CHECK-NEXT:    %47 = and i8 %46, 1
; CHECK-NEXT:    %48 = icmp eq i8 %47, 0
; CHECK-NEXT:    br i1 %48, label %49, label %70, !prof !{{[0-9]+}}
; CHECK:       49:
; CHECK-NEXT:    %50 = load i64, ptr @__efsan_mrc_threshold, align 8, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %51 = mul i64 %38, -7046029254386353131
; CHECK-NEXT:    %52 = icmp ule i64 %51, %50
; CHECK-NEXT:    %53 = load i64, ptr @__efsan_mrc_threshold, align 8, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %54 = mul i64 %41, -7046029254386353131
; CHECK-NEXT:    %55 = icmp ule i64 %54, %53
; CHECK-NEXT:    %56 = or i1 %52, %55
; CHECK-NEXT:    br i1 %56, label %57, label %58, !prof !{{[0-9]+}}
; CHECK:       57:
; CHECK-NEXT:    call preserve_allcc void @__efsan_ws_mark_lines(i64 %38, i64 %41), !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %69
; CHECK:       58:
; CHECK-NEXT:    %59 = load i8, ptr %42, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %60 = or i8 %59, -127
; CHECK-NEXT:    store i8 %60, ptr %42, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %61 = load i8, ptr %43, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %62 = or i8 %61, -127
; CHECK-NEXT:    store i8 %62, ptr %43, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %63 = lshr i64 %38, 12
; CHECK-NEXT:    %64 = add i64 %63, 2180513800
; CHECK-NEXT:    %65 = inttoptr i64 %64 to ptr
; CHECK-NEXT:    store atomic i8 1, ptr %65 release, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %66 = lshr i64 %41, 12
; CHECK-NEXT:    %67 = add i64 %66, 2180513800
; CHECK-NEXT:    %68 = inttoptr i64 %67 to ptr
; CHECK-NEXT:    store atomic i8 1, ptr %68 release, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %69
; CHECK:       69:
; CHECK-NEXT:    br label %70
; CHECK:       70:
; CHECK-NEXT:    %b = cmpxchg ptr %q, i64 0, i64 1 monotonic monotonic, align 4
; CHECK-NEXT:    ret void
