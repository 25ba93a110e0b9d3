// The cache-frag tool through the native clang at -O0, -O2 and -flto: the
// program's result is unchanged and the report names the tool and the struct
// type the program uses (counting every access: at -O2 the program makes
// only 32 struct accesses, too few for the default sampling to see).
// REQUIRES: native-clang
// RUN: %clang -O0 -fsanitize=efficiency-cache-frag %s -o %t.O0
// RUN: rm -f %t.O0.log.*
// RUN: env ESAN_OPTIONS=cache_frag_sample_period=1:report_format=json:log_path=%t.O0.log %run %t.O0
// RUN: %python %S/Inputs/check_report.py %t.O0.log tool=cache-frag structs.name=struct.node
// RUN: %clang -O2 -fsanitize=efficiency-cache-frag %s -o %t.O2
// RUN: rm -f %t.O2.log.*
// RUN: env ESAN_OPTIONS=cache_frag_sample_period=1:report_format=json:log_path=%t.O2.log %run %t.O2
// RUN: %python %S/Inputs/check_report.py %t.O2.log tool=cache-frag structs.name=struct.node
// RUN: %clang -O2 -flto -fsanitize=efficiency-cache-frag %s -o %t.lto
// RUN: rm -f %t.lto.log.*
// RUN: env ESAN_OPTIONS=cache_frag_sample_period=1:report_format=json:log_path=%t.lto.log %run %t.lto
// RUN: %python %S/Inputs/check_report.py %t.lto.log tool=cache-frag structs.name=struct.node
// RUN: %run %t.O2 2>&1 | FileCheck %s
// CHECK: =={{[0-9]+}}==EfficiencySanitizer: cache-frag
// CHECK: SUMMARY: EfficiencySanitizer:

struct node {
  long key;
  long val;
  char pad[48];
};
struct node nodes[16];

int main(int argc, char **argv) {
  long sum = 0;
  for (int r = 0; r < 1000; r++)
    for (int i = 0; i < 16; i++) {
      nodes[i].key += i;
      sum += nodes[i].val;
    }
  return (int)(sum + argc - 1); // 0: val is never written
}
