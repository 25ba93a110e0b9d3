; cache-frag: an innermost loop with no call whose accesses are in two blocks
; or more, each running in every iteration (dominating the latch), and whose
; exits leave from such blocks (a search that stops at a match), gets a copy
; without instrumentation that takes an iteration's K accesses off the count
; at once: the dispatch on the back edge enters it while the count c is above
; K (s = c - K > 0); the copy's step subtracts K and loops while s stays
; above 0, then stores s + K; an exit from the copy stores s + K less the
; accesses made before that exit. A loop with its accesses in one block, an
; access not made in every iteration, or an exit from a block that does not
; run in every iteration keeps its instrumented body only.
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -S %s | %opt -passes=verify -disable-output
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -efsan-cache-frag-budget-loops=0 -S %s | FileCheck %s --check-prefix=OFF

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; Two blocks of one access each; an exit after the first (1 access made)
; and one after the second (2 made); a loop value used after the loop.
define i64 @search(ptr %r, i64 %id) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %next ]
  %idp = getelementptr inbounds [2 x i64], ptr %r, i64 %i, i64 0
  %v = load i64, ptr %idp
  %found = icmp eq i64 %v, %id
  br i1 %found, label %exit, label %next
next:
  %valp = getelementptr inbounds [2 x i64], ptr %r, i64 %i, i64 1
  %w = load i64, ptr %valp
  %i.next = add nuw nsw i64 %i, 1
  %neg = icmp slt i64 %w, 0
  br i1 %neg, label %exit, label %loop
exit:
  %res = phi i64 [ %i, %loop ], [ -1, %next ]
  ret i64 %res
}
; CHECK-LABEL: define i64 @search(
; CHECK: loop:
; CHECK: %i = phi i64 [ 0, %entry ], [ %i.next, %efsan.budget.dispatch ], [ %i.next.budget, %efsan.budget.done ]
; CHECK: call preserve_mostcc void @__efsan_cache_frag_access(ptr %idp,
; CHECK: call preserve_mostcc void @__efsan_cache_frag_access(ptr %valp,
; CHECK: [[C:%efsan.countdown.[0-9]+]] = phi i64
; CHECK-NEXT: br i1 %neg, label %exit, label %efsan.budget.dispatch
; CHECK: efsan.budget.dispatch:
; CHECK-NEXT: %efsan.budget = sub i64 [[C]], 2
; CHECK-NEXT: [[GO:%.*]] = icmp sgt i64 %efsan.budget, 0
; CHECK-NEXT: br i1 [[GO]], label %loop.budget, label %loop
; CHECK: efsan.budget.exit:
; CHECK-NEXT: [[AT_MATCH:%.*]] = add i64 %efsan.budget.after, 1
; CHECK-NEXT: br label %exit
; CHECK: efsan.budget.exit1:
; CHECK-NEXT: br label %exit
; CHECK: exit:
; CHECK-NEXT: %efsan.countdown.{{[0-9]+}} = phi i64 [ %efsan.countdown.{{[0-9]+}}, %{{[0-9]+}} ], [ [[C]], %{{[0-9]+}} ], [ [[AT_MATCH]], %efsan.budget.exit ], [ %efsan.budget.after, %efsan.budget.exit1 ]
; CHECK-NEXT: %res = phi i64 [ %i, %{{[0-9]+}} ], [ -1, %{{[0-9]+}} ], [ %i.budget, %efsan.budget.exit ], [ -1, %efsan.budget.exit1 ]
; CHECK: loop.budget:
; CHECK-NEXT: %efsan.budget.after = phi i64 [ %efsan.budget, %efsan.budget.dispatch ], [ %efsan.budget.next, %efsan.budget.step ]
; CHECK-NOT: __efsan_cache_frag_access
; CHECK: %v.budget = load i64, ptr %idp.budget, align 8, !nosanitize
; CHECK-NEXT: %found.budget = icmp eq i64 %v.budget, %id
; CHECK-NEXT: br i1 %found.budget, label %efsan.budget.exit, label %next.budget
; CHECK: next.budget:
; CHECK-NOT: __efsan_cache_frag_access
; CHECK: %w.budget = load i64, ptr %valp.budget, align 8, !nosanitize
; CHECK: br i1 %neg.budget, label %efsan.budget.exit1, label %efsan.budget.step
; CHECK: efsan.budget.step:
; CHECK-NEXT: %efsan.budget.next = sub i64 %efsan.budget.after, 2
; CHECK-NEXT: [[MORE:%.*]] = icmp sgt i64 %efsan.budget.next, 0
; CHECK-NEXT: br i1 [[MORE]], label %loop.budget, label %efsan.budget.done
; CHECK: efsan.budget.done:
; CHECK-NEXT: [[BACK:%.*]] = add i64 %efsan.budget.next, 2
; CHECK-NEXT: br label %loop
; OFF-LABEL: define i64 @search(
; OFF-NOT: efsan.budget
; OFF: ret i64

; Both accesses in one block: one count-down per iteration already.
define i64 @one_block(ptr %r, i64 %id) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %idp = getelementptr inbounds [2 x i64], ptr %r, i64 %i, i64 0
  %v = load i64, ptr %idp
  %valp = getelementptr inbounds [2 x i64], ptr %r, i64 %i, i64 1
  %w = load i64, ptr %valp
  %i.next = add nuw nsw i64 %i, 1
  %x = xor i64 %v, %w
  %found = icmp eq i64 %x, %id
  br i1 %found, label %exit, label %loop
exit:
  ret i64 %i
}
; CHECK-LABEL: define i64 @one_block(
; CHECK-NOT: efsan.budget
; CHECK: ret i64

; The second access is made in some iterations only.
define i64 @sometimes(ptr %r, i64 %id) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %latch ]
  %idp = getelementptr inbounds [2 x i64], ptr %r, i64 %i, i64 0
  %v = load i64, ptr %idp
  %odd = icmp slt i64 %v, 0
  br i1 %odd, label %also, label %latch
also:
  %valp = getelementptr inbounds [2 x i64], ptr %r, i64 %i, i64 1
  store i64 0, ptr %valp
  br label %latch
latch:
  %i.next = add nuw nsw i64 %i, 1
  %found = icmp eq i64 %v, %id
  br i1 %found, label %exit, label %loop
exit:
  ret i64 %i
}
; CHECK-LABEL: define i64 @sometimes(
; CHECK-NOT: efsan.budget
; CHECK: ret i64

; An exit from a block that not every iteration runs.
define i64 @side_exit(ptr %r, i64 %id) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %latch ]
  %idp = getelementptr inbounds [2 x i64], ptr %r, i64 %i, i64 0
  %v = load i64, ptr %idp
  %odd = icmp slt i64 %v, 0
  br i1 %odd, label %side, label %latch
side:
  %stop = icmp eq i64 %v, -7
  br i1 %stop, label %exit, label %latch
latch:
  %valp = getelementptr inbounds [2 x i64], ptr %r, i64 %i, i64 1
  %w = load i64, ptr %valp
  %i.next = add nuw nsw i64 %i, 1
  %found = icmp eq i64 %w, %id
  br i1 %found, label %exit, label %loop
exit:
  ret i64 %i
}
; CHECK-LABEL: define i64 @side_exit(
; CHECK-NOT: efsan.budget
; CHECK: ret i64
