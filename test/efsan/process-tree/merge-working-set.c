// efsan-view --merge of a process tree's working sets: Inputs/shared_workers.c,
// a parent and three forked workers on one shared anonymous mapping (each
// touching known line ranges) with private heap blocks. The answers are the
// program's arithmetic: the mapping's lines counted once are [0, 192), 192
// (224 summed, 32 touched by two workers); the workers' 160 of them with
// the same 32 by several, the parent's 32 by one; the workers' heap site 300
// lines in 3 processes, the parent's 40. The root names the directory and
// the command; the merge reads the directory, in text and in JSON.
// RUN: %clang -O2 -g -fsanitize=efficiency-working-set %S/Inputs/shared_workers.c -o %t
// RUN: rm -rf %t.tmp && mkdir %t.tmp
// RUN: env TMPDIR=%t.tmp %run %t 2> %t.stderr
// RUN: FileCheck %s --check-prefix=ROOT < %t.stderr
// ROOT: SUMMARY: EfficiencySanitizer: working set of {{[0-9]+}} cache lines ({{.*}}) in process [[PID:[0-9]+]]
// ROOT-NEXT: ==[[PID]]==EfficiencySanitizer: 3 processes started by this one reported so far, in [[DIR:.*]]/efsan.merge-working-set.c.tmp.[[PID]]/ (merge them: efsan-view --merge [[DIR]]/efsan.merge-working-set.c.tmp.[[PID]])
//
// RUN: %efsan_view --merge %t.tmp/efsan.* > %t.txt
// RUN: FileCheck %s --input-file %t.txt
// CHECK: Merged working set of 4 processes (the tree of pid [[RPID:[0-9]+]])
// CHECK-NEXT: {{[0-9]+}} lines ({{.*}}), each line counted once; {{[0-9]+}} lines summed over the processes
// CHECK-NEXT: shared mappings: 192 lines counted once (224 summed), 32 lines touched by more than one process
// CHECK-NEXT: by process kind:
// CHECK-NEXT: kind processes lines summed shared overlap
// CHECK-DAG: {{^}} worker 3 {{[0-9]+}} {{[0-9]+}} 160 32{{$}}
// CHECK-DAG: {{^}} merge-working-set.c.tmp 1 {{[0-9]+}} {{[0-9]+}} 32 0{{$}}
// CHECK: by data structure (matched by kind and name; lines counted once):
// CHECK-NEXT: kind lines summed processes overlap name
// CHECK-NEXT: heap 300 300 3 0 main {{.*}}shared_workers.c:46
// CHECK-NEXT: mapping 192 224 4 32 /dev/zero (deleted)
// CHECK-NEXT: heap 40 40 1 0 main {{.*}}shared_workers.c:50
// CHECK: shared mappings (by device and inode):
// CHECK-NEXT: /dev/zero (deleted) (device {{[0-9a-f]+:[0-9a-f]+}}, inode {{[0-9]+}}): 192 lines counted once, 224 summed, 32 touched by more than one of 4 processes
// CHECK-NEXT: processes:
// CHECK-NEXT: pid [[RPID]] merge-working-set.c.tmp {{[0-9]+}} lines, 32 shared (root)
// CHECK-COUNT-3: worker {{[0-9]+}} lines, 64 shared (forked from [[RPID]])
// CHECK-NEXT: SUMMARY: efsan-view: merged working set of {{[0-9]+}} cache lines ({{.*}}) in 4 processes
//
// RUN: %efsan_view --merge %t.tmp/efsan.* -o %t.merged.json
// RUN: %python %S/Inputs/check_merged.py %t.merged.json %t.tmp/efsan.* \
// RUN:   "merged['total']['shared_lines'] == 192 and merged['total']['shared_summed_lines'] == 224" \
// RUN:   "merged['total']['overlap_lines'] == 32" \
// RUN:   "(kind('worker')['processes'], kind('worker')['shared_lines'], kind('worker')['overlap_lines']) == (3, 160, 32)" \
// RUN:   "(kind('merge-working-set.c.tmp')['shared_lines'], kind('merge-working-set.c.tmp')['overlap_lines']) == (32, 0)" \
// RUN:   "kind('worker')['lines'] == kind('worker')['summed_lines'] - 32" \
// RUN:   "(structure('heap', 'shared_workers.c:46')['lines'], structure('heap', 'shared_workers.c:46')['processes']) == (300, 3)" \
// RUN:   "structure('heap', 'shared_workers.c:46')['by_process_kind'] == {'worker': 300}" \
// RUN:   "structure('heap', 'shared_workers.c:50')['lines'] == 40" \
// RUN:   "[(m['lines'], m['summed_lines'], m['overlap_lines'], m['processes']) for m in merged['shared_mappings']] == [(192, 224, 32, 4)]" \
// RUN:   "structure('mapping', '/dev/zero (deleted)')['lines'] == 192" \
// RUN:   | FileCheck %s --check-prefix=JSON
// JSON: merged ok: working-set of 4 processes
//
// With log_path every process writes log_path.PID, as before; the root
// counts them. As JSON they merge alike (P.PID.N, a report while a process
// ran, would go with P.PID in the glob and is left out).
// RUN: rm -rf %t.logs && mkdir %t.logs
// RUN: env ESAN_OPTIONS=log_path=%t.logs/r %run %t
// RUN: ls %t.logs | count 4
// RUN: cat %t.logs/r.* | FileCheck %s --check-prefix=LOG
// LOG: EfficiencySanitizer: 3 processes started by this one reported so far, in {{.*}}/r.PID files (with report_format=json, efsan-view --merge {{.*}}/r.* merges them)
// RUN: rm -rf %t.logs && mkdir %t.logs
// RUN: env ESAN_OPTIONS=log_path=%t.logs/r:report_format=json %run %t
// RUN: ls %t.logs | count 4
// RUN: %python -c "import glob, shutil, sys; f = sorted(glob.glob(sys.argv[1] + '.*'))[0]; shutil.copy(f, f + '.1')" %t.logs/r
// RUN: %efsan_view --merge %t.logs/r.* -o %t.log-merged.json
// RUN: %python %S/Inputs/check_merged.py %t.log-merged.json %t.logs/r \
// RUN:   "merged['total']['shared_lines'] == 192 and merged['total']['overlap_lines'] == 32" \
// RUN:   "merged['process_tree']['root_pid'] in [p['pid'] for p in merged['processes']]" \
// RUN:   | FileCheck %s --check-prefix=JSON
