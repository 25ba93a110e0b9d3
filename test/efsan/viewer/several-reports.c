// A program that forks writes one JSON report per process; without log_path
// and with tree_reports=0 they follow each other on stderr. efsan-view draws both (one section per
// process) and traces both (one process each); --diff wants one report per
// side and says so, naming the pids, unless --before-pid/--after-pid picks.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %S/../Inputs/fork_pids.c -o %t
// RUN: env ESAN_OPTIONS=report_format=json:tree_reports=0 %run %t > %t.stdout 2> %t.json
// RUN: %efsan_view %t.json -o %t.html
// RUN: %python %S/Inputs/check_page.py %t.html %t.png %t.json | FileCheck %s --check-prefix=PAGE
// PAGE-COUNT-2: page ok: pid {{[0-9]+}} working-set:
// RUN: %efsan_view --perfetto %t.json -o %t.trace.json
// RUN: %python %S/Inputs/check_trace.py %t.trace.json %t.json | FileCheck %s --check-prefix=TRACE
// TRACE: trace ok: {{[0-9]+}} events, {{[0-9]+}} counter tracks, {{[0-9]+}} levels and 0 phases of 2 reports match
// RUN: not %efsan_view --diff %t.json %t.json -o %t.diff.html 2> %t.err
// RUN: FileCheck %s --check-prefix=DIFF < %t.err
// RUN: count 1 < %t.err
// DIFF: efsan-view: error: {{.*}}.json: holds 2 reports (pids {{[0-9]+}}, {{[0-9]+}}); --diff compares two: pick one with --before-pid/--after-pid
