// Efficiency tools mixed with other sanitizers in one list: clang gets the
// rest, the efsan runtime replaces clang's standalone UBSan runtime (it
// carries UBSan's handlers, as tsan's and msan's runtimes do).

// RUN: %clang -fsanitize=undefined,efficiency-working-set -c %s -o %t.o -### 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=COMPILE,%if efsan-clang-driver %{COMPILE-PLUGIN%} %else %{COMPILE-NATIVE%}
// COMPILE: "-cc1"
// COMPILE-PLUGIN-SAME: "-fsanitize={{[a-z,-]*}}signed-integer-overflow
// COMPILE-PLUGIN-SAME: "-efsan-tool=working-set"
// COMPILE-NATIVE-SAME: "-fsanitize={{[a-z,-]*}}efficiency-working-set
// COMPILE-NOT: unsupported

// RUN: %clang -fsanitize=undefined,efficiency-working-set %s -o %t -### 2>&1 | FileCheck %s --check-prefix=LINK-UBSAN
// RUN: %clang -fsanitize=efficiency-cache-frag -fsanitize=integer %s -o %t -### 2>&1 | FileCheck %s --check-prefix=LINK-UBSAN
// RUN: %clang -fsanitize=efficiency-working-set -fsanitize-coverage=trace-pc-guard %s -o %t -### 2>&1 | FileCheck %s --check-prefix=LINK-UBSAN
// LINK-UBSAN: "{{[^"]*}}ld{{(\.[a-z]+)?}}"
// LINK-UBSAN-NOT: ubsan_standalone
// LINK-UBSAN-SAME: "--whole-archive" "{{[^"]*}}libclang_rt.efsan-x86_64.a" "--no-whole-archive"
// LINK-UBSAN-NOT: ubsan_standalone

// The minimal UBSan runtime holds no sanitizer_common: clang keeps it.
// RUN: %clang -fsanitize=undefined,efficiency-working-set -fsanitize-minimal-runtime %s -o %t -### 2>&1 | FileCheck %s --check-prefix=MINIMAL
// MINIMAL: "{{[^"]*}}ld{{(\.[a-z]+)?}}"
// MINIMAL-SAME: libclang_rt.ubsan_minimal
// MINIMAL-SAME: "--whole-archive" "{{[^"]*}}libclang_rt.efsan-x86_64.a" "--no-whole-archive"

// Removing the efficiency tool restores clang's own runtime choice.
// RUN: %clang -fsanitize=undefined,efficiency-working-set -fno-sanitize=efficiency %s -o %t -### 2>&1 | FileCheck %s --check-prefix=PLAIN-UBSAN
// PLAIN-UBSAN: "{{[^"]*}}ld{{(\.[a-z]+)?}}"
// PLAIN-UBSAN-SAME: libclang_rt.ubsan_standalone
// PLAIN-UBSAN-NOT: libclang_rt.efsan

// Flags stock clang does not know reach it without their efficiency values.
// RUN: %clang -fsanitize=efficiency-working-set -fsanitize-recover=efficiency-working-set,undefined -fno-sanitize-trap=efficiency -fno-sanitize-recover=efficiency -c %s -o %t.o -### 2>&1 | FileCheck %s --check-prefix=NO-ERROR
// NO-ERROR-NOT: error:
// NO-ERROR: "-cc1"

// Response files, as build systems write them.
// RUN: echo '-fsanitize=undefined,efficiency-working-set "-DQUOTED=a b"' > %t.rsp
// RUN: %clang @%t.rsp -c %s -o %t.o -### 2>&1 | FileCheck %s --check-prefixes=RSP,%if efsan-clang-driver %{RSP-PLUGIN%} %else %{RSP-NATIVE%}
// RSP-NOT: error:
// RSP: "-cc1"
// RSP-SAME: "-D" "QUOTED=a b"
// RSP-PLUGIN-SAME: "-efsan-tool=working-set"
// RSP-NATIVE-SAME: efficiency-working-set
// RUN: echo '-fsanitize=efficiency-working-set' > %t.nested.rsp
// RUN: echo '@%t.nested.rsp -fsanitize=thread' > %t.outer.rsp
// RUN: not %clang @%t.outer.rsp -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=RSP-NESTED
// RSP-NESTED: error: invalid argument '-fsanitize=efficiency-working-set' not allowed with '-fsanitize=thread'

int main(void) { return 0; }
