// Combinations clang refuses, in clang's words, with a non-zero exit and
// nothing built.

// A sanitizer that owns the shadow memory or brings its own sanitizer_common:
// RUN: not %clang -fsanitize=efficiency-working-set -fsanitize=address -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=ASAN
// RUN: not %clang -fsanitize=address,efficiency-working-set -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=ASAN
// ASAN: error: invalid argument '-fsanitize=efficiency-working-set' not allowed with '-fsanitize=address'
// RUN: not %clang -fsanitize=efficiency-cache-frag,thread -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=TSAN
// TSAN: error: invalid argument '-fsanitize=efficiency-cache-frag' not allowed with '-fsanitize=thread'
// RUN: not %clang -fsanitize=memory -fsanitize=efficiency-cache-frag -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=MSAN
// MSAN: error: invalid argument '-fsanitize=efficiency-cache-frag' not allowed with '-fsanitize=memory'
// RUN: not %clang -fsanitize=efficiency-working-set -fsanitize=hwaddress -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=HWASAN
// HWASAN: error: invalid argument '-fsanitize=efficiency-working-set' not allowed with '-fsanitize=hwaddress'
// RUN: not %clang -fsanitize=efficiency-working-set -fsanitize=kernel-address -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=KASAN
// KASAN: error: invalid argument '-fsanitize=efficiency-working-set' not allowed with '-fsanitize=kernel-address'
// RUN: not %clang -fsanitize=efficiency-working-set -fsanitize=leak -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=LSAN
// LSAN: error: invalid argument '-fsanitize=efficiency-working-set' not allowed with '-fsanitize=leak'
// RUN: not %clang -fsanitize=efficiency-working-set -fsanitize=dataflow -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=DFSAN
// DFSAN: error: invalid argument '-fsanitize=efficiency-working-set' not allowed with '-fsanitize=dataflow'

// Only the values that clash are named, from the last argument naming them.
// RUN: not %clang -fsanitize=undefined,efficiency-working-set -fsanitize=address,null -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=LIST
// LIST: error: invalid argument '-fsanitize=efficiency-working-set' not allowed with '-fsanitize=address'

// A later -fno-sanitize= lifts the conflict, as in clang.
// RUN: %clang -fsanitize=efficiency-working-set -fsanitize=address -fno-sanitize=address -c %s -o %t.o -### 2>&1 | FileCheck %s --check-prefix=LIFTED
// RUN: %clang -fsanitize=efficiency-working-set -fno-sanitize=efficiency -fsanitize=address -c %s -o %t.o -### 2>&1 | FileCheck %s --check-prefix=LIFTED
// LIFTED-NOT: error:

// The two efficiency tools with each other: one runtime runs one tool.
// RUN: not %clang -fsanitize=efficiency-working-set,efficiency-cache-frag -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: not %clang -fsanitize=efficiency-cache-frag -fsanitize=efficiency-working-set -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=BOTH
// BOTH: error: invalid argument '-fsanitize=efficiency-working-set' not allowed with '-fsanitize=efficiency-cache-frag'

// The group names both tools: -fno-sanitize=efficiency is fine, asking for
// both at once is not (as with -fsanitize=all).
// RUN: not %clang -fsanitize=efficiency -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=GROUP
// GROUP: error: unsupported argument 'efficiency' to option '-fsanitize='

// Targets the runtime is not built for.
// RUN: not %clang -m32 -fsanitize=efficiency-working-set -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=M32
// M32: error: unsupported option '-fsanitize=efficiency-working-set' for target 'i386-pc-linux-gnu'
// RUN: not %clang --target=aarch64-linux-gnu -fsanitize=efficiency-cache-frag -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=ARM64
// ARM64: error: unsupported option '-fsanitize=efficiency-cache-frag' for target 'aarch64-unknown-linux-gnu'
// RUN: not %clang -target x86_64-apple-darwin -fsanitize=efficiency-working-set -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=DARWIN
// DARWIN: error: unsupported option '-fsanitize=efficiency-working-set' for target 'x86_64-apple-darwin'
// RUN: %clang --target=x86_64-linux-gnu -fsanitize=efficiency-working-set -c %s -o %t.o -### 2>&1 | FileCheck %s --check-prefix=LIFTED

// Nothing was built by the failing commands.
// RUN: rm -f %t.o
// RUN: not %clang -fsanitize=efficiency-working-set,thread -c %s -o %t.o 2>/dev/null
// RUN: not test -e %t.o

int main(void) { return 0; }
