// A tiny program built by the native clang at -O0, -O2 and -flto (with the
// system linker and LLVMgold, and with lld) for the working-set tool: the
// program's result is unchanged and the report counts exactly the 100 lines
// of the global array it writes.
// REQUIRES: native-clang
// RUN: %clang -O0 -fsanitize=efficiency-working-set %s -o %t.O0
// RUN: rm -f %t.O0.log.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.O0.log %run %t.O0
// RUN: %python %S/Inputs/check_report.py %t.O0.log tool=working-set regions.globals=100 total_lines=">=100"
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t.O2
// RUN: rm -f %t.O2.log.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.O2.log %run %t.O2
// RUN: %python %S/Inputs/check_report.py %t.O2.log tool=working-set regions.globals=100 total_lines=">=100"
// RUN: %clang -O2 -flto -fsanitize=efficiency-working-set %s -o %t.lto
// RUN: rm -f %t.lto.log.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.lto.log %run %t.lto
// RUN: %python %S/Inputs/check_report.py %t.lto.log tool=working-set regions.globals=100 total_lines=">=100"
// RUN: %clang -O2 -flto=thin -fuse-ld=lld -fsanitize=efficiency-working-set %s -o %t.thinlto
// RUN: rm -f %t.thinlto.log.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.thinlto.log %run %t.thinlto
// RUN: %python %S/Inputs/check_report.py %t.thinlto.log tool=working-set regions.globals=100 total_lines=">=100"
// The text report, on stderr at exit.
// RUN: %run %t.O2 2>&1 | FileCheck %s
// CHECK: =={{[0-9]+}}==EfficiencySanitizer: {{.*}}working set
// CHECK: SUMMARY: EfficiencySanitizer:

enum { kLines = 100, kLineSize = 64 };
static volatile char lines[kLines * kLineSize] __attribute__((aligned(64)));

int main(void) {
  for (int i = 0; i < kLines; i++)
    lines[i * kLineSize] = (char)i;
  return lines[kLineSize] - 1; // 0
}
