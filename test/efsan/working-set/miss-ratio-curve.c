// Miss-ratio curves against the exact LRU curves the program computes itself
// (Inputs/miss_ratio.c: the uninstrumented build replays the same accesses
// through an exact LRU stack and prints its curves). Every access to 1/16 of
// the lines observed (mrc_sample_shift=4); from 64 KiB up the program's curve
// is within 0.03 and each structure's within 0.05:
//   - a cyclic sweep over 3072 lines (192 KiB): 1 up to 128 KiB, then cold
//     misses only;
//   - uniformly random lines of 6000 (375 KiB): about 1 - C/6000;
//   - a hot table of 1024 lines (64 KiB) read at random between the lines of
//     48 MiB of a stream read 2.5 times: two plateaus for the program (the
//     stream's 1/2 up to 32 MiB, then its first reads, 0.197, once 48 MiB
//     fit), the stream's curve 1 up to 32 MiB then 0.39, the table's falling
//     to 0 by 1 MiB;
// and the same pinned to one CPU.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %S/Inputs/miss_ratio.c -o %t
// RUN: %clang -O2 %S/Inputs/miss_ratio.c -o %t.exact
// RUN: rm -rf %t.d && mkdir %t.d
//
// RUN: %t.exact cyclic 3072 2000000 expect > %t.d/cyclic.json
// RUN: env ESAN_OPTIONS=mrc_sample_shift=4:report_format=json:log_path=%t.d/cyclic %run %t cyclic 3072 2000000
// RUN: %python %S/Inputs/check_miss_ratio.py %t.d/cyclic %t.d/cyclic.json --shift 4 --program 0.03 --objects buffer 0.05
//
// RUN: %t.exact random 6000 4000000 expect > %t.d/random.json
// RUN: env ESAN_OPTIONS=mrc_sample_shift=4:report_format=json:log_path=%t.d/random %run %t random 6000 4000000
// RUN: %python %S/Inputs/check_miss_ratio.py %t.d/random %t.d/random.json --shift 4 --program 0.03 --objects buffer 0.05
//
// RUN: %t.exact hot 1024 4000000 expect > %t.d/hot.json
// RUN: env ESAN_OPTIONS=mrc_sample_shift=4:mrc_max_lines=131072:report_format=json:log_path=%t.d/hot %run %t hot 1024 4000000
// RUN: %python %S/Inputs/check_miss_ratio.py %t.d/hot %t.d/hot.json --shift 4 --program 0.03 --objects table,stream 0.05
// RUN: %python -c "import json, sys; e = json.load(open(sys.argv[1])); p = e['program']; \
// RUN:   assert abs(p[2] - p[11]) > 0.2 and abs(p[11] - 0.5) < 0.01 and abs(p[12] - 0.197) < 0.01, p" %t.d/hot.json
//
// RUN: %if taskset %{ env ESAN_OPTIONS=mrc_sample_shift=4:mrc_max_lines=131072:report_format=json:log_path=%t.d/pinned taskset -c 0 %run %t hot 1024 4000000 %}
// RUN: %if taskset %{ %python %S/Inputs/check_miss_ratio.py %t.d/pinned %t.d/hot.json --shift 4 --program 0.03 --objects table,stream 0.05 %}
//
// The text report: the table with this machine's caches marked, and under
// each structure the size from which its miss ratio is below 10%.
// RUN: env ESAN_OPTIONS=mrc_sample_shift=4:mrc_max_lines=131072:log_path=%t.d/text %run %t hot 1024 4000000
// RUN: cat %t.d/text.* | FileCheck %s
// CHECK: data structures, most lines first
// CHECK-NEXT: global {{.*}} stream
// CHECK-NEXT: reused
// CHECK-NEXT: miss ratio 1.000 at 16 KiB, 0.3{{[0-9]+}} at 4 GiB: misses at every size ({{[0-9]+}} observed lines, {{[0-9]+}} accesses)
// CHECK-NEXT: global {{.*}} table
// CHECK-NEXT: reused
// CHECK-NEXT: miss ratio 0.{{[89][0-9]+}} at 16 KiB; would stop missing (below 10%) at {{256|512}} KiB ({{[0-9]+}} observed lines, {{[0-9]+}} accesses)
// CHECK: miss ratio of a fully associative LRU cache of 64-byte lines, by size (every access to 1/16 of the lines: {{[0-9]+}} lines, {{[0-9]+}} accesses; +- is the standard error among lines like the observed ones, which a few lines taking most of the accesses, caught or missed, can exceed at every size (docs/WorkingSet.md); ? where too few observed lines fit; the machine's caches are marked under the largest size they hold):
// CHECK-NEXT: {{^==[0-9]+== cache 16K 32K 64K 128K 256K 512K 1M 2M 4M 8M 16M 32M 64M 128M 256M 512M 1G 2G 4G *$}}
// CHECK-NEXT: {{L1d|L2|L3}}
// CHECK-NEXT: {{^==[0-9]+== miss( [01]\.[0-9][0-9][0-9]){19} *$}}
// CHECK-NEXT: {{^==[0-9]+== \+-( ([01]\.[0-9][0-9][0-9]|\?)){19} *$}}
// CHECK-NEXT: SUMMARY
