// efsan-view's miss-ratio chart, loaded in headless Chromium and checked
// against the report (Inputs/check_miss_ratio_page.py): a hot table beside a
// stream (test/efsan/working-set/Inputs/miss_ratio.c) observed at 1/16 gives
// a curve for the whole run and one for each of the two structures (and for
// any other listed structure that has an observed line: the stack's line is,
// in some runs, as the addresses move from run to run), each
// point the report's ratio, the machine's data caches marked, and the table
// of where each falls below 10%; the diff of two runs (a table of 1024 and
// of 4096 lines) draws both runs' curves.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %S/../working-set/Inputs/miss_ratio.c -o %t
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: env ESAN_OPTIONS=mrc_sample_shift=4:mrc_max_lines=131072:report_format=json:log_path=%t.dir/small %run %t hot 1024 2000000
// RUN: env ESAN_OPTIONS=mrc_sample_shift=4:mrc_max_lines=131072:report_format=json:log_path=%t.dir/large %run %t hot 4096 2000000
// RUN: %efsan_view %t.dir/small.* -o %t.dir/page.html
// RUN: %python %S/Inputs/check_miss_ratio_page.py %t.dir/page.html %t.dir/page.png %t.dir/small.* | FileCheck %s
// CHECK: miss-ratio page ok: {{[3-9]}} curves, {{[0-9]+}} cache marks, {{[3-9]}} rows
// RUN: %efsan_view --diff %t.dir/small.* %t.dir/large.* -o %t.dir/diff.html
// RUN: %python %S/Inputs/check_miss_ratio_page.py %t.dir/diff.html %t.dir/diff.png %t.dir/small.* --diff %t.dir/large.* \
// RUN:   | FileCheck %s --check-prefix=DIFF
// DIFF: miss-ratio page ok: 2 curves, {{[0-9]+}} cache marks, 0 rows
