// The report says how it counted: sampled by default (one access in
// cache_frag_sample_period per thread, counts scaled by it), exact with
// cache_frag_sample_period=1 or the old spelling cache_frag_period_ms=0;
// the obsolete window options are still accepted. It names the weight of
// the longer periods (a thread alone, a quiet thread) when there is one.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag %s -o %t
// RUN: %run %t 2>&1 | FileCheck %s --check-prefix=DEFAULT
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=250 %run %t 2>&1 | FileCheck %s --check-prefix=P250
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=250:report_format=json %run %t 2>&1 | FileCheck %s --check-prefix=JSON
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_alone_weight=1:cache_frag_quiet_weight=1 %run %t 2>&1 | FileCheck %s --check-prefix=UNWEIGHTED
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_alone_weight=4:cache_frag_quiet_weight=1 %run %t 2>&1 | FileCheck %s --check-prefix=ALONE4
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t 2>&1 | FileCheck %s --check-prefix=EXACT
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_period_ms=0 %run %t 2>&1 | FileCheck %s --check-prefix=EXACT
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_period_ms=40:cache_frag_window_ms=4:cache_frag_tracking_threshold=7 %run %t 2>&1 | FileCheck %s --check-prefix=DEFAULT
volatile long sink;

int main(void) {
  for (int i = 0; i < 100000; i++)
    sink++;
  return 0;
}

// DEFAULT: Counts are sampled: each thread samples one access in 1000 on average, up to 16 times fewer while it runs alone or finds nothing shared, each sample then counted as many times; counts shown are samples times 1000.
// DEFAULT: SUMMARY: EfficiencySanitizer: cache-frag:
// P250: Counts are sampled: each thread samples one access in 250 on average, up to 16 times fewer while it runs alone or finds nothing shared, each sample then counted as many times; counts shown are samples times 250.
// UNWEIGHTED: Counts are sampled: each thread samples one access in 1000 on average; counts shown are samples times 1000.
// ALONE4: Counts are sampled: each thread samples one access in 1000 on average, up to 4 times fewer while it runs alone or finds nothing shared, each sample then counted as many times; counts shown are samples times 1000.
// JSON: "sampled": true,
// JSON-NEXT: "sample_period": 250,
// EXACT: Counts are exact: every access was seen (cache_frag_sample_period=1).
