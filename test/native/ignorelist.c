// -fsanitize-ignorelist= takes functions (fun:) and files (src:) out of the
// efficiency tools, in a tool's own section or in the default one.
// REQUIRES: native-clang
// RUN: printf '[efficiency-working-set]\nfun:ignored*\n' > %t.ws.txt
// RUN: %clang -O1 -fsanitize=efficiency-working-set -fsanitize-ignorelist=%t.ws.txt -S -emit-llvm %s -o - | FileCheck %s --check-prefix=FUN
// The group's section and the default section cover the tool too.
// RUN: printf '[efficiency]\nfun:ignored*\n' > %t.group.txt
// RUN: %clang -O1 -fsanitize=efficiency-working-set -fsanitize-ignorelist=%t.group.txt -S -emit-llvm %s -o - | FileCheck %s --check-prefix=FUN
// RUN: printf 'fun:ignored*\n' > %t.default.txt
// RUN: %clang -O1 -fsanitize=efficiency-working-set -fsanitize-ignorelist=%t.default.txt -S -emit-llvm %s -o - | FileCheck %s --check-prefix=FUN
// Another sanitizer's section does not apply.
// RUN: printf '[thread]\nfun:ignored*\n' > %t.other.txt
// RUN: %clang -O1 -fsanitize=efficiency-working-set -fsanitize-ignorelist=%t.other.txt -S -emit-llvm %s -o - | FileCheck %s --check-prefix=NONE
// A whole file:
// RUN: printf '[efficiency-cache-frag]\nsrc:*ignorelist.c\n' > %t.src.txt
// RUN: %clang -O1 -fsanitize=efficiency-cache-frag -fsanitize-ignorelist=%t.src.txt -S -emit-llvm %s -o - | FileCheck %s --check-prefix=SRC

int shared;

// FUN-LABEL: define {{.*}}@ignored_store(
// FUN-NOT: 2147450880
// FUN: ret void
// NONE-LABEL: define {{.*}}@ignored_store(
// NONE: add i64 {{.*}}, 2147450880
void ignored_store(int v) { shared = v; }

// FUN-LABEL: define {{.*}}@kept_store(
// FUN: add i64 {{.*}}, 2147450880
// FUN: ret void
void kept_store(int v) { shared = v; }

// SRC-NOT: call preserve_mostcc void @__efsan_cache_frag_access
// SRC-NOT: __efsan_cache_frag_countdown
