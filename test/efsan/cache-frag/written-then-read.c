// Data written once by the main thread and then only read by workers (an
// input image): not sharing, and not tracked either. A read by a second
// thread starts tracking a line only after cache_frag_tracking_threshold
// writes by its writer (Predator's tracking threshold), so the report stays
// small and the workers pay nothing for the lines they read.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json %run %t 2> %t.default.json
// RUN: %python %S/Inputs/check_findings.py --none %t.default.json
// RUN: FileCheck %s < %t.default.json
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json:cache_frag_sample_period=1 %run %t 2> %t.exact.json
// RUN: %python %S/Inputs/check_findings.py --none %t.exact.json
// RUN: FileCheck %s < %t.exact.json
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define BYTES (8 << 20)

static unsigned char *image;

static void *sum(void *arg) {
  unsigned long total = 0;
  for (int pass = 0; pass < 4; pass++)
    for (long i = 0; i < BYTES; i++)
      total += image[i];
  return (void *)total;
}

int main(void) {
  image = malloc(BYTES);
  for (long i = 0; i < BYTES; i++)
    image[i] = (unsigned char)(i * 7);
  pthread_t t[2];
  void *totals[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], 0, sum, 0);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], &totals[i]);
  printf("%lu\n", (unsigned long)totals[0] + (unsigned long)totals[1]);
  free(image);
  return 0;
}

// 8 MiB is 131072 lines: a handful may pass the threshold by sampling luck.
// CHECK: "tracked_lines": {{[0-9]?[0-9]?[0-9]}},
