// Three data structures at different times: an index built first, a hash
// table probed next, a ring buffer used all along, and a log streamed out.
#include <sanitizer/efsan_interface.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}
__attribute__((noinline)) static char *make_index(void) { char *p = calloc(6000, 64); if (!p) abort(); return p; }
__attribute__((noinline)) static char *make_hash_table(void) { char *p = calloc(12000, 64); if (!p) abort(); return p; }
__attribute__((noinline)) static char *make_ring(void) { char *p = calloc(1500, 64); if (!p) abort(); return p; }
__attribute__((noinline)) static char *make_log(void) { char *p = calloc(40000, 64); if (!p) abort(); return p; }

int main(void) {
  volatile char *index = make_index(), *table = make_hash_table(), *ring = make_ring(), *log = make_log();
  long out = 0, r = 0;
  unsigned x = 1;
  __efsan_mark_phase("build");
  for (double end = now() + 0.7; now() < end;)
    for (int i = 0; i < 6000; i++) { index[i * 64]++; ring[(r++ % 1500) * 64]++; }
  __efsan_mark_phase("probe");
  for (double end = now() + 0.7; now() < end;)
    for (int i = 0; i < 2000; i++) {
      x = x * 1103515245 + 12345;
      table[(x >> 8) % 12000 * 64]++;
      ring[(r++ % 1500) * 64]++;
      if ((x & 63) == 0 && out < 40000) log[out++ * 64] = 1;
    }
  __efsan_mark_phase(NULL);
  printf("%ld\n", out);
  return 0;
}
