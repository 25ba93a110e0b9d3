; Loop-level marking (working set): an innermost loop that leaves only at its
; latch, with a computable trip count and no call that may not return, gets a
; copy (.efsan.marked) whose preheader marks the whole range of each affine
; access of stride <= 64 bytes (an inline test of the range's shadow, 8 lines
; at a time, and __efsan_loadN if a line lacks bit 0) and whose accesses have
; no checks. A check before the loop runs the copy when every range is at most
; -efsan-loop-range-limit bytes, else the original loop with its per-access
; checks. Loops with a stride above a line or a call that may not return keep
; their checks only.
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<working-set>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<working-set>' -efsan-loop-range-marks=0 -S %s | FileCheck %s --check-prefix=OFF

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; a[0..n) as i32: the range is [a, a + 4 * (n - 1) + 4).
define void @fill(ptr %a, i64 %n) {
entry:
  %guard = icmp sgt i64 %n, 0
  br i1 %guard, label %loop, label %exit
loop:
  %i = phi i64 [ %next, %loop ], [ 0, %entry ]
  %p = getelementptr inbounds i32, ptr %a, i64 %i
  store i32 7, ptr %p, align 4
  %next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
; CHECK-LABEL: define void @fill(ptr %a, i64 %n)
; CHECK:       loop.preheader:
; CHECK-NEXT:    %[[SIZE:[0-9]+]] = shl i64 %n, 2
; CHECK-NEXT:    %[[FITS:[0-9]+]] = icmp ule i64 %[[SIZE]], 262144
; CHECK-NEXT:    br i1 %[[FITS]], label %loop.ph.efsan.marked, label %loop.ph
; The range's shadow bytes are tested 8 at a time (the last word masked to
; the bytes inside the range); the first with a line lacking bit 0 calls out.
; CHECK:       loop.ph.efsan.marked:
; CHECK-NEXT:    %[[LO:[0-9]+]] = ptrtoint ptr %a to i64
; CHECK-NEXT:    %[[LOLINE:[0-9]+]] = lshr i64 %[[LO]], 6
; CHECK-NEXT:    %[[FIRST:[0-9]+]] = add i64 %[[LOLINE]], 2147450880
; CHECK-NEXT:    %[[LAST:[0-9]+]] = sub i64 %[[SIZE]], 1
; CHECK-NEXT:    %[[HI:[0-9]+]] = add i64 %[[LO]], %[[LAST]]
; CHECK-NEXT:    %[[HILINE:[0-9]+]] = lshr i64 %[[HI]], 6
; CHECK-NEXT:    %[[HISHADOW:[0-9]+]] = add i64 %[[HILINE]], 2147450880
; CHECK-NEXT:    %[[END:[0-9]+]] = add i64 %[[HISHADOW]], 1
; CHECK-NEXT:    br label %efsan.range.test
; CHECK:       efsan.range.test:
; CHECK-NEXT:    %efsan.range.at = phi i64 [ %[[FIRST]], %loop.ph.efsan.marked ], [ %[[NEXT:[0-9]+]], %efsan.range.next ]
; CHECK-NEXT:    %[[LEFT:[0-9]+]] = sub i64 %[[END]], %efsan.range.at
; CHECK-NEXT:    %[[SHORT:[0-9]+]] = icmp ult i64 %[[LEFT]], 8
; CHECK-NEXT:    %[[BYTES:[0-9]+]] = select i1 %[[SHORT]], i64 %[[LEFT]], i64 8
; CHECK-NEXT:    %[[BITS:[0-9]+]] = shl i64 %[[BYTES]], 3
; CHECK-NEXT:    %[[SHIFT:[0-9]+]] = sub i64 64, %[[BITS]]
; CHECK-NEXT:    %[[WANTED:[0-9]+]] = lshr i64 72340172838076673, %[[SHIFT]]
; CHECK-NEXT:    %[[PTR:[0-9]+]] = inttoptr i64 %efsan.range.at to ptr
; CHECK-NEXT:    %[[WORD:[0-9]+]] = load i64, ptr %[[PTR]], align 1, !nosanitize
; CHECK-NEXT:    %[[GOT:[0-9]+]] = and i64 %[[WORD]], %[[WANTED]]
; CHECK-NEXT:    %[[ALL:[0-9]+]] = icmp eq i64 %[[GOT]], %[[WANTED]]
; CHECK-NEXT:    br i1 %[[ALL]], label %efsan.range.next, label %efsan.range.mark
; CHECK:       efsan.range.next:
; CHECK-NEXT:    %[[NEXT]] = add i64 %efsan.range.at, 8
; CHECK-NEXT:    %[[MORE:[0-9]+]] = icmp ult i64 %[[NEXT]], %[[END]]
; CHECK-NEXT:    br i1 %[[MORE]], label %efsan.range.test, label %efsan.range.done
; CHECK:       efsan.range.mark:
; CHECK-NEXT:    call void @__efsan_loadN(ptr %a, i64 %[[SIZE]])
; CHECK-NEXT:    br label %efsan.range.done
; CHECK:       efsan.range.done:
; CHECK-NEXT:    br label %loop.efsan.marked
; CHECK:       loop.efsan.marked:
; CHECK-NEXT:    %i.efsan.marked = phi i64
; CHECK-NEXT:    %p.efsan.marked = getelementptr inbounds i32, ptr %a, i64 %i.efsan.marked
; CHECK-NEXT:    store i32 7, ptr %p.efsan.marked, align 4, !nosanitize
; CHECK-NEXT:    %next.efsan.marked = add
; CHECK-NEXT:    %done.efsan.marked = icmp
; CHECK-NEXT:    br i1 %done.efsan.marked, label %exit, label %loop.efsan.marked
; The original loop keeps its check.
; CHECK:       loop:
; CHECK:         lshr i64 %{{[0-9]+}}, 6
; CHECK:         store i32 7, ptr %p, align 4
; CHECK-NOT:     nosanitize
; CHECK:       exit:
; OFF-LABEL: define void @fill(
; OFF-NOT:     efsan.marked
; OFF-NOT:     __efsan_loadN
; OFF:         ret void

; Backward, load and store of the same double: one range [a, a + 8n).
define void @down(ptr %a, i64 %n) {
entry:
  %guard = icmp sgt i64 %n, 0
  br i1 %guard, label %loop, label %exit
loop:
  %i = phi i64 [ %prev, %loop ], [ %n, %entry ]
  %prev = add nsw i64 %i, -1
  %p = getelementptr inbounds double, ptr %a, i64 %prev
  %v = load double, ptr %p, align 8
  %w = fadd double %v, 1.0
  store double %w, ptr %p, align 8
  %more = icmp ugt i64 %i, 1
  br i1 %more, label %loop, label %exit
exit:
  ret void
}
; CHECK-LABEL: define void @down(ptr %a, i64 %n)
; CHECK:         call void @__efsan_loadN(ptr %{{.*}}, i64 %{{[0-9]+}})
; CHECK-NOT:     call void @__efsan_loadN
; CHECK:       loop.efsan.marked:
; CHECK:         load double, ptr %p.efsan.marked, align 8, !nosanitize
; CHECK:         store double %w.efsan.marked, ptr %p.efsan.marked, align 8, !nosanitize
; CHECK:       exit:

; A 128-byte stride skips lines: per-access checks only.
define void @wide(ptr %a, i64 %n) {
entry:
  %guard = icmp sgt i64 %n, 0
  br i1 %guard, label %loop, label %exit
loop:
  %i = phi i64 [ %next, %loop ], [ 0, %entry ]
  %off = shl nsw i64 %i, 7
  %p = getelementptr inbounds i8, ptr %a, i64 %off
  store i8 1, ptr %p, align 1
  %next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
; CHECK-LABEL: define void @wide(
; CHECK-NOT:     efsan.marked
; CHECK-NOT:     __efsan_loadN
; CHECK:         ret void

; A call that may not return (exit, longjmp) could leave the loop early:
; per-access checks only.
declare void @g()
define void @calls(ptr %a, i64 %n) {
entry:
  %guard = icmp sgt i64 %n, 0
  br i1 %guard, label %loop, label %exit
loop:
  %i = phi i64 [ %next, %loop ], [ 0, %entry ]
  %p = getelementptr inbounds i32, ptr %a, i64 %i
  store i32 1, ptr %p, align 4
  call void @g()
  %next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
; CHECK-LABEL: define void @calls(
; CHECK-NOT:     efsan.marked
; CHECK-NOT:     __efsan_loadN
; CHECK:         ret void
