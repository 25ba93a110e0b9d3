; Loops that may leave early (working set): an innermost loop with more than
; one exit, or a trip count SCEV cannot compute, marks the lines of its
; affine accesses behind them. At the top of the header it counts down a
; chunk of C iterations (C * stride <= -efsan-loop-range-limit); at 0 a cold
; block marks the chunk's iterations [first, first + C - 1] and moves first
; on. Each exit edge gets a block that marks iterations [first, last], last
; = first + C - left: an access that ran in the iteration that left by that
; edge (its block dominates the exiting block) up to last, one that did not
; (the exiting block dominates its block) up to last - 1, if any. Short
; ranges (two lines at most) are tested with one load per line first. The
; covered accesses have no check; atomic ones keep theirs. Off by default
; (it did not pay: docs/performance.md); the default keeps the checks.
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<working-set>' -efsan-loop-early-exit-marks=1 -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<working-set>' -S %s | FileCheck %s --check-prefix=OFF

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define ptr @scan(ptr %p, ptr %end) {
entry:
  %nonempty = icmp ult ptr %p, %end
  br i1 %nonempty, label %loop, label %exit
loop:
  %at = phi ptr [ %next, %latch ], [ %p, %entry ]
  %c = load i8, ptr %at, align 1
  %zero = icmp eq i8 %c, 0
  br i1 %zero, label %latch, label %exit
latch:
  %next = getelementptr inbounds i8, ptr %at, i64 1
  %more = icmp ult ptr %next, %end
  br i1 %more, label %loop, label %exit
exit:
  %r = phi ptr [ %p, %entry ], [ %at, %loop ], [ %next, %latch ]
  ret ptr %r
}

define i64 @copy_until(ptr %src, ptr %dst, i64 %n) {
entry:
  %nonempty = icmp sgt i64 %n, 0
  br i1 %nonempty, label %loop, label %exit
loop:
  %i = phi i64 [ %inext, %latch ], [ 0, %entry ]
  %s = getelementptr inbounds i32, ptr %src, i64 %i
  %v = load i32, ptr %s, align 4
  %neg = icmp slt i32 %v, 0
  br i1 %neg, label %exit, label %latch
latch:
  %d = getelementptr inbounds i32, ptr %dst, i64 %i
  store i32 %v, ptr %d, align 4
  %inext = add nuw nsw i64 %i, 1
  %more = icmp slt i64 %inext, %n
  br i1 %more, label %loop, label %exit
exit:
  %r = phi i64 [ 0, %entry ], [ %i, %loop ], [ %n, %latch ]
  ret i64 %r
}

; CHECK-LABEL: define ptr @scan(
; CHECK:       loop.preheader:
; CHECK-NEXT:    store i64 0, ptr %efsan.exit.first.slot, align 8, !nosanitize
; CHECK:       loop:
; CHECK-NEXT:    %at = phi ptr
; CHECK-NEXT:    %efsan.exit.left = phi i64 [ 262144, %loop.preheader ], [ %efsan.exit.left.next, %latch ]
; CHECK-NEXT:    %[[CHUNKEND:[0-9]+]] = icmp eq i64 %efsan.exit.left, 0
; CHECK-NEXT:    br i1 %[[CHUNKEND]], label %efsan.exit.chunk, label %loop.efsan.body, !prof
; CHECK:       efsan.exit.chunk:
; CHECK-NEXT:    %efsan.exit.chunk.first = load i64, ptr %efsan.exit.first.slot
; CHECK-NEXT:    %[[NEXTFIRST:[0-9]+]] = add i64 %efsan.exit.chunk.first, 262144
; CHECK-NEXT:    %[[CHUNKLAST:[0-9]+]] = add i64 %efsan.exit.chunk.first, 262143
; CHECK-NEXT:    store i64 %[[NEXTFIRST]], ptr %efsan.exit.first.slot
; CHECK:         getelementptr i8, ptr %p, i64
; CHECK:       efsan.range.word:
; CHECK:       loop.efsan.body:
; CHECK-NEXT:    %efsan.exit.left.here = phi i64 [ %efsan.exit.left, %loop ], [ 262144, %efsan.range.done ]
; CHECK-NEXT:    %c = load i8, ptr %at, align 1, !nosanitize
; CHECK-NEXT:    %zero = icmp eq i8 %c, 0
; CHECK-NEXT:    br i1 %zero, label %latch, label %loop.efsan.body.efsan.exit
; The byte that stopped the scan was read: iterations first to last.
; CHECK:       loop.efsan.body.efsan.exit:
; CHECK-NEXT:    %efsan.exit.first = load i64, ptr %efsan.exit.first.slot
; CHECK-NEXT:    %[[ITERS:[0-9]+]] = sub i64 262144, %efsan.exit.left.here
; CHECK-NEXT:    %efsan.exit.last = add i64 %efsan.exit.first, %[[ITERS]]
; CHECK:       efsan.short.test:
; CHECK:         load i8, ptr %{{[0-9]+}}, align 1, !nosanitize
; CHECK:         load i8, ptr %{{[0-9]+}}, align 1, !nosanitize
; CHECK:         br i1 %{{[0-9]+}}, label %efsan.short.done, label %efsan.short.mark
; CHECK:       efsan.short.done:
; CHECK-NEXT:    br label %exit
; CHECK:       latch:
; CHECK-NEXT:    %next = getelementptr inbounds i8, ptr %at, i64 1
; CHECK-NEXT:    %more = icmp ult ptr %next, %end
; CHECK-NEXT:    %efsan.exit.left.next = sub i64 %efsan.exit.left.here, 1
; CHECK-NEXT:    br i1 %more, label %loop, label %latch.efsan.exit
; CHECK:       latch.efsan.exit:
; CHECK:       exit:
; CHECK-NEXT:    %r = phi ptr [ %p, %entry ], [ %at, %efsan.short.done ], [ %next, %efsan.short.done{{[0-9]+}} ]
; OFF-LABEL:   define ptr @scan(
; OFF-NOT:     efsan.exit
; OFF:           lshr i64 %{{[0-9]+}}, 6
; OFF:         ret ptr %r

; The store to dst comes after the exit in the header: the iteration that
; leaves there did not store, so that edge marks dst up to last - 1, and
; nothing when the loop leaves in the chunk's first iteration.
; CHECK-LABEL: define i64 @copy_until(
; CHECK:       loop.efsan.body:
; CHECK:         %v = load i32, ptr %s, align 4, !nosanitize
; CHECK:       loop.efsan.body.efsan.exit:
; CHECK:         getelementptr i8, ptr %src, i64
; CHECK:         %[[ANY:[0-9]+]] = icmp ugt i64 %efsan.exit.last, %efsan.exit.first
; CHECK-NEXT:    br i1 %[[ANY]], label %[[STORED:[0-9]+]], label
; CHECK:       [[STORED]]:
; CHECK-NEXT:    %[[BEFORE:[0-9]+]] = sub i64 %efsan.exit.last, 1
; CHECK-NEXT:    %[[COUNT:[0-9]+]] = sub i64 %[[BEFORE]], %efsan.exit.first
; CHECK-NEXT:    %[[OFFSET:[0-9]+]] = mul i64 %efsan.exit.first, 4
; CHECK-NEXT:    getelementptr i8, ptr %dst, i64 %[[OFFSET]]
; CHECK:       latch:
; CHECK-NEXT:    %d = getelementptr inbounds i32, ptr %dst, i64 %i
; CHECK-NEXT:    store i32 %v, ptr %d, align 4, !nosanitize
; The latch's exit leaves after the store: both up to last, no guard.
; CHECK:       latch.efsan.exit:
; CHECK-NOT:     icmp ugt
; CHECK:         getelementptr i8, ptr %dst, i64
; CHECK:       exit:

define i64 @wait_flag(ptr %flag, ptr %p) {
entry:
  br label %loop
loop:
  %at = phi ptr [ %next, %latch ], [ %p, %entry ]
  %f = load atomic i32, ptr %flag acquire, align 4
  %set = icmp ne i32 %f, 0
  br i1 %set, label %exit, label %latch
latch:
  %c = load i8, ptr %at, align 1
  %next = getelementptr inbounds i8, ptr %at, i64 1
  %zero = icmp eq i8 %c, 0
  br i1 %zero, label %loop, label %exit
exit:
  ret i64 0
}
; A wait on an atomic flag keeps the flag's check (it may spin for long);
; the scan's byte is marked behind.
; CHECK-LABEL: define i64 @wait_flag(
; CHECK:       loop.efsan.body:
; CHECK:         lshr i64 %{{[0-9]+}}, 6
; CHECK:         %f = load atomic i32, ptr %flag acquire, align 4{{$}}
; CHECK:       latch:
; CHECK-NEXT:    %c = load i8, ptr %at, align 1, !nosanitize
