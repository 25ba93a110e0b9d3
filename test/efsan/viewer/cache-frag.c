// efsan-view on real cache-frag reports. Two threads take turns bumping
// their own member of a per-thread stats array: without padding the two
// elements share a line (false sharing on the global `stats`); built with
// -DPADDED each element has its own line. The page of the unpadded run and
// the diff of the two runs are loaded in headless Chromium: every finding is
// there, ranked by estimated cost, with a line map whose every byte carries
// the threads the report says write and read it, the thread colours, the
// fix, and the struct field heat with the report's counts. In the diff the
// false sharing on `stats` has disappeared.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread -DPADDED %s -o %t.padded
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: env ESAN_OPTIONS=report_format=json:cache_frag_min_share=0:cache_frag_sample_period=1:log_path=%t.dir/before %run %t
// RUN: env ESAN_OPTIONS=report_format=json:cache_frag_min_share=0:cache_frag_sample_period=1:log_path=%t.dir/after %run %t.padded
// RUN: %efsan_view %t.dir/before.* -o %t.dir/page.html
// RUN: %python %S/Inputs/check_page.py %t.dir/page.html %t.dir/page.png %t.dir/before.* \
// RUN:   | FileCheck %s --check-prefix=PAGE
// RUN: FileCheck %s --check-prefix=HTML < %t.dir/page.html
// RUN: %efsan_view --diff %t.dir/before.* %t.dir/after.* -o %t.dir/diff.html
// RUN: %python %S/Inputs/check_page.py --diff %t.dir/diff.html %t.dir/diff.png %t.dir/before.* %t.dir/after.* \
// RUN:   --expect "disappeared:false sharing on global stats" | FileCheck %s --check-prefix=DIFF
// A cache-frag report has no time axis to trace.
// RUN: not %efsan_view --perfetto %t.dir/before.* -o %t.dir/trace.json 2>&1 | FileCheck %s --check-prefix=TRACE
#include "../cache-frag/Inputs/lockstep.h"

struct stats {
  long hits;
  long misses;
#ifdef PADDED
  char pad[48];
#endif
};

_Alignas(64) struct stats stats[NTHREADS];

static void count(int me) {
  stats[me].hits++;
  if (stats[me].hits % 4 == 0)
    stats[me].misses++;
}

int main(void) {
  lockstep_run(count);
  return 0;
}

// PAGE: page ok: pid {{[0-9]+}} cache-frag: {{[1-9]}} findings (false-sharing{{.*}}), {{[1-9]}} structs
// PAGE: page ok: {{.*}} screenshot {{.*}}page.png
// HTML: false sharing on global stats
// HTML: <b>Fix:</b> threads write different bytes of global &#x27;stats&#x27;
// HTML: <h4>struct stats
// DIFF: page ok: diff cache-frag: disappeared false sharing on global stats
// DIFF: page ok: {{.*}} screenshot {{.*}}diff.png
// TRACE: efsan-view: error: {{.*}}before.{{[0-9]+}}: a cache-frag report has no time axis; --perfetto takes working-set reports
