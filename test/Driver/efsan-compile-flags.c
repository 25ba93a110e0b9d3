// What the driver adds when it compiles a file with an efficiency tool: the
// pass with the tool's id, frame pointers (the runtime unwinds along them)
// and the public header directory after clang's own headers.

// RUN: %clang -fsanitize=efficiency-working-set -c %s -o %t.o -### 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=CHECK,%if efsan-clang-driver %{PLUGIN-WS%} %else %{NATIVE-WS%}
// RUN: %clang -fsanitize=efficiency-cache-frag -O2 -c %s -o %t.o -### 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=CHECK,%if efsan-clang-driver %{PLUGIN-CF%} %else %{NATIVE-CF%}
// CHECK: "-cc1"
// PLUGIN-WS-SAME: "-mframe-pointer=all"
// PLUGIN-WS-SAME: "-idirafter" "{{[^"]*}}/lib/efsan/include"
// PLUGIN-WS-SAME: "-internal-isystem" "{{[^"]*}}/lib/clang/19/include"
// PLUGIN-WS-SAME: "-fpass-plugin={{[^"]*}}/lib/EfficiencySanitizer.so" "-load" "{{[^"]*}}/lib/EfficiencySanitizer.so" "-mllvm" "-efsan-tool=working-set"
// PLUGIN-CF-SAME: "-mframe-pointer=all"
// PLUGIN-CF-SAME: "-mllvm" "-efsan-tool=cache-frag"
// NATIVE-WS-SAME: "-mframe-pointer=all"
// NATIVE-WS-SAME: "-fsanitize=efficiency-working-set"
// NATIVE-CF-SAME: "-mframe-pointer=all"
// NATIVE-CF-SAME: "-fsanitize=efficiency-cache-frag"
// CHECK-NOT: "-efsan-tool=
// CHECK-NOT: "{{[^"]*}}/ld"

// A build's own -fomit-frame-pointer or -momit-leaf-frame-pointer, before or
// after the sanitizer flag, does not take the frame pointers away (the
// runtime's allocation stacks follow them): the last -mframe-pointer= cc1
// gets says all. With "--" (inputs only after it) the driver's flags go
// before it.
// RUN: %clang -fsanitize=efficiency-working-set -fomit-frame-pointer -momit-leaf-frame-pointer -c %s -o %t.o -### 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OMIT
// RUN: %clang -fomit-frame-pointer -fsanitize=efficiency-cache-frag -c %s -o %t.o -### 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OMIT
// RUN: %clang -### -fsanitize=efficiency-working-set -fomit-frame-pointer -c -o %t.o -- %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OMIT
// OMIT-NOT: error
// OMIT: "-cc1"
// OMIT-SAME: "-mframe-pointer=all"
// OMIT-NOT: "-mframe-pointer=
// OMIT-SAME: "-x" "c" "{{[^"]*}}efsan-compile-flags.c"
// An option whose value is missing is still clang's error.
// RUN: not %clang -fsanitize=efficiency-working-set -c %s -o 2>&1 | FileCheck %s --check-prefix=DANGLING
// DANGLING: error: argument to '-o' is missing (expected 1 value)

// No tool, nothing added; -fno-sanitize= and the group undo the flag.
// RUN: %clang -c %s -o %t.o -### 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %clang -fsanitize=efficiency-working-set -fno-sanitize=efficiency-working-set -c %s -o %t.o -### 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NONE
// RUN: %clang -fsanitize=efficiency-cache-frag -fno-sanitize=efficiency -c %s -o %t.o -### 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NONE
// RUN: %clang -fsanitize=efficiency-cache-frag -fno-sanitize=all -c %s -o %t.o -### 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NONE
// NONE: "-cc1"
// NONE-NOT: EfficiencySanitizer.so
// NONE-NOT: -efsan-tool
// NONE-NOT: -fsanitize=efficiency
// But the interface header's directory, which plain builds use too (a
// native clang has the header in its resource directory).
// RUN: %clang -c %s -o %t.o -### 2>&1 \
// RUN:   | FileCheck %s --check-prefix=%if efsan-clang-driver %{PLAIN-PLUGIN%} %else %{PLAIN-NATIVE%}
// PLAIN-PLUGIN: "-cc1"
// PLAIN-PLUGIN-SAME: "-idirafter" "{{[^"]*}}/lib/efsan/include"
// PLAIN-NATIVE: "-cc1"
// PLAIN-NATIVE-NOT: "-idirafter"

// Order matters as in clang: a later -fsanitize= re-enables the tool.
// RUN: %clang -fno-sanitize=efficiency -fsanitize=efficiency-cache-frag -c %s -o %t.o -### 2>&1 \
// RUN:   | FileCheck %s --check-prefix=%if efsan-clang-driver %{REENABLED-PLUGIN%} %else %{REENABLED-NATIVE%}
// REENABLED-PLUGIN: "-efsan-tool=cache-frag"
// REENABLED-NATIVE: "-fsanitize=efficiency-cache-frag"

// Assembly in the same build (CFLAGS reach .s/.S rules too): nothing for the
// assembler and a mixed command still works. efsan-clang adds nothing to an
// assembler job, so it draws no unused-argument warning; the native clang
// warns about -fsanitize= on a .s file exactly as clang does for
// -fsanitize=address, so -Werror is only for efsan-clang.
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: printf '.text\n.globl asm_function\nasm_function:\n  ret\n' > %t.dir/f.s
// RUN: cp %t.dir/f.s %t.dir/g.S
// RUN: %clang -fsanitize=efficiency-working-set %if efsan-clang-driver %{-Werror%} -c %t.dir/f.s -o %t.dir/f.o
// RUN: %clang -fsanitize=efficiency-working-set -Werror -c %t.dir/g.S -o %t.dir/g.o
// RUN: cd %t.dir && %clang -fsanitize=efficiency-working-set %if efsan-clang-driver %{-Werror%} -c f.s %s
// The pass's own options in such CFLAGS: efsan-clang hands them to cc1 only
// (where the plugin is loaded), so the assembler of a .S file in the same
// build does not reject them as unknown, and they reach the pass.
// RUN: %clang -fsanitize=efficiency-working-set -mllvm -efsan-loop-range-limit=4096 -c %t.dir/g.S -o %t.dir/g2.o
// RUN: cd %t.dir && %clang -fsanitize=efficiency-working-set -mllvm=-efsan-loop-table-limit=0 -c g.S %s
// RUN: %clang -fsanitize=efficiency-working-set -mllvm -efsan-loop-range-limit=4096 -c %s -o %t.o -### 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PASSOPT
// PASSOPT: "-cc1"
// PASSOPT-SAME: "-mllvm" "-efsan-loop-range-limit=4096"
// PASSOPT-NOT: "-cc1as"
// A misspelt one is still an error.
// RUN: not %clang -fsanitize=efficiency-working-set -mllvm -efsan-no-such-option=1 -c %s -o %t.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MISSPELT
// MISSPELT: -efsan-no-such-option=1

// The public interface header is found without extra flags.
// RUN: %clang -fsanitize=efficiency-working-set -fsyntax-only -DWITH_INTERFACE %s
#ifdef WITH_INTERFACE
#include <sanitizer/efsan_interface.h>
void report_now(void) { __efsan_report(); }
#endif

// clang's own headers that #include_next a libc header still work: the
// header directory the driver adds holds only efsan's header.
// RUN: %clang -fsanitize=efficiency-working-set -fsyntax-only -DWITH_STDATOMIC %s
#ifdef WITH_STDATOMIC
#include <stdatomic.h>
#include <stdint.h>
static atomic_long hits;
long bump(void) { return atomic_fetch_add_explicit(&hits, 1, memory_order_relaxed); }
#endif
int main(void) { return 0; }
