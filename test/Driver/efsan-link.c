// The runtime is linked, once, whole-archive and with its export list, when
// (and only when) an executable is linked; its system libraries follow the
// program's own.

// RUN: %clang -fsanitize=efficiency-working-set %s -o %t -### 2>&1 | FileCheck %s --check-prefix=EXE
// RUN: %clang -fsanitize=efficiency-cache-frag %s -o %t -### 2>&1 | FileCheck %s --check-prefix=EXE
// Linking objects only:
// RUN: %clang -c %s -o %t.o
// RUN: %clang -fsanitize=efficiency-working-set %t.o -o %t -### 2>&1 | FileCheck %s --check-prefix=EXE
// EXE: "{{[^"]*}}ld{{(\.[a-z]+)?}}"
// EXE-SAME: "--whole-archive" "{{[^"]*}}/lib/clang/19/lib/linux/libclang_rt.efsan-x86_64.a" "--no-whole-archive"
// EXE-SAME: "--dynamic-list={{[^"]*}}/lib/clang/19/lib/linux/libclang_rt.efsan-x86_64.a.syms"
// EXE-NOT: libclang_rt.efsan-x86_64.a"
// EXE-SAME: "--no-as-needed" "-lpthread" "-lrt" "-lm" "-ldl"
// EXE-SAME: "-lc"
// EXE-NOT: libclang_rt.efsan-x86_64.a"

// No link, no runtime (and no "linker input unused" warnings).
// RUN: %clang -fsanitize=efficiency-working-set -c %s -o %t.o -### 2>&1 | FileCheck %s --check-prefix=NORT
// RUN: %clang -fsanitize=efficiency-working-set -S %s -o %t.s -### 2>&1 | FileCheck %s --check-prefix=NORT
// RUN: %clang -fsanitize=efficiency-working-set -E %s -o %t.i -### 2>&1 | FileCheck %s --check-prefix=NORT
// RUN: %clang -fsanitize=efficiency-working-set -M %s -### 2>&1 | FileCheck %s --check-prefix=NORT
// RUN: %clang -fsanitize=efficiency-working-set -fsyntax-only %s -### 2>&1 | FileCheck %s --check-prefix=NORT
// RUN: %clang -fsanitize=efficiency-working-set -Werror -c %s -o %t.o
// NORT-NOT: libclang_rt.efsan
// NORT-NOT: warning:
// NORT-NOT: "{{[^"]*}}/ld"

// A shared library or a relocatable object takes the runtime from the
// executable it ends up in.
// RUN: %clang -fsanitize=efficiency-working-set -shared -fPIC %s -o %t.so -### 2>&1 | FileCheck %s --check-prefix=SHARED
// RUN: %clang -fsanitize=efficiency-working-set -r %s -o %t.r.o -### 2>&1 | FileCheck %s --check-prefix=SHARED
// SHARED: "{{[^"]*}}ld{{(\.[a-z]+)?}}"
// SHARED-NOT: libclang_rt.efsan

// -nostdlib: the runtime still, its system libraries not.
// RUN: %clang -fsanitize=efficiency-working-set -nostdlib %s -o %t -### 2>&1 | FileCheck %s --check-prefix=NOSTDLIB
// NOSTDLIB: "--whole-archive" "{{[^"]*}}libclang_rt.efsan-x86_64.a" "--no-whole-archive"
// NOSTDLIB-NOT: "-lpthread"

// -fno-sanitize-link-runtime, as for clang's sanitizers.
// RUN: %clang -fsanitize=efficiency-working-set -fno-sanitize-link-runtime %s -o %t -### 2>&1 | FileCheck %s --check-prefix=NOLINKRT
// NOLINKRT: "{{[^"]*}}ld{{(\.[a-z]+)?}}"
// NOLINKRT-NOT: libclang_rt.efsan

// Queries that build nothing stay queries.
// RUN: %clang -fsanitize=efficiency-working-set --version 2>&1 | FileCheck %s --check-prefix=VERSION
// RUN: %clang -fsanitize=efficiency-working-set -v 2>&1 | FileCheck %s --check-prefix=VERSION
// VERSION: clang version 19
// VERSION-NOT: error
// VERSION-NOT: "{{[^"]*}}/ld"
// RUN: %clang -fsanitize=efficiency-working-set -print-file-name=libc.so | FileCheck %s --check-prefix=PRINT
// PRINT: libc.so

// Option values are not inputs: "-o x.c", "-MF dep.c", "-x c" are told apart
// from files to compile (the link still happens for the real input).
// RUN: %clang -fsanitize=efficiency-working-set -x c %s -MD -MF %t.d.c -o %t.exe.c -### 2>&1 | FileCheck %s --check-prefix=EXE

// C++: efsan-clang++ also links the runtime's C++ part (operator new and
// delete, UBSan's vptr handlers), as clang++ does for tsan_cxx and msan_cxx.
// RUN: %clangxx -fsanitize=efficiency-working-set -x c++ %s -o %t -### 2>&1 | FileCheck %s --check-prefix=CXX
// CXX: "-cc1"
// CXX-SAME: "-x" "c++"
// CXX: "--whole-archive" "{{[^"]*}}libclang_rt.efsan-x86_64.a" "--no-whole-archive"
// CXX-SAME: "--whole-archive" "{{[^"]*}}libclang_rt.efsan_cxx-x86_64.a" "--no-whole-archive"
// CXX-SAME: "-lstdc++"
// RUN: %clang -fsanitize=efficiency-working-set -x c %s -o %t -### 2>&1 | FileCheck %s --check-prefix=C-ONLY
// C-ONLY-NOT: efsan_cxx

// Linked for real: a C++ executable defines and exports operator new and
// delete (so that they override libstdc++'s for its shared libraries too); a
// C one has none and still runs.
// RUN: %clangxx -fsanitize=efficiency-working-set -x c++ %s -o %t.cxx.exe
// RUN: %run %t.cxx.exe
// RUN: llvm-nm -D --defined-only %t.cxx.exe | FileCheck %s --check-prefix=CXX-NM
// CXX-NM-DAG: T _Znwm
// CXX-NM-DAG: T _ZnamSt11align_val_t
// CXX-NM-DAG: T _ZdlPvm
// CXX-NM-DAG: T _ZdaPv
// RUN: %clang -fsanitize=efficiency-working-set %s -o %t.c.exe
// RUN: %run %t.c.exe
// RUN: llvm-nm %t.c.exe | FileCheck %s --check-prefix=C-NM
// C-NM-NOT: {{_Znwm|_Zdl}}

int main(void) { return 0; }
