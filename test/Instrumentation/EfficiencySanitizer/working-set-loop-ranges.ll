; Loop-level marking (working set): an innermost loop that leaves only at its
; latch, with a computable trip count and no call that may not return, gets a
; copy (.efsan.marked) whose preheader marks the whole range of each affine
; access of stride <= 64 bytes (inline: the range's shadow is tested 32 and
; then 8 lines at a time, and the lines of a word lacking bit 0 are marked
; byte by byte) and whose accesses have no checks. A check before the loop runs the copy when every range is at most
; -efsan-loop-range-limit bytes, else the original loop, which marks its ranges
; in chunks (working-set-loop-chunks.ll). Loops with a stride above a line or
; a call that may not return keep their per-access checks only.
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
; CHECK-NEXT:    %[[COUNT:[0-9]+]] = add i64 %n, -1
; CHECK-NEXT:    %[[FEW:[0-9]+]] = icmp ult i64 %[[COUNT]], 262144
; CHECK-NEXT:    %[[BOTH:[0-9]+]] = and i1 %[[FITS]], %[[FEW]]
; CHECK-NEXT:    br i1 %[[BOTH]], label %loop.ph.efsan.marked, label %loop.ph
; The range's shadow is tested 4 words (32 lines) at a time while all are
; marked, then a word at a time; a word with a line lacking bit 0 gets 0x81
; ored into each byte and its changed-page bytes set; the last 1 to 7 bytes
; are tested masked and marked byte by byte. No runtime call.
; CHECK:       loop.ph.efsan.marked:
; CHECK-NEXT:    %[[LO:[0-9]+]] = ptrtoint ptr %a to i64
; CHECK-NEXT:    %[[LOLINE:[0-9]+]] = lshr i64 %[[LO]], 6
; CHECK-NEXT:    %[[FIRST:[0-9]+]] = add i64 %[[LOLINE]], 2147450880
; CHECK-NEXT:    %[[LASTBYTE:[0-9]+]] = sub i64 %[[SIZE]], 1
; CHECK-NEXT:    %[[HI:[0-9]+]] = add i64 %[[LO]], %[[LASTBYTE]]
; CHECK-NEXT:    %[[HILINE:[0-9]+]] = lshr i64 %[[HI]], 6
; CHECK-NEXT:    %[[LAST:[0-9]+]] = add i64 %[[HILINE]], 2147450880
; CHECK-NEXT:    %[[END:[0-9]+]] = add i64 %[[LAST]], 1
; CHECK-NEXT:    %[[FIRSTBLOCKEND:[0-9]+]] = add i64 %[[FIRST]], 32
; CHECK-NEXT:    %[[HASBLOCK:[0-9]+]] = icmp ule i64 %[[FIRSTBLOCKEND]], %[[END]]
; CHECK-NEXT:    br i1 %[[HASBLOCK]], label %efsan.range.block, label %efsan.range.words
; CHECK:       efsan.range.block:
; CHECK-NEXT:    %efsan.range.block.at = phi i64 [ %[[FIRST]], %loop.ph.efsan.marked ], [ %[[BLOCKNEXT:[0-9]+]], %efsan.range.block.next ]
; CHECK-NEXT:    %[[P0:[0-9]+]] = inttoptr i64 %efsan.range.block.at to ptr
; CHECK-NEXT:    %[[W0:[0-9]+]] = load i64, ptr %[[P0]], align 1, !nosanitize
; CHECK-NEXT:    %[[A1:[0-9]+]] = add i64 %efsan.range.block.at, 8
; CHECK-NEXT:    %[[P1:[0-9]+]] = inttoptr i64 %[[A1]] to ptr
; CHECK-NEXT:    %[[W1:[0-9]+]] = load i64, ptr %[[P1]], align 1, !nosanitize
; CHECK-NEXT:    %[[AND1:[0-9]+]] = and i64 %[[W0]], %[[W1]]
; CHECK-NEXT:    add i64 %efsan.range.block.at, 16
; CHECK-NEXT:    inttoptr
; CHECK-NEXT:    %[[W2:[0-9]+]] = load i64
; CHECK-NEXT:    %[[AND2:[0-9]+]] = and i64 %[[AND1]], %[[W2]]
; CHECK-NEXT:    add i64 %efsan.range.block.at, 24
; CHECK-NEXT:    inttoptr
; CHECK-NEXT:    %[[W3:[0-9]+]] = load i64
; CHECK-NEXT:    %[[AND3:[0-9]+]] = and i64 %[[AND2]], %[[W3]]
; CHECK-NEXT:    %[[BITS:[0-9]+]] = and i64 %[[AND3]], 72340172838076673
; CHECK-NEXT:    %[[ALL:[0-9]+]] = icmp eq i64 %[[BITS]], 72340172838076673
; CHECK-NEXT:    br i1 %[[ALL]], label %efsan.range.block.next, label %efsan.range.words
; CHECK:       efsan.range.block.next:
; CHECK-NEXT:    %[[BLOCKNEXT]] = add i64 %efsan.range.block.at, 32
; CHECK-NEXT:    %[[NEXTEND:[0-9]+]] = add i64 %[[BLOCKNEXT]], 32
; CHECK-NEXT:    %[[MOREBLOCKS:[0-9]+]] = icmp ule i64 %[[NEXTEND]], %[[END]]
; CHECK-NEXT:    br i1 %[[MOREBLOCKS]], label %efsan.range.block, label %efsan.range.words
; CHECK:       efsan.range.words:
; CHECK-NEXT:    %efsan.range.words.at = phi i64 [ %[[FIRST]], %loop.ph.efsan.marked ], [ %efsan.range.block.at, %efsan.range.block ], [ %[[BLOCKNEXT]], %efsan.range.block.next ]
; CHECK:       efsan.range.word:
; CHECK-NEXT:    %efsan.range.at = phi i64 [ %efsan.range.words.at, %efsan.range.words ], [ %[[WORDNEXT:[0-9]+]], %efsan.range.next ]
; CHECK-NEXT:    %[[WP:[0-9]+]] = inttoptr i64 %efsan.range.at to ptr
; CHECK-NEXT:    %[[WORD:[0-9]+]] = load i64, ptr %[[WP]], align 1, !nosanitize
; CHECK-NEXT:    %[[WBITS:[0-9]+]] = and i64 %[[WORD]], 72340172838076673
; CHECK-NEXT:    %[[WALL:[0-9]+]] = icmp eq i64 %[[WBITS]], 72340172838076673
; CHECK-NEXT:    br i1 %[[WALL]], label %efsan.range.next, label %efsan.range.mark
; From the first word with a line lacking bit 0, the runtime marks the rest
; of the range (recording the accesses to the lines the miss-ratio curves
; observe).
; CHECK:       efsan.range.mark:
; CHECK-NEXT:    %[[LASTSHADOW:[0-9]+]] = sub i64 %[[END]], 1
; CHECK-NEXT:    call preserve_allcc void @__efsan_ws_mark_lines(i64 %efsan.range.at, i64 %[[LASTSHADOW]]), !nosanitize
; CHECK-NEXT:    br label %efsan.range.done
; CHECK:       efsan.range.next:
; CHECK-NEXT:    %[[WORDNEXT]] = add i64 %efsan.range.at, 8
; CHECK:       efsan.range.tail:
; CHECK-NEXT:    %efsan.range.tail.at = phi i64
; CHECK-NEXT:    %[[HASTAIL:[0-9]+]] = icmp ult i64 %efsan.range.tail.at, %[[END]]
; CHECK-NEXT:    br i1 %[[HASTAIL]], label %efsan.range.tailtest, label %efsan.range.done
; CHECK:       efsan.range.tailtest:
; CHECK-NEXT:    %[[LEFT:[0-9]+]] = sub i64 %[[END]], %efsan.range.tail.at
; CHECK-NEXT:    %[[LEFTBITS:[0-9]+]] = shl i64 %[[LEFT]], 3
; CHECK-NEXT:    %[[SHIFT:[0-9]+]] = sub i64 64, %[[LEFTBITS]]
; CHECK-NEXT:    %[[WANTED:[0-9]+]] = lshr i64 72340172838076673, %[[SHIFT]]
; CHECK-NEXT:    %[[TP:[0-9]+]] = inttoptr i64 %efsan.range.tail.at to ptr
; CHECK-NEXT:    %[[TW:[0-9]+]] = load i64, ptr %[[TP]], align 1, !nosanitize
; CHECK-NEXT:    %[[TGOT:[0-9]+]] = and i64 %[[TW]], %[[WANTED]]
; CHECK-NEXT:    %[[TALL:[0-9]+]] = icmp eq i64 %[[TGOT]], %[[WANTED]]
; CHECK-NEXT:    br i1 %[[TALL]], label %efsan.range.done, label %efsan.range.marktail
; CHECK:       efsan.range.marktail:
; CHECK-NEXT:    %[[TAILLAST:[0-9]+]] = sub i64 %[[END]], 1
; CHECK-NEXT:    call preserve_allcc void @__efsan_ws_mark_lines(i64 %efsan.range.tail.at, i64 %[[TAILLAST]]), !nosanitize
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
; The original loop marks chunks instead of checking the store.
; CHECK:       loop:
; CHECK:         br i1 %{{[0-9]+}}, label %efsan.chunk.mark, label %loop.efsan.body
; CHECK:       loop.efsan.body:
; CHECK-NOT:     lshr
; CHECK:         store i32 7, ptr %p, align 4, !nosanitize
; CHECK:       exit:
; OFF-LABEL: define void @fill(
; OFF-NOT:     efsan.marked
; OFF-NOT:     efsan.range
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
; CHECK:         %[[SIZE:[0-9]+]] = shl i64 %n, 3
; CHECK:       loop.ph.efsan.marked:
; CHECK-NEXT:    %[[LO:[0-9]+]] = ptrtoint ptr %a to i64
; CHECK-NEXT:    lshr i64 %[[LO]], 6
; CHECK-NEXT:    add i64
; CHECK-NEXT:    %[[LASTBYTE:[0-9]+]] = sub i64 %[[SIZE]], 1
; CHECK-NEXT:    add i64 %[[LO]], %[[LASTBYTE]]
; CHECK:       efsan.range.mark:
; CHECK-NOT:     call {{void|ptr|i8|i16|i32|i64}}
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
; CHECK-NOT:     efsan.range
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
; CHECK-NOT:     efsan.range
; CHECK:         ret void
