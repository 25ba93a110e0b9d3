// A loop that spreads its writes over two lines, of which it shares one with
// the other thread, puts only a part of them on the shared line: the work
// between those writes is the loop's per write times its writes per write to
// that line, and what the line costs the thread is the machine profile's
// loops read there (docs/CacheFrag.md, "The work between writes"). Each
// thread cycles through the 8 words of its 64-byte slot. HALF: the slots sit
// 32 bytes into a line, so each thread's slot spans two lines and the middle
// one gets half of each thread's writes; without it the slots are 32 bytes
// (4 words, the same loop over `i & 3`) and sit in one line, which gets all
// of them. By construction, from the pass's count of the loop (the same in
// both builds) and the sampled accesses: the count in HALF is twice the
// other's (1.6-2.4x: sampling), its bound the profile's loops read there,
// below the other's. Idle and pinned to one CPU.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread -DHALF %s -o %t.half
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t.whole
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: env ESAN_OPTIONS=report_format=json:cache_frag_min_share=0:cache_frag_machine_profile=none %run %t.whole 2> %t.dir/key.json
// RUN: %python %S/Inputs/write_profile.py %t.dir/key.json %t.dir/profile.txt --transfer 150 150 150 --hammered 880000 900000 920000 --rmw 900000 900000 900000 --one-write 680000 700000 720000 --work-8 480000 500000 520000 --work-32 280000 300000 320000
// DEFINE: %{opts} = report_format=json:cache_frag_min_share=0:cache_frag_machine_profile=%t.dir/profile.txt
// RUN: env ESAN_OPTIONS=%{opts} %run %t.whole 2> %t.dir/whole.json
// RUN: env ESAN_OPTIONS=%{opts} %run %t.half 2> %t.dir/half.json
// RUN: %python %S/Inputs/check_findings.py --only --expect false-sharing:global=storage --threads 1,2 %t.dir/whole.json
// RUN: %python %S/Inputs/check_findings.py --expect false-sharing:global=storage --threads 1,2 %t.dir/half.json
// RUN: %python %S/Inputs/check_line_part.py %t.dir/whole.json %t.dir/half.json | FileCheck %s
// RUN: %if taskset %{ env ESAN_OPTIONS=%{opts} taskset -c 0 %run %t.half 2> %t.dir/pinned.json %}
// RUN: %if taskset %{ %python %S/Inputs/check_line_part.py %t.dir/whole.json %t.dir/pinned.json | FileCheck %s %}
// CHECK: part ok
#include "Inputs/workers.h"
#include <stdint.h>

#define UPDATES 60000000L
#ifdef HALF
#define WORDS 8
#define OFFSET 32
#else
#define WORDS 4
#define OFFSET 0
#endif
struct slot {
  volatile uint64_t v[WORDS];
};
_Alignas(64) static char storage[64 * 4];
static struct slot *slots;

static void *worker(void *arg) {
  long me = (long)arg;
#pragma clang loop unroll(disable)
  for (long i = 0; i < UPDATES; i++)
    slots[me].v[i & (WORDS - 1)] += (uint64_t)i;
  return 0;
}

int main(void) {
  slots = (struct slot *)(storage + OFFSET);
  run_workers(worker, 2);
  uint64_t sum = 0;
  for (int t = 0; t < 2; t++)
    for (int k = 0; k < WORDS; k++)
      sum += slots[t].v[k];
  printf("%llu\n", (unsigned long long)sum);
  return 0;
}
