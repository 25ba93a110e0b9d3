// -fsanitize-ignorelist= takes functions (fun:) and files (src:, mainfile:)
// out of the efficiency tools, in a tool's own section, the `efficiency`
// group's, `all`'s or the default one, through both drivers: the native
// clang applies it in its front end, efsan-clang hands the files to the pass
// (-efsan-ignorelist=), which applies clang's rules to the IR.
// RUN: printf '[efficiency-working-set]\nfun:ignored*\n' > %t.ws.txt
// RUN: %clang -O1 -fsanitize=efficiency-working-set -fsanitize-ignorelist=%t.ws.txt -S -emit-llvm %s -o - | FileCheck %s --check-prefix=FUN
// The group's section, `all`'s, a glob and the default section cover the
// tool too.
// RUN: printf '[efficiency]\nfun:ignored*\n' > %t.group.txt
// RUN: %clang -O1 -fsanitize=efficiency-working-set -fsanitize-ignorelist=%t.group.txt -S -emit-llvm %s -o - | FileCheck %s --check-prefix=FUN
// RUN: printf '[all]\nfun:ignored*\n' > %t.all.txt
// RUN: %clang -O1 -fsanitize=efficiency-working-set -fsanitize-ignorelist=%t.all.txt -S -emit-llvm %s -o - | FileCheck %s --check-prefix=FUN
// RUN: printf '[efficiency-w*]\nfun:ignored*\n' > %t.glob.txt
// RUN: %clang -O1 -fsanitize=efficiency-working-set -fsanitize-ignorelist=%t.glob.txt -S -emit-llvm %s -o - | FileCheck %s --check-prefix=FUN
// RUN: printf 'fun:ignored*\n' > %t.default.txt
// RUN: %clang -O1 -fsanitize=efficiency-working-set -fsanitize-ignorelist=%t.default.txt -S -emit-llvm %s -o - | FileCheck %s --check-prefix=FUN
// The deprecated spelling is the same option.
// RUN: %clang -O1 -fsanitize=efficiency-working-set -fsanitize-blacklist=%t.default.txt -S -emit-llvm %s -o - | FileCheck %s --check-prefix=FUN
// Another sanitizer's section, or the other tool's, does not apply.
// RUN: printf '[thread]\nfun:ignored*\n' > %t.other.txt
// RUN: %clang -O1 -fsanitize=efficiency-working-set -fsanitize-ignorelist=%t.other.txt -S -emit-llvm %s -o - | FileCheck %s --check-prefix=NONE
// RUN: printf '[efficiency-cache-frag]\nfun:ignored*\n' > %t.cf.txt
// RUN: %clang -O1 -fsanitize=efficiency-working-set -fsanitize-ignorelist=%t.cf.txt -S -emit-llvm %s -o - | FileCheck %s --check-prefix=NONE
// -fno-sanitize-ignorelist drops the lists before it, not those after it.
// RUN: %clang -O1 -fsanitize=efficiency-working-set -fsanitize-ignorelist=%t.ws.txt -fno-sanitize-ignorelist -S -emit-llvm %s -o - | FileCheck %s --check-prefix=NONE
// RUN: %clang -O1 -fsanitize=efficiency-working-set -fno-sanitize-ignorelist -fsanitize-ignorelist=%t.ws.txt -S -emit-llvm %s -o - | FileCheck %s --check-prefix=FUN
// A whole file, by src: (with and without debug information) or mainfile:.
// RUN: printf '[efficiency-cache-frag]\nsrc:*ignorelist.c\n' > %t.src.txt
// RUN: %clang -O1 -fsanitize=efficiency-cache-frag -fsanitize-ignorelist=%t.src.txt -S -emit-llvm %s -o - | FileCheck %s --check-prefix=SRC
// RUN: %clang -O1 -g -fsanitize=efficiency-cache-frag -fsanitize-ignorelist=%t.src.txt -S -emit-llvm %s -o - | FileCheck %s --check-prefix=SRC
// RUN: printf '[efficiency-working-set]\nmainfile:*ignorelist.c\n' > %t.main.txt
// RUN: %clang -O1 -fsanitize=efficiency-working-set -fsanitize-ignorelist=%t.main.txt -S -emit-llvm %s -o - | FileCheck %s --check-prefix=SRC-WS
// RUN: printf '[efficiency-working-set]\nsrc:*other-file.c\n' > %t.src-other.txt
// RUN: %clang -O1 -g -fsanitize=efficiency-working-set -fsanitize-ignorelist=%t.src-other.txt -S -emit-llvm %s -o - | FileCheck %s --check-prefix=NONE
//
// In a program: the lines the ignored function touches are not counted.
// RUN: %clang -O1 -fsanitize=efficiency-working-set -fsanitize-ignorelist=%t.ws.txt %s -o %t
// RUN: rm -f %t.log.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.log %run %t
// RUN: %python %S/../efsan/working-set/Inputs/check_report.py %t.log --count 1 "heap == 30"
// RUN: %clang -O1 -fsanitize=efficiency-working-set %s -o %t.all
// RUN: rm -f %t.all-log.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.all-log %run %t.all
// RUN: %python %S/../efsan/working-set/Inputs/check_report.py %t.all-log --count 1 "heap == 30 + 100"
//
// A file clang cannot read is clang's one-line error, and nothing is built.
// RUN: rm -f %t.missing %t.o
// RUN: not %clang -fsanitize=efficiency-working-set -fsanitize-ignorelist=%t.missing -c %s -o %t.o 2> %t.err
// RUN: FileCheck %s --check-prefix=MISSING --input-file %t.err -DFILE=%t.missing
// RUN: count 1 < %t.err
// RUN: not ls %t.o
// MISSING: {{^}}{{[^ ]*}}clang: error: no such file or directory: '[[FILE]]'
// RUN: printf '[efficiency\nfun:x\n' > %t.bad.txt
// RUN: not %clang -fsanitize=efficiency-working-set -fsanitize-ignorelist=%t.bad.txt -c %s -o %t.o 2> %t.bad-err
// RUN: FileCheck %s --check-prefix=MALFORMED --input-file %t.bad-err
// RUN: count 1 < %t.bad-err
// MALFORMED: clang: error: malformed sanitizer ignorelist: 'error parsing file '{{.*}}bad.txt': malformed section header on line 1: [efficiency'
#include <stdlib.h>

int shared;

// FUN-LABEL: define {{.*}}@ignored_store(
// FUN-NOT: 2147450880
// FUN: ret void
// NONE-LABEL: define {{.*}}@ignored_store(
// NONE: add i64 {{.*}}, 2147450880
__attribute__((noinline)) void ignored_store(int v) { shared = v; }

// FUN-LABEL: define {{.*}}@kept_store(
// FUN: add i64 {{.*}}, 2147450880
// FUN: ret void
__attribute__((noinline)) void kept_store(int v) { shared = v; }

// SRC-NOT: call preserve_mostcc void @__efsan_cache_frag_access
// SRC-NOT: __efsan_cache_frag_countdown
// SRC-WS-NOT: 2147450880

// One store to each of `lines` lines of `p`.
__attribute__((noinline)) void ignored_touch(volatile char *p, int lines) {
  for (int i = 0; i < lines; i++)
    p[i * 64] = 1;
}

__attribute__((noinline)) void kept_touch(volatile char *p, int lines) {
  for (int i = 0; i < lines; i++)
    p[i * 64] = 1;
}

int main(void) {
  char *ignored_lines = aligned_alloc(64, 100 * 64);
  char *kept_lines = aligned_alloc(64, 30 * 64);
  ignored_store(1);
  kept_store(2);
  ignored_touch(ignored_lines, 100);
  kept_touch(kept_lines, 30);
  return shared == 2 ? 0 : 1;
}
