// A short program (a few ms unloaded) with the default windows: the false
// sharing is still found. A thread creation opens the window for 8 ms, then
// windows are open half the time and back off over the next 160 ms, and
// estimates are scaled by the measured duty cycle, whatever it was. With the default windows of 2 ms
// every 40 ms a program that short used to get one 2 ms window, before its
// threads ran. (Only the thresholds differ from the defaults, so that what is
// checked is that the windows cover the threads, not how far a loaded
// machine biases the estimate: tracking from the first write, and a report
// threshold of 200 invalidations.)
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_tracking_threshold=1:cache_frag_report_threshold=200 %run %t 2>&1 | FileCheck %s
//
// 2 x 10000 lock-step turns of counters[me]++: 19999 invalidations in all,
// of which the windows see their share; the estimate needs 200. (Sampled
// estimates are low by the in-window slowdown: the margin allows for it.)
#define ROUNDS 10000
#include "Inputs/lockstep.h"

_Alignas(64) volatile long counters[8];

static void count(int me) { counters[me]++; }

int main(void) {
  lockstep_run(count);
  return 0;
}

// CHECK: Counts are sampled: tracking windows of 2 ms every 40 ms (more often for 160 ms after a thread is created)
// CHECK: #1 false sharing: {{[0-9]+}} estimated invalidations of cache line {{0x[0-9a-f]+}} ({{[0-9]+}} observed; 0 more observed were true sharing), threads T1 T2
// CHECK-NEXT: object: global 'counters' at {{0x[0-9a-f]+}}, size 64; contended words: +0 +8
// CHECK: SUMMARY: EfficiencySanitizer: cache-frag: 1 false sharing, 0 true sharing, 0 predicted false sharing;
