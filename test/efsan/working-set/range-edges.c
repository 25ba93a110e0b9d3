// Ranges that libc (through efsan's interceptors) and efsan's own memcpy,
// memmove and memset read and write count exactly their lines on the edge
// cases of range marking: a range ending exactly at the end of a line,
// 1-byte ranges, strtok_r's scans, ranges crossing a shadow page (4096 shadow bytes, 256 KiB of
// application memory), ranges of 2 to 16 lines whose first and last lines
// are marked already but not those in between, longer ranges with marked
// lines scattered inside, and ranges marked again after a sample cleared
// their lines' bit 0 (they count again in the next period: the phase
// boundaries here are samples). The program touches its buffers only
// through those ranges and counts their lines itself, byte by byte; the
// report must agree with it and with the count worked out by hand:
//   A 5 + B 4 + C 4 + 158 + 4096 + 1 + S 157 + D 690 + D2 276
//   + 319 + T 9 + E 40 + F 5 + G 10 + H 1 = 5775 heap lines.
// RUN: %clang -O2 -g -fsanitize=efficiency-working-set %s -o %t
// RUN: %run %t 2>&1 | FileCheck %s
// The sampler running every millisecond, clearing bit 0 while the ranges
// are marked, changes nothing.
// RUN: env ESAN_OPTIONS=sample_freq=1 %run %t 2>&1 | FileCheck %s
// CHECK: model: [[N:5775]] heap lines
// CHECK: {{^}}=={{[0-9]+}}==  heap {{ *}}[[N]] lines
// Each phase counts its lines again, though they had been marked before:
// with the sampler off the phase boundaries are the only samples. (Frame 0
// of an allocation stack is make, frame 1 the site.)
// RUN: rm -f %t.log.*
// RUN: env ESAN_OPTIONS=record_snapshots=0:report_format=json:log_path=%t.log %run %t
// RUN: %python %S/Inputs/check_report.py %t.log --count 1 \
// RUN:   "heap == 5775" \
// RUN:   "[p['name'] for p in phases] == ['first', 'again']" \
// RUN:   "all(sorted((o['alloc_stack'][1]['function'], o['lines']) for o in p['objects'] if o['kind'] == 'heap') == [('alloc_e', 40), ('alloc_f', 5), ('alloc_g', 10), ('alloc_h', 1)] for p in phases)"
#include <fcntl.h>
#include <sanitizer/efsan_interface.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// libc's own functions (through efsan's interceptors): called through
// pointers, so the compiler neither inlines them nor turns them into
// efsan's memset/memcpy callouts.
void *(*volatile libc_memset)(void *, int, size_t) = memset;
void *(*volatile libc_memcpy)(void *, const void *, size_t) = memcpy;
size_t (*volatile libc_strlen)(const char *) = strlen;
char *(*volatile libc_strtok_r)(char *, const char *, char **) = strtok_r;
// Sizes the compiler cannot see: memset/memcpy/memmove with them become
// calls of __efsan_memset, __efsan_memcpy and __efsan_memmove.
volatile size_t opaque_zero = 0;

enum { kShadowPage = 4096 * 64 }; // application bytes per shadow page

// The program's own count: every byte of every range, by line.
struct buffer {
  char *start;
  size_t lines;
  unsigned char seen[4 * kShadowPage / 64];
};
static struct buffer A, B, C, S, D, D2, E, F, G, H, T;

static void model(struct buffer *b, const char *p, size_t n) {
  for (size_t i = 0; i < n; i++) {
    size_t line = (size_t)(p + i - b->start) / 64;
    if (p + i < b->start || line >= b->lines)
      exit(2); // the test's own range is outside its buffer
    b->seen[line] = 1;
  }
}

static char *make(struct buffer *b, size_t alignment, size_t lines) {
  b->start = aligned_alloc(alignment, lines * 64);
  b->lines = lines;
  if (!b->start)
    exit(1);
  return b->start;
}

static void fill(struct buffer *b, char *p, int c, size_t n) {
  libc_memset(p, c, n);
  model(b, p, n);
}

static void fill_own(struct buffer *b, char *p, int c, size_t n) {
  memset(p, c, n + opaque_zero);
  model(b, p, n);
}

// Writes a string of n bytes (a NUL at the end, `delimiter` at `at`)
// without being seen: only strtok_r's reads and writes of it count.
__attribute__((disable_sanitizer_instrumentation, noinline)) static void
unseen_string(char *p, size_t n, size_t at, char delimiter) {
  for (size_t i = 0; i < n; i++)
    p[i] = i == n - 1 ? 0 : i == at ? delimiter : 't';
}

#define SITE __attribute__((noinline, disable_tail_calls))
SITE char *alloc_e(void) { return make(&E, 64, 40); }
SITE char *alloc_f(void) { return make(&F, 64, 5); }
SITE char *alloc_g(void) { return make(&G, 64, 10); }
SITE char *alloc_h(void) { return make(&H, 64, 1); }

// The same lines in each phase: 40 (marked out of line), 5 and 10 (the
// inline test of 4 and 8 shadow bytes at a time) and 1 line.
static void phase_work(char *e, char *f, char *g, char *h) {
  fill(&E, e, 1, 40 * 64);
  fill(&E, e, 2, 40 * 64); // marked already: no change
  fill_own(&F, f, 3, 5 * 64);
  fill(&G, g, 'g', 10 * 64 - 1);
  fill(&G, g + 10 * 64 - 1, 0, 1);
  if (libc_strlen(g) != 10 * 64 - 1) // reads all 10 lines
    exit(1);
  model(&G, g, 10 * 64);
  fill(&H, h + 5, 4, 10);
}

int main(void) {
  // A: a range that ends exactly at the end of line 2, one that ends
  // exactly at the end of line 4, and line 6 whole.
  char *a = make(&A, 64, 10);
  fill(&A, a, 1, 3 * 64);
  fill(&A, a + 4 * 64 + 10, 1, 54);
  fill_own(&A, a + 6 * 64, 1, 64);

  // B: 1-byte ranges at both ends of lines 0 and 1, in line 15, and a
  // 1-byte write and read (the NUL of an empty string) in line 23.
  char *b = make(&B, 64, 32);
  fill(&B, b, 0, 1);
  fill(&B, b + 63, 0, 1);
  fill(&B, b + 64, 0, 1);
  fill_own(&B, b + 127, 0, 1);
  fill(&B, b + 1000, 0, 1);
  int fd = open("/dev/zero", O_RDONLY);
  if (fd < 0 || read(fd, b + 1500, 1) != 1)
    return 1;
  close(fd);
  model(&B, b + 1500, 1);
  if (libc_strlen(b + 1500) != 0)
    return 1;
  model(&B, b + 1500, 1);

  // C: four shadow pages. 130 bytes across the first boundary (lines
  // 4094..4097), a 10000-byte copy across the second (158 lines, and 157
  // of the source S), the whole last shadow page, and 2 bytes across the
  // third boundary (line 12287 is new).
  char *c = make(&C, kShadowPage, 4 * kShadowPage / 64);
  fill(&C, c + kShadowPage - 65, 3, 130);
  char *s = make(&S, 64, 160);
  fill(&S, s, 7, 10000);
  memcpy(c + 2 * kShadowPage - 5000, s, 10000 + opaque_zero);
  model(&C, c + 2 * kShadowPage - 5000, 10000);
  fill_own(&C, c + 3 * kShadowPage, 4, kShadowPage);
  fill(&C, c + 3 * kShadowPage - 1, 5, 2);

  // D: ranges of 2 to 21 lines (1 to 20 shadow bytes past the first), each
  // with one or more lines unmarked and the others marked first: only the
  // first and last lines marked, all but the last line but one, all but
  // line 1. The inline test reads the range's shadow as a head and a tail
  // that overlap; each must be seen (3 * (20 * 21 / 2 + 20) = 690 lines).
  char *d = make(&D, 64, 3 * 21 * 32);
  for (size_t variant = 0; variant < 3; variant++)
    for (size_t span = 1; span <= 20; span++) {
      char *from = d + (variant * 21 + span) * 32 * 64 + 17;
      size_t hole = variant == 1 ? span - 1 : 1;
      for (size_t line = 0; line <= span; line++)
        if (variant ? line != hole : line == 0 || line == span)
          fill(&D, from + line * 64, 8, 1);
      if (span % 2)
        fill(&D, from, 9, span * 64 + 1);
      else
        memmove(from, from + 1, span * 64 + opaque_zero); // reads 1 more
      model(&D, from, span * 64 + 1);
    }

  // D2: longer ranges with every 7th line marked first (17 + 18 + 32 + 33 +
  // 34 + 41 + 101 = 276 lines), then with all lines but one marked first:
  // the line just past what the inline test reads for 16 shadow bytes,
  // either side of a 32-line step of the out-of-line skip, the last and the
  // first (17 + 18 + 41 + 41 + 101 + 101 = 319 lines).
  static const size_t sparse_spans[] = {16, 17, 31, 32, 33, 40, 100};
  static const size_t holed_spans[][2] = {{16, 8},  {17, 16},  {40, 31},
                                          {40, 32}, {100, 100}, {100, 0}};
  char *d2 = make(&D2, 64, 13 * 128);
  for (size_t k = 0; k < 13; k++) {
    char *from = d2 + k * 128 * 64 + 17;
    size_t span = k < 7 ? sparse_spans[k] : holed_spans[k - 7][0];
    for (size_t line = 0; line <= span; line++)
      if (k < 7 ? line % 7 == 0 : line != holed_spans[k - 7][1])
        fill(&D2, from + line * 64, 10, 1);
    fill_own(&D2, from, 11, span * 64 + 1);
  }

  // T: strtok_r reads up to the delimiter, which becomes the token's NUL,
  // then to the string's NUL (lines 0..5); then a token whose delimiter is
  // the last byte of line 7 with the string's NUL in line 8 (lines 6..8).
  char *t = make(&T, 64, 9), *save;
  unseen_string(t, 5 * 64 + 4, 2 * 64 + 10, ',');
  if (libc_strtok_r(t, ",", &save) != t ||
      libc_strtok_r(NULL, ",", &save) != t + 2 * 64 + 11 ||
      libc_strtok_r(NULL, ",", &save))
    return 1;
  model(&T, t, 5 * 64 + 4);
  unseen_string(t + 6 * 64, 2 * 64 + 1, 2 * 64 - 1, ',');
  if (libc_strtok_r(t + 6 * 64, ",", &save) != t + 6 * 64 ||
      libc_strtok_r(NULL, ",", &save))
    return 1;
  model(&T, t + 6 * 64, 2 * 64 + 1);

  char *e = alloc_e(), *f = alloc_f(), *g = alloc_g(), *h = alloc_h();
  __efsan_mark_phase("first");
  phase_work(e, f, g, h);
  __efsan_mark_phase("again");
  phase_work(e, f, g, h);
  __efsan_mark_phase(NULL);

  struct buffer *all[] = {&A, &B, &C, &S, &D, &D2, &E, &F, &G, &H, &T};
  size_t lines = 0;
  for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
    for (size_t line = 0; line < all[i]->lines; line++)
      lines += all[i]->seen[line];
  char text[64];
  int length = snprintf(text, sizeof(text), "model: %zu heap lines\n", lines);
  if (write(2, text, (size_t)length) != length)
    return 1;
  return 0;
}
