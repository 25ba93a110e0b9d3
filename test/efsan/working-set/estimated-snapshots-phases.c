// Phases stay exact while the snapshots are estimated, and the snapshots
// become exact again when the working set drops below the budget. Phase
// "big" touches 40000 lines, "small" 500, "big again" 40000, with a budget of
// 1024 lines: the big phases' snapshots are estimates within 5 standard
// errors, the small phase's are exact from its second whole period on
// (the first still counts on the selection of the big phase while its
// stale bits are cleared), and each phase's heap lines are exact, as in a
// run with exact_snapshots=1. With snapshot_step=1, snapshots of levels 1
// to 3 cover the switches between estimated and exact counting too. One
// level-0 snapshot per big window may miss lines: a sample's scan of the
// shadow runs while the program does, and when the sampler is preempted
// mid-scan the next sample comes at once, after a short period (seen once at
// load 7: 33248 of 40000 in the window's last period, no sample "late").
// RUN: %clang -O2 -fsanitize=efficiency-working-set -pthread %S/Inputs/estimates.c -o %t
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env ESAN_OPTIONS=sample_clock=cpu:snapshot_budget=1024:snapshot_step=1:report_format=json:log_path=%t.d/est %run %t 40000 1 1 500 > %t.d/vars
// RUN: %python %S/Inputs/check_report.py %t.d/est --count 1 --vars %t.d/vars \
// RUN:   "all(n <= total_lines + 5 * e for l in levels for n, e in zip(l['lines'], l['std_error']))" \
// RUN:   "heap == WINDOW0_LINES == WINDOW2_LINES and WINDOW1_LINES == 500" \
// RUN:   "[p['name'] for p in phases] == ['big', 'small', 'big again']" \
// RUN:   "[sum(o['lines'] for o in p['objects'] if o['kind'] == 'heap') for p in phases] == [WINDOW0_LINES, WINDOW1_LINES, WINDOW2_LINES]" \
// RUN:   "all(p['lines'] <= heap_of + 32 for p, heap_of in zip(phases, [WINDOW0_LINES, WINDOW1_LINES, WINDOW2_LINES]))" \
// RUN:   "all(any(f < 1 for f in window(w, 0, 'sampled_fraction')) for w in (0, 2))" \
// RUN:   "all(sum(abs(n - WINDOW0_LINES) > 5 * e + 32 for n, e in zip(window(w, 0), window(w, 0, 'std_error'))) <= 1 for w in (0, 2))" \
// RUN:   "len(window(1, 0)) >= 10 and all(f == 1 for f in window(1, 0, 'sampled_fraction')[1:])" \
// RUN:   "all(WINDOW1_LINES <= n <= WINDOW1_LINES + 32 for n in window(1, 0)[1:])" \
// RUN:   "all(abs(n - lines) <= 5 * e + 32 for w, lines in enumerate([WINDOW0_LINES, WINDOW1_LINES, WINDOW2_LINES]) for k in range(1, 7) for n, e in zip(window(w, k), window(w, k, 'std_error')))" \
// RUN:   "len(window(1, 1)) >= 4 and len(window(1, 2)) >= 1"
// RUN: env ESAN_OPTIONS=sample_clock=cpu:exact_snapshots=1:report_format=json:log_path=%t.d/exact %run %t 40000 1 1 500 > %t.d/exact-vars
// RUN: %python %S/Inputs/check_report.py %t.d/exact --count 1 --vars %t.d/exact-vars \
// RUN:   "[sum(o['lines'] for o in p['objects'] if o['kind'] == 'heap') for p in phases] == [WINDOW0_LINES, WINDOW1_LINES, WINDOW2_LINES]" \
// RUN:   "all(WINDOW0_LINES <= n <= WINDOW0_LINES + 32 for w in (0, 2) for n in window(w, 0))" \
// RUN:   "all(WINDOW1_LINES <= n <= WINDOW1_LINES + 32 for n in window(1, 0))"
