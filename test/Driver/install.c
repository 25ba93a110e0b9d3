// `cmake --install` lays out a complete efsan that works from anywhere: the
// drivers, the pass, the runtime, the static llvm-symbolizer (where the
// installed runtime looks for it), the interface header and efsan-view.
// From outside the build tree, a program built by the installed efsan-clang
// reports file:line with the installed symbolizer and no llvm-symbolizer in
// PATH; without that symbolizer its frames are module+offset (so the first
// check depends on it). The same source built without a tool finds the
// header too, and runs without the runtime.
// REQUIRES: built-symbolizer
// RUN: rm -rf %t && mkdir -p %t/work %t/empty-path
// RUN: cmake --install %efsan_obj_root --prefix %t/prefix > %t/install.log
// RUN: cd %t/work && %t/prefix/bin/efsan-clang -O2 -g -fsanitize=efficiency-working-set %s -o prog
// RUN: cd %t/work && env PATH=%t/empty-path ./prog 2>&1 | FileCheck %s --check-prefix=SYMBOLIZED
// SYMBOLIZED: data structures, most lines first
// and the next line names the allocation below by its file:line.
// RUN: mv %t/prefix/lib/efsan/llvm-symbolizer %t/llvm-symbolizer.moved
// RUN: cd %t/work && env PATH=%t/empty-path ./prog 2>&1 | FileCheck %s --check-prefix=UNSYMBOLIZED
// UNSYMBOLIZED: data structures, most lines first
// UNSYMBOLIZED-NEXT: heap 64 lines (4.0 KiB) prog+0x{{[0-9a-f]+$}}
// RUN: mv %t/llvm-symbolizer.moved %t/prefix/lib/efsan/llvm-symbolizer
// The shared runtime, preloaded into an uninstrumented program that loads an
// instrumented library, symbolizes with the installed symbolizer too.
// RUN: cd %t/work && %t/prefix/bin/efsan-clang -O2 -g -shared -fPIC -DLIBRARY -fsanitize=efficiency-working-set %s -o libfill.so
// RUN: cd %t/work && %stock_clang -O2 %S/Inputs/dlopen_host.c -o host -ldl
// RUN: cd %t/work && env PATH=%t/empty-path LD_PRELOAD=%t/prefix/lib/clang/19/lib/linux/libclang_rt.efsan-x86_64.so ./host ./libfill.so fill_table 2>&1 | FileCheck %s --check-prefix=LIBRARY
// LIBRARY: data structures, most lines first
// (and the next line names the library's allocation below by its file:line)
// A plain build: the header, no runtime.
// RUN: cd %t/work && %t/prefix/bin/efsan-clang -O2 %s -o plain && ./plain | FileCheck %s --check-prefix=PLAIN
// PLAIN: no efsan runtime
// RUN: cd %t/work && %t/prefix/bin/efsan-clang++ -O2 -x c++ %s -o plain-cxx && ./plain-cxx | FileCheck %s --check-prefix=PLAIN
// Versions: efsan's and the commit, after clang's own lines.
// RUN: %t/prefix/bin/efsan-clang --version | FileCheck %s --check-prefix=VERSION -DPREFIX=%t/prefix
// VERSION: clang version 19.
// VERSION: efsan version {{[0-9]+\.[0-9]+\.[0-9]+}} (git {{[0-9a-f]+(-modified)?|unknown}})
// VERSION-NEXT: efsan prefix: [[PREFIX]]
// RUN: %t/prefix/bin/efsan-view --version | FileCheck %s --check-prefix=VIEW-VERSION
// VIEW-VERSION: efsan-view: efsan version {{[0-9]+\.[0-9]+\.[0-9]+}} (git {{[0-9a-f]+(-modified)?|unknown}})
// The installed efsan-view draws the program's report.
// RUN: cd %t/work && env ESAN_OPTIONS=report_format=json:log_path=%t/work/report ./prog
// RUN: %t/prefix/bin/efsan-view %t/work/report.* -o %t/work/report.html
// RUN: FileCheck %s --check-prefix=PAGE < %t/work/report.html
// PAGE: install.c
#include <sanitizer/efsan_interface.h>
#include <stdio.h>
#include <stdlib.h>

// Built with the tool or without it from the same source
// (docs/WorkingSet.md, "Phases").
#pragma weak __efsan_mark_phase

#ifdef LIBRARY
long fill_table(void) {
  char *table = (char *)malloc(64 * 64); // LIBRARY-NEXT: heap 64 lines (4.0 KiB) fill_table {{.*}}install.c:[[# @LINE]]{{$}}
  for (int i = 0; i < 64; i++)
    ((volatile char *)table)[i * 64] = 1;
  return 64; // table is not freed: stdio's buffer would take its place

}
#else
int main(void) {
  if (__efsan_mark_phase)
    __efsan_mark_phase("fill");
  else
    printf("no efsan runtime\n");
  char *table = (char *)malloc(64 * 64); // SYMBOLIZED-NEXT: heap 64 lines (4.0 KiB) main {{.*}}install.c:[[# @LINE]]{{$}}
  for (int i = 0; i < 64; i++)
    ((volatile char *)table)[i * 64] = 1;
  free(table);
  return 0;
}
#endif
