; A loop marked by ranges (working set) may also index a small table with a
; byte: table[a[i]] lies in the 1 KiB of table[0..255] whatever a holds. The
; loop tests once before it (the copy marked whole) or before each chunk (the
; original loop) whether every line of the table is marked, and the table
; access's check runs only when they are not: while they are, the loop runs a
; copy of its body without that check. An index that is not bounded
; (a 64-bit value from memory) keeps its plain check; -efsan-loop-table-limit=0
; turns the tables off.
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<working-set>' -efsan-loop-table-counts=0 -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<working-set>' -efsan-loop-table-limit=0 -S %s | FileCheck %s --check-prefix=OFF

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i64 @lookup(ptr %a, ptr %table, ptr %idx, ptr %big, i64 %n) {
entry:
  %guard = icmp sgt i64 %n, 0
  br i1 %guard, label %loop, label %exit
loop:
  %i = phi i64 [ %next, %loop ], [ 0, %entry ]
  %sum = phi i64 [ %sum.next, %loop ], [ 0, %entry ]
  %pa = getelementptr inbounds i8, ptr %a, i64 %i
  %x = load i8, ptr %pa, align 1
  %xz = zext i8 %x to i64
  %pt = getelementptr inbounds i32, ptr %table, i64 %xz
  %t = load i32, ptr %pt, align 4
  %pi = getelementptr inbounds i64, ptr %idx, i64 %i
  %j = load i64, ptr %pi, align 8
  %pb = getelementptr inbounds i32, ptr %big, i64 %j
  %u = load i32, ptr %pb, align 4
  %tu = add i32 %t, %u
  %tz = zext i32 %tu to i64
  %sum.next = add i64 %sum, %tz
  %next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  %r = phi i64 [ 0, %entry ], [ %sum.next, %loop ]
  ret i64 %r
}
; CHECK-LABEL: define i64 @lookup(
; The copy marked whole: after its ranges, the table's test, if the loop runs
; at least 64 iterations more (a shorter one would not repay it).
; CHECK:       loop.preheader:
; CHECK:         %[[COUNT:[0-9]+]] = add i64 %n, -1
; CHECK:       loop.ph.efsan.marked:
; CHECK:       efsan.range.done:
; CHECK-NEXT:    %[[LONG:[0-9]+]] = icmp uge i64 %[[COUNT]], 64
; CHECK-NEXT:    br i1 %[[LONG]], label %[[TEST:[0-9]+]], label %[[JOIN:[0-9]+]]
; CHECK:       efsan.table.word:
; CHECK:         load i64, ptr %{{[0-9]+}}, align 1, !nosanitize
; CHECK:       efsan.table.tested:
; CHECK-NEXT:    %efsan.table.marked = icmp eq i64
; CHECK-NEXT:    br label %[[JOIN]]
; CHECK:       [[JOIN]]:
; CHECK-NEXT:    %efsan.tables.marked = phi i1 [ %efsan.table.marked, %efsan.table.tested ], [ false, %efsan.range.done ]
; CHECK-NEXT:    br label %loop.efsan.marked
; Each iteration of the copy marked whole runs one of two copies of its body
; by that test: the original, with the table access's check, or a copy
; without it; the unbounded index keeps its plain check in both.
; CHECK:       loop.efsan.marked:
; CHECK-NEXT:    %i.efsan.marked = phi i64
; CHECK-NEXT:    %sum.efsan.marked = phi i64
; CHECK-NEXT:    br i1 %efsan.tables.marked, label %loop.efsan.marked.efsan.tables, label %loop.efsan.marked.efsan.checked
; CHECK:       loop.efsan.marked.efsan.checked:
; CHECK:         %x.efsan.marked = load i8, ptr %pa.efsan.marked, align 1, !nosanitize
; CHECK:         %pt.efsan.marked = getelementptr inbounds i32, ptr %table, i64 %xz.efsan.marked
; CHECK-NEXT:    ptrtoint ptr %pt.efsan.marked to i64
; CHECK:         %t.efsan.marked = load i32, ptr %pt.efsan.marked, align 4{{$}}
; CHECK:         %j.efsan.marked = load i64, ptr %pi.efsan.marked, align 8, !nosanitize
; CHECK-NEXT:    %pb.efsan.marked = getelementptr inbounds i32, ptr %big, i64 %j.efsan.marked
; CHECK-NEXT:    ptrtoint ptr %pb.efsan.marked to i64
; The original loop, in chunks: the test after each chunk's marks, whose
; result picks, at the top of every iteration, one of two copies of the body:
; the original, with the table access's check, or a copy without it. The
; unbounded index keeps its check in both; both latches feed the header's
; and the exit's phis.
; CHECK:       {{^}}loop:
; CHECK-NEXT:    %i = phi i64 [ %next, %[[LATCH:[0-9]+]] ], [ 0, %loop.ph ], [ %next.efsan.tables, %[[TLATCH:[0-9]+]] ]
; CHECK:         %efsan.tables.marked.before = phi i1 [ false, %loop.ph ], [ %[[CHUNKMARKED:efsan.tables.marked[0-9]+]], %[[LATCH]] ], [ %[[CHUNKMARKED]], %[[TLATCH]] ]
; CHECK:       loop.efsan.body:
; CHECK-NEXT:    %efsan.chunk.left.here = phi
; CHECK-NEXT:    %[[CHUNKMARKED]] = phi i1 [ %efsan.tables.marked.before, %loop ], [ %efsan.table.marked{{[0-9]+}}, %efsan.table.tested{{[0-9]+}} ]
; CHECK-NEXT:    br i1 %[[CHUNKMARKED]], label %loop.efsan.tables, label %loop.efsan.checked
; CHECK:       loop.efsan.checked:
; CHECK:         %pt = getelementptr inbounds i32, ptr %table, i64 %xz
; CHECK-NEXT:    ptrtoint ptr %pt to i64
; CHECK:         %t = load i32, ptr %pt, align 4{{$}}
; CHECK:         %pb = getelementptr inbounds i32, ptr %big, i64 %j
; CHECK-NEXT:    ptrtoint ptr %pb to i64
; CHECK:       [[LATCH]]:
; CHECK:         %efsan.chunk.left.next = sub i64 %efsan.chunk.left.here, 1
; CHECK-NEXT:    br i1 %done, label %exit, label %loop
; CHECK:       exit:
; CHECK-NEXT:    %r = phi i64 [ 0, %entry ], [ %sum.next, %[[LATCH]] ], [ %sum.next.efsan.marked, %{{[0-9]+}} ], [ %sum.next.efsan.marked.efsan.tables, %{{[0-9]+}} ], [ %sum.next.efsan.tables, %[[TLATCH]] ]
; CHECK:       loop.efsan.marked.efsan.tables:
; CHECK:         %pt.efsan.marked.efsan.tables = getelementptr inbounds i32, ptr %table, i64 %xz.efsan.marked.efsan.tables
; CHECK-NEXT:    %t.efsan.marked.efsan.tables = load i32, ptr %pt.efsan.marked.efsan.tables, align 4, !nosanitize
; CHECK:         %pb.efsan.marked.efsan.tables = getelementptr inbounds i32, ptr %big, i64 %j.efsan.marked.efsan.tables
; CHECK-NEXT:    ptrtoint ptr %pb.efsan.marked.efsan.tables to i64
; CHECK:       loop.efsan.tables:
; CHECK:         %pt.efsan.tables = getelementptr inbounds i32, ptr %table, i64 %xz.efsan.tables
; CHECK-NEXT:    %t.efsan.tables = load i32, ptr %pt.efsan.tables, align 4, !nosanitize
; CHECK:         %pb.efsan.tables = getelementptr inbounds i32, ptr %big, i64 %j.efsan.tables
; CHECK-NEXT:    ptrtoint ptr %pb.efsan.tables to i64
; CHECK:       [[TLATCH]]:
; CHECK:         %efsan.chunk.left.next.efsan.tables = sub i64 %efsan.chunk.left.here, 1
; CHECK-NEXT:    br i1 %done.efsan.tables, label %exit, label %loop

; OFF-LABEL: define i64 @lookup(
; OFF-NOT:     efsan.table
; OFF:         %pt.efsan.marked = getelementptr inbounds i32, ptr %table, i64 %xz.efsan.marked
; OFF-NEXT:    ptrtoint ptr %pt.efsan.marked to i64
