// GCC's libgomp: clang generates OpenMP code for libomp only (with
// -fopenmp=libgomp it ignores the #pragmas), so a team of libgomp comes from
// GCC-built code, here a library function that runs an instrumented
// callback on each thread of its parallel region. Its threads are named
// after that region (the GOMP_parallel call, Inputs/omp_team.c:6), and the
// per-thread counters the callbacks bump are found as false sharing, as in
// int-counters.c. The same object linked with clang's libomp (which serves
// GCC's GOMP_* entry points) gives the same report.
// REQUIRES: libgomp
// RUN: gcc -O2 -g -fopenmp -fno-omit-frame-pointer -c %S/Inputs/omp_team.c -o %t.team.o
// RUN: %clang -O2 -g %s %t.team.o -fopenmp=libgomp -o %t.plain
// RUN: %run %t.plain > %t.plain.out
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag %s %t.team.o -fopenmp=libgomp -o %t
// DEFINE: %{check} = %python %S/Inputs/check_findings.py --only --expect false-sharing:heap=openmp-libgomp.c --threads 0,1
// RUN: env ESAN_OPTIONS=report_format=json:cache_frag_transfer_ns=150:cache_frag_min_share=0 %run %t > %t.out 2> %t.json
// RUN: diff %t.plain.out %t.out
// RUN: %{check} %t.json
// RUN: %if taskset %{ env ESAN_OPTIONS=report_format=json:cache_frag_transfer_ns=150:cache_frag_min_share=0 taskset -c 0 %run %t > %t.pinned.out 2> %t.pinned.json %}
// RUN: %if taskset %{ diff %t.plain.out %t.pinned.out %}
// RUN: %if taskset %{ %{check} %t.pinned.json %}
// RUN: env ESAN_OPTIONS=cache_frag_transfer_ns=150:cache_frag_min_share=0 %run %t 2>&1 | FileCheck %s
// RUN: %if libomp %{ %clang -O2 -g -fsanitize=efficiency-cache-frag %s %t.team.o -fopenmp -o %t.libomp %}
// RUN: %if libomp %{ env ESAN_OPTIONS=cache_frag_transfer_ns=150:cache_frag_min_share=0 %run %t.libomp 2>&1 | FileCheck %s %}
#include <stdio.h>
#include <stdlib.h>

void run_team(int n, void (*body)(int me));

#define NTHREADS 2
#define WORDS 4096
#define PASSES 60

_Alignas(128) static unsigned words[NTHREADS][WORDS + 64];
static int *use_len;

static void body(int me) {
  for (int pass = 0; pass < PASSES; pass++)
    for (int i = 0; i < WORDS; i++) {
      words[me][i] = words[me][i] * 31 + (unsigned)i; // private work
      if ((words[me][i] & 7) == 0)
        use_len[me]++;
    }
}

int main(void) {
  use_len = calloc(NTHREADS, sizeof(int));
  run_team(NTHREADS, body);
  printf("%d\n", use_len[0]); // T0 reads only its own counter
  free(use_len);
  return 0;
}

// CHECK: #1 false sharing on cache line {{.*}} of the run; about {{.*}} of wall time); threads T0 T1
// CHECK: threads: T0 main, T1 omp parallel at omp_team.c:6
// CHECK-NEXT: T1 created by T0 at:
// CHECK-NEXT: #0 0x{{[0-9a-f]+}} in run_team {{.*}}omp_team.c:6
// CHECK-NEXT: #1 0x{{[0-9a-f]+}} in main {{.*}}openmp-libgomp.c:47
// CHECK: SUMMARY: EfficiencySanitizer: cache-frag: 1 false sharing, 0 true sharing

// Each thread bumps its counter once per 8 words or so, its writes about
// 50 ns apart: the share of such a line follows the transfer the start-up
// ping-pong measures (up to 70 ns of it hidden by the work between
// writes), about 0.05-0.15 when this VM's vCPUs share a core complex (40
// ns) and more across complexes. The runs fix the transfer at 150 ns so
// that what they check does not depend on where the VM's vCPUs sit.

// (At the end, so that the line numbers checked above stay.) The finding's
// share of this 20 ms run is 4-6% pinned (hidden once in 10 pinned runs by
// the default 3% threshold, 2026-11-28): the test is about detection and
// names, so it reports every finding (cache_frag_min_share=0), as
// openmp-counters.c does.
