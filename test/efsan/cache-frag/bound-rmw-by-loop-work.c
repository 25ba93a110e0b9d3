// An atomic both threads bump costs them less with work between their adds:
// a locked write's bound (impact.bound_share) is the machine profile's bare
// atomic for a loop of nothing else, and its atomic after a step of
// xorshift for a loop of that much work (docs/CacheFrag.md, "The machine
// profile"). The loops below are the profile's shapes, whose counts the
// pass test pins (cache-frag-loop-work.c): a bare `atomic += 1` (4
// instructions per write) and the add after a step of xorshift (10). The
// threads bump one total (true sharing: the fix, private copies, removes
// the atomic: rmw_removed, 0.98 bare and 0.60 after a step here), or each
// its own atomic of one line (-DOWN_WORDS: padding keeps the atomics:
// rmw, 0.90 and 0.70). A profile written before efsan-calibrate measured
// the atomic after a step reads the bare one for every loop. By
// construction: every sampled write of each thread is its loop's, and at
// 150 ns per transfer the line is asked for more often than it can move,
// so the claim is at the bound. Idle and pinned to one CPU.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread -DSTEPS=0 %s -o %t.bare
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread -DSTEPS=1 %s -o %t.step
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread -DSTEPS=1 -DOWN_WORDS %s -o %t.own
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: env ESAN_OPTIONS=report_format=json:cache_frag_min_share=0:cache_frag_machine_profile=%t.dir/missing.txt %run %t.bare 2> %t.dir/none.json
// RUN: %python %S/Inputs/write_profile.py %t.dir/none.json %t.dir/profile.txt --transfer 150 150 150 --hammered 480000 500000 520000 --rmw 880000 900000 920000 --rmw-removed 970000 980000 990000 --rmw-work-1 680000 700000 720000 --rmw-removed-work-1 580000 600000 620000
// RUN: %python %S/Inputs/write_profile.py %t.dir/none.json %t.dir/old.txt --transfer 150 150 150 --hammered 480000 500000 520000 --rmw 880000 900000 920000 --rmw-removed 970000 980000 990000
// DEFINE: %{opts} = report_format=json:cache_frag_min_share=0:cache_frag_machine_profile=%t.dir/profile.txt
// DEFINE: %{total} = %python %S/Inputs/check_findings.py --only --expect true-sharing:global=total --threads 1,2 --at-bound yes
// DEFINE: %{own} = %python %S/Inputs/check_findings.py --only --expect false-sharing:global=words --threads 1,2 --at-bound yes
// DEFINE: %{bound} = %python -c "import json, sys; i = json.load(open(sys.argv[1]))['findings'][0]['impact']; w = int(sys.argv[2]) if sys.argv[2] != 'null' else None; assert (i['bound_loop_work'], i['bound_locked']) == (w, True), i"
// RUN: env ESAN_OPTIONS=%{opts} %run %t.bare 2> %t.dir/bare.json
// RUN: %{total} --bound-share 0.98 %t.dir/bare.json
// RUN: %{bound} %t.dir/bare.json 4
// RUN: env ESAN_OPTIONS=%{opts} %run %t.step 2> %t.dir/step.json
// RUN: %{total} --bound-share 0.60 %t.dir/step.json
// RUN: %{bound} %t.dir/step.json 10
// RUN: env ESAN_OPTIONS=%{opts} %run %t.own 2> %t.dir/own.json
// RUN: %{own} --bound-share 0.70 %t.dir/own.json
// RUN: %{bound} %t.dir/own.json 10
// RUN: env ESAN_OPTIONS=%{opts}:cache_frag_machine_profile=%t.dir/old.txt %run %t.step 2> %t.dir/old.json
// RUN: %{total} --bound-share 0.98 %t.dir/old.json
// RUN: %{bound} %t.dir/old.json null
// Pinned, the threads take turns: the bound is the loop's all the same.
// RUN: %if taskset %{ env ESAN_OPTIONS=%{opts} taskset -c 0 %run %t.step 2> %t.dir/pinned.json %}
// RUN: %if taskset %{ %{total} --bound-share 0.60 %t.dir/pinned.json %}
// The profile's atomics after a step are in its JSON and its text line.
// RUN: FileCheck %s --check-prefix=JSON < %t.dir/step.json
// JSON: "contended_rmw_work_1_share": {"loop_work": 10, "share": {"point": 0.700000, "low": 0.680000, "high": 0.720000}}, "contended_rmw_removed_work_1_share": {"loop_work": 10, "share": {"point": 0.600000, "low": 0.580000, "high": 0.620000}},
// RUN: FileCheck %s --check-prefix=OLD < %t.dir/old.json
// OLD: "contended_rmw_work_1_share": null, "contended_rmw_removed_work_1_share": null,
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_machine_profile=%t.dir/profile.txt %run %t.step 2>&1 | FileCheck %s
// CHECK: Machine profile: {{.*}}, 90% to an atomic both bump (88-92%, 98% against private copies, 60% with a step of work between adds); line transfers as above.
// CHECK: estimate: the threads keep taking the line from each other, so each is claimed at the bound of what a thread loses to an atomic both threads bump, 60% of its time beside the other, as this machine's profile measured it for loops with 10 instructions per write, as the compiler counted this one's (58-62% over the profile's rounds;
// The old profile's bound is its bare atomic's, with that atomic's range.
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_machine_profile=%t.dir/old.txt %run %t.step 2>&1 | FileCheck %s --check-prefix=OLD-TEXT
// OLD-TEXT: estimate: the threads keep taking the line from each other, so each is claimed at the bound of what a thread loses to an atomic both threads bump, 98% of its time beside the other, as this machine's profile measured it (97-99% over the profile's rounds); work between the adds moves it
// Without a profile the bound is the default for an atomic, and says so.
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_transfer_ns=150:cache_frag_machine_profile=%t.dir/missing.txt %run %t.step 2>&1 | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: estimate: the threads keep taking the line from each other, so each is claimed at the bound of what a thread loses to an atomic both threads bump, 90% of its time beside the other, a default (the machine decides;
// The page says it too, in headless Chromium.
// RUN: %efsan_view %t.dir/step.json -o %t.dir/step.html
// RUN: %python %S/../viewer/Inputs/check_page.py %t.dir/step.html %t.dir/step.png %t.dir/step.json | FileCheck %s --check-prefix=PAGE
// RUN: grep -q "what a thread loses to an atomic both threads bump" %t.dir/step.html
// PAGE: page ok
#include "Inputs/workers.h"
#include <stdint.h>

#define ROUNDS 4000000

#ifdef OWN_WORDS
_Alignas(64) static uint64_t words[2];
#define TARGET(me) words[me]
#else
_Alignas(64) static uint64_t total;
#define TARGET(me) total
#endif

static void *worker(void *arg) {
  long me = (long)arg;
  uint64_t x = (uint64_t)me + 3;
#pragma clang loop unroll(disable)
  for (int i = 0; i < ROUNDS; i++) {
#if STEPS
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    __atomic_fetch_add(&TARGET(me), x, __ATOMIC_RELAXED);
#else
    __atomic_fetch_add(&TARGET(me), 1, __ATOMIC_RELAXED);
#endif
  }
  return 0;
}

int main(void) {
  run_workers(worker, 2);
#ifdef OWN_WORDS
  printf("%llu\n", (unsigned long long)(words[0] + words[1]));
#else
  printf("%llu\n", (unsigned long long)total);
#endif
  return 0;
}
