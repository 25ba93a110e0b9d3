// report_format=json: the JSON parses, has the documented keys and carries
// the same findings (kinds, invalidations, impact, per-thread byte ranges)
// and struct counts as the text report.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t 2> %t.txt
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1:report_format=json %run %t 2> %t.json
// RUN: %python %S/Inputs/check_json.py %t.json %t.txt | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.json
#include "Inputs/lockstep.h"

struct pair {
  long first;
  long second;
};

_Alignas(64) struct pair pairs[4];

static void bump(int me) {
  volatile struct pair *p = &pairs[me];
  p->first++;
}

int main(void) {
  lockstep_run(bump);
  return 0;
}

// CHECK: check_json: 1 findings and 1 structs match

// JSON: "tool": "cache-frag",
// JSON-NEXT: "schema_version": 5,
// JSON-NEXT: "pid": {{[0-9]+}},
// JSON-NEXT: "executable": "{{.*}}/json.c.tmp",
// JSON-NEXT: "sampled": false,
// JSON-NEXT: "sample_period": 1,
// JSON-NEXT: "transfer_ns": {{[0-9]+}},
// JSON-NEXT: "transfer_source": "{{measured.*|default.*}}",
// JSON-NEXT: "line_pairs": {{true|false}},
// JSON-NEXT: "line_pairs_source": "cpuid: {{.*}}",
// JSON-NEXT: "machine": "{{[^"]+}}",
// JSON-NEXT: "machine_profile": null,
// JSON-NEXT: "machine_profile_missing": "no HOME or XDG_CACHE_HOME to keep one in",
// JSON-NEXT: "allocation_stacks": {"exact_allocations": 131072, "sample_bytes": 16384, "sampled": false, "unsampled_at_least": 0},
// JSON-NEXT: "process_cpu_seconds": {{[0-9]+\.[0-9]+}},
// JSON-NEXT: "tool_cpu_seconds": {"sampled_path": {{[0-9]+\.[0-9]+}}, "transfer_measurement": {{[0-9]+\.[0-9]+}}, "polls_beyond_side_by_side": {{[0-9]+\.[0-9]+}}},
// JSON-NEXT: "run_cpu_seconds": {{[0-9]+\.[0-9]+}},
// JSON-NEXT: "expected_gain": {"cpu_seconds": {{[0-9.]+}}, "share": {{[0-9.]+}}, "wall_seconds": {{[0-9.]+}}, "low_share": {{[0-9.]+}}, "high_share": {{[0-9.]+}}},
// JSON-NEXT: "min_share": 0.000000,
// JSON-NEXT: "hidden_findings": 0,
// JSON-NEXT: "suppressed_findings": 0,
// JSON-NEXT: "suppressed_structs": 0,
// JSON-NEXT: "report_threshold": 100,
// JSON: "findings": [
// JSON-NEXT: {"kind": "false-sharing", "line_address": {{[0-9]+}}, "line_size": 64, "invalidations": 3999,
// JSON-NEXT: "observed_invalidations": 3999, "estimated_parallel_invalidations": {{34[5-7][0-9]}}, "true_sharing_invalidations": 0, "false_sharing_invalidations": 3999,
// JSON-NEXT: "impact": {"estimated_seconds": {{[0-9]+\.[0-9]+}}, "share": {{[0-9]+\.[0-9]+}}, "wall_seconds": {{[0-9]+\.[0-9]+}}, "low_share": {{[0-9]+\.[0-9]+}}, "high_share": {{[0-9]+\.[0-9]+}}, "low_seconds": {{[0-9]+\.[0-9]+}}, "high_seconds": {{[0-9]+\.[0-9]+}}, "conditional": false, "hypothetical": false, "run_seconds": {{[0-9]+\.[0-9]+}}, "at_bound": {{true|false}}, "bound_share": {{0\.[0-9]+}}, "bound_loop_work": {{null|[0-9]+}}, "bound_locked": false, "transfer_ns": {{[0-9]+}}, "threads_seconds": {{[0-9]+\.[0-9]+}}},
// JSON-NEXT: "threads": [1, 2],
// JSON-NEXT: "thread_start_functions": [{"thread": 1, "function": "lockstep_worker"}, {"thread": 2, "function": "lockstep_worker"}],
// JSON-NEXT: "thread_creations": [{"thread": 1, "created_by": 0, "stack": [{"function": "lockstep_run", "file": "{{.*}}lockstep.h", "line": 55}, {"function": "main", "file": "{{.*}}json.c", "line": 24}]}, {"thread": 2, "created_by": 0, "stack": [{"function": "lockstep_run", "file": "{{.*}}lockstep.h", "line": 55}, {"function": "main", "file": "{{.*}}json.c", "line": 24}]}],
// JSON-NEXT: "object": {"kind": "global", "name": "pairs", "address": {{[0-9]+}}, "size": 64, "invalidations": 3999, "contended_bytes": {{\[}}[0, 7], [16, 23]]},
// JSON-NEXT: "objects": [{"kind": "global", "name": "pairs", "address": {{[0-9]+}}, "size": 64, "invalidations": 3999, "contended_bytes": {{\[}}[0, 7], [16, 23]]}],
// JSON-NEXT: "accesses": [
// JSON-NEXT: {"thread": 1, "offset": 0, "length": 8, "object_offset": 0, "reads": 1999, "writes": 1999},
// JSON-NEXT: {"thread": 2, "offset": 16, "length": 8, "object_offset": 16, "reads": 1999, "writes": 2000}],
// JSON-NEXT: "access_sites": [
// JSON-NEXT: {"thread": 1, "access": "read", "function": "bump", "file": "{{.*}}json.c", "line": 20, "count": 1999, "under_lock": false, "line_bytes": {{\[}}[0, 7]]},
// JSON-NEXT: {"thread": 1, "access": "write", "function": "bump", "file": "{{.*}}json.c", "line": 20, "count": 1999, "under_lock": false, "line_bytes": {{\[}}[0, 7]]},
// JSON-NEXT: {"thread": 2, "access": "read", "function": "bump", "file": "{{.*}}json.c", "line": 20, "count": 1999, "under_lock": false, "line_bytes": {{\[}}[16, 23]]},
// JSON-NEXT: {"thread": 2, "access": "write", "function": "bump", "file": "{{.*}}json.c", "line": 20, "count": 2000, "under_lock": false, "line_bytes": {{\[}}[16, 23]]}],
// JSON-NEXT: "access_sites_other": 0,
// JSON-NEXT: "line_map": [
// JSON-NEXT: {"offset": 0, "length": 8, "object": {"kind": "global", "name": "pairs", "address": {{[0-9]+}}, "size": 64}, "object_offset": 0, "member": "pairs[0].first", "readers": [1], "writers": [1]},
// JSON-NEXT: {"offset": 8, "length": 8, "object": null, "object_offset": null, "member": null, "readers": [], "writers": []},
// JSON-NEXT: {"offset": 16, "length": 8, "object": {"kind": "global", "name": "pairs", "address": {{[0-9]+}}, "size": 64}, "object_offset": 16, "member": "pairs[1].first", "readers": [2], "writers": [2]},
// JSON-NEXT: {"offset": 24, "length": 40, "object": null, "object_offset": null, "member": null, "readers": [], "writers": []}],
// JSON-NEXT: "members": [
// JSON-NEXT: {"name": "pairs[0].first", "offset": 0, "size": 8, "threads": [1]},
// JSON-NEXT: {"name": "pairs[1].first", "offset": 16, "size": 8, "threads": [2]}],
// JSON-NEXT: "fix": {"thread_part_bytes": 16, "estimated_gain_seconds": {{[0-9]+\.[0-9]+}}, "text": "threads write different bytes of global 'pairs' on one cache line: {{.*}}(struct pair is 16 bytes, 4 per line: make each element 64 bytes, e.g. _Alignas(64) on its first member first, or pad struct pair to 64 bytes){{.*}}; the fix saves {{.*}}
// JSON: "structs": [
// JSON-NEXT: {"name": "struct pair", "size": 16,
