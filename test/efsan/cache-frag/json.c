// report_format=json: the JSON parses, has the documented keys and carries
// the same findings, words and struct counts as the text report.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_period_ms=0:cache_frag_tracking_threshold=1 %run %t 2> %t.txt
// RUN: env ESAN_OPTIONS=cache_frag_period_ms=0:cache_frag_tracking_threshold=1:report_format=json %run %t 2> %t.json
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
// JSON-NEXT: "sampled": false,
// JSON-NEXT: "duty_cycle": 1.000000,
// JSON: "findings": [
// JSON-NEXT: {"kind": "false-sharing", "line_address": {{[0-9]+}}, "line_size": 64, "invalidations": 3999, "observed_invalidations": 3999,
// JSON-NEXT: "threads": [1, 2],
// JSON-NEXT: "object": {"kind": "global", "name": "pairs", "address": {{[0-9]+}}, "size": 64, "invalidations": 3999, "contended_offsets": [0, 16]},
// JSON-NEXT: "objects": [{"kind": "global", "name": "pairs", "address": {{[0-9]+}}, "size": 64, "invalidations": 3999, "contended_offsets": [0, 16]}],
// JSON-NEXT: "words": [
// JSON-NEXT: {"offset": 0, "object_offset": 0, "thread": 1, "reads": 1999, "writes": 2000},
// JSON-NEXT: {"offset": 16, "object_offset": 16, "thread": 2, "reads": 2000, "writes": 2000}],
// JSON: "structs": [
// JSON-NEXT: {"name": "{{(struct\.)?}}pair", "size": 16,
