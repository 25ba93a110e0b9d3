; The working-set fast path: accesses that fit in one cache line (size at most
; their alignment and at most 64 bytes) check the shadow byte inline and store
; only in a cold block; other accesses of at most 64 bytes check the shadow
; bytes of their first and last byte together and call out from a cold block;
; larger ones call out. Accesses of a block at constant offsets from one base
; share one check. In each cold block, a line the miss-ratio curves observe
; (its shadow address times 0x9e3779b97f4a7c15 at most __efsan_mrc_threshold)
; goes to __efsan_ws_mark_lines (preserve_all) instead of the inline marking.
; (Checks generated from the pass's output and reviewed.)
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
; CHECK-NEXT:    %v = load i8, ptr %p, align 1
; CHECK-NEXT:    ret i8 %v

define void @store2(ptr %p) {
  store i16 1, ptr %p, align 2
  ret void
}
; CHECK-LABEL: define void @store2(ptr %p)
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
; CHECK-LABEL: define void @sizes(ptr %p4, ptr %p8, ptr %p16, ptr %pover)
; CHECK-NEXT:    %1 = ptrtoint ptr %p4 to i64
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
; CHECK-NEXT:    %a = load i32, ptr %p4, align 4
; CHECK-NEXT:    %21 = ptrtoint ptr %p8 to i64
; CHECK-NEXT:    %22 = lshr i64 %21, 6
; CHECK-NEXT:    %23 = add i64 %22, 2147450880
; CHECK-NEXT:    %24 = inttoptr i64 %23 to ptr
; CHECK-NEXT:    %25 = load i8, ptr %24, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %26 = and i8 %25, 1
; CHECK-NEXT:    %27 = icmp eq i8 %26, 0
; CHECK-NEXT:    br i1 %27, label %28, label %40, !prof !{{[0-9]+}}
; CHECK:       28:
; CHECK-NEXT:    %29 = load i64, ptr @__efsan_mrc_threshold, align 8, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %30 = mul i64 %23, -7046029254386353131
; CHECK-NEXT:    %31 = icmp ule i64 %30, %29
; CHECK-NEXT:    br i1 %31, label %32, label %33, !prof !{{[0-9]+}}
; CHECK:       32:
; CHECK-NEXT:    call preserve_allcc void @__efsan_ws_mark_lines(i64 %23, i64 %23), !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %39
; CHECK:       33:
; CHECK-NEXT:    %34 = load i8, ptr %24, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %35 = or i8 %34, -127
; CHECK-NEXT:    store i8 %35, ptr %24, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %36 = lshr i64 %23, 12
; CHECK-NEXT:    %37 = add i64 %36, 2180513800
; CHECK-NEXT:    %38 = inttoptr i64 %37 to ptr
; CHECK-NEXT:    store atomic i8 1, ptr %38 release, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %39
; CHECK:       39:
; CHECK-NEXT:    br label %40
; CHECK:       40:
; CHECK-NEXT:    store i64 2, ptr %p8, align 8
; CHECK-NEXT:    %41 = ptrtoint ptr %p16 to i64
; CHECK-NEXT:    %42 = lshr i64 %41, 6
; CHECK-NEXT:    %43 = add i64 %42, 2147450880
; CHECK-NEXT:    %44 = inttoptr i64 %43 to ptr
; CHECK-NEXT:    %45 = load i8, ptr %44, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %46 = and i8 %45, 1
; CHECK-NEXT:    %47 = icmp eq i8 %46, 0
; CHECK-NEXT:    br i1 %47, label %48, label %60, !prof !{{[0-9]+}}
; CHECK:       48:
; CHECK-NEXT:    %49 = load i64, ptr @__efsan_mrc_threshold, align 8, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %50 = mul i64 %43, -7046029254386353131
; CHECK-NEXT:    %51 = icmp ule i64 %50, %49
; CHECK-NEXT:    br i1 %51, label %52, label %53, !prof !{{[0-9]+}}
; CHECK:       52:
; CHECK-NEXT:    call preserve_allcc void @__efsan_ws_mark_lines(i64 %43, i64 %43), !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %59
; CHECK:       53:
; CHECK-NEXT:    %54 = load i8, ptr %44, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %55 = or i8 %54, -127
; CHECK-NEXT:    store i8 %55, ptr %44, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %56 = lshr i64 %43, 12
; CHECK-NEXT:    %57 = add i64 %56, 2180513800
; CHECK-NEXT:    %58 = inttoptr i64 %57 to ptr
; CHECK-NEXT:    store atomic i8 1, ptr %58 release, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %59
; CHECK:       59:
; CHECK-NEXT:    br label %60
; CHECK:       60:
; CHECK-NEXT:    %b = load i128, ptr %p16, align 16
; CHECK-NEXT:    %61 = ptrtoint ptr %pover to i64
; CHECK-NEXT:    %62 = lshr i64 %61, 6
; CHECK-NEXT:    %63 = add i64 %62, 2147450880
; CHECK-NEXT:    %64 = inttoptr i64 %63 to ptr
; CHECK-NEXT:    %65 = load i8, ptr %64, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %66 = and i8 %65, 1
; CHECK-NEXT:    %67 = icmp eq i8 %66, 0
; CHECK-NEXT:    br i1 %67, label %68, label %80, !prof !{{[0-9]+}}
; CHECK:       68:
; CHECK-NEXT:    %69 = load i64, ptr @__efsan_mrc_threshold, align 8, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %70 = mul i64 %63, -7046029254386353131
; CHECK-NEXT:    %71 = icmp ule i64 %70, %69
; CHECK-NEXT:    br i1 %71, label %72, label %73, !prof !{{[0-9]+}}
; CHECK:       72:
; CHECK-NEXT:    call preserve_allcc void @__efsan_ws_mark_lines(i64 %63, i64 %63), !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %79
; CHECK:       73:
; CHECK-NEXT:    %74 = load i8, ptr %64, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %75 = or i8 %74, -127
; CHECK-NEXT:    store i8 %75, ptr %64, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %76 = lshr i64 %63, 12
; CHECK-NEXT:    %77 = add i64 %76, 2180513800
; CHECK-NEXT:    %78 = inttoptr i64 %77 to ptr
; CHECK-NEXT:    store atomic i8 1, ptr %78 release, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %79
; CHECK:       79:
; CHECK-NEXT:    br label %80
; CHECK:       80:
; CHECK-NEXT:    store i32 %a, ptr %pover, align 64
; CHECK-NEXT:    ret void

; Alignment below size: the access may straddle two lines. Up to 64 bytes
; touch at most the lines of their first and last bytes, so one inline check
; ANDs both shadow bytes (the second is the first or the next one) and the
; cold block marks both lines inline, with no call (a call made the backend
; save the vector registers around it), and both changed-page bytes. The
; vectoriser's element-aligned vectors take this path.
define <2 x double> @element_aligned_vector(ptr %p) {
  %v = load <2 x double>, ptr %p, align 8
  ret <2 x double> %v
}
; CHECK-LABEL: define <2 x double> @element_aligned_vector(ptr %p)
; CHECK-NEXT:    %1 = ptrtoint ptr %p to i64
; CHECK-NEXT:    %2 = lshr i64 %1, 6
; CHECK-NEXT:    %3 = add i64 %2, 2147450880
; CHECK-NEXT:    %4 = add i64 %1, 15
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
; CHECK-NEXT:    %v = load <2 x double>, ptr %p, align 8
; CHECK-NEXT:    ret <2 x double> %v

; Each under-aligned size: the last byte is at offset size-1; the cold block
; marks both lines inline.
define void @unaligned_stores(ptr %p, ptr %q, ptr %r, ptr %s) {
  store i16 1, ptr %p, align 1
  store i32 1, ptr %q, align 1
  store i64 1, ptr %r, align 1
  store i128 1, ptr %s, align 1
  ret void
}
; CHECK-LABEL: define void @unaligned_stores(ptr %p, ptr %q, ptr %r, ptr %s)
; CHECK-NEXT:    %1 = ptrtoint ptr %p to i64
; CHECK-NEXT:    %2 = lshr i64 %1, 6
; CHECK-NEXT:    %3 = add i64 %2, 2147450880
; CHECK-NEXT:    %4 = add i64 %1, 1
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
; CHECK-NEXT:    store i16 1, ptr %p, align 1
; CHECK-NEXT:    %36 = ptrtoint ptr %q to i64
; CHECK-NEXT:    %37 = lshr i64 %36, 6
; CHECK-NEXT:    %38 = add i64 %37, 2147450880
; CHECK-NEXT:    %39 = add i64 %36, 3
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
; CHECK-NEXT:    store i32 1, ptr %q, align 1
; CHECK-NEXT:    %71 = ptrtoint ptr %r to i64
; CHECK-NEXT:    %72 = lshr i64 %71, 6
; CHECK-NEXT:    %73 = add i64 %72, 2147450880
; CHECK-NEXT:    %74 = add i64 %71, 7
; CHECK-NEXT:    %75 = lshr i64 %74, 6
; CHECK-NEXT:    %76 = add i64 %75, 2147450880
; CHECK-NEXT:    %77 = inttoptr i64 %73 to ptr
; CHECK-NEXT:    %78 = inttoptr i64 %76 to ptr
; CHECK-NEXT:    %79 = load i8, ptr %77, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %80 = load i8, ptr %78, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %81 = and i8 %79, %80
; CHECK-NEXT:    %82 = and i8 %81, 1
; CHECK-NEXT:    %83 = icmp eq i8 %82, 0
; CHECK-NEXT:    br i1 %83, label %84, label %105, !prof !{{[0-9]+}}
; CHECK:       84:
; CHECK-NEXT:    %85 = load i64, ptr @__efsan_mrc_threshold, align 8, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %86 = mul i64 %73, -7046029254386353131
; CHECK-NEXT:    %87 = icmp ule i64 %86, %85
; CHECK-NEXT:    %88 = load i64, ptr @__efsan_mrc_threshold, align 8, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %89 = mul i64 %76, -7046029254386353131
; CHECK-NEXT:    %90 = icmp ule i64 %89, %88
; CHECK-NEXT:    %91 = or i1 %87, %90
; CHECK-NEXT:    br i1 %91, label %92, label %93, !prof !{{[0-9]+}}
; CHECK:       92:
; CHECK-NEXT:    call preserve_allcc void @__efsan_ws_mark_lines(i64 %73, i64 %76), !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %104
; CHECK:       93:
; CHECK-NEXT:    %94 = load i8, ptr %77, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %95 = or i8 %94, -127
; CHECK-NEXT:    store i8 %95, ptr %77, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %96 = load i8, ptr %78, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %97 = or i8 %96, -127
; CHECK-NEXT:    store i8 %97, ptr %78, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %98 = lshr i64 %73, 12
; CHECK-NEXT:    %99 = add i64 %98, 2180513800
; CHECK-NEXT:    %100 = inttoptr i64 %99 to ptr
; CHECK-NEXT:    store atomic i8 1, ptr %100 release, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %101 = lshr i64 %76, 12
; CHECK-NEXT:    %102 = add i64 %101, 2180513800
; CHECK-NEXT:    %103 = inttoptr i64 %102 to ptr
; CHECK-NEXT:    store atomic i8 1, ptr %103 release, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %104
; CHECK:       104:
; CHECK-NEXT:    br label %105
; CHECK:       105:
; CHECK-NEXT:    store i64 1, ptr %r, align 1
; CHECK-NEXT:    %106 = ptrtoint ptr %s to i64
; CHECK-NEXT:    %107 = lshr i64 %106, 6
; CHECK-NEXT:    %108 = add i64 %107, 2147450880
; CHECK-NEXT:    %109 = add i64 %106, 15
; CHECK-NEXT:    %110 = lshr i64 %109, 6
; CHECK-NEXT:    %111 = add i64 %110, 2147450880
; CHECK-NEXT:    %112 = inttoptr i64 %108 to ptr
; CHECK-NEXT:    %113 = inttoptr i64 %111 to ptr
; CHECK-NEXT:    %114 = load i8, ptr %112, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %115 = load i8, ptr %113, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %116 = and i8 %114, %115
; CHECK-NEXT:    %117 = and i8 %116, 1
; CHECK-NEXT:    %118 = icmp eq i8 %117, 0
; CHECK-NEXT:    br i1 %118, label %119, label %140, !prof !{{[0-9]+}}
; CHECK:       119:
; CHECK-NEXT:    %120 = load i64, ptr @__efsan_mrc_threshold, align 8, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %121 = mul i64 %108, -7046029254386353131
; CHECK-NEXT:    %122 = icmp ule i64 %121, %120
; CHECK-NEXT:    %123 = load i64, ptr @__efsan_mrc_threshold, align 8, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %124 = mul i64 %111, -7046029254386353131
; CHECK-NEXT:    %125 = icmp ule i64 %124, %123
; CHECK-NEXT:    %126 = or i1 %122, %125
; CHECK-NEXT:    br i1 %126, label %127, label %128, !prof !{{[0-9]+}}
; CHECK:       127:
; CHECK-NEXT:    call preserve_allcc void @__efsan_ws_mark_lines(i64 %108, i64 %111), !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %139
; CHECK:       128:
; CHECK-NEXT:    %129 = load i8, ptr %112, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %130 = or i8 %129, -127
; CHECK-NEXT:    store i8 %130, ptr %112, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %131 = load i8, ptr %113, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %132 = or i8 %131, -127
; CHECK-NEXT:    store i8 %132, ptr %113, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %133 = lshr i64 %108, 12
; CHECK-NEXT:    %134 = add i64 %133, 2180513800
; CHECK-NEXT:    %135 = inttoptr i64 %134 to ptr
; CHECK-NEXT:    store atomic i8 1, ptr %135 release, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %136 = lshr i64 %111, 12
; CHECK-NEXT:    %137 = add i64 %136, 2180513800
; CHECK-NEXT:    %138 = inttoptr i64 %137 to ptr
; CHECK-NEXT:    store atomic i8 1, ptr %138 release, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %139
; CHECK:       139:
; CHECK-NEXT:    br label %140
; CHECK:       140:
; CHECK-NEXT:    store i128 1, ptr %s, align 1
; CHECK-NEXT:    ret void

; Odd sizes: 3 bytes (i24), 10 bytes (x86_fp80), a 12-byte struct. Under
; their size-alignment they take the two-line check, marked inline.
define void @odd_sizes(ptr %p, ptr %q, ptr %r) {
  %a = load i24, ptr %p, align 1
  store x86_fp80 0xK3FFF8000000000000000, ptr %q, align 16
  %c = load { i32, i32, i32 }, ptr %r, align 4
  ret void
}
; CHECK-LABEL: define void @odd_sizes(ptr %p, ptr %q, ptr %r)
; CHECK-NEXT:    %1 = ptrtoint ptr %p to i64
; CHECK-NEXT:    %2 = lshr i64 %1, 6
; CHECK-NEXT:    %3 = add i64 %2, 2147450880
; CHECK-NEXT:    %4 = add i64 %1, 2
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
; CHECK-NEXT:    %a = load i24, ptr %p, align 1
; CHECK-NEXT:    %36 = ptrtoint ptr %q to i64
; CHECK-NEXT:    %37 = lshr i64 %36, 6
; CHECK-NEXT:    %38 = add i64 %37, 2147450880
; CHECK-NEXT:    %39 = inttoptr i64 %38 to ptr
; CHECK-NEXT:    %40 = load i8, ptr %39, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %41 = and i8 %40, 1
; CHECK-NEXT:    %42 = icmp eq i8 %41, 0
; CHECK-NEXT:    br i1 %42, label %43, label %55, !prof !{{[0-9]+}}
; CHECK:       43:
; CHECK-NEXT:    %44 = load i64, ptr @__efsan_mrc_threshold, align 8, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %45 = mul i64 %38, -7046029254386353131
; CHECK-NEXT:    %46 = icmp ule i64 %45, %44
; CHECK-NEXT:    br i1 %46, label %47, label %48, !prof !{{[0-9]+}}
; CHECK:       47:
; CHECK-NEXT:    call preserve_allcc void @__efsan_ws_mark_lines(i64 %38, i64 %38), !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %54
; CHECK:       48:
; CHECK-NEXT:    %49 = load i8, ptr %39, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %50 = or i8 %49, -127
; CHECK-NEXT:    store i8 %50, ptr %39, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %51 = lshr i64 %38, 12
; CHECK-NEXT:    %52 = add i64 %51, 2180513800
; CHECK-NEXT:    %53 = inttoptr i64 %52 to ptr
; CHECK-NEXT:    store atomic i8 1, ptr %53 release, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %54
; CHECK:       54:
; CHECK-NEXT:    br label %55
; CHECK:       55:
; CHECK-NEXT:    store x86_fp80 0xK3FFF8000000000000000, ptr %q, align 16
; CHECK-NEXT:    %56 = ptrtoint ptr %r to i64
; CHECK-NEXT:    %57 = lshr i64 %56, 6
; CHECK-NEXT:    %58 = add i64 %57, 2147450880
; CHECK-NEXT:    %59 = add i64 %56, 11
; CHECK-NEXT:    %60 = lshr i64 %59, 6
; CHECK-NEXT:    %61 = add i64 %60, 2147450880
; CHECK-NEXT:    %62 = inttoptr i64 %58 to ptr
; CHECK-NEXT:    %63 = inttoptr i64 %61 to ptr
; CHECK-NEXT:    %64 = load i8, ptr %62, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %65 = load i8, ptr %63, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %66 = and i8 %64, %65
; CHECK-NEXT:    %67 = and i8 %66, 1
; CHECK-NEXT:    %68 = icmp eq i8 %67, 0
; CHECK-NEXT:    br i1 %68, label %69, label %90, !prof !{{[0-9]+}}
; CHECK:       69:
; CHECK-NEXT:    %70 = load i64, ptr @__efsan_mrc_threshold, align 8, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %71 = mul i64 %58, -7046029254386353131
; CHECK-NEXT:    %72 = icmp ule i64 %71, %70
; CHECK-NEXT:    %73 = load i64, ptr @__efsan_mrc_threshold, align 8, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %74 = mul i64 %61, -7046029254386353131
; CHECK-NEXT:    %75 = icmp ule i64 %74, %73
; CHECK-NEXT:    %76 = or i1 %72, %75
; CHECK-NEXT:    br i1 %76, label %77, label %78, !prof !{{[0-9]+}}
; CHECK:       77:
; CHECK-NEXT:    call preserve_allcc void @__efsan_ws_mark_lines(i64 %58, i64 %61), !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %89
; CHECK:       78:
; CHECK-NEXT:    %79 = load i8, ptr %62, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %80 = or i8 %79, -127
; CHECK-NEXT:    store i8 %80, ptr %62, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %81 = load i8, ptr %63, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %82 = or i8 %81, -127
; CHECK-NEXT:    store i8 %82, ptr %63, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %83 = lshr i64 %58, 12
; CHECK-NEXT:    %84 = add i64 %83, 2180513800
; CHECK-NEXT:    %85 = inttoptr i64 %84 to ptr
; CHECK-NEXT:    store atomic i8 1, ptr %85 release, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %86 = lshr i64 %61, 12
; CHECK-NEXT:    %87 = add i64 %86, 2180513800
; CHECK-NEXT:    %88 = inttoptr i64 %87 to ptr
; CHECK-NEXT:    store atomic i8 1, ptr %88 release, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %89
; CHECK:       89:
; CHECK-NEXT:    br label %90
; CHECK:       90:
; CHECK-NEXT:    %c = load { i32, i32, i32 }, ptr %r, align 4
; CHECK-NEXT:    ret void
; x86_fp80 is 10 bytes at 16-byte alignment: within one line.

; Vectors: up to 64 bytes aligned to their size stay in one line; 64 bytes at
; 32-byte alignment take the two-line check; 128 bytes call out.
define void @vectors(ptr %p32, ptr %p64, ptr %p128, ptr %pmis) {
  %a = load <8 x i32>, ptr %p32, align 32
  store <16 x i32> zeroinitializer, ptr %p64, align 64
  %b = load <32 x i32>, ptr %p128, align 128
  store <16 x i32> zeroinitializer, ptr %pmis, align 32
  ret void
}
; CHECK-LABEL: define void @vectors(ptr %p32, ptr %p64, ptr %p128, ptr %pmis)
; CHECK-NEXT:    %1 = ptrtoint ptr %p32 to i64
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
; CHECK-NEXT:    %a = load <8 x i32>, ptr %p32, align 32
; CHECK-NEXT:    %21 = ptrtoint ptr %p64 to i64
; CHECK-NEXT:    %22 = lshr i64 %21, 6
; CHECK-NEXT:    %23 = add i64 %22, 2147450880
; CHECK-NEXT:    %24 = inttoptr i64 %23 to ptr
; CHECK-NEXT:    %25 = load i8, ptr %24, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %26 = and i8 %25, 1
; CHECK-NEXT:    %27 = icmp eq i8 %26, 0
; CHECK-NEXT:    br i1 %27, label %28, label %40, !prof !{{[0-9]+}}
; CHECK:       28:
; CHECK-NEXT:    %29 = load i64, ptr @__efsan_mrc_threshold, align 8, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %30 = mul i64 %23, -7046029254386353131
; CHECK-NEXT:    %31 = icmp ule i64 %30, %29
; CHECK-NEXT:    br i1 %31, label %32, label %33, !prof !{{[0-9]+}}
; CHECK:       32:
; CHECK-NEXT:    call preserve_allcc void @__efsan_ws_mark_lines(i64 %23, i64 %23), !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %39
; CHECK:       33:
; CHECK-NEXT:    %34 = load i8, ptr %24, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %35 = or i8 %34, -127
; CHECK-NEXT:    store i8 %35, ptr %24, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %36 = lshr i64 %23, 12
; CHECK-NEXT:    %37 = add i64 %36, 2180513800
; CHECK-NEXT:    %38 = inttoptr i64 %37 to ptr
; CHECK-NEXT:    store atomic i8 1, ptr %38 release, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %39
; CHECK:       39:
; CHECK-NEXT:    br label %40
; CHECK:       40:
; CHECK-NEXT:    store <16 x i32> zeroinitializer, ptr %p64, align 64
; CHECK-NEXT:    call void @__efsan_loadN(ptr %p128, i64 128)
; CHECK-NEXT:    %b = load <32 x i32>, ptr %p128, align 128
; CHECK-NEXT:    %41 = ptrtoint ptr %pmis to i64
; CHECK-NEXT:    %42 = lshr i64 %41, 6
; CHECK-NEXT:    %43 = add i64 %42, 2147450880
; CHECK-NEXT:    %44 = add i64 %41, 63
; CHECK-NEXT:    %45 = lshr i64 %44, 6
; CHECK-NEXT:    %46 = add i64 %45, 2147450880
; CHECK-NEXT:    %47 = inttoptr i64 %43 to ptr
; CHECK-NEXT:    %48 = inttoptr i64 %46 to ptr
; CHECK-NEXT:    %49 = load i8, ptr %47, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %50 = load i8, ptr %48, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %51 = and i8 %49, %50
; CHECK-NEXT:    %52 = and i8 %51, 1
; CHECK-NEXT:    %53 = icmp eq i8 %52, 0
; CHECK-NEXT:    br i1 %53, label %54, label %75, !prof !{{[0-9]+}}
; CHECK:       54:
; CHECK-NEXT:    %55 = load i64, ptr @__efsan_mrc_threshold, align 8, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %56 = mul i64 %43, -7046029254386353131
; CHECK-NEXT:    %57 = icmp ule i64 %56, %55
; CHECK-NEXT:    %58 = load i64, ptr @__efsan_mrc_threshold, align 8, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %59 = mul i64 %46, -7046029254386353131
; CHECK-NEXT:    %60 = icmp ule i64 %59, %58
; CHECK-NEXT:    %61 = or i1 %57, %60
; CHECK-NEXT:    br i1 %61, label %62, label %63, !prof !{{[0-9]+}}
; CHECK:       62:
; CHECK-NEXT:    call preserve_allcc void @__efsan_ws_mark_lines(i64 %43, i64 %46), !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %74
; CHECK:       63:
; CHECK-NEXT:    %64 = load i8, ptr %47, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %65 = or i8 %64, -127
; CHECK-NEXT:    store i8 %65, ptr %47, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %66 = load i8, ptr %48, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %67 = or i8 %66, -127
; CHECK-NEXT:    store i8 %67, ptr %48, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %68 = lshr i64 %43, 12
; CHECK-NEXT:    %69 = add i64 %68, 2180513800
; CHECK-NEXT:    %70 = inttoptr i64 %69 to ptr
; CHECK-NEXT:    store atomic i8 1, ptr %70 release, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %71 = lshr i64 %46, 12
; CHECK-NEXT:    %72 = add i64 %71, 2180513800
; CHECK-NEXT:    %73 = inttoptr i64 %72 to ptr
; CHECK-NEXT:    store atomic i8 1, ptr %73 release, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %74
; CHECK:       74:
; CHECK-NEXT:    br label %75
; CHECK:       75:
; CHECK-NEXT:    store <16 x i32> zeroinitializer, ptr %pmis, align 32
; CHECK-NEXT:    ret void

; Coalescing: accesses of a block at constant offsets from one pointer that
; span at most 64 bytes share one check of the span, at the first of them.
; Here p+8, p+0, p+24 and p+56 (8 bytes each) make [p, p+64): one two-line
; check; p+64 does not fit and gets its own (8-aligned: one line).
define double @coalesced(ptr %p) {
  %q = getelementptr inbounds i8, ptr %p, i64 8
  %b = load double, ptr %q, align 8
  %a = load double, ptr %p, align 8
  %r = getelementptr inbounds i8, ptr %p, i64 24
  %d = load double, ptr %r, align 8
  %s = getelementptr inbounds i8, ptr %p, i64 64
  store double %a, ptr %s, align 8
  %t = getelementptr inbounds i8, ptr %p, i64 56
  store double %b, ptr %t, align 8
  %x = fadd double %a, %b
  %y = fadd double %x, %d
  ret double %y
}
; CHECK-LABEL: define double @coalesced(ptr %p)
; CHECK-NEXT:    %q = getelementptr inbounds i8, ptr %p, i64 8
; CHECK-NEXT:    %1 = ptrtoint ptr %p to i64
; CHECK-NEXT:    %2 = lshr i64 %1, 6
; CHECK-NEXT:    %3 = add i64 %2, 2147450880
; CHECK-NEXT:    %4 = add i64 %1, 63
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
; CHECK-NEXT:    %b = load double, ptr %q, align 8
; CHECK-NEXT:    %a = load double, ptr %p, align 8
; CHECK-NEXT:    %r = getelementptr inbounds i8, ptr %p, i64 24
; CHECK-NEXT:    %d = load double, ptr %r, align 8
; CHECK-NEXT:    %s = getelementptr inbounds i8, ptr %p, i64 64
; CHECK-NEXT:    %36 = ptrtoint ptr %s to i64
; CHECK-NEXT:    %37 = lshr i64 %36, 6
; CHECK-NEXT:    %38 = add i64 %37, 2147450880
; CHECK-NEXT:    %39 = inttoptr i64 %38 to ptr
; CHECK-NEXT:    %40 = load i8, ptr %39, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %41 = and i8 %40, 1
; CHECK-NEXT:    %42 = icmp eq i8 %41, 0
; CHECK-NEXT:    br i1 %42, label %43, label %55, !prof !{{[0-9]+}}
; CHECK:       43:
; CHECK-NEXT:    %44 = load i64, ptr @__efsan_mrc_threshold, align 8, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %45 = mul i64 %38, -7046029254386353131
; CHECK-NEXT:    %46 = icmp ule i64 %45, %44
; CHECK-NEXT:    br i1 %46, label %47, label %48, !prof !{{[0-9]+}}
; CHECK:       47:
; CHECK-NEXT:    call preserve_allcc void @__efsan_ws_mark_lines(i64 %38, i64 %38), !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %54
; CHECK:       48:
; CHECK-NEXT:    %49 = load i8, ptr %39, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %50 = or i8 %49, -127
; CHECK-NEXT:    store i8 %50, ptr %39, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %51 = lshr i64 %38, 12
; CHECK-NEXT:    %52 = add i64 %51, 2180513800
; CHECK-NEXT:    %53 = inttoptr i64 %52 to ptr
; CHECK-NEXT:    store atomic i8 1, ptr %53 release, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %54
; CHECK:       54:
; CHECK-NEXT:    br label %55
; CHECK:       55:
; CHECK-NEXT:    store double %a, ptr %s, align 8
; CHECK-NEXT:    %t = getelementptr inbounds i8, ptr %p, i64 56
; CHECK-NEXT:    store double %b, ptr %t, align 8
; CHECK-NEXT:    %x = fadd double %a, %b
; CHECK-NEXT:    %y = fadd double %x, %d
; CHECK-NEXT:    ret double %y

; A group whose start is aligned to at least its span stays in one line: the
; single-byte check.
define i32 @coalesced_one_line(ptr %p) {
  %a = load i32, ptr %p, align 8
  %q = getelementptr inbounds i8, ptr %p, i64 4
  %b = load i32, ptr %q, align 4
  %s = add i32 %a, %b
  ret i32 %s
}
; CHECK-LABEL: define i32 @coalesced_one_line(ptr %p)
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
; CHECK-NEXT:    %a = load i32, ptr %p, align 8
; CHECK-NEXT:    %q = getelementptr inbounds i8, ptr %p, i64 4
; CHECK-NEXT:    %b = load i32, ptr %q, align 4
; CHECK-NEXT:    %s = add i32 %a, %b
; CHECK-NEXT:    ret i32 %s

; The lowest offset belongs to a later access: the check starts at base plus
; that offset, [p+4, p+20).
define void @lowest_offset_later(ptr %p) {
  %q = getelementptr inbounds i8, ptr %p, i64 16
  store i32 0, ptr %q, align 4
  %r = getelementptr inbounds i8, ptr %p, i64 4
  store i32 0, ptr %r, align 4
  ret void
}
; CHECK-LABEL: define void @lowest_offset_later(ptr %p)
; CHECK-NEXT:    %q = getelementptr inbounds i8, ptr %p, i64 16
; CHECK-NEXT:    %1 = getelementptr i8, ptr %p, i64 4
; CHECK-NEXT:    %2 = ptrtoint ptr %1 to i64
; CHECK-NEXT:    %3 = lshr i64 %2, 6
; CHECK-NEXT:    %4 = add i64 %3, 2147450880
; CHECK-NEXT:    %5 = add i64 %2, 15
; CHECK-NEXT:    %6 = lshr i64 %5, 6
; CHECK-NEXT:    %7 = add i64 %6, 2147450880
; CHECK-NEXT:    %8 = inttoptr i64 %4 to ptr
; CHECK-NEXT:    %9 = inttoptr i64 %7 to ptr
; CHECK-NEXT:    %10 = load i8, ptr %8, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %11 = load i8, ptr %9, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %12 = and i8 %10, %11
; CHECK-NEXT:    %13 = and i8 %12, 1
; CHECK-NEXT:    %14 = icmp eq i8 %13, 0
; CHECK-NEXT:    br i1 %14, label %15, label %36, !prof !{{[0-9]+}}
; CHECK:       15:
; CHECK-NEXT:    %16 = load i64, ptr @__efsan_mrc_threshold, align 8, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %17 = mul i64 %4, -7046029254386353131
; CHECK-NEXT:    %18 = icmp ule i64 %17, %16
; CHECK-NEXT:    %19 = load i64, ptr @__efsan_mrc_threshold, align 8, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %20 = mul i64 %7, -7046029254386353131
; CHECK-NEXT:    %21 = icmp ule i64 %20, %19
; CHECK-NEXT:    %22 = or i1 %18, %21
; CHECK-NEXT:    br i1 %22, label %23, label %24, !prof !{{[0-9]+}}
; CHECK:       23:
; CHECK-NEXT:    call preserve_allcc void @__efsan_ws_mark_lines(i64 %4, i64 %7), !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %35
; CHECK:       24:
; CHECK-NEXT:    %25 = load i8, ptr %8, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %26 = or i8 %25, -127
; CHECK-NEXT:    store i8 %26, ptr %8, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %27 = load i8, ptr %9, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %28 = or i8 %27, -127
; CHECK-NEXT:    store i8 %28, ptr %9, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %29 = lshr i64 %4, 12
; CHECK-NEXT:    %30 = add i64 %29, 2180513800
; CHECK-NEXT:    %31 = inttoptr i64 %30 to ptr
; CHECK-NEXT:    store atomic i8 1, ptr %31 release, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %32 = lshr i64 %7, 12
; CHECK-NEXT:    %33 = add i64 %32, 2180513800
; CHECK-NEXT:    %34 = inttoptr i64 %33 to ptr
; CHECK-NEXT:    store atomic i8 1, ptr %34 release, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %35
; CHECK:       35:
; CHECK-NEXT:    br label %36
; CHECK:       36:
; CHECK-NEXT:    store i32 0, ptr %q, align 4
; CHECK-NEXT:    %r = getelementptr inbounds i8, ptr %p, i64 4
; CHECK-NEXT:    store i32 0, ptr %r, align 4
; CHECK-NEXT:    ret void

; The unrolled copies of a vectorised loop body index the array with `i` and
; `i + 4` (an add or a disjoint or): the same base, 32 bytes apart, so the
; four vectors make one 64-byte group. b[i + 8] is past it; `or` without
; `disjoint` is not an addition.
define void @unrolled(ptr %b, i64 %i) {
  %p0 = getelementptr double, ptr %b, i64 %i
  %p1 = getelementptr i8, ptr %p0, i64 16
  %v0 = load <2 x double>, ptr %p0, align 8
  %v1 = load <2 x double>, ptr %p1, align 8
  %i4 = or disjoint i64 %i, 4
  %p2 = getelementptr double, ptr %b, i64 %i4
  %p3 = getelementptr i8, ptr %p2, i64 16
  %v2 = load <2 x double>, ptr %p2, align 8
  %v3 = load <2 x double>, ptr %p3, align 8
  %i8 = add i64 %i, 8
  %p4 = getelementptr double, ptr %b, i64 %i8
  %v4 = load double, ptr %p4, align 8
  %i2 = or i64 %i, 2
  %p5 = getelementptr double, ptr %b, i64 %i2
  %v5 = load double, ptr %p5, align 8
  ret void
}
; CHECK-LABEL: define void @unrolled(ptr %b, i64 %i)
; CHECK-NEXT:    %p0 = getelementptr double, ptr %b, i64 %i
; CHECK-NEXT:    %p1 = getelementptr i8, ptr %p0, i64 16
; CHECK-NEXT:    %1 = ptrtoint ptr %p0 to i64
; CHECK-NEXT:    %2 = lshr i64 %1, 6
; CHECK-NEXT:    %3 = add i64 %2, 2147450880
; CHECK-NEXT:    %4 = add i64 %1, 63
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
; CHECK-NEXT:    %v0 = load <2 x double>, ptr %p0, align 8
; CHECK-NEXT:    %v1 = load <2 x double>, ptr %p1, align 8
; CHECK-NEXT:    %i4 = or disjoint i64 %i, 4
; CHECK-NEXT:    %p2 = getelementptr double, ptr %b, i64 %i4
; CHECK-NEXT:    %p3 = getelementptr i8, ptr %p2, i64 16
; CHECK-NEXT:    %v2 = load <2 x double>, ptr %p2, align 8
; CHECK-NEXT:    %v3 = load <2 x double>, ptr %p3, align 8
; CHECK-NEXT:    %i8 = add i64 %i, 8
; CHECK-NEXT:    %p4 = getelementptr double, ptr %b, i64 %i8
; CHECK-NEXT:    %36 = ptrtoint ptr %p4 to i64
; CHECK-NEXT:    %37 = lshr i64 %36, 6
; CHECK-NEXT:    %38 = add i64 %37, 2147450880
; CHECK-NEXT:    %39 = inttoptr i64 %38 to ptr
; CHECK-NEXT:    %40 = load i8, ptr %39, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %41 = and i8 %40, 1
; CHECK-NEXT:    %42 = icmp eq i8 %41, 0
; CHECK-NEXT:    br i1 %42, label %43, label %55, !prof !{{[0-9]+}}
; CHECK:       43:
; CHECK-NEXT:    %44 = load i64, ptr @__efsan_mrc_threshold, align 8, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %45 = mul i64 %38, -7046029254386353131
; CHECK-NEXT:    %46 = icmp ule i64 %45, %44
; CHECK-NEXT:    br i1 %46, label %47, label %48, !prof !{{[0-9]+}}
; CHECK:       47:
; CHECK-NEXT:    call preserve_allcc void @__efsan_ws_mark_lines(i64 %38, i64 %38), !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %54
; CHECK:       48:
; CHECK-NEXT:    %49 = load i8, ptr %39, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %50 = or i8 %49, -127
; CHECK-NEXT:    store i8 %50, ptr %39, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %51 = lshr i64 %38, 12
; CHECK-NEXT:    %52 = add i64 %51, 2180513800
; CHECK-NEXT:    %53 = inttoptr i64 %52 to ptr
; CHECK-NEXT:    store atomic i8 1, ptr %53 release, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %54
; CHECK:       54:
; CHECK-NEXT:    br label %55
; CHECK:       55:
; CHECK-NEXT:    %v4 = load double, ptr %p4, align 8
; CHECK-NEXT:    %i2 = or i64 %i, 2
; CHECK-NEXT:    %p5 = getelementptr double, ptr %b, i64 %i2
; CHECK-NEXT:    %56 = ptrtoint ptr %p5 to i64
; CHECK-NEXT:    %57 = lshr i64 %56, 6
; CHECK-NEXT:    %58 = add i64 %57, 2147450880
; CHECK-NEXT:    %59 = inttoptr i64 %58 to ptr
; CHECK-NEXT:    %60 = load i8, ptr %59, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %61 = and i8 %60, 1
; CHECK-NEXT:    %62 = icmp eq i8 %61, 0
; CHECK-NEXT:    br i1 %62, label %63, label %75, !prof !{{[0-9]+}}
; CHECK:       63:
; CHECK-NEXT:    %64 = load i64, ptr @__efsan_mrc_threshold, align 8, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %65 = mul i64 %58, -7046029254386353131
; CHECK-NEXT:    %66 = icmp ule i64 %65, %64
; CHECK-NEXT:    br i1 %66, label %67, label %68, !prof !{{[0-9]+}}
; CHECK:       67:
; CHECK-NEXT:    call preserve_allcc void @__efsan_ws_mark_lines(i64 %58, i64 %58), !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %74
; CHECK:       68:
; CHECK-NEXT:    %69 = load i8, ptr %59, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %70 = or i8 %69, -127
; CHECK-NEXT:    store i8 %70, ptr %59, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %71 = lshr i64 %58, 12
; CHECK-NEXT:    %72 = add i64 %71, 2180513800
; CHECK-NEXT:    %73 = inttoptr i64 %72 to ptr
; CHECK-NEXT:    store atomic i8 1, ptr %73 release, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %74
; CHECK:       74:
; CHECK-NEXT:    br label %75
; CHECK:       75:
; CHECK-NEXT:    %v5 = load double, ptr %p5, align 8
; CHECK-NEXT:    ret void

; The lower index comes later: the check starts at b + i * 4.
define void @lower_index_later(ptr %b, i64 %i) {
  %i1 = add i64 %i, 1
  %p1 = getelementptr i32, ptr %b, i64 %i1
  store i32 0, ptr %p1, align 4
  %p0 = getelementptr i32, ptr %b, i64 %i
  store i32 0, ptr %p0, align 4
  ret void
}
; CHECK-LABEL: define void @lower_index_later(ptr %b, i64 %i)
; CHECK-NEXT:    %i1 = add i64 %i, 1
; CHECK-NEXT:    %p1 = getelementptr i32, ptr %b, i64 %i1
; CHECK-NEXT:    %1 = mul i64 %i, 4
; CHECK-NEXT:    %2 = getelementptr i8, ptr %b, i64 %1
; CHECK-NEXT:    %3 = ptrtoint ptr %2 to i64
; CHECK-NEXT:    %4 = lshr i64 %3, 6
; CHECK-NEXT:    %5 = add i64 %4, 2147450880
; CHECK-NEXT:    %6 = add i64 %3, 7
; CHECK-NEXT:    %7 = lshr i64 %6, 6
; CHECK-NEXT:    %8 = add i64 %7, 2147450880
; CHECK-NEXT:    %9 = inttoptr i64 %5 to ptr
; CHECK-NEXT:    %10 = inttoptr i64 %8 to ptr
; CHECK-NEXT:    %11 = load i8, ptr %9, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %12 = load i8, ptr %10, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %13 = and i8 %11, %12
; CHECK-NEXT:    %14 = and i8 %13, 1
; CHECK-NEXT:    %15 = icmp eq i8 %14, 0
; CHECK-NEXT:    br i1 %15, label %16, label %37, !prof !{{[0-9]+}}
; CHECK:       16:
; CHECK-NEXT:    %17 = load i64, ptr @__efsan_mrc_threshold, align 8, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %18 = mul i64 %5, -7046029254386353131
; CHECK-NEXT:    %19 = icmp ule i64 %18, %17
; CHECK-NEXT:    %20 = load i64, ptr @__efsan_mrc_threshold, align 8, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %21 = mul i64 %8, -7046029254386353131
; CHECK-NEXT:    %22 = icmp ule i64 %21, %20
; CHECK-NEXT:    %23 = or i1 %19, %22
; CHECK-NEXT:    br i1 %23, label %24, label %25, !prof !{{[0-9]+}}
; CHECK:       24:
; CHECK-NEXT:    call preserve_allcc void @__efsan_ws_mark_lines(i64 %5, i64 %8), !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %36
; CHECK:       25:
; CHECK-NEXT:    %26 = load i8, ptr %9, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %27 = or i8 %26, -127
; CHECK-NEXT:    store i8 %27, ptr %9, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %28 = load i8, ptr %10, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %29 = or i8 %28, -127
; CHECK-NEXT:    store i8 %29, ptr %10, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %30 = lshr i64 %5, 12
; CHECK-NEXT:    %31 = add i64 %30, 2180513800
; CHECK-NEXT:    %32 = inttoptr i64 %31 to ptr
; CHECK-NEXT:    store atomic i8 1, ptr %32 release, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %33 = lshr i64 %8, 12
; CHECK-NEXT:    %34 = add i64 %33, 2180513800
; CHECK-NEXT:    %35 = inttoptr i64 %34 to ptr
; CHECK-NEXT:    store atomic i8 1, ptr %35 release, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %36
; CHECK:       36:
; CHECK-NEXT:    br label %37
; CHECK:       37:
; CHECK-NEXT:    store i32 0, ptr %p1, align 4
; CHECK-NEXT:    %p0 = getelementptr i32, ptr %b, i64 %i
; CHECK-NEXT:    store i32 0, ptr %p0, align 4
; CHECK-NEXT:    ret void

; A load and a store of the same address in one block are instrumented once,
; and not again in a block entered only from that one (@repeated: next); a
; block with two predecessors checks again (done), as does a new span (%q). Same-address accesses of growing size widen the
; first check: @unaligned's loads make one 16-byte check (p is only known to
; be 8-aligned: two lines), its stores none.
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
; CHECK-NEXT:    %1 = ptrtoint ptr %p to i64
; CHECK-NEXT:    %2 = lshr i64 %1, 6
; CHECK-NEXT:    %3 = add i64 %2, 2147450880
; CHECK-NEXT:    %4 = add i64 %1, 15
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
; CHECK-NEXT:    %a = load i16, ptr %p, align 1
; CHECK-NEXT:    %b = load i32, ptr %p, align 2
; CHECK-NEXT:    %c = load i64, ptr %p, align 4
; CHECK-NEXT:    %d = load i128, ptr %p, align 8
; CHECK-NEXT:    store i16 %a, ptr %p, align 1
; CHECK-NEXT:    store i32 %b, ptr %p, align 2
; CHECK-NEXT:    store i64 %c, ptr %p, align 4
; CHECK-NEXT:    store i128 %d, ptr %p, align 8
; CHECK-NEXT:    ret void

define void @repeated(ptr %p, i1 %c) {
  %v = load i32, ptr %p, align 4
  %w = add i32 %v, 1
  store i32 %w, ptr %p, align 4
  br i1 %c, label %next, label %done
next:
  store i32 %v, ptr %p, align 4
  %q = getelementptr inbounds i8, ptr %p, i64 4
  store i32 %v, ptr %q, align 4
  br label %done
done:
  store i32 %w, ptr %p, align 4
  ret void
}
; CHECK-LABEL: define void @repeated(ptr %p, i1 %c)
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
; CHECK-NEXT:    %v = load i32, ptr %p, align 4
; CHECK-NEXT:    %w = add i32 %v, 1
; CHECK-NEXT:    store i32 %w, ptr %p, align 4
; CHECK-NEXT:    br i1 %c, label %next, label %done
; CHECK:       next:
; CHECK-NEXT:    store i32 %v, ptr %p, align 4
; CHECK-NEXT:    %q = getelementptr inbounds i8, ptr %p, i64 4
; CHECK-NEXT:    %21 = ptrtoint ptr %q to i64
; CHECK-NEXT:    %22 = lshr i64 %21, 6
; CHECK-NEXT:    %23 = add i64 %22, 2147450880
; CHECK-NEXT:    %24 = inttoptr i64 %23 to ptr
; CHECK-NEXT:    %25 = load i8, ptr %24, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %26 = and i8 %25, 1
; CHECK-NEXT:    %27 = icmp eq i8 %26, 0
; CHECK-NEXT:    br i1 %27, label %28, label %40, !prof !{{[0-9]+}}
; CHECK:       28:
; CHECK-NEXT:    %29 = load i64, ptr @__efsan_mrc_threshold, align 8, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %30 = mul i64 %23, -7046029254386353131
; CHECK-NEXT:    %31 = icmp ule i64 %30, %29
; CHECK-NEXT:    br i1 %31, label %32, label %33, !prof !{{[0-9]+}}
; CHECK:       32:
; CHECK-NEXT:    call preserve_allcc void @__efsan_ws_mark_lines(i64 %23, i64 %23), !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %39
; CHECK:       33:
; CHECK-NEXT:    %34 = load i8, ptr %24, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %35 = or i8 %34, -127
; CHECK-NEXT:    store i8 %35, ptr %24, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %36 = lshr i64 %23, 12
; CHECK-NEXT:    %37 = add i64 %36, 2180513800
; CHECK-NEXT:    %38 = inttoptr i64 %37 to ptr
; CHECK-NEXT:    store atomic i8 1, ptr %38 release, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %39
; CHECK:       39:
; CHECK-NEXT:    br label %40
; CHECK:       40:
; CHECK-NEXT:    store i32 %v, ptr %q, align 4
; CHECK-NEXT:    br label %done
; CHECK:       done:
; CHECK-NEXT:    %41 = ptrtoint ptr %p to i64
; CHECK-NEXT:    %42 = lshr i64 %41, 6
; CHECK-NEXT:    %43 = add i64 %42, 2147450880
; CHECK-NEXT:    %44 = inttoptr i64 %43 to ptr
; CHECK-NEXT:    %45 = load i8, ptr %44, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %46 = and i8 %45, 1
; CHECK-NEXT:    %47 = icmp eq i8 %46, 0
; CHECK-NEXT:    br i1 %47, label %48, label %60, !prof !{{[0-9]+}}
; CHECK:       48:
; CHECK-NEXT:    %49 = load i64, ptr @__efsan_mrc_threshold, align 8, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %50 = mul i64 %43, -7046029254386353131
; CHECK-NEXT:    %51 = icmp ule i64 %50, %49
; CHECK-NEXT:    br i1 %51, label %52, label %53, !prof !{{[0-9]+}}
; CHECK:       52:
; CHECK-NEXT:    call preserve_allcc void @__efsan_ws_mark_lines(i64 %43, i64 %43), !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %59
; CHECK:       53:
; CHECK-NEXT:    %54 = load i8, ptr %44, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %55 = or i8 %54, -127
; CHECK-NEXT:    store i8 %55, ptr %44, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    %56 = lshr i64 %43, 12
; CHECK-NEXT:    %57 = add i64 %56, 2180513800
; CHECK-NEXT:    %58 = inttoptr i64 %57 to ptr
; CHECK-NEXT:    store atomic i8 1, ptr %58 release, align 1, !nosanitize !{{[0-9]+}}
; CHECK-NEXT:    br label %59
; CHECK:       59:
; CHECK-NEXT:    br label %60
; CHECK:       60:
; CHECK-NEXT:    store i32 %w, ptr %p, align 4
; CHECK-NEXT:    ret void

