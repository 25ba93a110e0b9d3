; cache-frag: flags bit 1 marks the writes a core cannot retire into its store
; buffer (atomicrmw, cmpxchg, a seq_cst store: x86's lock-prefixed
; instructions and xchg), so that the runtime prices their contention as
; stalls of a whole transfer. Plain, relaxed and release stores are plain
; writes (flags 1), loads of any ordering reads (flags 0). The flag is a
; constant of the cold call: the fast path is the same for every access.
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -S %s | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define void @kinds(ptr %p, ptr %q, ptr %r, ptr %s, ptr %t, ptr %u, ptr %v) {
  %old = atomicrmw add ptr %p, i64 1 monotonic, align 8
  call void @g()
  %pair = cmpxchg ptr %q, i32 0, i32 1 acq_rel monotonic, align 4
  call void @g()
  store atomic i64 1, ptr %r seq_cst, align 8
  call void @g()
  store atomic i64 1, ptr %s release, align 8
  call void @g()
  store i64 1, ptr %t, align 8
  call void @g()
  %x = load atomic i64, ptr %u seq_cst, align 8
  call void @g()
  %y = atomicrmw xchg ptr %v, i8 1 seq_cst, align 1
  ret void
}
declare void @g()
; CHECK-LABEL: define void @kinds(
; CHECK: call {{.*}}void @__efsan_cache_frag_access(ptr %p, i64 8, i32 3, ptr null)
; CHECK: call {{.*}}void @__efsan_cache_frag_access(ptr %q, i64 4, i32 3, ptr null)
; CHECK: call {{.*}}void @__efsan_cache_frag_access(ptr %r, i64 8, i32 3, ptr null)
; CHECK: call {{.*}}void @__efsan_cache_frag_access(ptr %s, i64 8, i32 1, ptr null)
; CHECK: call {{.*}}void @__efsan_cache_frag_access(ptr %t, i64 8, i32 1, ptr null)
; CHECK: call {{.*}}void @__efsan_cache_frag_access(ptr %u, i64 8, i32 0, ptr null)
; CHECK: call {{.*}}void @__efsan_cache_frag_access(ptr %v, i64 1, i32 3, ptr null)
