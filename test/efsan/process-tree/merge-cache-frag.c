// efsan-view --merge of a process tree's cache-frag reports:
// Inputs/false_sharing_workers.c, a parent and two forked workers, each with
// the same lock-step false sharing on its own copy of the global `pair`
// (3999 invalidations observed in each, every access seen). The merged
// report has one finding in 3 processes with 3 * 3999 invalidations, the
// CPU time the fixes save summed, and struct pair's fields 3 * 4000
// accesses each; every sum is also checked against the per-process files.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %S/Inputs/false_sharing_workers.c -o %t
// RUN: rm -rf %t.tmp && mkdir %t.tmp
// RUN: env TMPDIR=%t.tmp ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t 2> %t.stderr
// RUN: FileCheck %s --check-prefix=ROOT < %t.stderr
// ROOT: SUMMARY: EfficiencySanitizer: cache-frag: 1 false sharing
// ROOT-NEXT: EfficiencySanitizer: 2 processes started by this one reported so far
// RUN: %efsan_view --merge %t.tmp/efsan.* | FileCheck %s
// CHECK: Merged cache-frag report of 3 processes (the tree of pid {{[0-9]+}})
// CHECK-NEXT: run CPU time {{.*}} summed over the processes; fixing the findings saves {{.*}}
// CHECK-NEXT: findings (matched across processes by object, kind and offset; summed):
// CHECK-NEXT: 1. false sharing on global pair: in 3 processes (merge-cache-frag.c.tmp, worker x2), 11,997 invalidations, the fix saves {{.*}}
// CHECK-NEXT: fix (pid {{[0-9]+}}): threads write different bytes of global 'pair' on one cache line
// CHECK-NEXT: struct field usage (summed over processes):
// CHECK-NEXT: struct pair (16 bytes): 24,000 field accesses in 3 processes
// CHECK-NEXT: a offset 0 size 8 12,000 hot
// CHECK-NEXT: b offset 8 size 8 12,000 hot
// CHECK: SUMMARY: efsan-view: 1 merged finding in 3 processes
// RUN: %efsan_view --merge %t.tmp/efsan.* --format json -o %t.merged.json
// RUN: %python %S/Inputs/check_merged.py %t.merged.json %t.tmp/efsan.* \
// RUN:   "len(merged['findings']) == 1" \
// RUN:   "finding('false sharing on global pair')['invalidations'] == 3 * 3999" \
// RUN:   "finding('false sharing on global pair')['by_process_kind'] == {'merge-cache-frag.c.tmp': 1, 'worker': 2}" \
// RUN:   "[f['count'] for f in struct('struct pair')['fields']] == [12000, 12000]" \
// RUN:   "abs(merged['expected_gain']['cpu_seconds'] - sum(r['expected_gain']['cpu_seconds'] for r in reports)) < 1e-8" \
// RUN:   "abs(merged['run_cpu_seconds'] - sum(r['run_cpu_seconds'] for r in reports)) < 1e-8" \
// RUN:   | FileCheck %s --check-prefix=JSON
// JSON: merged ok: cache-frag of 3 processes
// The same pinned to one CPU: the counts do not depend on the schedule.
// RUN: rm -rf %t.tmp && mkdir %t.tmp
// RUN: %if taskset %{ env TMPDIR=%t.tmp ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 taskset -c 0 %run %t 2> %t.stderr %}
// RUN: %if taskset %{ %efsan_view --merge %t.tmp/efsan.* | FileCheck %s %}
