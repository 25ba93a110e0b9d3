// Beyond snapshot_budget lines per period the snapshots are estimated from a
// hash-selected share of the lines; totals stay exact. A dense program that
// touches 100000 lines in every period: with the default budget (16384) the
// level-0 and level-1 snapshots of the periods spent touching them are
// within 2% of 100000 (standard error at most 1%) and within 5 standard
// errors; with exact_snapshots=1 every snapshot is exact; the totals are
// the same in both runs (heap: exactly the lines touched).
// RUN: %clang -O2 -fsanitize=efficiency-working-set -pthread %S/Inputs/estimates.c -o %t
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env ESAN_OPTIONS=sample_clock=cpu:report_format=json:log_path=%t.d/est %run %t 100000 1 1 > %t.d/vars
// RUN: env ESAN_OPTIONS=sample_clock=cpu:report_format=json:log_path=%t.d/exact:exact_snapshots=1 %run %t 100000 1 1 > %t.d/exact-vars
// RUN: %python %S/Inputs/check_report.py %t.d/est --count 1 --vars %t.d/vars \
// RUN:   "all(n <= total_lines + 5 * e for l in levels for n, e in zip(l['lines'], l['std_error']))" \
// RUN:   "heap == WINDOW0_LINES == BUFFER_LINES and snapshot_budget == 16384 and not exact_snapshots" \
// RUN:   "any(f < 1 for f in window(0, 0, 'sampled_fraction'))" \
// RUN:   "all(abs(n - WINDOW0_LINES) <= WINDOW0_LINES / 50 for n in window(0, 0))" \
// RUN:   "all(e <= n / 100 for n, e in zip(window(0, 0), window(0, 0, 'std_error')))" \
// RUN:   "all(abs(n - WINDOW0_LINES) <= 5 * e + 32 for n, e in zip(window(0, 0), window(0, 0, 'std_error')))" \
// RUN:   "all(abs(n - WINDOW0_LINES) <= 5 * e + 32 for n, e in zip(window(0, 1), window(0, 1, 'std_error')))" \
// RUN:   "len(window(0, 0)) >= 10 and len(window(0, 1)) >= 2" \
// RUN:   "levels[0]['estimated'] >= 8 and levels[1]['estimated'] >= 2"
// RUN: %python %S/Inputs/check_report.py %t.d/exact --count 1 --vars %t.d/exact-vars \
// RUN:   "heap == WINDOW0_LINES and exact_snapshots" \
// RUN:   "all(l['estimated'] == 0 and all(f == 1 for f in l['sampled_fraction']) and not any(l['std_error']) for l in levels)" \
// RUN:   "all(WINDOW0_LINES <= n <= WINDOW0_LINES + 32 for n in window(0, 0) + window(0, 1))" \
// RUN:   "[r['regions']['heap'] for r in reports] == [WINDOW0_LINES]"
// RUN: %python -c "import glob, json, sys; \
// RUN:   a, b = (json.load(open(glob.glob(p)[0]))['regions'] for p in sys.argv[1:]); \
// RUN:   assert a['heap'] == b['heap'] and a['globals'] == b['globals'] and abs(a['stack'] - b['stack']) <= 2, (a, b)" \
// RUN:   "%t.d/est.[0-9]*" "%t.d/exact.[0-9]*"
//
// The text report marks the estimates and says what they are, each rounded
// to its standard error (hundreds here: not "~99873").
// RUN: env ESAN_OPTIONS=sample_clock=cpu:log_path=%t.d/text %run %t 100000 1 1 > /dev/null
// RUN: cat %t.d/text.* | FileCheck %s
// CHECK: snapshots marked ~ are estimates (more than 16384 lines per period, snapshot_budget): counted on a fixed 1/{{[0-9]+}} of the lines at the least, standard error at most 0.{{[0-9]+}}%{{.*}}; exact_snapshots=1 counts every line (totals and phases are always exact)
// CHECK: level 0: every 20 ms, {{[0-9]+}} snapshots, peak {{~?[0-9]+}} lines
// CHECK-NEXT: {{ ~[0-9]+00( |$)}}
