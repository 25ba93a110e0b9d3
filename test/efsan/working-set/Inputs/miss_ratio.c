// The miss-ratio curves' test program (miss-ratio-curve*.c): an access pattern over 64-byte lines,
// run on the instrumented build, and the same pattern's exact LRU curve,
// computed by the uninstrumented build of this file (argument "expect").
//   miss_ratio cyclic N ACCESSES: lines (i * P) % N of `buffer`, a cyclic sweep
//   miss_ratio random N ACCESSES: uniformly random lines of `buffer`
//   miss_ratio hot N ACCESSES: a random line of `table` (N lines), then the
//       next line of 48 MiB of `stream` (each line once per pass, in a
//       scattered order)
//   miss_ratio phases N ACCESSES: phase "sweep", the cyclic sweep over N lines of
//       `buffer`, then phase "scatter", random lines of `table` (4N lines)
// Each access is a load at an address the pass cannot see as affine (a
// modulo or a random number), so each one gets its own check.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((weak)) void __efsan_mark_phase(const char *name);
static void mark_phase(const char *name) {
  if (__efsan_mark_phase)
    __efsan_mark_phase(name);
}

#define BUFFER_LINES (1 << 17) // 8 MiB
#define STREAM_LINES (1 << 20) // 64 MiB
// The stream's lines read, 48 MiB: its reuse distance (48 MiB and the table)
// is far from a power of two, where a sampled distance could fall on either
// side of the exact one.
#define STREAM_USED (3 << 18)
#define SIZES 19               // 16 KiB .. 4 GiB
char buffer[BUFFER_LINES * 64] __attribute__((aligned(64)));
char table[BUFFER_LINES * 64] __attribute__((aligned(64)));
char stream[STREAM_LINES * 64] __attribute__((aligned(64)));

enum { BUFFER, TABLE, STREAM, KINDS };
static const char *kind_names[KINDS] = {"buffer", "table", "stream"};

// The pattern: calls visit(kind, line) for each access.
// (Its state is a local of the caller, in a register: an access to a global
// would be one more access per step, which the curves would count.)
static inline uint64_t next_random(uint64_t *state) {
  *state ^= *state << 13;
  *state ^= *state >> 7;
  *state ^= *state << 17;
  return *state;
}

static int mode, n;
static long accesses;
struct pattern {
  uint64_t state;
  long step;
  int mode, n;
  long half;
};
// One access of the pattern: its kind and line.
static inline int next_access(struct pattern *p, long i, uint64_t *line) {
  if (p->mode == 0) {
    *line = (uint64_t)i * 7919 % (uint64_t)p->n;
    return BUFFER;
  }
  if (p->mode == 3) {
    if (i < p->half) {
      *line = (uint64_t)i * 7919 % (uint64_t)p->n;
      return BUFFER;
    }
    *line = next_random(&p->state) % (4 * (uint64_t)p->n);
    return TABLE;
  }
  if (p->mode == 1) {
    *line = next_random(&p->state) % (uint64_t)p->n;
    return BUFFER;
  }
  if (i % 2 == 0) {
    *line = next_random(&p->state) % (uint64_t)p->n;
    return TABLE;
  }
  *line = (uint64_t)(p->step++) * 7919 % STREAM_USED;
  return STREAM;
}

__attribute__((noinline)) static long run(void) {
  long sum = 0, count = accesses;
  struct pattern p = {88172645463325252ULL, 0, mode, n, accesses / 2};
  if (p.mode == 3)
    mark_phase("sweep");
  for (long i = 0; i < count; i++) {
    if (p.mode == 3 && i == p.half)
      mark_phase("scatter");
    uint64_t line;
    int kind = next_access(&p, i, &line);
    char *base = kind == BUFFER ? buffer : kind == TABLE ? table : stream;
    sum += ((volatile char *)base)[line * 64];
  }
  if (p.mode == 3)
    mark_phase(NULL);
  return sum;
}

// Exact LRU stack distances: a Fenwick tree over the access times counts the
// distinct lines touched since a line's last access.
static uint32_t *fenwick, *last_time[KINDS];
static long fenwick_size;
static void add(long t, int d) {
  for (; t <= fenwick_size; t += t & -t)
    fenwick[t] += d;
}
static long prefix(long t) {
  long s = 0;
  for (; t; t -= t & -t)
    s += fenwick[t];
  return s;
}

static void expect(void) {
  fenwick_size = accesses;
  fenwick = calloc(accesses + 1, sizeof(uint32_t));
  for (int k = 0; k < KINDS; k++)
    last_time[k] = calloc(STREAM_LINES, sizeof(uint32_t));
  // misses[kind][size], count[kind]; kind KINDS: all.
  static double misses[KINDS + 1][SIZES], count[KINDS + 1];
  static double phase_misses[2][SIZES], phase_count[2];
  long live = 0;
  struct pattern p = {88172645463325252ULL, 0, mode, n, accesses / 2};
  for (long i = 0; i < accesses; i++) {
    uint64_t line;
    int kind = next_access(&p, i, &line);
    uint32_t t = (uint32_t)(i + 1);
    uint32_t before = last_time[kind][line];
    uint64_t distance = UINT64_MAX; // a first access misses at every size
    if (before) {
      distance = (uint64_t)(live - prefix(before));
      add(before, -1);
    } else {
      live++;
    }
    add(t, 1);
    last_time[kind][line] = t;
    for (int s = 0; s < SIZES; s++)
      if (distance >= (256ULL << s)) {
        misses[kind][s]++;
        misses[KINDS][s]++;
      }
    count[kind]++;
    count[KINDS]++;
    int phase = i >= p.half;
    for (int s = 0; s < SIZES; s++)
      if (distance >= (256ULL << s))
        phase_misses[phase][s]++;
    phase_count[phase]++;
  }
  printf("{\"program\": [");
  for (int s = 0; s < SIZES; s++)
    printf("%s%.6f", s ? ", " : "", misses[KINDS][s] / count[KINDS]);
  printf("], \"objects\": {");
  int first = 1;
  for (int k = 0; k < KINDS; k++) {
    if (!count[k])
      continue;
    printf("%s\"%s\": [", first ? "" : ", ", kind_names[k]);
    first = 0;
    for (int s = 0; s < SIZES; s++)
      printf("%s%.6f", s ? ", " : "", misses[k][s] / count[k]);
    printf("]");
  }
  printf("}, \"phases\": [");
  for (int f = 0; f < 2; f++) {
    printf("%s[", f ? ", " : "");
    for (int s = 0; s < SIZES; s++)
      printf("%s%.6f", s ? ", " : "", phase_misses[f][s] / phase_count[f]);
    printf("]");
  }
  printf("]}\n");
}

int main(int argc, char **argv) {
  if (argc < 4)
    return 2;
  mode = !strcmp(argv[1], "cyclic")   ? 0
         : !strcmp(argv[1], "random") ? 1
         : !strcmp(argv[1], "hot")    ? 2
                                      : 3;
  n = atoi(argv[2]);
  accesses = atol(argv[3]);
  if (n < 1 || n > BUFFER_LINES)
    return 2;
  if (argc > 4 && !strcmp(argv[4], "expect")) {
    expect();
    return 0;
  }
  long sum = run();
  return sum == 12345 ? 1 : 0;
}
