// clang runs the pass at the OptimizerLast point: at -O2 only the accesses
// that survive optimisation are instrumented (the load below is forwarded
// from the store), at -O0 every access is, and -flto instruments in the
// pre-link compile so the bitcode already carries the instrumentation.
// REQUIRES: native-clang
// RUN: %clang -O2 -fsanitize=efficiency-working-set -S -emit-llvm %s -o - | FileCheck %s --check-prefix=O2
// RUN: %clang -O0 -fsanitize=efficiency-working-set -S -emit-llvm %s -o - | FileCheck %s --check-prefix=O0
// RUN: %clang -O2 -flto -fsanitize=efficiency-working-set -c %s -o %t.bc
// RUN: llvm-dis %t.bc -o - | FileCheck %s --check-prefix=O2
// RUN: %clang -O2 -flto=thin -fsanitize=efficiency-working-set -c %s -o %t.thin.bc
// RUN: llvm-dis %t.thin.bc -o - | FileCheck %s --check-prefix=O2

// O2-LABEL: define {{.*}}@store_then_load(
// O2: add i64 {{.*}}, 2147450880
// O2-NOT: 2147450880
// O2: ret i32 1
// O0-LABEL: define {{.*}}@store_then_load(
// O0-COUNT-2: add i64 {{.*}}, 2147450880
// O0: ret i32
int store_then_load(int *p) {
  *p = 1;
  return *p;
}

