// The miss-ratio curves' options.
//  - mrc_max_lines: a 48 MiB stream beside a hot table observed at 1/16 has
//    49216 observed lines; with at most 4096 the share halves until at most
//    3/4 of them are left (1/256 here). The stream's curve (3072 observed
//    lines) stays within 0.05 of the exact one from 1 MiB up; the program's
//    within 4 of its own standard errors (or 0.03): the table has about 4
//    observed lines left, so the table's share of the accesses, and with it
//    the program's curve, varies with which lines those are (they follow
//    the addresses, which move from run to run), and the error says so.
//  - miss_ratio_curve=0: no curves (JSON null, no table in the text), and
//    the working set's own figures are those of a run with the curves (its
//    globals and heap: the stack's lines vary from run to run).
// RUN: %clang -O2 -fsanitize=efficiency-working-set %S/Inputs/miss_ratio.c -o %t
// RUN: %clang -O2 %S/Inputs/miss_ratio.c -o %t.exact
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: %t.exact hot 1024 4000000 expect > %t.d/hot.json
// RUN: env ESAN_OPTIONS=mrc_sample_shift=4:mrc_max_lines=4096:report_format=json:log_path=%t.d/bounded %run %t hot 1024 4000000
// RUN: %python %S/Inputs/check_miss_ratio.py %t.d/bounded %t.d/hot.json --max-shift 12 --from 1048576 --se 4 --program 0.03 --objects stream 0.05
// RUN: %python %S/Inputs/check_report.py %t.d/bounded \
// RUN:   "0 < miss_ratio_curve['sampled_lines'] <= 4096 and float(miss_ratio_curve['sampled_fraction']) <= 1 / 256"
//
// RUN: env ESAN_OPTIONS=miss_ratio_curve=0:report_format=json:log_path=%t.d/off %run %t random 6000 4000000
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.d/on %run %t random 6000 4000000
// RUN: %python %S/Inputs/check_report.py %t.d/off \
// RUN:   "miss_ratio_curve is None and all(o['miss_ratio_curve'] is None for o in objects)"
// RUN: %python -c "import glob, json, sys; \
// RUN:   a, b = (json.load(open(glob.glob(p)[0])) for p in sys.argv[1:]); \
// RUN:   assert (a['regions']['globals'], a['regions']['heap']) == (b['regions']['globals'], b['regions']['heap']), (a['regions'], b['regions']); \
// RUN:   assert [(o['name'], o['lines']) for o in a['objects'] if o['kind'] == 'global'] == [(o['name'], o['lines']) for o in b['objects'] if o['kind'] == 'global']; \
// RUN:   assert b['miss_ratio_curve']['sampled_fraction'] == 1 / 1024" \
// RUN:   "%t.d/off.[0-9]*" "%t.d/on.[0-9]*"
// RUN: env ESAN_OPTIONS=miss_ratio_curve=0:log_path=%t.d/text %run %t random 6000 100000
// RUN: cat %t.d/text.* | FileCheck %s
// CHECK: caches of this machine
// CHECK-NOT: miss ratio
// CHECK: SUMMARY
