// suppressions=FILE hides the findings a suppression of their kind matches
// (by a global's name, a function or file of a heap object's allocation
// stack, a function or file of an access site) and the struct types a
// "struct:" suppression matches, and counts them: in text one line before
// the SUMMARY, in JSON suppressed_findings and suppressed_structs. The
// SUMMARY and the expected gain count only what is shown.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
//
// Three false sharing findings, deterministic in lock step (3999
// invalidations each): global counters_a, global counters_b, and the heap
// block alloc_tallies() allocates, each written from its own function.
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t 2>&1 | FileCheck %s --check-prefix=ALL
// ALL: object: global 'counters_a'
// ALL: struct tally: size 16
// ALL-NOT: suppressed
// ALL: SUMMARY: EfficiencySanitizer: cache-frag: 3 false sharing, 0 true sharing, 0 predicted false sharing; 1 struct types with field accesses
//
// A global by name, with comments and blank lines around it.
// RUN: echo "# accepted: counters_a is per-thread by design" > %t.global.supp
// RUN: echo "" >> %t.global.supp
// RUN: echo "  false_sharing:counters_a  " >> %t.global.supp
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1:suppressions=%t.global.supp %run %t 2>&1 | FileCheck %s --check-prefix=GLOBAL --implicit-check-not="'counters_a'"
// GLOBAL: false sharing on cache line
// GLOBAL: object: global 'counters_b'
// GLOBAL: allocated at:
// GLOBAL-NEXT: #0 0x{{[0-9a-f]+}} in alloc_tallies {{.*}}suppressions.c:{{[0-9]+}}
// GLOBAL: struct tally: size 16
// GLOBAL: ==1 finding suppressed (suppressions={{.*}}global.supp)
// GLOBAL-NEXT: SUMMARY: EfficiencySanitizer: cache-frag: 2 false sharing, 0 true sharing, 0 predicted false sharing; 1 struct types with field accesses
//
// A suppression of another kind hides nothing.
// RUN: echo "true_sharing:counters_a" > %t.kind.supp
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1:suppressions=%t.kind.supp %run %t 2>&1 | FileCheck %s --check-prefix=ALL
//
// A glob on a function of the heap block's allocation stack; a function of
// an access site; a file of the access sites, anchored (the path's last
// component matches), which hides all three.
// RUN: echo "false_sharing:alloc_tall*s" > %t.alloc.supp
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1:suppressions=%t.alloc.supp %run %t 2>&1 | FileCheck %s --check-prefix=ALLOC --implicit-check-not="heap object"
// ALLOC: object: global 'counters_a'
// ALLOC: object: global 'counters_b'
// ALLOC: ==1 finding suppressed
// ALLOC-NEXT: SUMMARY: EfficiencySanitizer: cache-frag: 2 false sharing,
// RUN: echo "false_sharing:^bump_b$" > %t.site.supp
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1:suppressions=%t.site.supp %run %t 2>&1 | FileCheck %s --check-prefix=SITE --implicit-check-not="'counters_b'"
// SITE: object: global 'counters_a'
// SITE: heap object
// SITE: ==1 finding suppressed
// SITE-NEXT: SUMMARY: EfficiencySanitizer: cache-frag: 2 false sharing,
// RUN: echo "false_sharing:^suppressions.c$" > %t.file.supp
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1:suppressions=%t.file.supp %run %t 2>&1 | FileCheck %s --check-prefix=FILE
// FILE: No false sharing, true sharing or predicted false sharing above the report threshold.
// FILE: ==3 findings suppressed
// FILE-NEXT: SUMMARY: EfficiencySanitizer: cache-frag: 0 false sharing,
//
// A struct type by its name, and a finding, in one file; JSON.
// RUN: echo "struct:tally" > %t.both.supp
// RUN: echo "false_sharing:counters_a" >> %t.both.supp
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1:suppressions=%t.both.supp %run %t 2>&1 | FileCheck %s --check-prefix=BOTH
// BOTH: Struct field usage: no struct field accesses were seen.
// BOTH-NEXT: ==1 finding and 1 struct type suppressed (suppressions={{.*}}both.supp)
// BOTH-NEXT: SUMMARY: EfficiencySanitizer: cache-frag: 2 false sharing, 0 true sharing, 0 predicted false sharing; 0 struct types with field accesses
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1:report_format=json:suppressions=%t.both.supp %run %t 2> %t.json
// RUN: %python %S/Inputs/check_findings.py %t.json --expect false-sharing:global=counters_b --expect false-sharing:heap=suppressions.c --only
// RUN: %python -c "import json, sys; r = json.load(open(sys.argv[1])); got = (r['suppressed_findings'], r['suppressed_structs'], [s['name'] for s in r['structs']]); sys.exit(0 if got == (1, 1, []) else 'got %%r' %% (got,))" %t.json
// Without suppressions both counts are there, 0.
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1:report_format=json %run %t 2> %t.none.json
// RUN: %python -c "import json, sys; r = json.load(open(sys.argv[1])); got = (r['suppressed_findings'], r['suppressed_structs'], len(r['findings'])); sys.exit(0 if got == (0, 0, 3) else 'got %%r' %% (got,))" %t.none.json
#include "Inputs/lockstep.h"

struct tally {
  long count;
  long spare;
};

_Alignas(64) volatile long counters_a[2];
_Alignas(64) volatile long counters_b[2];
static struct tally *tallies;

// Each finding's line is written from a function of its own (an access
// site the suppressions can name).
__attribute__((noinline)) static void bump_a(int me) { counters_a[me]++; }
__attribute__((noinline)) static void bump_b(int me) { counters_b[me]++; }
__attribute__((noinline)) static void bump_tally(int me) {
  volatile struct tally *t = &tallies[me];
  t->count++;
}

static void turn(int me) {
  bump_a(me);
  bump_b(me);
  bump_tally(me);
}

// Zeroes without memset (which would count as the main thread's accesses).
UNINSTRUMENTED static void clear(struct tally *t, int n) {
  for (volatile long *p = (volatile long *)t; p < (volatile long *)(t + n); p++)
    *p = 0;
}

// A frame of its own in the allocation stack: neither inlined nor a tail call.
__attribute__((noinline, disable_tail_calls)) static struct tally *
alloc_tallies(void) {
  return aligned_alloc(64, 4 * sizeof(struct tally));
}

int main(void) {
  tallies = alloc_tallies();
  clear(tallies, 4);
  lockstep_run(turn);
  free(tallies);
  return 0;
}
