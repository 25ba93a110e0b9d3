; Loop-level marking in chunks (working set): when a range of a versioned loop
; is larger than -efsan-loop-range-limit, the original loop runs, and it marks
; its ranges a chunk of C iterations at a time (C a power of two, C times the
; largest |stride| at most the limit). It counts down the iterations left in
; the chunk (a phi, 0 on entry, decremented at the latch); at 0 a cold block
; (unlikely weights) marks, for each range, the lines of the chunk's
; iterations [i, i + min(C - 1, n - i)] (inline, as a whole loop's range), i
; kept in a stack slot, and the count restarts at C. The hoisted accesses of that copy have no per-access check;
; other accesses (a data-dependent address) keep theirs.
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<working-set>' -efsan-loop-table-counts=0 -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<working-set>' -efsan-loop-range-limit=4096 -S %s | FileCheck %s --check-prefix=LIMIT

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; a[0..n) as i32: stride 4, so C = 262144 / 4 = 65536 iterations, and the
; chunk from iteration i is [a + 4i, a + 4i + 4 * min(65535, n - 1 - i) + 4).
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
; CHECK:       entry:
; CHECK-NEXT:    %efsan.chunk.first.slot = alloca i64, align 8
; CHECK:       loop.preheader:
; CHECK-NEXT:    %[[SIZE:[0-9]+]] = shl i64 %n, 2
; CHECK-NEXT:    %[[FITS:[0-9]+]] = icmp ule i64 %[[SIZE]], 262144
; CHECK-NEXT:    %[[COUNT:[0-9]+]] = add i64 %n, -1
; CHECK-NEXT:    %[[FEW:[0-9]+]] = icmp ult i64 %[[COUNT]], 262144
; CHECK-NEXT:    %[[BOTH:[0-9]+]] = and i1 %[[FITS]], %[[FEW]]
; CHECK-NEXT:    br i1 %[[BOTH]], label %loop.ph.efsan.marked, label %loop.ph
; CHECK:       loop.efsan.marked:
; CHECK:         store i32 7, ptr %p.efsan.marked, align 4, !nosanitize
; CHECK-NOT:   efsan.chunk
; CHECK:       loop.ph:
; CHECK-NEXT:    store i64 0, ptr %efsan.chunk.first.slot, align 8, !nosanitize
; CHECK-NEXT:    br label %loop
; CHECK:       loop:
; CHECK-NEXT:    %i = phi i64 [ %next, %loop.efsan.body ], [ 0, %loop.ph ]
; CHECK-NEXT:    %efsan.chunk.left = phi i64 [ 0, %loop.ph ], [ %efsan.chunk.left.next, %loop.efsan.body ]
; CHECK-NEXT:    %[[START:[0-9]+]] = icmp eq i64 %efsan.chunk.left, 0
; CHECK-NEXT:    br i1 %[[START]], label %efsan.chunk.mark, label %loop.efsan.body, !prof ![[UNLIKELY:[0-9]+]]
; CHECK:       efsan.chunk.mark:
; CHECK-NEXT:    %efsan.chunk.first = load i64, ptr %efsan.chunk.first.slot, align 8, !nosanitize
; CHECK-NEXT:    %[[NEXTFIRST:[0-9]+]] = add i64 %efsan.chunk.first, 65536
; CHECK-NEXT:    store i64 %[[NEXTFIRST]], ptr %efsan.chunk.first.slot, align 8, !nosanitize
; CHECK-NEXT:    %[[LEFT:[0-9]+]] = sub i64 %[[COUNT]], %efsan.chunk.first
; CHECK-NEXT:    %[[AHEAD:[0-9]+]] = call i64 @llvm.umin.i64(i64 %[[LEFT]], i64 65535)
; CHECK-NEXT:    %[[OFF:[0-9]+]] = mul i64 %efsan.chunk.first, 4
; CHECK-NEXT:    %[[LO:[0-9]+]] = getelementptr i8, ptr %a, i64 %[[OFF]]
; CHECK-NEXT:    %[[SPAN:[0-9]+]] = mul i64 %[[AHEAD]], 4
; CHECK-NEXT:    %[[CHUNKSIZE:[0-9]+]] = add i64 %[[SPAN]], 4
; The chunk's range is marked as a whole loop's is (working-set-loop-ranges.ll).
; CHECK-NEXT:    %[[LOINT:[0-9]+]] = ptrtoint ptr %[[LO]] to i64
; CHECK-NEXT:    lshr i64 %[[LOINT]], 6
; CHECK-NEXT:    add i64
; CHECK-NEXT:    %[[LASTBYTE:[0-9]+]] = sub i64 %[[CHUNKSIZE]], 1
; CHECK-NEXT:    add i64 %[[LOINT]], %[[LASTBYTE]]
; CHECK:       efsan.range.block{{[0-9]+}}:
; CHECK:         load i64, ptr %{{[0-9]+}}, align 1, !nosanitize
; CHECK:       efsan.range.mark{{[0-9]+}}:
; CHECK-NEXT:    sub i64
; CHECK-NEXT:    call preserve_allcc void @__efsan_ws_mark_lines(
; CHECK:       efsan.range.done{{[0-9]+}}:
; CHECK-NEXT:    br label %loop.efsan.body
; No check in the body: the store is marked by the chunk.
; CHECK:       loop.efsan.body:
; CHECK-NEXT:    %efsan.chunk.left.here = phi i64 [ %efsan.chunk.left, %loop ], [ 65536, %efsan.range.done{{[0-9]+}} ]
; CHECK-NEXT:    %p = getelementptr inbounds i32, ptr %a, i64 %i
; CHECK-NEXT:    store i32 7, ptr %p, align 4, !nosanitize
; CHECK-NEXT:    %next = add nuw nsw i64 %i, 1
; CHECK-NEXT:    %done = icmp eq i64 %next, %n
; CHECK-NEXT:    %efsan.chunk.left.next = sub i64 %efsan.chunk.left.here, 1
; CHECK-NEXT:    br i1 %done, label %exit, label %loop
; CHECK:       exit:
; With a 4 KiB limit: chunks of 1024 iterations.
; LIMIT-LABEL: define void @fill(
; LIMIT:         icmp ule i64 %{{[0-9]+}}, 4096
; LIMIT:       efsan.chunk.mark:
; LIMIT:         add i64 %efsan.chunk.first, 1024
; LIMIT:         call i64 @llvm.umin.i64(i64 %{{[0-9]+}}, i64 1023)
; LIMIT:       loop.efsan.body:
; LIMIT-NEXT:    %efsan.chunk.left.here = phi i64 [ %efsan.chunk.left, %loop ], [ 1024, %efsan.range.done{{[0-9]+}} ]

; Backward over doubles (load and store of one address): the chunk from
; iteration i is [b - 8 * (i + k - 1), b - 8i + 8) with b = &a[n - 1], the
; address of iteration 0.
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
; CHECK:       loop.preheader:
; CHECK-NEXT:    %[[SIZE:[0-9]+]] = shl i64 %n, 3
; CHECK-NEXT:    icmp ule i64 %[[SIZE]], 262144
; CHECK-NEXT:    %[[COUNT:[0-9]+]] = add i64 %n, -1
; CHECK-NEXT:    icmp ult i64 %[[COUNT]], 262144
; CHECK-NEXT:    and i1
; CHECK-NEXT:    %[[LAST:[0-9]+]] = add i64 %[[SIZE]], -8
; CHECK-NEXT:    %[[BASE:scevgep[0-9]*]] = getelementptr i8, ptr %a, i64 %[[LAST]]
; CHECK:       efsan.chunk.mark:
; CHECK-NEXT:    %efsan.chunk.first = load i64
; CHECK-NEXT:    add i64 %efsan.chunk.first, 32768
; CHECK-NEXT:    store i64
; CHECK-NEXT:    %[[LEFT:[0-9]+]] = sub i64 %[[COUNT]], %efsan.chunk.first
; CHECK-NEXT:    %[[AHEAD:[0-9]+]] = call i64 @llvm.umin.i64(i64 %[[LEFT]], i64 32767)
; CHECK-NEXT:    %[[LASTIT:[0-9]+]] = add i64 %efsan.chunk.first, %[[AHEAD]]
; CHECK-NEXT:    %[[OFF:[0-9]+]] = mul i64 %[[LASTIT]], -8
; CHECK-NEXT:    %[[LO:[0-9]+]] = getelementptr i8, ptr %[[BASE]], i64 %[[OFF]]
; CHECK-NEXT:    %[[SPAN:[0-9]+]] = mul i64 %[[AHEAD]], 8
; CHECK-NEXT:    %[[CHUNKSIZE:[0-9]+]] = add i64 %[[SPAN]], 8
; CHECK-NEXT:    %[[LOINT:[0-9]+]] = ptrtoint ptr %[[LO]] to i64
; CHECK-NEXT:    lshr i64 %[[LOINT]], 6
; CHECK-NEXT:    add i64
; CHECK-NEXT:    %[[LASTBYTE:[0-9]+]] = sub i64 %[[CHUNKSIZE]], 1
; CHECK:       loop.efsan.body:
; CHECK-NEXT:    %efsan.chunk.left.here = phi
; CHECK-NEXT:    %prev = add nsw i64 %i, -1
; CHECK-NEXT:    %p = getelementptr inbounds double, ptr %a, i64 %prev
; CHECK-NEXT:    %v = load double, ptr %p, align 8, !nosanitize
; CHECK-NEXT:    %w = fadd
; CHECK-NEXT:    store double %w, ptr %p, align 8, !nosanitize
; CHECK:       exit:

; 3-byte pixels (three loads, one group of width 3 and stride 3), a
; loop-invariant load (stride 0: the same 4 bytes in every chunk), a store of
; doubles (stride 8, so C = 262144 / 8 = 32768) and a histogram counter whose
; address depends on the data but lies in the 2 KiB of %hist[0..255]: each
; chunk also tests whether every line of that table is marked, and the
; chunk's iterations run a copy of the body without the counter's check when
; they are.
define void @pixels(ptr %img, ptr %out, ptr %scale, ptr %hist, i64 %n) {
entry:
  %guard = icmp sgt i64 %n, 0
  br i1 %guard, label %loop, label %exit
loop:
  %i = phi i64 [ %next, %loop ], [ 0, %entry ]
  %off = mul nsw i64 %i, 3
  %px = getelementptr inbounds i8, ptr %img, i64 %off
  %r = load i8, ptr %px, align 1
  %pg = getelementptr inbounds i8, ptr %px, i64 1
  %g = load i8, ptr %pg, align 1
  %pb = getelementptr inbounds i8, ptr %px, i64 2
  %b = load i8, ptr %pb, align 1
  %s = load i32, ptr %scale, align 4
  %rz = zext i8 %r to i64
  %h = getelementptr inbounds i64, ptr %hist, i64 %rz
  %c = load i64, ptr %h, align 8
  %c1 = add i64 %c, 1
  store i64 %c1, ptr %h, align 8
  %gz = zext i8 %g to i32
  %bz = zext i8 %b to i32
  %sum = add i32 %gz, %bz
  %v = mul i32 %sum, %s
  %vd = sitofp i32 %v to double
  %po = getelementptr inbounds double, ptr %out, i64 %i
  store double %vd, ptr %po, align 8
  %next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
; CHECK-LABEL: define void @pixels(
; CHECK:       {{^}}loop.ph:
; CHECK:       {{^}}loop:
; CHECK:         %efsan.tables.marked.before = phi i1 [ false, %loop.ph ], [ %[[CHUNKMARKED:efsan.tables.marked[0-9]*]], %{{[0-9]+}} ]
; CHECK:       efsan.chunk.mark:
; CHECK:         add i64 %efsan.chunk.first, 32768
; CHECK:         %[[AHEAD:[0-9]+]] = call i64 @llvm.umin.i64(i64 %{{[0-9]+}}, i64 32767)
; CHECK-NEXT:    %[[POFF:[0-9]+]] = mul i64 %efsan.chunk.first, 3
; CHECK-NEXT:    %[[PLO:[0-9]+]] = getelementptr i8, ptr %img, i64 %[[POFF]]
; CHECK-NEXT:    %[[PSPAN:[0-9]+]] = mul i64 %[[AHEAD]], 3
; CHECK-NEXT:    %[[PSIZE:[0-9]+]] = add i64 %[[PSPAN]], 3
; CHECK-NEXT:    %[[OOFF:[0-9]+]] = mul i64 %efsan.chunk.first, 8
; CHECK-NEXT:    %[[OLO:[0-9]+]] = getelementptr i8, ptr %out, i64 %[[OOFF]]
; CHECK-NEXT:    %[[OSPAN:[0-9]+]] = mul i64 %[[AHEAD]], 8
; CHECK-NEXT:    %[[OSIZE:[0-9]+]] = add i64 %[[OSPAN]], 8
; The three ranges are marked in turn: the pixels', the invariant 4 bytes at
; %scale (its last byte is %scale + 3), the doubles'.
; CHECK-NEXT:    %[[PLOINT:[0-9]+]] = ptrtoint ptr %[[PLO]] to i64
; CHECK-NEXT:    lshr i64 %[[PLOINT]], 6
; CHECK-NEXT:    add i64
; CHECK-NEXT:    %[[PLAST:[0-9]+]] = sub i64 %[[PSIZE]], 1
; CHECK:       efsan.range.done{{[0-9]+}}:
; CHECK-NEXT:    %[[SLOINT:[0-9]+]] = ptrtoint ptr %scale to i64
; CHECK-NEXT:    lshr i64 %[[SLOINT]], 6
; CHECK-NEXT:    add i64
; CHECK-NEXT:    add i64 %[[SLOINT]], 3
; CHECK:       efsan.range.done{{[0-9]+}}:
; CHECK-NEXT:    %[[OLOINT:[0-9]+]] = ptrtoint ptr %[[OLO]] to i64
; CHECK-NEXT:    lshr i64 %[[OLOINT]], 6
; CHECK-NEXT:    add i64
; CHECK-NEXT:    %[[OLAST:[0-9]+]] = sub i64 %[[OSIZE]], 1
; The table's shadow, [%hist, %hist + 2048), tested a word at a time.
; CHECK:       efsan.table.word{{[0-9]+}}:
; CHECK:         %efsan.table.missing{{[0-9]+}} = phi i64
; CHECK:       efsan.table.tested{{[0-9]+}}:
; CHECK-NEXT:    %[[TABLEMARKED:efsan.table.marked[0-9]+]] = icmp eq i64
; CHECK-NOT:     call void @__efsan_loadN
; Each iteration runs one of two copies of the body, by the last chunk's test:
; the original, whose counter keeps its check (one for its load and store:
; shadow byte tested, cold block marks it), or a copy without it.
; CHECK:       loop.efsan.body:
; CHECK:         %[[CHUNKMARKED]] = phi i1 [ %efsan.tables.marked.before, %loop ], [ %[[TABLEMARKED]], %efsan.table.tested{{[0-9]+}} ]
; CHECK-NEXT:    br i1 %[[CHUNKMARKED]], label %loop.efsan.tables, label %loop.efsan.checked
; CHECK:       loop.efsan.checked:
; CHECK:         %r = load i8, ptr %px, align 1, !nosanitize
; CHECK:         %g = load i8, ptr %pg, align 1, !nosanitize
; CHECK:         %b = load i8, ptr %pb, align 1, !nosanitize
; CHECK:         %s = load i32, ptr %scale, align 4, !nosanitize
; CHECK:         %h = getelementptr inbounds i64, ptr %hist, i64 %rz
; CHECK-NEXT:    %[[HINT:[0-9]+]] = ptrtoint ptr %h to i64
; CHECK-NEXT:    lshr i64 %[[HINT]], 6
; CHECK:         or i8 %{{[0-9]+}}, -127
; CHECK:         %c = load i64, ptr %h, align 8{{$}}
; CHECK-NEXT:    %c1 = add i64 %c, 1
; CHECK-NEXT:    store i64 %c1, ptr %h, align 8{{$}}
; CHECK:         store double %vd, ptr %po, align 8, !nosanitize
; CHECK:         %efsan.chunk.left.next = sub i64 %efsan.chunk.left.here, 1
; CHECK-NEXT:    br i1 %done, label %exit, label %loop
; CHECK:       loop.efsan.tables:
; CHECK-NOT:     ptrtoint
; CHECK:         %c.efsan.tables = load i64, ptr %h.efsan.tables, align 8, !nosanitize
; CHECK-NEXT:    %c1.efsan.tables = add i64 %c.efsan.tables, 1
; CHECK-NEXT:    store i64 %c1.efsan.tables, ptr %h.efsan.tables, align 8, !nosanitize
; CHECK-NOT:     ptrtoint
; CHECK:         br i1 %done.efsan.tables, label %exit, label %loop

; A constant trip count whose ranges always fit: the original loop is never
; run, so it gets no chunk marks.
define void @small(ptr %a) {
entry:
  br label %loop
loop:
  %i = phi i64 [ %next, %loop ], [ 0, %entry ]
  %p = getelementptr inbounds i32, ptr %a, i64 %i
  store i32 7, ptr %p, align 4
  %next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %next, 100
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
; CHECK-LABEL: define void @small(
; CHECK-NOT:     efsan.chunk
; CHECK:         br i1 true, label %loop.ph.efsan.marked, label %loop.ph
; CHECK-NOT:     efsan.chunk
; CHECK:         ret void

; The chunk mark is cold.
; CHECK:       ![[UNLIKELY]] = !{!"branch_weights", i32 1, i32 1048575}
