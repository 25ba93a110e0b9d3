// A chunked loop with a byte-indexed table runs each chunk in one of two
// copies of its body (docs/Pass.md, "Tables"): the table's accesses without
// checks while all its lines are marked, with checks otherwise. The other
// data-dependent accesses keep their checks in both copies, and the counts
// stay exact:
//   - full: the first chunk's bytes hold every value, so all 32 lines of the
//     table are marked from the second chunk on and the rest of the loop runs
//     the copy without the table's checks; meanwhile it adds into `big` at
//     indices it reads from memory, first touching most of big's lines in
//     the second half of the loop;
//   - part: bytes 0..63 only, 8 of the table's 32 lines, never all marked:
//     every chunk runs the checked copy and the other 24 lines stay out; it
//     adds into `big_too` at the same indices as full's loop into `big`;
//   - small: a 4 KiB image of every value, short enough for the loop's copy
//     marked whole (docs/Pass.md), counted twice into a table: the first
//     run marks the table (and adds into line 0 of `big_small`), the second
//     finds it marked before the loop and runs the copy without the table's
//     checks, adding into `big_small` at random (SMALL_LINES lines).
// The program computes which lines of big and big_too it touched (BIG_LINES),
// and the checksum of the counters, which must not depend on the
// instrumentation. The counts are those of the phase "count": the checksum
// after it reads the same lines again.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: %clang -O2 %s -o %t.plain
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: %t.plain > %t.d/plain
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.d/log %run %t > %t.d/vars
// RUN: diff %t.d/plain %t.d/vars
// RUN: %python %S/Inputs/check_report.py %t.d/log --count 1 --vars %t.d/vars \
// RUN:   "phases[0]['name'] == 'count' and BIG_LINES > 4000" \
// RUN:   "{o['name']: o['lines'] for o in phases[0]['objects']}['full'] == 32" \
// RUN:   "{o['name']: o['lines'] for o in phases[0]['objects']}['part'] == 8" \
// RUN:   "{o['name']: o['lines'] for o in phases[0]['objects']}['big'] == BIG_LINES" \
// RUN:   "{o['name']: o['lines'] for o in phases[0]['objects']}['big_too'] == BIG_LINES" \
// RUN:   "{o['name']: o['lines'] for o in phases[0]['objects']}['small'] == 32" \
// RUN:   "{o['name']: o['lines'] for o in phases[0]['objects']}['big_small'] == SMALL_LINES"
#include <stdio.h>
#include <stdlib.h>

__attribute__((weak)) void __efsan_mark_phase(const char *name);

enum { N = 1 << 20, BIG = 1 << 16 }; // 16 chunks of 65536 bytes; 8192 lines

_Alignas(64) long full[256], part[256], small[256];
_Alignas(64) long big[BIG], big_too[BIG], big_small[BIG];

__attribute__((noinline)) void count(long *table, const unsigned char *image,
                                     const unsigned *where, long *sums,
                                     long n) {
  for (long i = 0; i < n; i++) {
    table[image[i]]++;
    sums[where[i]] += image[i];
  }
}

static unsigned next(unsigned *v) {
  *v = *v * 1103515245u + 12345u;
  return *v >> 8;
}

int main(void) {
  unsigned char *image = malloc(N);
  unsigned *where = malloc(N * sizeof *where);
  static unsigned char touched[BIG / 8], touched_small[BIG / 8];
  static unsigned where_small[4096];
  if (!image || !where)
    return 1;
  unsigned v = 2024;
  for (long i = 0; i < N; i++) {
    image[i] = i < 4096 ? (unsigned char)i : (unsigned char)next(&v);
    // The first half adds into big's first line only; the second half at
    // random, at most 4096 distinct lines (in a 1/2 of big's lines).
    where[i] = i < N / 2 ? (unsigned)(i & 7) : (next(&v) % (BIG / 16)) * 16;
    touched[where[i] / 8] = 1;
  }
  if (__efsan_mark_phase)
    __efsan_mark_phase("count");
  count(full, image, where, big, N);
  for (long i = 0; i < N; i++)
    image[i] &= 63;
  count(part, image, where, big_too, N);
  for (long i = 0; i < 4096; i++) {
    image[i] = (unsigned char)(i * 7);
    where_small[i] = 0;
  }
  touched_small[0] = 1;
  count(small, image, where_small, big_small, 4096);
  for (long i = 0; i < 4096; i++) {
    where_small[i] = next(&v) % BIG;
    touched_small[where_small[i] / 8] = 1;
  }
  count(small, image, where_small, big_small, 4096);
  if (__efsan_mark_phase)
    __efsan_mark_phase("checksum");
  long lines = 0, small_lines = 0;
  for (long l = 0; l < BIG / 8; l++) {
    lines += touched[l];
    small_lines += touched_small[l];
  }
  // The checksum reads only what the loops touched, not to add lines.
  unsigned long sum = 0;
  for (int b = 0; b < 256; b++)
    sum = sum * 31 + (unsigned long)(full[b] + 5 * small[b]) +
          (b < 64 ? 3 * part[b] : 0);
  for (long i = 0; i < BIG; i++)
    if (touched[i / 8])
      sum = sum * 7 + (unsigned long)(big[i] + 5 * big_too[i]);
  for (long i = 0; i < BIG; i++)
    if (touched_small[i / 8])
      sum = sum * 3 + (unsigned long)big_small[i];
  printf("BIG_LINES=%ld\nSMALL_LINES=%ld\nSUM=%lu\n", lines, small_lines,
         sum);
  return 0;
}
