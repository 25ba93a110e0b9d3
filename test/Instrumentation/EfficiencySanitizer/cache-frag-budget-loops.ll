; cache-frag: an innermost loop with no call whose accesses are each made in
; every iteration (their blocks dominate the latch), and whose exits leave
; from such blocks (a search that stops at a match), gets a copy without
; instrumentation that takes whole iterations' accesses off the count at
; once. With its accesses in two blocks or more, one iteration at a time
; (U = 1, as with -efsan-cache-frag-budget-unroll-size=0): the dispatch on
; the back edge enters it while the count c is above K, the accesses of an
; iteration (s = c - K > 0); the copy's step subtracts K and loops while s
; stays above 0, then stores s + K; an exit from the copy stores s + K less
; the accesses made before that exit. A body of loads only and at most 32
; instructions runs four iterations in a row between two subtractions of 4K
; (up to 64: two), and then even a loop with its accesses in one block gets
; the copy (a loop that stores keeps one iteration a round);
; an exit from the j-th iteration of the round stores s + 4K less the j K
; accesses before it and its own. A loop whose accesses are an access not
; made in every iteration, an exit from a block that not every iteration
; runs, or only loads of an address that does not change (a wait for
; another thread) keeps its instrumented body only.
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -efsan-cache-frag-budget-unroll-size=0 -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -S %s | FileCheck %s --check-prefix=UNROLL
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
; CHECK-NEXT: %efsan.budget.count = phi i64 [ %efsan.budget, %efsan.budget.dispatch ], [ %efsan.budget.next, %efsan.budget.step ]
; CHECK-NEXT: %i.budget = phi i64
; CHECK-NEXT: %efsan.budget.after = call i64 asm "", "=r,0"(i64 %efsan.budget.count)
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
; Four iterations a round: 8 accesses; the exits of the j-th leave 7 - 2j
; (after the first access) and 6 - 2j (after both).
; UNROLL-LABEL: define i64 @search(
; UNROLL: efsan.budget.dispatch:
; UNROLL-NEXT: %efsan.budget = sub i64 %efsan.countdown.{{[0-9]+}}, 8
; UNROLL: efsan.budget.exit:
; UNROLL-NEXT: add i64 %efsan.budget.after, 7
; UNROLL: efsan.budget.exit1:
; UNROLL-NEXT: add i64 %efsan.budget.after, 6
; UNROLL: efsan.budget.exit2:
; UNROLL-NEXT: add i64 %efsan.budget.after, 5
; UNROLL: efsan.budget.exit5:
; UNROLL-NEXT: add i64 %efsan.budget.after, 2
; UNROLL: efsan.budget.exit6:
; UNROLL-NEXT: add i64 %efsan.budget.after, 1
; UNROLL: efsan.budget.exit7:
; UNROLL-NEXT: br label %exit
; UNROLL: loop.budget:
; UNROLL-NEXT: %efsan.budget.count = phi i64 [ %efsan.budget, %efsan.budget.dispatch ], [ %efsan.budget.next, %efsan.budget.step ]
; UNROLL-NEXT: %i.budget = phi i64 [ %i.next, %efsan.budget.dispatch ], [ %i.next.budget3, %efsan.budget.step ]
; UNROLL-NEXT: %efsan.budget.after = call i64 asm "", "=r,0"(i64 %efsan.budget.count)
; UNROLL: br i1 %neg.budget, label %efsan.budget.exit1, label %loop.budget1
; UNROLL: loop.budget1:
; UNROLL-NEXT: %i.budget1 = phi i64 [ %i.next.budget, %next.budget ]
; UNROLL-NOT: __efsan_cache_frag_access
; UNROLL: br i1 %neg.budget3, label %efsan.budget.exit7, label %efsan.budget.step
; UNROLL: efsan.budget.step:
; UNROLL-NEXT: %efsan.budget.next = sub i64 %efsan.budget.after, 8
; UNROLL-NEXT: [[MORE:%.*]] = icmp sgt i64 %efsan.budget.next, 0
; UNROLL-NEXT: br i1 [[MORE]], label %loop.budget, label %efsan.budget.done
; UNROLL: efsan.budget.done:
; UNROLL-NEXT: add i64 %efsan.budget.next, 8

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
; UNROLL-LABEL: define i64 @one_block(
; UNROLL: efsan.budget.dispatch:
; UNROLL-NEXT: %efsan.budget = sub i64 %efsan.countdown.{{[0-9]+}}, 8
; UNROLL: efsan.budget.exit:
; UNROLL-NEXT: add i64 %efsan.budget.after, 6
; UNROLL: efsan.budget.exit3:
; UNROLL-NEXT: br label %exit
; UNROLL: ret i64

; Stores, in one block: one iteration a round, and one block of accesses
; pays one count-down an iteration already.
define void @fill(ptr %p, i64 %stop) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %a = getelementptr inbounds i64, ptr %p, i64 %i
  %v = load i64, ptr %a
  %w = add i64 %v, 1
  store i64 %w, ptr %a
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp sgt i64 %w, %stop
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
; CHECK-LABEL: define void @fill(
; CHECK-NOT: efsan.budget
; CHECK: ret void
; UNROLL-LABEL: define void @fill(
; UNROLL-NOT: efsan.budget
; UNROLL: ret void

; A wait: only loads of an address the loop does not change.
define void @poll(ptr %head, i64 %t) {
entry:
  br label %loop
loop:
  %h = load atomic i64, ptr %head acquire, align 8
  %same = icmp eq i64 %h, %t
  br i1 %same, label %loop, label %exit
exit:
  ret void
}
; CHECK-LABEL: define void @poll(
; CHECK-NOT: efsan.budget
; CHECK: ret void
; UNROLL-LABEL: define void @poll(
; UNROLL-NOT: efsan.budget
; UNROLL: ret void

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
; UNROLL-LABEL: define i64 @sometimes(
; UNROLL-NOT: efsan.budget
; UNROLL: ret i64

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
; UNROLL-LABEL: define i64 @side_exit(
; UNROLL-NOT: efsan.budget
; UNROLL: ret i64
