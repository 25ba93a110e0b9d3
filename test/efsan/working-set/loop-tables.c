// Byte-indexed tables in loops marked by ranges (docs/Pass.md, "Tables"):
// while every line of a table is marked, the loop's accesses to it skip their
// checks; otherwise they check as usual. The counts stay exact:
//   - partial: a 1 MiB image (chunked loop) of bytes 0..63 counts into 256
//     longs: only bins 0..63 are touched, 8 of the table's 32 lines;
//   - late: the first half of the image holds bytes 0..63, the second half
//     0..255: all 32 lines, the last 24 first touched after many chunks;
//   - small: a 4 KiB image (the loop marked whole) of bytes 0..127: 16 lines.
// The images are 16384 + 16384 + 8192 (the second half of late's, made
// apart and freed) + 64 heap lines.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -f %t.log.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.log %run %t exact
// RUN: %python %S/Inputs/check_report.py %t.log --count 1 \
// RUN:   "named('global', 'partial')['lines'] == 8" \
// RUN:   "named('global', 'late')['lines'] == 32" \
// RUN:   "named('global', 'small')['lines'] == 16" "heap == 16384 + 16384 + 8192 + 64"
// Snapshots keep the table: a 64 KiB image (1024 lines, the loop marked
// whole) counted into a 32-line table again and again; after each sample the
// table's lines lack bit 0, so the next run of the loop checks and marks them
// again, and a level-0 snapshot holds the image and the table (1056 lines).
// (A sampler that woke late takes the next sample at once: up to a quarter of
// the snapshots may be short.)
// RUN: rm -f %t.snap.*
// RUN: env ESAN_OPTIONS=sample_clock=cpu:sample_freq=2:snapshot_history=65536:report_format=json:log_path=%t.snap %run %t snapshots
// RUN: %python %S/Inputs/check_report.py %t.snap --count 1 "len(level0) >= 10" \
// RUN:   "sum(1 for n in level0 if n < 1056) <= len(level0) // 4"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Alignas(64) long partial[256], late[256], small[256], hot[256];

__attribute__((noinline)) void count(long *table, const unsigned char *image,
                                     long n) {
  for (long i = 0; i < n; i++)
    table[image[i]]++;
}

static unsigned char *image_of(long n, unsigned mask) {
  unsigned char *image = aligned_alloc(64, n);
  unsigned v = 12345;
  for (long i = 0; i < n; i++) {
    v = v * 1103515245u + 12345u;
    image[i] = (unsigned char)((v >> 16) & mask);
  }
  return image;
}

int main(int argc, char **argv) {
  long sum = 0;
  if (!strcmp(argv[1], "exact")) {
    unsigned char *a = image_of(1 << 20, 63);
    count(partial, a, 1 << 20);
    unsigned char *b = image_of(1 << 20, 63), *c = image_of(1 << 19, 255);
    memcpy(b + (1 << 19), c, 1 << 19); // lines of b already counted
    free(c);                           // c's lines count as heap: see below
    count(late, b, 1 << 20);
    unsigned char *d = image_of(4096, 127);
    count(small, d, 4096);
    for (int i = 0; i < 64; i++) // only the bins the images touched
      sum += partial[i] + small[i] + small[i + 64];
    for (int i = 0; i < 256; i++)
      sum += late[i];
  } else {
    unsigned char *e = image_of(1 << 16, 255);
    for (int pass = 0; pass < 6000; pass++)
      count(hot, e, 1 << 16);
    for (int i = 0; i < 256; i++)
      sum += hot[i];
  }
  printf("%ld\n", sum);
  return 0;
}
