; Every instrumented module gets the tool id and a priority-0 constructor
; calling __efsan_init(tool, info); cache-frag also a destructor calling
; __efsan_module_fini(info). A module that already has __efsan_which_tool is not
; instrumented again, whatever the tool.
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<working-set>' -S %s | FileCheck %s --check-prefix=WS
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -S %s | FileCheck %s --check-prefix=CF
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<working-set>,efsan<working-set>' -S %s | FileCheck %s --check-prefixes=WS,ONCE
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes='efsan<working-set>' -S %s \
; RUN:   | %opt -load-pass-plugin=%efsan_plugin -passes='efsan<cache-frag>' -S | FileCheck %s --check-prefixes=WS,ONCE
; Plain `efsan` takes the tool from -efsan-tool=, and does nothing without it.
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes=efsan -efsan-tool=working-set -S %s | FileCheck %s --check-prefix=WS
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes=efsan -efsan-tool=cache-frag -S %s | FileCheck %s --check-prefix=CF
; RUN: %opt -load-pass-plugin=%efsan_plugin -passes=efsan -S %s | FileCheck %s --check-prefix=NONE
; RUN: not %opt -load-pass-plugin=%efsan_plugin -passes='efsan<bogus>' -S %s 2>&1 | FileCheck %s --check-prefix=BAD

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@g = global i32 0

define i32 @f() {
  %v = load i32, ptr @g, align 4
  ret i32 %v
}

; WS:      @__efsan_which_tool = weak constant i32 2
; WS:      @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 0, ptr @efsan.module_ctor, ptr null }]
; WS-NOT:  @llvm.global_dtors
; WS-LABEL: define i32 @f()
; ONCE:      lshr {{.*}}, 6{{$}}
; ONCE-NOT:  lshr {{.*}}, 6{{$}}
; ONCE-NOT:  __efsan_cache_frag_countdown
; WS-LABEL: define internal void @efsan.module_ctor()
; WS-NEXT:    call void @__efsan_init(i32 2, ptr null)
; WS-NEXT:    ret void
; WS-NOT:   efsan.module_ctor
; WS-NOT:   efsan.module_dtor

; CF:      @__efsan.cache_frag_module_info = private constant { i32, ptr, i32, ptr, i32, ptr } { i32 2, ptr @__efsan.module_name, i32 0, ptr null, i32 0, ptr null }
; CF:      @__efsan_which_tool = weak constant i32 1
; CF:      @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 0, ptr @efsan.module_ctor, ptr null }]
; CF:      @llvm.global_dtors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 0, ptr @efsan.module_dtor, ptr null }]
; CF-LABEL: define internal void @efsan.module_ctor()
; CF-NEXT:    call void @__efsan_init(i32 1, ptr @__efsan.cache_frag_module_info)
; CF-LABEL: define internal void @efsan.module_dtor()
; CF-NEXT:    call void @__efsan_module_fini(ptr @__efsan.cache_frag_module_info)

; NONE-NOT: {{__efsan|efsan\.module}}

; BAD: efsan: unknown tool 'bogus' (want working-set or cache-frag)
