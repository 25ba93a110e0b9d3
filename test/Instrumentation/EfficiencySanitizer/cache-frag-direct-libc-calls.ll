; cache-frag: a call of a libc string function whose interceptor counts its
; ranges off the countdown (strlen, strcmp, strncpy, strchr, memcmp of a
; size that is not a constant...) counts them down inline and calls libc's
; function through __efsan_cf_<name> when none of them is sampled and the
; runtime published the pointer; otherwise the countdown is synced and the
; interceptor called, as for any call site. A function with a copy of the
; countdown counts down the copy and syncs only around the interceptor's
; call; one without a run of its own, or optnone, counts down the thread's
; countdown. Left alone: a nobuiltin call, a function the module defines, a
; prototype that is not libc's, a musttail call, memcmp/bcmp of a constant
; size (codegen may expand them into loads), and every call with
; -efsan-cache-frag-direct-libc-calls=0.
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -efsan-cache-frag-direct-libc-calls=0 -S %s | FileCheck %s --check-prefix=OFF
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -S %s | %opt -passes=verify -disable-output

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i64 @after_run(ptr %p, ptr %s) {
  store i32 1, ptr %p, align 4
  %len = call i64 @strlen(ptr %s)
  store i32 2, ptr %p, align 4
  ret i64 %len
}
; CHECK-LABEL: define i64 @after_run(
; CHECK:         [[C:%efsan.countdown.0]] = phi i64
; CHECK-NEXT:    [[C2:%[0-9]+]] = add nsw i64 [[C]], -1
; CHECK-NEXT:    [[REAL:%[0-9]+]] = load ptr, ptr @__efsan_cf_strlen, align 8, !nosanitize
; CHECK-NEXT:    [[LEFT:%[0-9]+]] = icmp sgt i64 [[C2]], 0
; CHECK-NEXT:    [[PUBLISHED:%[0-9]+]] = icmp ne ptr [[REAL]], null
; CHECK-NEXT:    [[DIRECT:%[0-9]+]] = and i1 [[LEFT]], [[PUBLISHED]]
; CHECK-NEXT:    br i1 [[DIRECT]], label %[[LIBC:[0-9]+]], label %[[INTERCEPTED:[0-9]+]], !prof ![[LIKELY:[0-9]+]]
; CHECK:       {{^}}[[LIBC]]:
; CHECK-NEXT:    [[R1:%[0-9]+]] = call i64 [[REAL]](ptr %s)
; CHECK-NEXT:    br label %[[JOIN:[0-9]+]]
; CHECK:       {{^}}[[INTERCEPTED]]:
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown)
; CHECK-NEXT:    store i64 [[C]], ptr [[TLS]], align 8
; CHECK-NEXT:    %len = call i64 @strlen(ptr %s)
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown)
; CHECK-NEXT:    [[C3:%[0-9]+]] = load i64, ptr [[TLS]], align 8
; CHECK-NEXT:    br label %[[JOIN]]
; CHECK:       {{^}}[[JOIN]]:
; CHECK-NEXT:    phi i64 [ [[C2]], %[[LIBC]] ], [ [[C3]], %[[INTERCEPTED]] ]
; CHECK-NEXT:    [[LEN:%[0-9]+]] = phi i64 [ [[R1]], %[[LIBC]] ], [ %len, %[[INTERCEPTED]] ]
; CHECK-NEXT:    store i32 2, ptr %p, align 4
; CHECK:         ret i64 [[LEN]]

define i64 @no_run(ptr %s) {
  %len = call i64 @strlen(ptr %s)
  ret i64 %len
}
; CHECK-LABEL: define i64 @no_run(
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown)
; CHECK-NEXT:    [[C:%[0-9]+]] = load i64, ptr [[TLS]], align 8
; CHECK-NEXT:    [[C2:%[0-9]+]] = add nsw i64 [[C]], -1
; CHECK-NEXT:    [[REAL:%[0-9]+]] = load ptr, ptr @__efsan_cf_strlen
; CHECK:         br i1 {{%[0-9]+}}, label %[[LIBC:[0-9]+]], label %[[INTERCEPTED:[0-9]+]], !prof ![[LIKELY]]
; CHECK:       {{^}}[[LIBC]]:
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown)
; CHECK-NEXT:    store i64 [[C2]], ptr [[TLS]], align 8
; CHECK-NEXT:    call i64 [[REAL]](ptr %s)
; CHECK-NEXT:    br label
; CHECK:       {{^}}[[INTERCEPTED]]:
; CHECK-NEXT:    %len = call i64 @strlen(ptr %s)
; CHECK-NEXT:    br label

define i32 @two_ranges(ptr %a, ptr %b) {
  %r = call i32 @strcmp(ptr %a, ptr %b)
  ret i32 %r
}
; CHECK-LABEL: define i32 @two_ranges(
; CHECK:         add nsw i64 {{%[0-9]+}}, -2
; CHECK-NEXT:    [[REAL:%[0-9]+]] = load ptr, ptr @__efsan_cf_strcmp
; CHECK:         call i32 [[REAL]](ptr %a, ptr %b)
; CHECK:         %r = call i32 @strcmp(ptr %a, ptr %b)

define void @unused(ptr %d, ptr %s) {
  %r = call ptr @strncpy(ptr %d, ptr %s, i64 8)
  ret void
}
; CHECK-LABEL: define void @unused(
; CHECK:         [[REAL:%[0-9]+]] = load ptr, ptr @__efsan_cf_strncpy
; CHECK:         call ptr [[REAL]](ptr %d, ptr %s, i64 8)
; CHECK:         %r = call ptr @strncpy(ptr %d, ptr %s, i64 8)
; CHECK-NOT:     phi
; CHECK:         ret void

define i32 @optnone_run(ptr %p, ptr %s) noinline optnone {
  store i32 1, ptr %p, align 4
  %r = call ptr @strchr(ptr %s, i32 32)
  %v = load i32, ptr %p, align 4
  ret i32 %v
}
; CHECK-LABEL: define i32 @optnone_run(
; CHECK:         call preserve_mostcc void @__efsan_cache_frag_access(ptr %p, i64 4, i32 5, ptr null)
; CHECK:         [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown)
; CHECK-NEXT:    [[C:%[0-9]+]] = load i64, ptr [[TLS]], align 8
; CHECK-NEXT:    [[C2:%[0-9]+]] = add nsw i64 [[C]], -1
; CHECK-NEXT:    [[REAL:%[0-9]+]] = load ptr, ptr @__efsan_cf_strchr
; CHECK:         store i64 [[C2]], ptr
; CHECK-NEXT:    call ptr [[REAL]](ptr %s, i32 32)
; CHECK:         %r = call ptr @strchr(ptr %s, i32 32)
; CHECK-NEXT:    br label

define i32 @compares(ptr %a, ptr %b, i64 %n) {
  %x = call i32 @memcmp(ptr %a, ptr %b, i64 %n)
  %y = call i32 @bcmp(ptr %a, ptr %b, i64 16)
  %r = add i32 %x, %y
  ret i32 %r
}
; CHECK-LABEL: define i32 @compares(
; CHECK:         load ptr, ptr @__efsan_cf_memcmp
; CHECK:         %x = call i32 @memcmp(ptr %a, ptr %b, i64 %n)
; CHECK:         %y = call i32 @bcmp(ptr %a, ptr %b, i64 16)
; CHECK-NEXT:    add i32

define i64 @left_alone(ptr %s, ptr %t) {
  %a = call i64 @strlen(ptr %s) nobuiltin
  %b = call ptr @strrchr(ptr %s, i32 47)
  %c = call i32 @strpbrk(ptr %t)
  ret i64 %a
}
; CHECK-LABEL: define i64 @left_alone(
; CHECK-NEXT:    %a = call i64 @strlen(ptr %s) #
; CHECK-NEXT:    %b = call ptr @strrchr(ptr %s, i32 47)
; CHECK-NEXT:    %c = call i32 @strpbrk(ptr %t)
; CHECK-NEXT:    ret i64 %a

define i64 @tail(ptr %s) {
  %r = musttail call i64 @strlen(ptr %s)
  ret i64 %r
}
; CHECK-LABEL: define i64 @tail(
; CHECK-NEXT:    %r = musttail call i64 @strlen(ptr %s)
; CHECK-NEXT:    ret i64 %r

define ptr @strrchr(ptr %s, i32 %c) {
  ret ptr %s
}

; CHECK: ![[LIKELY]] = !{!"branch_weights", i32 1048575, i32 1}

; OFF-LABEL: define i64 @no_run(
; OFF-NEXT:    %len = call i64 @strlen(ptr %s)
; OFF-NEXT:    ret i64 %len
; OFF-NOT:     __efsan_cf_

declare i64 @strlen(ptr)
declare i32 @strcmp(ptr, ptr)
declare ptr @strncpy(ptr, ptr, i64)
declare ptr @strchr(ptr, i32)
declare i32 @memcmp(ptr, ptr, i64)
declare i32 @bcmp(ptr, ptr, i64)
declare i32 @strpbrk(ptr)
