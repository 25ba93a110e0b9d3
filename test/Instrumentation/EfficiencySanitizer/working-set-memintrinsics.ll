; memcpy/memmove/memset intrinsics (also the .inline forms) are replaced by
; runtime calls that mark both ranges and do the operation, unless their
; length is a constant of at most a line (64 bytes) in optimised code: those
; stay intrinsics and their ranges are accesses, checked inline.
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<working-set>' -S %s | FileCheck %s --check-prefix=WS-SMALL
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -S %s | FileCheck %s --check-prefix=CF-SMALL
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<working-set>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<working-set>' -efsan-instrument-memintrinsics=false -S %s | FileCheck %s --check-prefix=OFF

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define void @mem(ptr %d, ptr %s, i64 %n, i32 %n32, i8 %c) {
  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 %n, i1 false)
  call void @llvm.memmove.p0.p0.i64(ptr %d, ptr %s, i64 %n, i1 false)
  call void @llvm.memset.p0.i64(ptr %d, i8 %c, i64 %n, i1 false)
  call void @llvm.memset.p0.i32(ptr %d, i8 7, i32 %n32, i1 true)
  call void @llvm.memcpy.inline.p0.p0.i64(ptr %d, ptr %s, i64 96, i1 false)
  call void @llvm.memset.inline.p0.i64(ptr %d, i8 0, i64 65, i1 false)
  ret void
}
; CHECK-LABEL: define void @mem(
; CHECK-NEXT:    %1 = call ptr @__efsan_memcpy(ptr %d, ptr %s, i64 %n)
; CHECK-NEXT:    %2 = call ptr @__efsan_memmove(ptr %d, ptr %s, i64 %n)
; CHECK-NEXT:    %3 = zext i8 %c to i32
; CHECK-NEXT:    %4 = call ptr @__efsan_memset(ptr %d, i32 %3, i64 %n)
; CHECK-NEXT:    %5 = zext i32 %n32 to i64
; CHECK-NEXT:    %6 = call ptr @__efsan_memset(ptr %d, i32 7, i64 %5)
; CHECK-NEXT:    %7 = call ptr @__efsan_memcpy(ptr %d, ptr %s, i64 96)
; CHECK-NEXT:    %8 = call ptr @__efsan_memset(ptr %d, i32 0, i64 65)
; CHECK-NEXT:    ret void

define void @small(ptr %d, ptr %s) {
  call void @llvm.memcpy.inline.p0.p0.i64(ptr %d, ptr %s, i64 16, i1 false)
  call void @llvm.memset.p0.i64(ptr %s, i8 0, i64 64, i1 false)
  ret void
}
; The source's 16 bytes and the 64 set at the same address share one check
; of their span (its first and last byte's lines), then the destination's.
; WS-SMALL-LABEL: define void @small(
; WS-SMALL-NEXT:    %1 = ptrtoint ptr %s to i64
; WS-SMALL:         add i64 %1, 63
; WS-SMALL:         ptrtoint ptr %d to i64
; WS-SMALL:         call void @llvm.memcpy.inline.p0.p0.i64(ptr %d, ptr %s, i64 16, i1 false)
; WS-SMALL-NEXT:    call void @llvm.memset.p0.i64(ptr %s, i8 0, i64 64, i1 false)
; WS-SMALL-NEXT:    ret void
; CF-SMALL-LABEL: define void @small(
; CF-SMALL:         call void @llvm.memcpy.inline.p0.p0.i64(ptr %d, ptr %s, i64 16, i1 false)
; CF-SMALL-NEXT:    call void @llvm.memset.p0.i64(ptr %s, i8 0, i64 64, i1 false)
; CF-SMALL-NEXT:    add nsw i64 %{{[0-9]+}}, -3
; CF-SMALL:         call preserve_mostcc void @__efsan_cache_frag_access(ptr %s, i64 16, i32 0, ptr null)
; CF-SMALL:         call preserve_mostcc void @__efsan_cache_frag_access(ptr %d, i64 16, i32 1, ptr null)
; CF-SMALL:         call preserve_mostcc void @__efsan_cache_frag_access(ptr %s, i64 64, i32 1, ptr null)

; At -O0 (optnone) the backend may call the C library for them: runtime calls.
define void @small_optnone(ptr %d, ptr %s) noinline optnone {
  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 16, i1 false)
  ret void
}
; CHECK-LABEL: define void @small_optnone(
; CHECK-NEXT:    call ptr @__efsan_memcpy(ptr %d, ptr %s, i64 16)

; CHECK: declare ptr @__efsan_memcpy(ptr, ptr, i64)
; CHECK: declare ptr @__efsan_memmove(ptr, ptr, i64)
; CHECK: declare ptr @__efsan_memset(ptr, i32, i64)

; OFF-LABEL: define void @mem(
; OFF-NEXT:    call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 %n, i1 false)
; OFF-NOT:     call ptr @__efsan_mem

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare void @llvm.memset.p0.i32(ptr, i8, i32, i1)
declare void @llvm.memcpy.inline.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.inline.p0.i64(ptr, i8, i64, i1)
