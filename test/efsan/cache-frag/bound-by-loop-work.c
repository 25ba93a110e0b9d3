// What a line both threads keep writing costs a thread falls with the work
// its loop does between writes: the claim's bound (impact.bound_share) is the
// machine profile's loops read at the instructions per write the compiler
// counted in the thread's loop (impact.bound_loop_work; docs/CacheFrag.md,
// "The machine profile"). The loops below are the profile's shapes, whose
// counts the pass test pins (cache-frag-loop-work.c): one write per
// iteration and no work (8 instructions per write: the profile's one_write,
// 0.70 here), 8 and 32 steps of xorshift between writes (54 and 247:
// work_8 0.50, work_32 0.30). Increments the compiler unrolls into a run of
// writes to one word (RUN_OF_WRITES, 4 per iteration) take the profile's bound for a
// line both threads keep writing, 0.90, as they do without these loops in
// the profile (0.90 too: the profile decides, not the loop). A profile that
// measured 1, 2 and 4 steps too (12, 18 and 30 instructions per write) reads
// a loop of 2 steps at its own shape, 0.40, where the one without them reads
// it between the loops with 0 and 8 steps, 0.615. By construction: every
// sampled write of each thread is its loop's. Idle and pinned to one CPU.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread -DSTEPS=0 %s -o %t.one
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread -DSTEPS=2 %s -o %t.work2
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread -DSTEPS=8 %s -o %t.work8
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread -DSTEPS=32 %s -o %t.work32
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread -DRUN_OF_WRITES %s -o %t.run
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: env ESAN_OPTIONS=report_format=json:cache_frag_min_share=0:cache_frag_machine_profile=%t.dir/missing.txt %run %t.one 2> %t.dir/none.json
// RUN: %python %S/Inputs/check_findings.py --only --expect false-sharing:global=counters --bound-share 0.65 %t.dir/none.json
// RUN: %python -c "import json, sys; assert json.load(open(sys.argv[1]))['findings'][0]['impact']['bound_loop_work'] is None" %t.dir/none.json
// RUN: %python %S/Inputs/write_profile.py %t.dir/none.json %t.dir/profile.txt --transfer 150 150 150 --hammered 880000 900000 920000 --rmw 900000 900000 900000 --one-write 680000 700000 720000 --work-8 480000 500000 520000 --work-32 280000 300000 320000
// RUN: %python %S/Inputs/write_profile.py %t.dir/none.json %t.dir/dense.txt --transfer 150 150 150 --hammered 880000 900000 920000 --rmw 900000 900000 900000 --one-write 680000 700000 720000 --work-1 640000 660000 680000 --work-2 380000 400000 420000 --work-4 340000 360000 380000 --work-8 320000 340000 360000 --work-32 280000 300000 320000
// RUN: %python %S/Inputs/write_profile.py %t.dir/none.json %t.dir/dip.txt --transfer 150 150 150 --hammered 880000 900000 920000 --rmw 900000 900000 900000 --one-write 680000 700000 720000 --work-1 380000 400000 420000 --work-2 580000 600000 620000 --work-4 340000 360000 380000 --work-8 320000 340000 360000 --work-32 280000 300000 320000
// RUN: %python %S/Inputs/write_profile.py %t.dir/none.json %t.dir/old.txt --transfer 150 150 150 --hammered 880000 900000 920000 --rmw 900000 900000 900000
// DEFINE: %{opts} = report_format=json:cache_frag_min_share=0:cache_frag_machine_profile=%t.dir/profile.txt
// DEFINE: %{check} = %python %S/Inputs/check_findings.py --only --expect false-sharing:global=counters --threads 1,2
// DEFINE: %{work} = %python -c "import json, sys; w = json.load(open(sys.argv[1]))['findings'][0]['impact']['bound_loop_work']; assert w == (int(sys.argv[2]) if sys.argv[2] != 'null' else None), w"
// RUN: env ESAN_OPTIONS=%{opts} %run %t.one 2> %t.dir/one.json
// RUN: %{check} --bound-share 0.70 %t.dir/one.json
// RUN: %{work} %t.dir/one.json 8
// RUN: env ESAN_OPTIONS=%{opts} %run %t.work8 2> %t.dir/work8.json
// RUN: %{check} --bound-share 0.50 %t.dir/work8.json
// RUN: %{work} %t.dir/work8.json 54
// RUN: env ESAN_OPTIONS=%{opts} %run %t.work32 2> %t.dir/work32.json
// RUN: %{check} --bound-share 0.30 %t.dir/work32.json
// RUN: %{work} %t.dir/work32.json 247
// RUN: env ESAN_OPTIONS=%{opts} %run %t.run 2> %t.dir/run.json
// RUN: %{check} --bound-share 0.90 %t.dir/run.json
// RUN: %{work} %t.dir/run.json null
// RUN: env ESAN_OPTIONS=report_format=json:cache_frag_min_share=0:cache_frag_machine_profile=%t.dir/old.txt %run %t.work8 2> %t.dir/old.json
// RUN: %{check} --bound-share 0.90 %t.dir/old.json
// RUN: %{work} %t.dir/old.json null
// RUN: env ESAN_OPTIONS=%{opts} %run %t.work2 2> %t.dir/work2.json
// RUN: %{check} --bound-share 0.615 %t.dir/work2.json
// RUN: %{work} %t.dir/work2.json 18
// RUN: env ESAN_OPTIONS=%{opts}:cache_frag_machine_profile=%t.dir/dense.txt %run %t.work2 2> %t.dir/dense2.json
// RUN: %{check} --bound-share 0.40 %t.dir/dense2.json
// A shape that lost more than one with less work (1 step 0.40, 2 steps 0.60)
// is pooled with it: both at 0.50, never a claim that rises with the work.
// RUN: env ESAN_OPTIONS=%{opts}:cache_frag_machine_profile=%t.dir/dip.txt %run %t.work2 2> %t.dir/dip2.json
// RUN: %{check} --bound-share 0.50 %t.dir/dip2.json
// RUN: FileCheck %s --check-prefix=DIP < %t.dir/dip2.json
// DIP: "contended_loop_shares": [{"loop_work": 8, {{.*}}}, {"loop_work": 12, "share": {"point": 0.500000, {{.*}}}}, {"loop_work": 18, "share": {"point": 0.500000, {{.*}}}}, {"loop_work": 30, "share": {"point": 0.360000,
// RUN: env ESAN_OPTIONS=%{opts}:cache_frag_machine_profile=%t.dir/dense.txt %run %t.work8 2> %t.dir/dense8.json
// RUN: %{check} --bound-share 0.34 %t.dir/dense8.json
// The profile's loops are in its JSON, at the counts the runtime places them.
// RUN: FileCheck %s --check-prefix=PROFILE < %t.dir/work8.json
// PROFILE: "contended_loop_shares": [{"loop_work": 8, "share": {"point": 0.700000, "low": 0.680000, "high": 0.720000}}, {"loop_work": 54, "share": {"point": 0.500000, "low": 0.480000, "high": 0.520000}}, {"loop_work": 247, "share": {"point": 0.300000, "low": 0.280000, "high": 0.320000}}]},
// RUN: FileCheck %s --check-prefix=DENSE < %t.dir/dense2.json
// DENSE: "contended_loop_shares": [{"loop_work": 8, {{.*}}}, {"loop_work": 12, "share": {"point": 0.660000, "low": 0.640000, "high": 0.680000}}, {"loop_work": 18, "share": {"point": 0.400000, "low": 0.380000, "high": 0.420000}}, {"loop_work": 30, {{.*}}}, {"loop_work": 54, {{.*}}}, {"loop_work": 247, {{.*}}}]},
// Pinned, the threads take turns: the bound is the loop's all the same.
// RUN: %if taskset %{ env ESAN_OPTIONS=%{opts} taskset -c 0 %run %t.work8 2> %t.dir/pinned.json %}
// RUN: %if taskset %{ %{check} --bound-share 0.50 %t.dir/pinned.json %}
// The page says it too, in headless Chromium (check_page.py: the count
// wherever impact.bound_loop_work has one and the claim is at the bound).
// RUN: %efsan_view %t.dir/one.json -o %t.dir/one.html
// RUN: %python %S/../viewer/Inputs/check_page.py %t.dir/one.html %t.dir/one.png %t.dir/one.json | FileCheck %s --check-prefix=PAGE
// RUN: grep -q "for loops with 8 instructions per write" %t.dir/one.html
// PAGE: page ok
// The text report names the count when the claim is at the bound.
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_machine_profile=%t.dir/profile.txt %run %t.one 2>&1 | FileCheck %s
// CHECK: #1 false sharing on cache line {{.*}}; threads T1 T2
// CHECK: estimate: the threads keep taking the line from each other, so each is claimed at the bound of what a thread loses to one line, 70% of its time beside the other, as this machine's profile measured it for loops with 8 instructions per write, as the compiler counted this one's (68-72% over the profile's rounds; docs/CacheFrag.md, "The machine profile")
#include "Inputs/workers.h"
#include <stdint.h>

_Alignas(64) static volatile uint64_t counters[2];

#ifdef RUN_OF_WRITES
#define UPDATES 25000000
static void *worker(void *arg) {
  long me = (long)arg;
#pragma clang loop unroll(disable)
  for (int i = 0; i < UPDATES; i++) {
    counters[me]++;
    counters[me]++;
    counters[me]++;
    counters[me]++;
  }
  return 0;
}
#else
// About the same time for each shape, alone: a tenth of a second or more,
// so that a loaded machine does not end one thread before the other starts.
#define UPDATES (100000000 / (STEPS * 3 + 1))
static void *worker(void *arg) {
  long me = (long)arg;
  uint64_t x = (uint64_t)me | 1;
#pragma clang loop unroll(disable)
  for (long i = 0; i < UPDATES; i++) {
#if STEPS
    for (int k = 0; k < STEPS; k++) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
    }
    counters[me] += x;
#else
    counters[me] += ((uint64_t)i + x) ^ 0x5bd1;
#endif
  }
  return 0;
}
#endif

int main(void) {
  run_workers(worker, 2);
  printf("%llu %llu\n", (unsigned long long)counters[0],
         (unsigned long long)counters[1]);
  return 0;
}
