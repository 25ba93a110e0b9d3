; Working set: memcmp and bcmp of 1 to 64 bytes (or of a size that is not a
; constant) check the lines of both ranges inline and call libc's function
; through __efsan_ws_memcmp / __efsan_ws_bcmp, past the interceptor; when the
; runtime left that pointer null, or the size is 0 or above 64, the call goes
; to the interceptor (tagged nobuiltin so that codegen keeps it a call). A
; constant size that codegen expands into loads stays a direct call on the
; inline path. -efsan-inline-compares=0 leaves the calls alone, and so does
; cache-frag without its direct libc calls (cache-frag-direct-libc-calls.ll).
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<working-set>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<working-set>' -efsan-inline-compares=0 -S %s | FileCheck %s --check-prefix=OFF
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -efsan-cache-frag-direct-libc-calls=0 -S %s | FileCheck %s --check-prefix=OFF

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK: @__efsan_ws_bcmp = external global ptr
; CHECK: @__efsan_ws_memcmp = external global ptr

define i1 @unknown_size(ptr %a, ptr %b, i64 %n) {
  %r = call i32 @bcmp(ptr %a, ptr %b, i64 %n)
  %z = icmp eq i32 %r, 0
  ret i1 %z
}
; CHECK-LABEL: define i1 @unknown_size(
; CHECK-NEXT:    %[[REAL:[0-9]+]] = load ptr, ptr @__efsan_ws_bcmp, align 8, !nosanitize
; CHECK-NEXT:    %[[ON:[0-9]+]] = icmp ne ptr %[[REAL]], null
; CHECK-NEXT:    %[[LAST:[0-9]+]] = sub i64 %n, 1
; CHECK-NEXT:    %[[SMALL:[0-9]+]] = icmp ult i64 %[[LAST]], 64
; CHECK-NEXT:    %[[INLINE:[0-9]+]] = and i1 %[[SMALL]], %[[ON]]
; CHECK-NEXT:    br i1 %[[INLINE]], label %{{[0-9]+}}, label %[[INTERCEPTED:[0-9]+]], !prof ![[LIKELY:[0-9]+]]
; The lines of a and a + n - 1:
; CHECK:         %[[A:[0-9]+]] = ptrtoint ptr %a to i64
; CHECK-NEXT:    %[[A_LINE:[0-9]+]] = lshr i64 %[[A]], 6
; CHECK-NEXT:    %[[A_SHADOW:[0-9]+]] = add i64 %[[A_LINE]], 2147450880
; CHECK-NEXT:    %[[A_END:[0-9]+]] = add i64 %[[A]], %[[LAST]]
; CHECK-NEXT:    %[[A_END_LINE:[0-9]+]] = lshr i64 %[[A_END]], 6
; CHECK-NEXT:    add i64 %[[A_END_LINE]], 2147450880
; CHECK:         and i8
; CHECK-NEXT:    and i8 %{{[0-9]+}}, 1
; CHECK-NEXT:    icmp eq i8
; CHECK-NEXT:    br i1 %{{[0-9]+}}, label %{{[0-9]+}}, label %{{[0-9]+}}, !prof ![[UNLIKELY:[0-9]+]]
; CHECK:         or i8 %{{[0-9]+}}, -127
; CHECK:         or i8 %{{[0-9]+}}, -127
; Those of b and b + n - 1:
; CHECK:         %[[B:[0-9]+]] = ptrtoint ptr %b to i64
; CHECK-NEXT:    lshr i64 %[[B]], 6
; CHECK-NEXT:    add i64
; CHECK-NEXT:    %[[B_END:[0-9]+]] = add i64 %[[B]], %[[LAST]]
; CHECK-NEXT:    lshr i64 %[[B_END]], 6
; CHECK:         br i1 %{{[0-9]+}}, label %{{[0-9]+}}, label %{{[0-9]+}}, !prof ![[UNLIKELY]]
; CHECK:         or i8 %{{[0-9]+}}, -127
; CHECK:         or i8 %{{[0-9]+}}, -127
; CHECK:         %r = call i32 %[[REAL]](ptr %a, ptr %b, i64 %n)
; CHECK-NEXT:    br label %[[JOIN:[0-9]+]]
; CHECK:       [[INTERCEPTED]]:
; CHECK-NEXT:    %[[SLOW:[0-9]+]] = call i32 @bcmp(ptr %a, ptr %b, i64 %n) #[[NOBUILTIN:[0-9]+]]
; CHECK-NEXT:    br label %[[JOIN]]
; CHECK:       [[JOIN]]:
; CHECK-NEXT:    %[[RESULT:[0-9]+]] = phi i32 [ %r, %{{[0-9]+}} ], [ %[[SLOW]], %[[INTERCEPTED]] ]
; CHECK-NEXT:    %z = icmp eq i32 %[[RESULT]], 0

; A constant size needs no size test; 40 bytes are called, not expanded.
define i32 @called_40(ptr %a, ptr %b) {
  %r = call i32 @memcmp(ptr %a, ptr %b, i64 40)
  ret i32 %r
}
; CHECK-LABEL: define i32 @called_40(
; CHECK-NEXT:    %[[REAL:[0-9]+]] = load ptr, ptr @__efsan_ws_memcmp, align 8, !nosanitize
; CHECK-NEXT:    %[[ON:[0-9]+]] = icmp ne ptr %[[REAL]], null
; CHECK-NEXT:    br i1 %[[ON]], label %{{[0-9]+}}, label %[[INTERCEPTED:[0-9]+]], !prof ![[LIKELY]]
; CHECK:         add i64 %{{[0-9]+}}, 39
; CHECK:         add i64 %{{[0-9]+}}, 39
; CHECK:         %r = call i32 %[[REAL]](ptr %a, ptr %b, i64 40)
; CHECK:       [[INTERCEPTED]]:
; CHECK-NEXT:    call i32 @memcmp(ptr %a, ptr %b, i64 40) #[[NOBUILTIN]]

; x86-64 compares 8 bytes with loads: a direct call, for codegen to expand.
define i32 @expanded_8(ptr %a, ptr %b) {
  %r = call i32 @memcmp(ptr %a, ptr %b, i64 8)
  ret i32 %r
}
; CHECK-LABEL: define i32 @expanded_8(
; CHECK:         add i64 %{{[0-9]+}}, 7
; CHECK:         add i64 %{{[0-9]+}}, 7
; CHECK:         %r = call i32 @memcmp(ptr %a, ptr %b, i64 8){{$}}
; CHECK:         call i32 @memcmp(ptr %a, ptr %b, i64 8) #[[NOBUILTIN]]

; Not at -O0 (optnone): codegen expands nothing there.
define i32 @expanded_8_optnone(ptr %a, ptr %b) noinline optnone {
  %r = call i32 @memcmp(ptr %a, ptr %b, i64 8)
  ret i32 %r
}
; CHECK-LABEL: define i32 @expanded_8_optnone(
; CHECK:         %r = call i32 %{{[0-9]+}}(ptr %a, ptr %b, i64 8)

; One byte: one line per range.
define i32 @one_byte(ptr %a, ptr %b) {
  %r = call i32 @bcmp(ptr %a, ptr %b, i64 1)
  ret i32 %r
}
; CHECK-LABEL: define i32 @one_byte(
; CHECK:         ptrtoint ptr %a to i64
; CHECK-NEXT:    lshr i64
; CHECK-NEXT:    add i64 %{{[0-9]+}}, 2147450880
; CHECK-NEXT:    inttoptr
; CHECK-NEXT:    load i8
; CHECK-NEXT:    and i8 %{{[0-9]+}}, 1
; CHECK:         ptrtoint ptr %b to i64
; CHECK-NEXT:    lshr i64
; CHECK-NEXT:    add i64 %{{[0-9]+}}, 2147450880
; CHECK-NEXT:    inttoptr
; CHECK-NEXT:    load i8
; CHECK-NEXT:    and i8 %{{[0-9]+}}, 1
; CHECK:         %r = call i32 @bcmp(ptr %a, ptr %b, i64 1){{$}}

; Nothing to mark, more than 64 bytes, a musttail call: left alone.
define i32 @interceptor_only(ptr %a, ptr %b) {
  %r0 = call i32 @memcmp(ptr %a, ptr %b, i64 0)
  %r65 = call i32 @memcmp(ptr %a, ptr %b, i64 65)
  %s = add i32 %r0, %r65
  ret i32 %s
}
; CHECK-LABEL: define i32 @interceptor_only(
; CHECK-NEXT:    %r0 = call i32 @memcmp(ptr %a, ptr %b, i64 0)
; CHECK-NEXT:    %r65 = call i32 @memcmp(ptr %a, ptr %b, i64 65)

define i32 @tail(ptr %a, ptr %b, i64 %n) {
  %r = musttail call i32 @memcmp(ptr %a, ptr %b, i64 %n)
  ret i32 %r
}
; CHECK-LABEL: define i32 @tail(
; CHECK-NEXT:    %r = musttail call i32 @memcmp(ptr %a, ptr %b, i64 %n)

; CHECK: attributes #[[NOBUILTIN]] = { nobuiltin }
; CHECK: ![[LIKELY]] = !{!"branch_weights", i32 1048575, i32 1}
; CHECK: ![[UNLIKELY]] = !{!"branch_weights", i32 1, i32 1048575}

; OFF-LABEL: define i1 @unknown_size(
; OFF-NEXT:    %r = call i32 @bcmp(ptr %a, ptr %b, i64 %n)
; OFF-LABEL: define i32 @called_40(
; OFF-NEXT:    %r = call i32 @memcmp(ptr %a, ptr %b, i64 40)
; OFF-NOT:     __efsan_ws_

declare i32 @bcmp(ptr, ptr, i64)
declare i32 @memcmp(ptr, ptr, i64)
