// A GCC-built OpenMP plugin loaded with dlopen(RTLD_LOCAL) by a program that
// does not link libgomp: the plugin's GOMP_parallel binds to the wrapper the
// executable exports, which must find libgomp although it is outside
// RTLD_NEXT's scope (it died with "GOMP_parallel called but no OpenMP
// runtime provides it"). The program computes what the plain build computes.
// REQUIRES: libgomp
// RUN: gcc -O2 -g -fopenmp -fPIC -shared %S/Inputs/omp_team.c -o %t.team.so
// RUN: %clang -O2 -g %s -o %t.plain -ldl
// RUN: %run %t.plain %t.team.so > %t.plain.out
// RUN: rm -f %t.log.* %t.ws.log.*
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag %s -o %t -ldl
// RUN: env ESAN_OPTIONS=log_path=%t.log %run %t %t.team.so > %t.out
// RUN: diff %t.plain.out %t.out
// RUN: cat %t.log.* | FileCheck %s
// RUN: %clang -O2 -g -fsanitize=efficiency-working-set %s -o %t.ws -ldl
// RUN: env ESAN_OPTIONS=log_path=%t.ws.log %run %t.ws %t.team.so > %t.ws.out
// RUN: diff %t.plain.out %t.ws.out
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#define NTHREADS 4

static long sums[NTHREADS];

static void body(int me) {
  for (int i = 0; i < 100000; i++)
    sums[me] += i % 7;
}

int main(int argc, char **argv) {
  void *team = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!team) {
    fprintf(stderr, "%s\n", dlerror());
    return 2;
  }
  void (*run_team)(int, void (*)(int)) =
      (void (*)(int, void (*)(int)))dlsym(team, "run_team");
  run_team(NTHREADS, body);
  printf("%ld %ld\n", sums[0], sums[3]);
  return 0;
}

// CHECK: SUMMARY: EfficiencySanitizer: cache-frag:
