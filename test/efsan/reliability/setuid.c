// A setuid program built with efsan ignores ESAN_OPTIONS,
// ESAN_SYMBOLIZER_PATH and UBSAN_OPTIONS (AT_SECURE): the user who runs it
// can neither make it write a file of their choosing with its privileges
// (log_path, through a symlink or not) nor run a program of their choosing
// (external_symbolizer_path). One warning line says so; the program runs and
// its report goes to stderr.
// REQUIRES: root-and-setpriv
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -rf %t.victim && mkdir %t.victim && echo precious > %t.victim/file
// RUN: ln -sfn %t.victim %t.link
// RUN: env ESAN_OPTIONS=log_path=%t.link/r:external_symbolizer_path=%t.evil/llvm-symbolizer ESAN_SYMBOLIZER_PATH=/bin/sh %python %S/Inputs/run_setuid.py %t > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=OUT < %t.out
// OUT: main ran as uid 65534, euid 0
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// ERR: EfficiencySanitizer: WARNING: setuid/setgid program: ESAN_OPTIONS, ESAN_SYMBOLIZER_PATH and UBSAN_OPTIONS are ignored
// ERR-NOT: WARNING
// ERR: SUMMARY: EfficiencySanitizer: working set
// Nothing was written through the symlink, and the file is intact.
// RUN: ls %t.victim | count 1
// RUN: FileCheck %s --check-prefix=VICTIM < %t.victim/file
// VICTIM: precious
// Without any of those variables, no warning.
// RUN: env -u ESAN_OPTIONS %python %S/Inputs/run_setuid.py %t 2>&1 | FileCheck %s --check-prefix=QUIET
// QUIET-NOT: WARNING
// QUIET: SUMMARY: EfficiencySanitizer: working set
#include <stdio.h>
#include <unistd.h>

int main(void) {
  printf("main ran as uid %d, euid %d\n", (int)getuid(), (int)geteuid());
  return 0;
}
