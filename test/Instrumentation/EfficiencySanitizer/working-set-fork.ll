; A forked child's working set starts at the fork with no line marked: the
; accesses after a call of fork are checked although the function checked
; their line before it, in the same block and in the blocks it leads to.
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<working-set>' -S %s | FileCheck %s

declare i32 @fork()

define i32 @touch_fork_touch(ptr %p) {
  %v = load i32, ptr %p, align 4
  %pid = call i32 @fork()
  store i32 %pid, ptr %p, align 4
  %c = icmp eq i32 %pid, 0
  br i1 %c, label %child, label %parent
child:
  %w = load i32, ptr %p, align 4
  ret i32 %w
parent:
  ret i32 %v
}
; CHECK-LABEL: define i32 @touch_fork_touch(
; CHECK:         store atomic i8 1
; CHECK:         %v = load i32, ptr %p, align 4
; CHECK-NEXT:    %pid = call i32 @fork()
; CHECK:         store atomic i8 1
; CHECK:         store i32 %pid, ptr %p, align 4
; CHECK:       child:
; CHECK:         store atomic i8 1
; CHECK:         %w = load i32, ptr %p, align 4

; Without fork the repeated accesses are not checked again.
define i32 @touch_call_touch(ptr %p) {
  %v = load i32, ptr %p, align 4
  %pid = call i32 @getpid()
  store i32 %pid, ptr %p, align 4
  %c = icmp eq i32 %pid, 0
  br i1 %c, label %child, label %parent
child:
  %w = load i32, ptr %p, align 4
  ret i32 %w
parent:
  ret i32 %v
}
declare i32 @getpid()
; CHECK-LABEL: define i32 @touch_call_touch(
; CHECK:         store atomic i8 1
; CHECK:         %v = load i32, ptr %p, align 4
; CHECK-NOT:     store atomic i8 1
; CHECK:         %w = load i32, ptr %p, align 4
; CHECK-NEXT:    ret i32 %w
