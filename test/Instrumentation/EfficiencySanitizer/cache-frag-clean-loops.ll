; cache-frag: an innermost loop that exits at its latch on x == end (x
; affine, step +-1, or any step where x cannot wrap), with every access in a
; block that runs in every iteration and no call, gets a clean copy: on the
; back edge a dispatch block works out how many iterations the function's
; countdown c cannot run out in (n = min((c - 1) / K, iterations left), K
; accesses per iteration), the copy runs them with no instrumentation and
; takes n * K off the countdown, then the instrumented loop goes on or the
; loop exits. A loop with a call, an access not made in every iteration,
; or a block whose address a computed goto may take keeps its instrumented
; body only.
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -S %s | %opt -passes=verify -disable-output
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -efsan-cache-frag-clean-loops=0 -S %s | FileCheck %s --check-prefix=OFF

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; Two accesses per iteration, counting up by 1; the sum is used after the
; loop (a phi in the exit joins both ways out).
define i64 @up(ptr %p, ptr %q, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %sum = phi i64 [ 0, %entry ], [ %sum.next, %loop ]
  %a = getelementptr inbounds i64, ptr %p, i64 %i
  %v = load i64, ptr %a
  %sum.next = add i64 %sum, %v
  %b = getelementptr inbounds i64, ptr %q, i64 %i
  store i64 %sum.next, ptr %b
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret i64 %sum.next
}
; CHECK-LABEL: define i64 @up(
; CHECK: loop:
; CHECK: call preserve_mostcc void @__efsan_cache_frag_access
; CHECK: br i1 %done, label %exit, label %efsan.clean.dispatch
; CHECK: efsan.clean.dispatch:
; CHECK-NEXT: [[SAFE_OK:%.*]] = icmp sgt i64 [[C:%.*]], 2
; CHECK-NEXT: [[CM1:%.*]] = add nsw i64 [[C]], -1
; CHECK-NEXT: [[DIV:%.*]] = udiv i64 [[CM1]], 2
; CHECK-NEXT: [[SAFE:%.*]] = select i1 [[SAFE_OK]], i64 [[DIV]], i64 0
; CHECK-NEXT: [[LEFT:%.*]] = sub i64 %n, %i.next
; CHECK-NEXT: [[N:%.*]] = call i64 @llvm.umin.i64(i64 [[SAFE]], i64 [[LEFT]])
; CHECK-NEXT: [[NX:%.*]] = mul i64 [[N]], 1
; CHECK-NEXT: [[STOP:%.*]] = add i64 %i.next, [[NX]]
; CHECK-NEXT: [[GO:%.*]] = icmp ne i64 [[N]], 0
; CHECK-NEXT: br i1 [[GO]], label %loop.clean, label %loop
; CHECK: exit:
; CHECK: %sum.next.lcssa = phi i64 [ %sum.next, %{{[0-9]+}} ], [ %sum.next.clean, %efsan.clean.done ]
; CHECK: loop.clean:
; CHECK-NOT: __efsan_cache_frag_access
; CHECK: %v.clean = load i64, ptr %a.clean, align 8, !nosanitize
; CHECK: store i64 %sum.next.clean, ptr %b.clean, align 8, !nosanitize
; CHECK: [[AT_STOP:%.*]] = icmp eq i64 %i.next.clean, [[STOP]]
; CHECK-NEXT: br i1 [[AT_STOP]], label %efsan.clean.done, label %loop.clean
; CHECK: efsan.clean.done:
; CHECK-NEXT: [[TAKEN:%.*]] = mul i64 [[N]], 2
; CHECK-NEXT: {{%.*}} = sub nsw i64 {{%.*}}, [[TAKEN]]
; CHECK-NEXT: [[END:%.*]] = icmp eq i64 [[STOP]], %n
; CHECK-NEXT: br i1 [[END]], label %exit, label %loop
; OFF-LABEL: define i64 @up(
; OFF-NOT: efsan.clean
; OFF: ret i64

; Counting down by 2 (nsw): one access per iteration.
define void @down2(ptr %p, i64 %start, i64 %end) {
entry:
  br label %loop
loop:
  %i = phi i64 [ %start, %entry ], [ %i.next, %loop ]
  %a = getelementptr inbounds i8, ptr %p, i64 %i
  store i8 0, ptr %a
  %i.next = add nsw i64 %i, -2
  %done = icmp ne i64 %i.next, %end
  br i1 %done, label %loop, label %exit
exit:
  ret void
}
; CHECK-LABEL: define void @down2(
; CHECK: efsan.clean.dispatch:
; CHECK: [[LEFT:%.*]] = sub i64 %i.next, %end
; CHECK-NEXT: [[ITER:%.*]] = udiv i64 [[LEFT]], 2
; CHECK-NEXT: [[N:%.*]] = call i64 @llvm.umin.i64(i64 {{%.*}}, i64 [[ITER]])
; CHECK-NEXT: [[NX:%.*]] = mul i64 [[N]], 2
; CHECK-NEXT: [[STOP:%.*]] = sub i64 %i.next, [[NX]]
; CHECK: loop.clean:
; CHECK: store i8 0, ptr %a.clean, align 1, !nosanitize

; A call in the loop: the callee counts down the thread's countdown.
declare void @f()
define void @calls(ptr %p, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %a = getelementptr inbounds i64, ptr %p, i64 %i
  store i64 0, ptr %a
  call void @f()
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
; CHECK-LABEL: define void @calls(
; CHECK-NOT: efsan.clean
; CHECK: ret void

; An access made in some iterations only.
define void @sometimes(ptr %p, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %latch ]
  %odd = trunc i64 %i to i1
  br i1 %odd, label %write, label %latch
write:
  %a = getelementptr inbounds i64, ptr %p, i64 %i
  store i64 0, ptr %a
  br label %latch
latch:
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
; CHECK-LABEL: define void @sometimes(
; CHECK-NOT: efsan.clean
; CHECK: ret void

; A block whose address is taken (a computed goto's target): a copy would
; jump back to the original.
@target = global ptr blockaddress(@address_taken, %loop)
define void @address_taken(ptr %p, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %a = getelementptr inbounds i64, ptr %p, i64 %i
  store i64 0, ptr %a
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
; CHECK-LABEL: define void @address_taken(
; CHECK-NOT: efsan.clean
; CHECK: ret void
