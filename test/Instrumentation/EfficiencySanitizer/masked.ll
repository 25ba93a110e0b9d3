; Masked loads/stores and gathers/scatters: one sized callout per lane, with
; size 0 for lanes whose mask bit is off: __efsan_{load,store}N for
; working-set, __efsan_cache_frag_access (flags 1 for a write, no field
; counter) for cache-frag, with no inline countdown check (the runtime counts
; the lanes down). For cache-frag they are call sites; these functions have
; no run of accesses, so no copy of the countdown (see
; cache-frag-countdown.ll for one that has).
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<working-set>' -S %s | FileCheck %s --check-prefixes=CHECK,WS
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -S %s | FileCheck %s --check-prefixes=CHECK,CF
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -S %s | FileCheck %s --check-prefix=NOCOUNTDOWN

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define <2 x i32> @masked_load(ptr %p, <2 x i1> %m) {
  %v = call <2 x i32> @llvm.masked.load.v2i32.p0(ptr %p, i32 4, <2 x i1> %m, <2 x i32> zeroinitializer)
  ret <2 x i32> %v
}
; CHECK-LABEL: define <2 x i32> @masked_load(ptr %p, <2 x i1> %m)
; CHECK-NEXT:    [[M0:%[0-9]+]] = extractelement <2 x i1> %m, i64 0
; CHECK-NEXT:    [[S0:%[0-9]+]] = select i1 [[M0]], i64 4, i64 0
; WS-NEXT:       call void @__efsan_loadN(ptr %p, i64 [[S0]])
; CF-NEXT:       call preserve_mostcc void @__efsan_cache_frag_access(ptr %p, i64 [[S0]], i32 0, ptr null), !nosanitize
; CHECK-NEXT:    [[P1:%[0-9]+]] = getelementptr i32, ptr %p, i64 1
; CHECK-NEXT:    [[M1:%[0-9]+]] = extractelement <2 x i1> %m, i64 1
; CHECK-NEXT:    [[S1:%[0-9]+]] = select i1 [[M1]], i64 4, i64 0
; WS-NEXT:       call void @__efsan_loadN(ptr [[P1]], i64 [[S1]])
; CF-NEXT:       call preserve_mostcc void @__efsan_cache_frag_access(ptr [[P1]], i64 [[S1]], i32 0, ptr null)
; CHECK-NEXT:    %v = call <2 x i32> @llvm.masked.load.v2i32.p0(
; CHECK-NEXT:    ret <2 x i32> %v

; A constant mask folds: lane 1 is off, its size is 0.
define void @masked_store(ptr %p, <2 x i64> %v) {
  call void @llvm.masked.store.v2i64.p0(<2 x i64> %v, ptr %p, i32 8, <2 x i1> <i1 true, i1 false>)
  ret void
}
; CHECK-LABEL: define void @masked_store(ptr %p, <2 x i64> %v)
; WS-NEXT:       call void @__efsan_storeN(ptr %p, i64 8)
; CF-NEXT:       call preserve_mostcc void @__efsan_cache_frag_access(ptr %p, i64 8, i32 1, ptr null)
; CHECK-NEXT:    [[Q1:%[0-9]+]] = getelementptr i64, ptr %p, i64 1
; WS-NEXT:       call void @__efsan_storeN(ptr [[Q1]], i64 0)
; CF-NEXT:       call preserve_mostcc void @__efsan_cache_frag_access(ptr [[Q1]], i64 0, i32 1, ptr null)
; CHECK-NEXT:    call void @llvm.masked.store.v2i64.p0(

define <2 x double> @gather(<2 x ptr> %ps, <2 x i1> %m) {
  %v = call <2 x double> @llvm.masked.gather.v2f64.v2p0(<2 x ptr> %ps, i32 8, <2 x i1> %m, <2 x double> zeroinitializer)
  ret <2 x double> %v
}
; CHECK-LABEL: define <2 x double> @gather(<2 x ptr> %ps, <2 x i1> %m)
; CHECK-NEXT:    [[G0:%[0-9]+]] = extractelement <2 x ptr> %ps, i64 0
; CHECK-NEXT:    [[GM0:%[0-9]+]] = extractelement <2 x i1> %m, i64 0
; CHECK-NEXT:    [[GS0:%[0-9]+]] = select i1 [[GM0]], i64 8, i64 0
; WS-NEXT:       call void @__efsan_loadN(ptr [[G0]], i64 [[GS0]])
; CF-NEXT:       call preserve_mostcc void @__efsan_cache_frag_access(ptr [[G0]], i64 [[GS0]], i32 0, ptr null)
; CHECK-NEXT:    [[G1:%[0-9]+]] = extractelement <2 x ptr> %ps, i64 1
; CHECK-NEXT:    [[GM1:%[0-9]+]] = extractelement <2 x i1> %m, i64 1
; CHECK-NEXT:    [[GS1:%[0-9]+]] = select i1 [[GM1]], i64 8, i64 0
; WS-NEXT:       call void @__efsan_loadN(ptr [[G1]], i64 [[GS1]])
; CF-NEXT:       call preserve_mostcc void @__efsan_cache_frag_access(ptr [[G1]], i64 [[GS1]], i32 0, ptr null)
; CHECK-NEXT:    %v = call <2 x double> @llvm.masked.gather

define void @scatter(<2 x i16> %v, <2 x ptr> %ps, <2 x i1> %m) {
  call void @llvm.masked.scatter.v2i16.v2p0(<2 x i16> %v, <2 x ptr> %ps, i32 2, <2 x i1> %m)
  ret void
}
; CHECK-LABEL: define void @scatter(<2 x i16> %v, <2 x ptr> %ps, <2 x i1> %m)
; CHECK:         [[T0:%[0-9]+]] = extractelement <2 x ptr> %ps, i64 0
; CHECK-NEXT:    [[TM0:%[0-9]+]] = extractelement <2 x i1> %m, i64 0
; CHECK-NEXT:    [[TS0:%[0-9]+]] = select i1 [[TM0]], i64 2, i64 0
; WS-NEXT:       call void @__efsan_storeN(ptr [[T0]], i64 [[TS0]])
; CF-NEXT:       call preserve_mostcc void @__efsan_cache_frag_access(ptr [[T0]], i64 [[TS0]], i32 1, ptr null)
; CHECK-NEXT:    [[T1:%[0-9]+]] = extractelement <2 x ptr> %ps, i64 1
; CHECK-NEXT:    [[TM1:%[0-9]+]] = extractelement <2 x i1> %m, i64 1
; CHECK-NEXT:    [[TS1:%[0-9]+]] = select i1 [[TM1]], i64 2, i64 0
; WS-NEXT:       call void @__efsan_storeN(ptr [[T1]], i64 [[TS1]])
; CF-NEXT:       call preserve_mostcc void @__efsan_cache_frag_access(ptr [[T1]], i64 [[TS1]], i32 1, ptr null)
; CHECK-NEXT:    call void @llvm.masked.scatter
; CHECK-NEXT:    ret void

declare <2 x i32> @llvm.masked.load.v2i32.p0(ptr, i32, <2 x i1>, <2 x i32>)
declare void @llvm.masked.store.v2i64.p0(<2 x i64>, ptr, i32, <2 x i1>)
declare <2 x double> @llvm.masked.gather.v2f64.v2p0(<2 x ptr>, i32, <2 x i1>, <2 x double>)
declare void @llvm.masked.scatter.v2i16.v2p0(<2 x i16>, <2 x ptr>, i32, <2 x i1>)

; NOCOUNTDOWN-NOT: __efsan_cache_frag_countdown
