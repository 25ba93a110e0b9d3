; The working-set fast path: accesses that fit in one cache line (size at most
; their alignment and at most 64 bytes) check the shadow byte inline and store
; only in a cold block; other accesses of at most 64 bytes check the shadow
; bytes of their first and last byte together and call out from a cold block;
; larger ones call out. Accesses of a block at constant offsets from one base
; share one check.
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
; CHECK-NEXT:    %5 = load i8, ptr %4, align 1, !nosanitize ![[NOSAN:[0-9]+]]
; CHECK-NEXT:    %6 = and i8 %5, 1
; CHECK-NEXT:    %7 = icmp eq i8 %6, 0
; CHECK-NEXT:    br i1 %7, label %8, label %14, !prof ![[UNLIKELY:[0-9]+]]
; CHECK:       8:
; CHECK-NEXT:    %9 = load i8, ptr %4, align 1, !nosanitize ![[NOSAN]]
; CHECK-NEXT:    %10 = or i8 %9, -127
; CHECK-NEXT:    store i8 %10, ptr %4, align 1, !nosanitize ![[NOSAN]]
; CHECK-NEXT:    %11 = lshr i64 %3, 12
; CHECK-NEXT:    %12 = add i64 %11, 2180513800
; CHECK-NEXT:    %13 = inttoptr i64 %12 to ptr
; CHECK-NEXT:    store atomic i8 1, ptr %13 release, align 1, !nosanitize
; CHECK-NEXT:    br label %14
; CHECK:       14:
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
; CHECK-NEXT:    %5 = load i8, ptr %4, align 1, !nosanitize
; CHECK-NEXT:    %6 = and i8 %5, 1
; CHECK-NEXT:    %7 = icmp eq i8 %6, 0
; CHECK-NEXT:    br i1 %7, label %8, label %14, !prof ![[UNLIKELY]]
; CHECK:       8:
; CHECK-NEXT:    %9 = load i8, ptr %4, align 1, !nosanitize
; CHECK-NEXT:    %10 = or i8 %9, -127
; CHECK-NEXT:    store i8 %10, ptr %4, align 1, !nosanitize
; CHECK-NEXT:    %11 = lshr i64 %3, 12
; CHECK-NEXT:    %12 = add i64 %11, 2180513800
; CHECK-NEXT:    %13 = inttoptr i64 %12 to ptr
; CHECK-NEXT:    store atomic i8 1, ptr %13 release, align 1, !nosanitize
; CHECK-NEXT:    br label %14
; CHECK:       14:
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
; CHECK-NEXT:    %9 = load i8, ptr %7, align 1, !nosanitize ![[NOSAN]]
; CHECK-NEXT:    %10 = load i8, ptr %8, align 1, !nosanitize ![[NOSAN]]
; CHECK-NEXT:    %11 = and i8 %9, %10
; CHECK-NEXT:    %12 = and i8 %11, 1
; CHECK-NEXT:    %13 = icmp eq i8 %12, 0
; CHECK-NEXT:    br i1 %13, label %14, label %25, !prof ![[UNLIKELY]]
; CHECK:       14:
; CHECK-NEXT:    %15 = load i8, ptr %7, align 1, !nosanitize ![[NOSAN]]
; CHECK-NEXT:    %16 = or i8 %15, -127
; CHECK-NEXT:    store i8 %16, ptr %7, align 1, !nosanitize ![[NOSAN]]
; CHECK-NEXT:    %17 = load i8, ptr %8, align 1, !nosanitize ![[NOSAN]]
; CHECK-NEXT:    %18 = or i8 %17, -127
; CHECK-NEXT:    store i8 %18, ptr %8, align 1, !nosanitize ![[NOSAN]]
; CHECK-NEXT:    %19 = lshr i64 %3, 12
; CHECK-NEXT:    %20 = add i64 %19, 2180513800
; CHECK-NEXT:    %21 = inttoptr i64 %20 to ptr
; CHECK-NEXT:    store atomic i8 1, ptr %21 release, align 1, !nosanitize ![[NOSAN]]
; CHECK-NEXT:    %22 = lshr i64 %6, 12
; CHECK-NEXT:    %23 = add i64 %22, 2180513800
; CHECK-NEXT:    %24 = inttoptr i64 %23 to ptr
; CHECK-NEXT:    store atomic i8 1, ptr %24 release, align 1, !nosanitize ![[NOSAN]]
; CHECK-NEXT:    br label %25
; CHECK:       25:
; CHECK-NEXT:    %v = load <2 x double>, ptr %p, align 8
; CHECK-NEXT:    ret <2 x double> %v
; CHECK-NOT:     call

; Each under-aligned size: the last byte is at offset size-1; the cold block
; marks both lines inline.
define void @unaligned_stores(ptr %p, ptr %q, ptr %r, ptr %s) {
  store i16 1, ptr %p, align 1
  store i32 1, ptr %q, align 1
  store i64 1, ptr %r, align 1
  store i128 1, ptr %s, align 1
  ret void
}
; CHECK-LABEL: define void @unaligned_stores(
; CHECK-NEXT:    ptrtoint ptr %p to i64
; CHECK:         add i64 %{{[0-9]+}}, 1{{$}}
; CHECK-NOT:     call
; CHECK:         or i8 %{{[0-9]+}}, -127
; CHECK:         or i8 %{{[0-9]+}}, -127
; CHECK:         store atomic i8 1
; CHECK:         store atomic i8 1
; CHECK:         store i16 1, ptr %p, align 1
; CHECK-NEXT:    ptrtoint ptr %q to i64
; CHECK:         add i64 %{{[0-9]+}}, 3{{$}}
; CHECK-NOT:     call
; CHECK:         or i8 %{{[0-9]+}}, -127
; CHECK:         or i8 %{{[0-9]+}}, -127
; CHECK:         store atomic i8 1
; CHECK:         store atomic i8 1
; CHECK:         store i32 1, ptr %q, align 1
; CHECK-NEXT:    ptrtoint ptr %r to i64
; CHECK:         add i64 %{{[0-9]+}}, 7{{$}}
; CHECK-NOT:     call
; CHECK:         or i8 %{{[0-9]+}}, -127
; CHECK:         or i8 %{{[0-9]+}}, -127
; CHECK:         store atomic i8 1
; CHECK:         store atomic i8 1
; CHECK:         store i64 1, ptr %r, align 1
; CHECK-NEXT:    ptrtoint ptr %s to i64
; CHECK:         add i64 %{{[0-9]+}}, 15{{$}}
; CHECK-NOT:     call
; CHECK:         or i8 %{{[0-9]+}}, -127
; CHECK:         or i8 %{{[0-9]+}}, -127
; CHECK:         store atomic i8 1
; CHECK:         store atomic i8 1
; CHECK:         store i128 1, ptr %s, align 1
; CHECK-NEXT:    ret void

; Odd sizes: 3 bytes (i24), 10 bytes (x86_fp80), a 12-byte struct. Under
; their size-alignment they take the two-line check, marked inline.
define void @odd_sizes(ptr %p, ptr %q, ptr %r) {
  %a = load i24, ptr %p, align 1
  store x86_fp80 0xK3FFF8000000000000000, ptr %q, align 16
  %c = load { i32, i32, i32 }, ptr %r, align 4
  ret void
}
; CHECK-LABEL: define void @odd_sizes(
; CHECK-NEXT:    ptrtoint ptr %p to i64
; CHECK:         add i64 %{{[0-9]+}}, 2{{$}}
; CHECK-NOT:     call
; CHECK:         or i8 %{{[0-9]+}}, -127
; CHECK:         or i8 %{{[0-9]+}}, -127
; CHECK:         store atomic i8 1
; CHECK:         store atomic i8 1
; CHECK:         %a = load i24, ptr %p, align 1
; x86_fp80 is 10 bytes at 16-byte alignment: within one line.
; CHECK-NEXT:    ptrtoint ptr %q to i64
; CHECK-NOT:     call
; CHECK:         or i8 %{{[0-9]+}}, -127
; CHECK:         store x86_fp80 0xK3FFF8000000000000000, ptr %q, align 16
; CHECK-NEXT:    ptrtoint ptr %r to i64
; CHECK:         add i64 %{{[0-9]+}}, 11{{$}}
; CHECK-NOT:     call
; CHECK:         or i8 %{{[0-9]+}}, -127
; CHECK:         or i8 %{{[0-9]+}}, -127
; CHECK:         store atomic i8 1
; CHECK:         store atomic i8 1
; CHECK:         %c = load { i32, i32, i32 }, ptr %r, align 4
; CHECK-NEXT:    ret void

; Vectors: up to 64 bytes aligned to their size stay in one line; 64 bytes at
; 32-byte alignment take the two-line check; 128 bytes call out.
define void @vectors(ptr %p32, ptr %p64, ptr %p128, ptr %pmis) {
  %a = load <8 x i32>, ptr %p32, align 32
  store <16 x i32> zeroinitializer, ptr %p64, align 64
  %b = load <32 x i32>, ptr %p128, align 128
  store <16 x i32> zeroinitializer, ptr %pmis, align 32
  ret void
}
; CHECK-LABEL: define void @vectors(
; CHECK-NEXT:    ptrtoint ptr %p32 to i64
; CHECK-NOT:     call
; CHECK:         %a = load <8 x i32>, ptr %p32, align 32
; CHECK-NEXT:    ptrtoint ptr %p64 to i64
; CHECK-NOT:     call
; CHECK:         store <16 x i32> zeroinitializer, ptr %p64, align 64
; CHECK-NEXT:    call void @__efsan_loadN(ptr %p128, i64 128)
; CHECK-NEXT:    %b = load <32 x i32>, ptr %p128, align 128
; CHECK-NEXT:    ptrtoint ptr %pmis to i64
; CHECK:         add i64 %{{[0-9]+}}, 63{{$}}
; CHECK-NOT:     call
; CHECK:         or i8 %{{[0-9]+}}, -127
; CHECK:         or i8 %{{[0-9]+}}, -127
; CHECK:         store atomic i8 1
; CHECK:         store atomic i8 1
; CHECK:         store <16 x i32> zeroinitializer, ptr %pmis, align 32
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
; CHECK-NEXT:    %9 = load i8, ptr %7, align 1, !nosanitize
; CHECK-NEXT:    %10 = load i8, ptr %8, align 1, !nosanitize
; CHECK-NEXT:    %11 = and i8 %9, %10
; CHECK-NEXT:    %12 = and i8 %11, 1
; CHECK-NEXT:    %13 = icmp eq i8 %12, 0
; CHECK-NEXT:    br i1 %13, label %14, label %25, !prof ![[UNLIKELY]]
; CHECK:       14:
; CHECK-NOT:     call
; CHECK:         br label %25
; CHECK:       25:
; CHECK-NEXT:    %b = load double, ptr %q, align 8
; CHECK-NEXT:    %a = load double, ptr %p, align 8
; CHECK-NEXT:    %r = getelementptr inbounds i8, ptr %p, i64 24
; CHECK-NEXT:    %d = load double, ptr %r, align 8
; CHECK-NEXT:    %s = getelementptr inbounds i8, ptr %p, i64 64
; CHECK-NEXT:    %26 = ptrtoint ptr %s to i64
; CHECK-NEXT:    %27 = lshr i64 %26, 6
; CHECK-NEXT:    %28 = add i64 %27, 2147450880
; CHECK-NEXT:    %29 = inttoptr i64 %28 to ptr
; CHECK-NEXT:    %30 = load i8, ptr %29, align 1, !nosanitize
; CHECK-NEXT:    %31 = and i8 %30, 1
; CHECK-NEXT:    %32 = icmp eq i8 %31, 0
; CHECK-NEXT:    br i1 %32, label %33, label %39, !prof ![[UNLIKELY]]
; CHECK:       39:
; CHECK-NEXT:    store double %a, ptr %s, align 8
; CHECK-NEXT:    %t = getelementptr inbounds i8, ptr %p, i64 56
; CHECK-NEXT:    store double %b, ptr %t, align 8
; CHECK-NEXT:    %x = fadd double %a, %b

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
; CHECK-NEXT:    %5 = load i8, ptr %4, align 1, !nosanitize
; CHECK-NEXT:    %6 = and i8 %5, 1
; CHECK-NEXT:    %7 = icmp eq i8 %6, 0
; CHECK-NEXT:    br i1 %7, label %8, label %14, !prof ![[UNLIKELY]]
; CHECK:       14:
; CHECK-NEXT:    %a = load i32, ptr %p, align 8
; CHECK-NEXT:    %q = getelementptr inbounds i8, ptr %p, i64 4
; CHECK-NEXT:    %b = load i32, ptr %q, align 4
; CHECK-NEXT:    %s = add i32 %a, %b

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
; CHECK-NOT:     call
; CHECK:         or i8 %{{[0-9]+}}, -127
; CHECK:         or i8 %{{[0-9]+}}, -127
; CHECK:         store atomic i8 1
; CHECK:         store atomic i8 1
; CHECK:       26:
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
; CHECK-NOT:     call
; CHECK:         or i8 %{{[0-9]+}}, -127
; CHECK:         or i8 %{{[0-9]+}}, -127
; CHECK:         store atomic i8 1
; CHECK:         store atomic i8 1
; CHECK:       25:
; CHECK-NEXT:    %v0 = load <2 x double>, ptr %p0, align 8
; CHECK-NEXT:    %v1 = load <2 x double>, ptr %p1, align 8
; CHECK-NEXT:    %i4 = or disjoint i64 %i, 4
; CHECK-NEXT:    %p2 = getelementptr double, ptr %b, i64 %i4
; CHECK-NEXT:    %p3 = getelementptr i8, ptr %p2, i64 16
; CHECK-NEXT:    %v2 = load <2 x double>, ptr %p2, align 8
; CHECK-NEXT:    %v3 = load <2 x double>, ptr %p3, align 8
; CHECK-NEXT:    %i8 = add i64 %i, 8
; CHECK-NEXT:    %p4 = getelementptr double, ptr %b, i64 %i8
; CHECK-NEXT:    ptrtoint ptr %p4 to i64
; CHECK:         %v4 = load double, ptr %p4, align 8
; CHECK-NEXT:    %i2 = or i64 %i, 2
; CHECK-NEXT:    %p5 = getelementptr double, ptr %b, i64 %i2
; CHECK-NEXT:    ptrtoint ptr %p5 to i64
; CHECK:         %v5 = load double, ptr %p5, align 8

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
; CHECK:         %6 = add i64 %3, 7
; CHECK-NOT:     call
; CHECK:         or i8 %{{[0-9]+}}, -127
; CHECK:         or i8 %{{[0-9]+}}, -127
; CHECK:         store atomic i8 1
; CHECK:         store atomic i8 1
; CHECK:       27:
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
; CHECK:         %4 = add i64 %1, 15
; CHECK-NOT:     call
; CHECK:         or i8 %{{[0-9]+}}, -127
; CHECK:         or i8 %{{[0-9]+}}, -127
; CHECK:         store atomic i8 1
; CHECK:         store atomic i8 1
; CHECK-NEXT:    br label %25
; CHECK:       25:
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
; CHECK-LABEL: define void @repeated(
; CHECK-NEXT:    ptrtoint ptr %p to i64
; CHECK:         %v = load i32, ptr %p, align 4
; CHECK-NEXT:    %w = add i32 %v, 1
; CHECK-NEXT:    store i32 %w, ptr %p, align 4
; CHECK-NEXT:    br i1 %c, label %next, label %done
; CHECK:       next:
; CHECK-NEXT:    store i32 %v, ptr %p, align 4
; CHECK-NEXT:    %q = getelementptr inbounds i8, ptr %p, i64 4
; CHECK-NEXT:    ptrtoint ptr %q to i64
; CHECK:         store i32 %v, ptr %q, align 4
; CHECK-NEXT:    br label %done
; CHECK:       done:
; CHECK-NEXT:    ptrtoint ptr %p to i64
; CHECK:         store i32 %w, ptr %p, align 4
; CHECK-NEXT:    ret void

; CHECK-DAG: ![[NOSAN]] = !{}
; CHECK-DAG: ![[UNLIKELY]] = !{!"branch_weights", i32 1, i32 1048575}
