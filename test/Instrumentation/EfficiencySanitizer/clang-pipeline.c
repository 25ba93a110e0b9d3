// The plugin in clang's pipeline: the pass runs exactly once, at the
// OptimizerLast point, at -O0, -O2, and in the pre-link step of full and thin
// LTO (the only step that loads the plugin); without -efsan-tool it does
// nothing.
// RUN: %stock_clang -Xclang -load -Xclang %efsan_plugin -fpass-plugin=%efsan_plugin -mllvm -efsan-tool=working-set \
// RUN:   -O0 -S -emit-llvm %s -o - | FileCheck %s --check-prefixes=CHECK,O0
// RUN: %stock_clang -Xclang -load -Xclang %efsan_plugin -fpass-plugin=%efsan_plugin -mllvm -efsan-tool=working-set \
// RUN:   -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefixes=CHECK,O2
// RUN: %stock_clang -Xclang -load -Xclang %efsan_plugin -fpass-plugin=%efsan_plugin -mllvm -efsan-tool=working-set \
// RUN:   -O2 -flto -S -emit-llvm %s -o - | FileCheck %s --check-prefixes=CHECK,O2
// RUN: %stock_clang -Xclang -load -Xclang %efsan_plugin -fpass-plugin=%efsan_plugin -mllvm -efsan-tool=working-set \
// RUN:   -O2 -flto=thin -S -emit-llvm %s -o - | FileCheck %s --check-prefixes=CHECK,O2
// RUN: %stock_clang -Xclang -load -Xclang %efsan_plugin -fpass-plugin=%efsan_plugin -mllvm -efsan-tool=cache-frag \
// RUN:   -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=CF
//
// Exactly one run, and the last pass that can change code (after it only
// clang's fixed tail: GlobalDCE, constant merging, call-graph profile...).
// RUN: %stock_clang -Xclang -load -Xclang %efsan_plugin -fpass-plugin=%efsan_plugin -mllvm -efsan-tool=working-set \
// RUN:   -O0 -c %s -o /dev/null -Xclang -fdebug-pass-manager 2>&1 | grep -c 'Running pass: EfficiencySanitizerPass' | FileCheck %s --check-prefix=ONCE
// RUN: %stock_clang -Xclang -load -Xclang %efsan_plugin -fpass-plugin=%efsan_plugin -mllvm -efsan-tool=working-set \
// RUN:   -O2 -c %s -o /dev/null -Xclang -fdebug-pass-manager 2>&1 | FileCheck %s --check-prefix=LAST
// RUN: %stock_clang -Xclang -load -Xclang %efsan_plugin -fpass-plugin=%efsan_plugin -mllvm -efsan-tool=working-set \
// RUN:   -O2 -flto -c %s -o /dev/null -Xclang -fdebug-pass-manager 2>&1 | grep -c 'Running pass: EfficiencySanitizerPass' | FileCheck %s --check-prefix=ONCE
// RUN: %stock_clang -Xclang -load -Xclang %efsan_plugin -fpass-plugin=%efsan_plugin -mllvm -efsan-tool=working-set \
// RUN:   -O2 -flto=thin -c %s -o /dev/null -Xclang -fdebug-pass-manager 2>&1 | grep -c 'Running pass: EfficiencySanitizerPass' | FileCheck %s --check-prefix=ONCE
//
// RUN: %stock_clang -Xclang -load -Xclang %efsan_plugin -fpass-plugin=%efsan_plugin \
// RUN:   -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=NONE
//
// The driver under test (efsan-clang or the native clang) gives the same code.
// RUN: %clang -fsanitize=efficiency-working-set -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefixes=CHECK,O2

struct counter { long hits; long misses; };

long bump(struct counter *c, long n) {
  for (long i = 0; i < n; i++)
    c->misses += i;
  return c->hits;
}

// CHECK: @__efsan_which_tool = weak constant i32 2
// CHECK: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 0, ptr @efsan.module_ctor, ptr null }]
// CHECK-LABEL: define {{.*}}i64 @bump(
// CHECK:         lshr i64 %{{[0-9]+}}, 6
// CHECK-NEXT:    add i64 %{{[0-9]+}}, 2147450880
// CHECK-NEXT:    inttoptr
// CHECK-NEXT:    load i8, ptr %{{[0-9]+}}, align 1, !nosanitize
// CHECK-NEXT:    and i8 %{{[0-9]+}}, 1
// CHECK-NEXT:    icmp eq i8 %{{[0-9]+}}, 0
// At -O2 the loop is folded: one check for the load and store of c->misses
// (same address, same block), one for the load of c->hits.
// O2:            lshr i64 %{{[0-9]+}}, 6
// O2-NOT:        lshr i64 %{{[0-9]+}}, 6{{$}}
// O2:            ret i64
// At -O0 every access is instrumented, locals included: 9 checks (the
// parameter spills, i = 0, the loop test's i and n, i and c in the body,
// c->misses += (load and store, one check), c and c->hits); i++ has none: its
// block is entered only from the body, which checked i.
// O0-COUNT-8:    lshr i64 %{{[0-9]+}}, 6
// O0-NOT:        lshr i64 %{{[0-9]+}}, 6{{$}}
// O0:            ret i64
// CHECK-LABEL: define internal void @efsan.module_ctor()
// CHECK-NEXT:    call void @__efsan_init(i32 2, ptr null)

// CF: @__efsan_cache_frag_countdown = external thread_local(initialexec) global i64
// CF: @__efsan.struct.counter.counters = private global [2 x i64] zeroinitializer
// CF: @__efsan_which_tool = weak constant i32 1
// CF-LABEL: define {{.*}}i64 @bump(
// CF-NEXT:    call ptr @llvm.threadlocal.address.p0(ptr @__efsan_cache_frag_countdown)
// CF-NEXT:    [[C:%[0-9]+]] = load i64, ptr
// At -O2 the loop is folded: one run of the load and store of c->misses, one
// of the load of c->hits, each passing the field's counter. The run of two
// switches on the access the count ran out at (a case each, countdown 1),
// and otherwise reports both down the chain.
// CF:         [[C2:%[0-9]+]] = add nsw i64 [[C]], -2
// CF-NEXT:    icmp sle i64 [[C2]], 0
// CF:         [[BEFORE:%[0-9]+]] = add nsw i64 [[C2]], 2
// CF-NEXT:    [[IDX:%[0-9]+]] = add nsw i64 [[BEFORE]], -1
// CF-NEXT:    switch i64 [[IDX]], label %[[WHOLE:[0-9]+]] [
// CF-NEXT:      i64 0, label %[[CASE0:[0-9]+]]
// CF-NEXT:      i64 1, label %[[CASE1:[0-9]+]]
// CF-NEXT:    ]
// CF:       {{^}}[[CASE0]]:
// CF-NEXT:    call ptr @llvm.threadlocal.address.p0(
// CF-NEXT:    store i64 1, ptr
// CF-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr [[ADDR:%[0-9]+]], i64 8, i32 0, ptr getelementptr inbounds ([2 x i64], ptr @__efsan.struct.counter.counters, i32 0, i32 1))
// CF-NEXT:    call ptr @llvm.threadlocal.address.p0(
// CF-NEXT:    [[T:%[0-9]+]] = load i64, ptr
// CF-NEXT:    [[COVERS:%[0-9]+]] = icmp sgt i64 [[T]], 1
// CF-NEXT:    [[REST:%[0-9]+]] = add nsw i64 [[T]], -1
// CF-NEXT:    [[NEW:%[0-9]+]] = select i1 [[COVERS]], i64 [[REST]], i64 [[T]]
// CF-NEXT:    call ptr @llvm.threadlocal.address.p0(
// CF-NEXT:    store i64 [[NEW]], ptr
// CF-NEXT:    br i1 [[COVERS]], label %[[DONE:[0-9]+]], label %[[CHAIN1:[0-9]+]]
// CF:       {{^}}[[CASE1]]:
// CF-NEXT:    call ptr @llvm.threadlocal.address.p0(
// CF-NEXT:    store i64 1, ptr
// CF-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr [[ADDR]], i64 8, i32 1, ptr getelementptr inbounds ([2 x i64], ptr @__efsan.struct.counter.counters, i32 0, i32 1))
// CF-NEXT:    br label %[[DONE]]
// CF:       {{^}}[[WHOLE]]:
// CF-NEXT:    call ptr @llvm.threadlocal.address.p0(
// CF-NEXT:    store i64 [[BEFORE]], ptr
// CF-NEXT:    br label %[[CHAIN0:[0-9]+]]
// CF:       {{^}}[[CHAIN0]]:
// CF-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr [[ADDR]], i64 8, i32 0, ptr getelementptr inbounds ([2 x i64], ptr @__efsan.struct.counter.counters, i32 0, i32 1))
// CF-NEXT:    br label %[[CHAIN1]]
// CF:       {{^}}[[CHAIN1]]:
// CF-NEXT:    call preserve_mostcc void @__efsan_cache_frag_access(ptr [[ADDR]], i64 8, i32 1, ptr getelementptr inbounds ([2 x i64], ptr @__efsan.struct.counter.counters, i32 0, i32 1))
// CF-NEXT:    br label %[[DONE]]
// CF:       {{^}}[[DONE]]:
// CF-NEXT:    call ptr @llvm.threadlocal.address.p0(
// CF-NEXT:    load i64, ptr
// CF:         add nsw i64 %{{[0-9]+}}, -1
// CF:         call preserve_mostcc void @__efsan_cache_frag_access(ptr %0, i64 8, i32 0, ptr @__efsan.struct.counter.counters)
// CF:         store i64 %{{[0-9]+}}, ptr %{{[0-9]+}}, align 8, !nosanitize
// CF-NEXT:    ret i64

// ONCE: 1
// LAST: Running pass: EfficiencySanitizerPass on [module]
// LAST-NOT: Running pass: {{.*}}(InstCombine|SimplifyCFG|GVN|LICM|Inline)

// NONE-NOT: {{__efsan|efsan\.module}}
