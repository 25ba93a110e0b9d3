; cache-frag: where the function's copy of the countdown meets the thread's.
; It is loaded at entry, kept in SSA values (a loop with no call keeps it in a
; phi: no load or store of the thread's countdown in its body outside the cold
; blocks), stored back before every call site (a call of a function, also one
; tagged nosanitize; a memset/memcpy/memmove or masked access, which become
; runtime calls) and reloaded after it, reloaded at the normal destination of
; an invoke (on an edge of its own if the destination has other predecessors)
; and after a landing pad, and stored back before ret and resume. Intrinsics
; that stay intrinsics and inline asm are not call sites. A store of the value
; just reloaded (no access in between) is dropped with its reload. A function
; with no run of accesses keeps no copy.
; Loops without their clean copies (cache-frag-clean-loops.ll tests those).
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -efsan-cache-frag-clean-loops=0 -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -S %s | %opt -passes=verify -disable-output

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i64 @loop(ptr %p, i64 %n) {
entry:
  br label %body

body:
  %i = phi i64 [ 0, %entry ], [ %i.next, %body ]
  %s = phi i64 [ 0, %entry ], [ %s.next, %body ]
  %a = getelementptr inbounds i64, ptr %p, i64 %i
  %v = load i64, ptr %a, align 8
  %s.next = add i64 %s, %v
  store i64 %s.next, ptr %a, align 8
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %body

exit:
  ret i64 %s.next
}
; The store's flags 134676481 are 8 << 24 | 7 << 16 | 1: a write whose loop
; runs 7 instructions and 2 accesses (8 quarters) per write
; (cache-frag-loop-work.c).
; CHECK-LABEL: define i64 @loop(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown), !nosanitize
; CHECK-NEXT:    [[C0:%[0-9]+]] = load i64, ptr [[TLS]], align 8, !nosanitize
; CHECK-NEXT:    br label %body
; CHECK:       body:
; CHECK-NEXT:    [[C:%efsan.countdown[.0-9]*]] = phi i64 [ [[C0]], %entry ], [ [[CNEXT:%efsan.countdown[.0-9]*]], %[[LATCH:[0-9]+]] ]
; CHECK-NOT:     __efsan_cache_frag_countdown
; CHECK:         %done = icmp eq i64 %i.next, %n
; CHECK-NEXT:    [[C2:%[0-9]+]] = add nsw i64 [[C]], -2
; CHECK-NEXT:    [[DUE:%[0-9]+]] = icmp sle i64 [[C2]], 0
; CHECK-NEXT:    br i1 [[DUE]], label %[[SAMPLE:[0-9]+]], label %[[LATCH]], !prof
; The thread's countdown is touched only in the cold blocks: the switch on the
; access the count ran out at, a case per access (countdown 1, its one call,
; then the other access counted off the new period when it is longer, else
; the chain from access 1), the default's store of c before the chain of both
; calls, and the reload in the block they all reach.
; CHECK:       {{^}}[[SAMPLE]]:
; CHECK-NEXT:    [[BEFORE:%[0-9]+]] = add nsw i64 [[C2]], 2
; CHECK-NEXT:    [[IDX:%[0-9]+]] = add nsw i64 [[BEFORE]], -1
; CHECK-NEXT:    switch i64 [[IDX]], label %[[WHOLE:[0-9]+]] [
; CHECK-NEXT:      i64 0, label %[[CASE0:[0-9]+]]
; CHECK-NEXT:      i64 1, label %[[CASE1:[0-9]+]]
; CHECK-NEXT:    ]
; CHECK:       {{^}}[[CASE0]]:
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown)
; CHECK-NEXT:    store i64 1, ptr [[TLS]], align 8
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %a, i64 8, i32 0, ptr null)
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown)
; CHECK-NEXT:    [[T:%[0-9]+]] = load i64, ptr [[TLS]], align 8
; CHECK-NEXT:    [[COVERS:%[0-9]+]] = icmp sgt i64 [[T]], 1
; CHECK-NEXT:    [[REST:%[0-9]+]] = add nsw i64 [[T]], -1
; CHECK-NEXT:    [[NEW:%[0-9]+]] = select i1 [[COVERS]], i64 [[REST]], i64 [[T]]
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown)
; CHECK-NEXT:    store i64 [[NEW]], ptr [[TLS]], align 8
; CHECK-NEXT:    br i1 [[COVERS]], label %[[DONE:[0-9]+]], label %[[CHAIN1:[0-9]+]]
; CHECK:       {{^}}[[CASE1]]:
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown)
; CHECK-NEXT:    store i64 1, ptr [[TLS]], align 8
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %a, i64 8, i32 134676481, ptr null)
; CHECK-NEXT:    br label %[[DONE]]
; CHECK:       {{^}}[[WHOLE]]:
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown)
; CHECK-NEXT:    store i64 [[BEFORE]], ptr [[TLS]], align 8
; CHECK-NEXT:    br label %[[CHAIN0:[0-9]+]]
; CHECK:       {{^}}[[CHAIN0]]:
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %a, i64 8, i32 0, ptr null)
; CHECK-NEXT:    br label %[[CHAIN1]]
; CHECK:       {{^}}[[CHAIN1]]:
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %a, i64 8, i32 134676481, ptr null)
; CHECK-NEXT:    br label %[[DONE]]
; CHECK:       {{^}}[[DONE]]:
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown)
; CHECK-NEXT:    [[C3:%[0-9]+]] = load i64, ptr [[TLS]], align 8
; CHECK-NEXT:    br label %[[LATCH]]
; CHECK:       {{^}}[[LATCH]]:
; CHECK-NEXT:    [[CNEXT]] = phi i64 [ [[C3]], %[[DONE]] ], [ [[C2]], %body ]
; CHECK-NEXT:    br i1 %done, label %exit, label %body
; CHECK:       exit:
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown)
; CHECK-NEXT:    store i64 [[CNEXT]], ptr [[TLS]], align 8
; CHECK-NEXT:    ret i64 %s.next

define void @calls(ptr %p) {
  store i32 1, ptr %p, align 4
  call void @f()
  call void @f()
  %v = load i32, ptr %p, align 4
  call void @llvm.assume(i1 true)
  call void asm sideeffect "", ""()
  store i32 %v, ptr %p, align 4
  call void @f(), !nosanitize !0
  ret void
}
; Two calls in a row: one store before, one reload after. llvm.assume and
; inline asm do not end the run; a nosanitize call does.
; CHECK-LABEL: define void @calls(
; CHECK:         add nsw i64 %{{[0-9]+}}, -1
; CHECK:         call preserve_mostcc void @__efsan_cache_frag_access(ptr %p, i64 4, i32 1, ptr null)
; CHECK:         [[C:%efsan.countdown[.0-9]*]] = phi i64
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown)
; CHECK-NEXT:    store i64 [[C]], ptr [[TLS]], align 8
; CHECK-NEXT:    call void @f()
; CHECK-NEXT:    call void @f()
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown)
; CHECK-NEXT:    [[C:%[0-9]+]] = load i64, ptr [[TLS]], align 8
; CHECK-NEXT:    %v = load i32, ptr %p, align 4
; CHECK-NEXT:    call void @llvm.assume(i1 true)
; CHECK-NEXT:    call void asm sideeffect "", ""()
; CHECK-NEXT:    store i32 %v, ptr %p, align 4
; CHECK-NEXT:    add nsw i64 [[C]], -2
; CHECK:         switch i64 %{{[0-9]+}}, label %[[WHOLE:[0-9]+]] [
; CHECK-NEXT:      i64 0, label %[[CASE0:[0-9]+]]
; CHECK-NEXT:      i64 1, label %[[CASE1:[0-9]+]]
; CHECK-NEXT:    ]
; CHECK:       {{^}}[[CASE0]]:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 1, ptr
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %p, i64 4, i32 0, ptr null)
; CHECK:       {{^}}[[CASE1]]:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64 1, ptr
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %p, i64 4, i32 1, ptr null)
; CHECK:       {{^}}[[WHOLE]]:
; CHECK:         call preserve_mostcc void @__efsan_cache_frag_access(ptr %p, i64 4, i32 0, ptr null)
; CHECK-NEXT:    br label %[[CHAIN1:[0-9]+]]
; CHECK:       {{^}}[[CHAIN1]]:
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %p, i64 4, i32 1, ptr null)
; CHECK:         [[C:%efsan.countdown[.0-9]*]] = phi i64
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown)
; CHECK-NEXT:    store i64 [[C]], ptr [[TLS]], align 8
; CHECK-NEXT:    call void @f(), !nosanitize
; CHECK-NEXT:    ret void

define void @only_calls(ptr %p) {
  call void @f()
  call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 128, i1 false)
  ret void
}
; CHECK-LABEL: define void @only_calls(
; CHECK-NEXT:    call void @f()
; CHECK-NEXT:    call ptr @__efsan_memset(ptr %p, i32 0, i64 128)
; CHECK-NEXT:    ret void

define void @intrinsic_call_sites(ptr %p, <2 x i1> %m) {
  store i32 1, ptr %p, align 4
  call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 128, i1 false)
  store i32 2, ptr %p, align 4
  %w = call <2 x i32> @llvm.masked.load.v2i32.p0(ptr %p, i32 4, <2 x i1> %m, <2 x i32> zeroinitializer)
  store i32 3, ptr %p, align 4
  ret void
}
; CHECK-LABEL: define void @intrinsic_call_sites(
; CHECK:         [[C:%efsan.countdown[.0-9]*]] = phi i64
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown)
; CHECK-NEXT:    store i64 [[C]], ptr [[TLS]], align 8
; CHECK-NEXT:    call ptr @__efsan_memset(ptr %p, i32 0, i64 128)
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown)
; CHECK-NEXT:    [[C:%[0-9]+]] = load i64, ptr [[TLS]], align 8
; CHECK-NEXT:    store i32 2, ptr %p, align 4
; CHECK-NEXT:    add nsw i64 [[C]], -1
; CHECK:         [[C:%efsan.countdown[.0-9]*]] = phi i64
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown)
; CHECK-NEXT:    store i64 [[C]], ptr [[TLS]], align 8
; CHECK-NEXT:    extractelement <2 x i1> %m, i64 0
; CHECK-NEXT:    [[S0:%[0-9]+]] = select i1
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr %p, i64 [[S0]], i32 0, ptr null)
; CHECK-NEXT:    [[P1:%[0-9]+]] = getelementptr i32, ptr %p, i64 1
; CHECK-NEXT:    extractelement <2 x i1> %m, i64 1
; CHECK-NEXT:    [[S1:%[0-9]+]] = select i1
; CHECK-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr [[P1]], i64 [[S1]], i32 0, ptr null)
; CHECK-NEXT:    %w = call <2 x i32> @llvm.masked.load.v2i32.p0(
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown)
; CHECK-NEXT:    [[C:%[0-9]+]] = load i64, ptr [[TLS]], align 8
; CHECK-NEXT:    store i32 3, ptr %p, align 4
; CHECK-NEXT:    add nsw i64 [[C]], -1

define i32 @invoke(ptr %p) personality ptr @__gxx_personality_v0 {
entry:
  store i32 1, ptr %p, align 4
  invoke void @f() to label %cont unwind label %lpad

cont:
  %v = load i32, ptr %p, align 4
  ret i32 %v

lpad:
  %lp = landingpad { ptr, i32 } cleanup
  store i32 2, ptr %p, align 4
  resume { ptr, i32 } %lp
}
; CHECK-LABEL: define i32 @invoke(
; CHECK:         [[C:%efsan.countdown[.0-9]*]] = phi i64
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown)
; CHECK-NEXT:    store i64 [[C]], ptr [[TLS]], align 8
; CHECK-NEXT:    invoke void @f()
; CHECK-NEXT:    to label %cont unwind label %lpad
; CHECK:       cont:
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown)
; CHECK-NEXT:    [[C:%[0-9]+]] = load i64, ptr [[TLS]], align 8
; CHECK-NEXT:    %v = load i32, ptr %p, align 4
; CHECK-NEXT:    add nsw i64 [[C]], -1
; CHECK:         call preserve_mostcc void @__efsan_cache_frag_access(ptr %p, i64 4, i32 0, ptr null)
; CHECK:         [[C:%efsan.countdown[.0-9]*]] = phi i64
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown)
; CHECK-NEXT:    store i64 [[C]], ptr [[TLS]], align 8
; CHECK-NEXT:    ret i32 %v
; CHECK:       lpad:
; CHECK-NEXT:    %lp = landingpad { ptr, i32 }
; CHECK-NEXT:    cleanup
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown)
; CHECK-NEXT:    [[C:%[0-9]+]] = load i64, ptr [[TLS]], align 8
; CHECK-NEXT:    store i32 2, ptr %p, align 4
; CHECK-NEXT:    add nsw i64 [[C]], -1
; CHECK:         call preserve_mostcc void @__efsan_cache_frag_access(ptr %p, i64 4, i32 1, ptr null)
; CHECK:         [[C:%efsan.countdown[.0-9]*]] = phi i64
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown)
; CHECK-NEXT:    store i64 [[C]], ptr [[TLS]], align 8
; CHECK-NEXT:    resume { ptr, i32 } %lp

define i32 @invoke_shared_dest(ptr %p, i1 %c) personality ptr @__gxx_personality_v0 {
entry:
  store i32 1, ptr %p, align 4
  br i1 %c, label %a, label %b

a:
  invoke void @f() to label %join unwind label %lpad

b:
  invoke void @f() to label %join unwind label %lpad

join:
  %v = load i32, ptr %p, align 4
  ret i32 %v

lpad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}
; A normal destination with two invokes: each edge gets a block that reloads.
; The landing pad's reload would only be stored back at the resume: neither
; is emitted.
; CHECK-LABEL: define i32 @invoke_shared_dest(
; CHECK:       a:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64
; CHECK-NEXT:    invoke void @f()
; CHECK-NEXT:    to label %[[AEDGE:.+]] unwind label %lpad
; CHECK:       [[AEDGE]]:
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown)
; CHECK-NEXT:    [[CA:%[0-9]+]] = load i64, ptr [[TLS]], align 8
; CHECK-NEXT:    br label %join
; CHECK:       b:
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(
; CHECK-NEXT:    store i64
; CHECK-NEXT:    invoke void @f()
; CHECK-NEXT:    to label %[[BEDGE:.+]] unwind label %lpad
; CHECK:       [[BEDGE]]:
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown)
; CHECK-NEXT:    [[CB:%[0-9]+]] = load i64, ptr [[TLS]], align 8
; CHECK-NEXT:    br label %join
; CHECK:       join:
; CHECK-NEXT:    [[C:%efsan.countdown[.0-9]*]] = phi i64 [ [[CA]], %[[AEDGE]] ], [ [[CB]], %[[BEDGE]] ]
; CHECK-NEXT:    %v = load i32, ptr %p, align 4
; CHECK-NEXT:    add nsw i64 [[C]], -1
; CHECK:       lpad:
; CHECK-NEXT:    %lp = landingpad { ptr, i32 }
; CHECK-NEXT:    cleanup
; CHECK-NEXT:    resume { ptr, i32 } %lp

define i32 @tail(ptr %p) {
  store i32 1, ptr %p, align 4
  %r = musttail call i32 @g(ptr %p)
  ret i32 %r
}
; A musttail call must be followed by the return: stored before, nothing after.
; CHECK-LABEL: define i32 @tail(
; CHECK:         [[C:%efsan.countdown[.0-9]*]] = phi i64
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown)
; CHECK-NEXT:    store i64 [[C]], ptr [[TLS]], align 8
; CHECK-NEXT:    %r = musttail call i32 @g(ptr %p)
; CHECK-NEXT:    ret i32 %r

define void @noreturn(ptr %p) {
  store i32 1, ptr %p, align 4
  call void @abort()
  unreachable
}
; CHECK-LABEL: define void @noreturn(
; CHECK:         [[C:%efsan.countdown[.0-9]*]] = phi i64
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown)
; CHECK-NEXT:    store i64 [[C]], ptr [[TLS]], align 8
; CHECK-NEXT:    call void @abort()
; CHECK-NEXT:    unreachable

; An optnone function (clang -O0) keeps no copy: each run subtracts from the
; thread's countdown itself in an asm goto at its end, whose indirect label is
; the cold block; that block reads the countdown back (c2) and goes on from
; c = c2 + n; nothing is stored before a call or reloaded after it.
define i64 @debug(ptr %p) noinline optnone {
entry:
  %v = load i64, ptr %p, align 8
  %w = add i64 %v, 1
  store i64 %w, ptr %p, align 8
  call void @f()
  store i64 %v, ptr %p, align 8
  ret i64 %v
}
; CHECK-LABEL: define i64 @debug(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %v = load i64, ptr %p, align 8
; CHECK-NEXT:    %w = add i64 %v, 1
; CHECK-NEXT:    store i64 %w, ptr %p, align 8
; CHECK-NEXT:    callbr void asm sideeffect "movq __efsan_cache_frag_countdown@GOTTPOFF(%rip), %rax\0A\09subq $$2, %fs:(%rax)\0A\09jle ${0:l}", "!i,~{rax},~{memory},~{dirflag},~{fpsr},~{flags}"()
; CHECK-NEXT:    to label %[[REST:[a-z0-9.]+]] [label %[[COLD:[0-9]+]]]
; CHECK:       {{^}}[[COLD]]:
; CHECK-NEXT:    [[TLS:%[0-9]+]] = call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown)
; CHECK-NEXT:    [[C2:%[0-9]+]] = load i64, ptr [[TLS]], align 8
; CHECK-NEXT:    [[BEFORE:%[0-9]+]] = add nsw i64 [[C2]], 2
; CHECK-NEXT:    [[IDX:%[0-9]+]] = add nsw i64 [[BEFORE]], -1
; CHECK-NEXT:    switch i64 [[IDX]]
; CHECK:       {{^}}[[REST]]:
; CHECK-NEXT:    call void @f()
; CHECK-NEXT:    store i64 %v, ptr %p, align 8
; CHECK-NEXT:    callbr void asm sideeffect "movq __efsan_cache_frag_countdown@GOTTPOFF(%rip), %rax\0A\09subq $$1, %fs:(%rax)\0A\09jle ${0:l}"
; CHECK-NOT:   efsan.countdown
; CHECK:         ret i64 %v

declare void @f()
declare i32 @g(ptr)
declare void @abort() noreturn
declare i32 @__gxx_personality_v0(...)
declare void @llvm.assume(i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare <2 x i32> @llvm.masked.load.v2i32.p0(ptr, i32, <2 x i1>, <2 x i32>)
!0 = !{}

; The preserve_most callout is bound when the module is loaded (through the
; GOT): a lazily bound PLT entry's resolver follows the C convention and may
; clobber r10, which the callers keep live across the call.
; CHECK: declare preserve_mostcc void @__efsan_cache_frag_access(ptr, i64, i32, ptr) [[ACCESS_ATTRS:#[0-9]+]]
; CHECK: attributes [[ACCESS_ATTRS]] = { {{.*}}nonlazybind{{.*}} }
