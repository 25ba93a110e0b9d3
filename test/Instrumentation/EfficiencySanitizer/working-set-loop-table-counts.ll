; A table whose lines are all marked but one that the miss-ratio curves
; observe (such a line never gets bit 0) would run the checked copy, whose
; cold block each access to that line takes. At the test of the tables
; (before the loop marked whole, at each chunk's marks) the runtime names
; the only line lacking bit 0 (__efsan_ws_table_unmarked); if it is observed
; the loop runs a copy of its own for that chunk, without checks, which counts
; its table's accesses to the line: `(addr ^ line) < 64` added, once per
; address in a block (the load and store of `x++` once, as the checked copy
; checks them), in a register of that loop, added to a stack slot as it
; leaves. The count is logged (__efsan_ws_mrc_table_hits) at the next
; chunk's marks and at the exit. A
; table with an access that may straddle two lines gets no such copy;
; -efsan-loop-table-counts=0 turns the copies off.
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<working-set>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<working-set>' -efsan-loop-table-counts=0 -S %s | FileCheck %s --check-prefix=OFF

define void @hist(ptr %a, ptr %hist, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %pa = getelementptr inbounds i8, ptr %a, i64 %i
  %x = load i8, ptr %pa, align 1
  %xz = zext i8 %x to i64
  %ph = getelementptr inbounds i64, ptr %hist, i64 %xz
  %c = load i64, ptr %ph, align 8
  %c1 = add i64 %c, 1
  store i64 %c1, ptr %ph, align 8
  %next = add nuw i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; CHECK-LABEL: define void @hist(
; CHECK:         %efsan.count.which = alloca i32
; CHECK-NEXT:    %efsan.count.line = alloca i64
; CHECK-NEXT:    %efsan.count = alloca i64
; CHECK:         store i64 0, ptr %efsan.count,

; The copy marked whole: no copy chosen unless the tables are tested and not
; all marked; then the runtime's answer, and whether the curves observe it.
; CHECK:         store i32 -1, ptr %efsan.count.which
; CHECK:       efsan.table.tested:
; CHECK-NEXT:    %efsan.table.marked = icmp eq i64
; CHECK-NEXT:    [[NOTALL:%[0-9]+]] = xor i1 %efsan.table.marked, true
; CHECK-NEXT:    br i1 [[NOTALL]]
; CHECK:         [[ONE:%[0-9]+]] = call preserve_allcc i64 @__efsan_ws_table_unmarked(i64 %{{[0-9]+}}, i64 %{{[0-9]+}})
; CHECK:         load i64, ptr @__efsan_mrc_threshold
; CHECK-NEXT:    mul i64 %{{[0-9]+}}, -7046029254386353131
; CHECK:         store i32 %{{[0-9]+}}, ptr %efsan.count.which
; CHECK:         store i64 %{{[0-9]+}}, ptr %efsan.count.line
; CHECK:         [[WHICH:%[0-9]+]] = load i32, ptr %efsan.count.which
; CHECK-NEXT:    [[NONE:%[0-9]+]] = icmp slt i32 [[WHICH]], 0
; CHECK-NEXT:    br i1 [[NONE]], label %loop.efsan.marked, label %loop.efsan.marked.efsan.pick.count
; CHECK:       loop.efsan.marked.efsan.pick.count:
; CHECK-NEXT:    switch i32 [[WHICH]], label %loop.efsan.marked.efsan.count0.start
; CHECK:       loop.efsan.marked.efsan.count0.entry:
; CHECK-NEXT:    %[[MCOUNT:efsan.count.efsan.count0.*]] = phi i64 [ 0, %loop.efsan.marked.efsan.count0.start ], [ %[[MSUM:[0-9]+]], %loop.efsan.marked.efsan.count0 ]
; CHECK-NEXT:    %i.efsan.marked.efsan.count0 = phi i64 [ 0, %loop.efsan.marked.efsan.count0.start ], [ %next.efsan.marked.efsan.count0, %loop.efsan.marked.efsan.count0 ]

; The chunked original: the last chunk's count logged, then the test again,
; and the choice of copy for this chunk.
; CHECK:       loop:
; CHECK-NEXT:    %i = phi i64 [ 0, %loop.ph ], [ %next, %{{[0-9]+}} ], [ %next.efsan.tables, %loop.efsan.tables ], [ %i.efsan.count0.next, %loop.efsan.count0.header.loop_crit_edge ]
; CHECK:         [[COUNT:%[0-9]+]] = load i64, ptr %efsan.count
; CHECK-NEXT:    [[ANY:%[0-9]+]] = icmp ne i64 [[COUNT]], 0
; CHECK-NEXT:    br i1 [[ANY]]
; CHECK:         [[LINE:%[0-9]+]] = load i64, ptr %efsan.count.line
; CHECK-NEXT:    call preserve_allcc void @__efsan_ws_mrc_table_hits(i64 [[LINE]], i64 [[COUNT]])
; CHECK-NEXT:    store i64 0, ptr %efsan.count
; CHECK:         store i32 -1, ptr %efsan.count.which
; CHECK:         call preserve_allcc i64 @__efsan_ws_table_unmarked(
; CHECK:         [[WHICH2:%[0-9]+]] = load i32, ptr %efsan.count.which
; CHECK-NEXT:    [[NONE2:%[0-9]+]] = icmp slt i32 [[WHICH2]], 0
; CHECK-NEXT:    br i1 [[NONE2]], label %loop.efsan.body, label %loop.efsan.pick.count

; The counting loop starts from the chunk's values and its header counts the
; chunk down, back to the original header (the marks) when it ends.
; CHECK:       loop.efsan.count0.entry:
; CHECK-NEXT:    %[[COUNT0:efsan.count.efsan.count0.*]] = phi i64 [ 0, %loop.efsan.count0.start ], [ %[[SUM0:[0-9]+]], %loop.efsan.count0.header ]
; CHECK-NEXT:    %i.efsan.count0 = phi i64 [ %i, %loop.efsan.count0.start ], [ %i.efsan.count0.next, %loop.efsan.count0.header ]
; CHECK:         %efsan.chunk.left.here.efsan.count0 = phi i64 [ 262144, %loop.efsan.count0.start ], [ %efsan.chunk.left.efsan.count0.next, %loop.efsan.count0.header ]
; CHECK:       loop.efsan.count0.header:
; CHECK:         [[END:%[0-9]+]] = icmp eq i64 %efsan.chunk.left.efsan.count0.next, 0
; CHECK-NEXT:    br i1 [[END]], label %loop.efsan.count0.header.loop_crit_edge, label %loop.efsan.count0.entry
; CHECK:       loop.efsan.count0.header.loop_crit_edge:
; CHECK-NEXT:    [[SHARED:%[0-9]+]] = load i64, ptr %efsan.count
; CHECK-NEXT:    [[ADDED:%[0-9]+]] = add i64 [[SHARED]], %[[SUM0]]
; CHECK-NEXT:    store i64 [[ADDED]], ptr %efsan.count
; CHECK-NEXT:    br label %loop

; At the exit, whatever the copy, the count is logged.
; CHECK:       exit:
; CHECK-NEXT:    [[LAST:%[0-9]+]] = load i64, ptr %efsan.count
; CHECK-NEXT:    icmp ne i64 [[LAST]], 0
; CHECK:         call preserve_allcc void @__efsan_ws_mrc_table_hits(

; The counting copies: no check; the load counted, the store at its address
; not.
; CHECK:       loop.efsan.marked.efsan.count0:
; CHECK:         %ph.efsan.marked.efsan.count0 = getelementptr inbounds i64, ptr %hist, i64 %xz.efsan.marked.efsan.count0
; CHECK-NEXT:    [[ADDR:%[0-9]+]] = ptrtoint ptr %ph.efsan.marked.efsan.count0 to i64
; CHECK-NEXT:    [[L:%[0-9]+]] = load i64, ptr %efsan.count.line
; CHECK-NEXT:    [[X:%[0-9]+]] = xor i64 [[ADDR]], [[L]]
; CHECK-NEXT:    [[HIT:%[0-9]+]] = icmp ult i64 [[X]], 64
; CHECK-NEXT:    [[ONEMORE:%[0-9]+]] = zext i1 [[HIT]] to i64
; CHECK-NEXT:    %[[MSUM]] = add i64 %[[MCOUNT]], [[ONEMORE]]
; CHECK-NEXT:    %c.efsan.marked.efsan.count0 = load i64, ptr %ph.efsan.marked.efsan.count0, align 8, !nosanitize
; CHECK-NEXT:    %c1.efsan.marked.efsan.count0 = add i64 %c.efsan.marked.efsan.count0, 1
; CHECK-NEXT:    store i64 %c1.efsan.marked.efsan.count0, ptr %ph.efsan.marked.efsan.count0, align 8, !nosanitize
; CHECK-NEXT:    %next.efsan.marked.efsan.count0 = add nuw i64 %i.efsan.marked.efsan.count0, 1
; CHECK:         br i1 %done.efsan.marked.efsan.count0, label %loop.efsan.marked.efsan.count0.exit_crit_edge, label %loop.efsan.marked.efsan.count0.entry
; CHECK:       loop.efsan.marked.efsan.count0.exit_crit_edge:
; CHECK-NEXT:    [[SHAREDM:%[0-9]+]] = load i64, ptr %efsan.count
; CHECK-NEXT:    [[ADDEDM:%[0-9]+]] = add i64 [[SHAREDM]], %[[MSUM]]
; CHECK-NEXT:    store i64 [[ADDEDM]], ptr %efsan.count
; CHECK-NEXT:    br label %exit
; CHECK:       loop.efsan.count0:
; CHECK:         xor i64
; CHECK-NOT:     xor i64
; CHECK:         %efsan.chunk.left.next.efsan.count0 = sub i64 %efsan.chunk.left.here.efsan.count0, 1
; CHECK-NEXT:    br i1 %done.efsan.count0, label %loop.efsan.count0.exit_crit_edge, label %loop.efsan.count0.header

; OFF-NOT: efsan.count

define void @unaligned(ptr %a, ptr %hist, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %pa = getelementptr inbounds i8, ptr %a, i64 %i
  %x = load i8, ptr %pa, align 1
  %xz = zext i8 %x to i64
  %ph = getelementptr inbounds i64, ptr %hist, i64 %xz
  %c = load i64, ptr %ph, align 1
  %c1 = add i64 %c, 1
  store i64 %c1, ptr %ph, align 1
  %next = add nuw i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; CHECK-LABEL: define void @unaligned(
; CHECK-NOT:     efsan.count
; CHECK-NOT:     __efsan_ws_table_unmarked
; CHECK:       loop.efsan.tables:
; CHECK-NOT:     efsan.count
; CHECK-LABEL: define internal void @efsan.module_ctor(
