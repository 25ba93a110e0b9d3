// Estimated snapshots of a sparse program: one line in every 8 (one line per
// shadow word) of a 20 MiB buffer, 40000 lines per period, with a small
// budget (1024 lines: a 1/32 sample) so that the test runs quickly. Each
// level-0 and level-1 snapshot of the periods spent touching them is within
// 5 standard errors of 40000; the heap total is exact.
// RUN: %clang -O2 -fsanitize=efficiency-working-set -pthread %S/Inputs/estimates.c -o %t
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env ESAN_OPTIONS=sample_clock=cpu:snapshot_budget=1024:report_format=json:log_path=%t.d/est %run %t 40000 8 1 > %t.d/vars
// RUN: %python %S/Inputs/check_report.py %t.d/est --count 1 --vars %t.d/vars \
// RUN:   "all(n <= total_lines + 5 * e for l in levels for n, e in zip(l['lines'], l['std_error']))" \
// RUN:   "heap == WINDOW0_LINES and BUFFER_LINES == 8 * WINDOW0_LINES" \
// RUN:   "len(window(0, 0)) >= 10 and any(f <= 1 / 16 for f in window(0, 0, 'sampled_fraction'))" \
// RUN:   "all(abs(n - WINDOW0_LINES) <= 5 * e + 32 for n, e in zip(window(0, 0), window(0, 0, 'std_error')))" \
// RUN:   "all(abs(n - WINDOW0_LINES) <= 5 * e + 32 for n, e in zip(window(0, 1), window(0, 1, 'std_error')))" \
// RUN:   "all(0 < e <= n / 20 for n, e in zip(window(0, 0)[2:], window(0, 0, 'std_error')[2:]))"
//
// A budget below 1024 lines is refused (its standard error would exceed 2%).
// RUN: env ESAN_OPTIONS=snapshot_budget=1000 not %run %t 10 1 1 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: ESAN_OPTIONS: invalid value for option 'snapshot_budget': must be 1024 or more
