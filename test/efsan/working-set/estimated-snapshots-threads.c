// Estimated snapshots with four threads touching 100000 lines in lockstep
// (each its quarter), with the default budget: the snapshots of the periods
// spent touching them are within 2% and 5 standard errors of 100000, and the
// heap total is exact.
// RUN: %clang -O2 -fsanitize=efficiency-working-set -pthread %S/Inputs/estimates.c -o %t
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env ESAN_OPTIONS=sample_clock=cpu:report_format=json:log_path=%t.d/est %run %t 100000 1 4 > %t.d/vars
// RUN: %python %S/Inputs/check_report.py %t.d/est --count 1 --vars %t.d/vars \
// RUN:   "all(n <= total_lines + 5 * e for l in levels for n, e in zip(l['lines'], l['std_error']))" \
// RUN:   "heap == WINDOW0_LINES" \
// RUN:   "len(window(0, 0)) >= 10 and any(f < 1 for f in window(0, 0, 'sampled_fraction'))" \
// RUN:   "all(abs(n - WINDOW0_LINES) <= WINDOW0_LINES / 50 for n in window(0, 0))" \
// RUN:   "all(abs(n - WINDOW0_LINES) <= 5 * e + 64 for n, e in zip(window(0, 0), window(0, 0, 'std_error')))" \
// RUN:   "all(abs(n - WINDOW0_LINES) <= 5 * e + 64 for n, e in zip(window(0, 1), window(0, 1, 'std_error')))"
