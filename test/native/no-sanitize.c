// __attribute__((no_sanitize("efficiency-..."))) takes a function out of the
// enabled tool: clang marks it "no_sanitize_efficiency" and the pass leaves it
// alone. Naming the other tool changes nothing.
// REQUIRES: native-clang
// RUN: %clang -O1 -fsanitize=efficiency-working-set -S -emit-llvm %s -o - | FileCheck %s --check-prefixes=CHECK,WS
// RUN: %clang -O1 -fsanitize=efficiency-cache-frag -S -emit-llvm %s -o - | FileCheck %s --check-prefixes=CHECK,CF

int shared;

// CHECK-LABEL: define {{.*}}@skip_working_set(
// WS-SAME: #[[SKIP:[0-9]+]]
// WS-NOT: 2147450880
// CF: __efsan_cache_frag_countdown
// CHECK: ret void
__attribute__((no_sanitize("efficiency-working-set"))) void skip_working_set(int v) { shared = v; }

// CHECK-LABEL: define {{.*}}@skip_cache_frag(
// CF-SAME: #[[SKIP:[0-9]+]]
// CF-NOT: __efsan_
// WS: add i64 {{.*}}, 2147450880
// CHECK: ret void
__attribute__((no_sanitize("efficiency-cache-frag"))) void skip_cache_frag(int v) { shared = v; }

// The group names both tools.
// CHECK-LABEL: define {{.*}}@skip_group(
// CHECK-SAME: #[[SKIP]]
// CHECK-NOT: __efsan_
// CHECK-NOT: 2147450880
// CHECK: ret void
__attribute__((no_sanitize("efficiency"))) void skip_group(int v) { shared = v; }

// CHECK-LABEL: define {{.*}}@instrumented(
// CHECK-NOT: #[[SKIP]]
// WS: add i64 {{.*}}, 2147450880
// CF: __efsan_cache_frag_countdown
// CHECK: ret void
void instrumented(int v) { shared = v; }

// CHECK: attributes #[[SKIP]] = { {{.*}}"no_sanitize_efficiency"
