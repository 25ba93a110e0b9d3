// The native clang finds its resource directory (Debian's headers beside our
// runtime) and links the runtime from it without extra flags; -fuse-ld=lld
// and -flto pick LLVM 19's linker and LTO plugin, as /usr/lib/llvm-19/bin/clang
// does.
// REQUIRES: native-clang
// RUN: %clang -print-resource-dir | FileCheck %s --check-prefix=RES
// RES: {{.*}}/lib/clang/19{{$}}
// RUN: %clang -print-file-name=libclang_rt.efsan-x86_64.a | FileCheck %s --check-prefix=RT
// RT: {{.*}}/lib/clang/19/lib/linux/libclang_rt.efsan-x86_64.a
// RUN: sh -c 'test -f "$(%clang -print-file-name=libclang_rt.efsan-x86_64.a)"'
// RUN: sh -c 'test -f "$(%clang -print-resource-dir)/include/stddef.h"'
// RUN: sh -c 'test -f "$(%clang -print-resource-dir)/include/sanitizer/efsan_interface.h"'

// RUN: %clang -fsanitize=efficiency-working-set -fuse-ld=lld %s -o %t -### 2>&1 | FileCheck %s --check-prefix=LLD
// LLD: "-cc1"
// LLD-SAME: "-resource-dir" "[[RESDIR:[^"]*/lib/clang/19]]"
// LLD: "{{[^"]*}}/bin/ld.lld"
// LLD-SAME: "--whole-archive" "[[RESDIR]]/lib/linux/libclang_rt.efsan-x86_64.a" "--no-whole-archive"
// LLD-SAME: "--dynamic-list=[[RESDIR]]/lib/linux/libclang_rt.efsan-x86_64.a.syms"
// RUN: %clang -fsanitize=efficiency-cache-frag -flto %s -o %t -### 2>&1 | FileCheck %s --check-prefix=LTO
// LTO: "-cc1"
// LTO-SAME: "-flto=full"
// LTO-SAME: "-fsanitize=efficiency-cache-frag"
// LTO: "-plugin" "{{[^"]*}}/lib/LLVMgold.so"
// LTO-SAME: "--whole-archive" "{{[^"]*}}/lib/clang/19/lib/linux/libclang_rt.efsan-x86_64.a" "--no-whole-archive"

// -fsanitize=efficiency-* serialises into cc1 and -fno-sanitize=all removes it.
// RUN: %clang -fsanitize=efficiency-working-set -fno-sanitize=all %s -o %t -### 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: "-cc1"
// NONE-NOT: libclang_rt.efsan
// NONE-NOT: -fsanitize=efficiency

int main(void) { return 0; }
