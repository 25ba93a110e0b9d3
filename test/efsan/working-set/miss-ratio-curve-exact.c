// With every line observed (mrc_sample_shift=0) the miss-ratio curves are an
// exact LRU simulation of the accesses as the tool sees them: they agree with
// the one the program computes itself (Inputs/miss_ratio.c) within 0.01 at
// every size, for uniformly random lines of 2000 and for two phases (a
// cyclic sweep over 1500 lines, then random lines of 6000), each phase with
// its own curve (the cache shared with what came before). A sample every 5
// seconds: the run ends before the first, so that no access falls in a
// sampler's scan, during which accesses to observed lines are not recorded
// (a preempted scan on a loaded machine could hide many).
// RUN: %clang -O2 -fsanitize=efficiency-working-set %S/Inputs/miss_ratio.c -o %t
// RUN: %clang -O2 %S/Inputs/miss_ratio.c -o %t.exact
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: %t.exact random 2000 1000000 expect > %t.d/random.json
// RUN: env ESAN_OPTIONS=mrc_sample_shift=0:sample_freq=5000:report_format=json:log_path=%t.d/random %run %t random 2000 1000000
// RUN: %python %S/Inputs/check_miss_ratio.py %t.d/random %t.d/random.json --exact --from 16384 --program 0.01 --objects buffer 0.01
// RUN: %t.exact phases 1500 1000000 expect > %t.d/phases.json
// RUN: env ESAN_OPTIONS=mrc_sample_shift=0:sample_freq=5000:report_format=json:log_path=%t.d/phases %run %t phases 1500 1000000
// RUN: %python %S/Inputs/check_miss_ratio.py %t.d/phases %t.d/phases.json --exact --from 16384 --program 0.01 --phases 0.01
// RUN: %if taskset %{ env ESAN_OPTIONS=mrc_sample_shift=0:sample_freq=5000:report_format=json:log_path=%t.d/pinned taskset -c 0 %run %t phases 1500 1000000 %}
// RUN: %if taskset %{ %python %S/Inputs/check_miss_ratio.py %t.d/pinned %t.d/phases.json --exact --from 16384 --program 0.01 --phases 0.01 %}
