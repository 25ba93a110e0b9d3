// Phases of different working-set size show in the level-0 series. Each phase
// re-touches its lines until two sample windows have each seen a whole pass
// and nothing else (a pass that starts and ends within one window, in a
// window that began after the phase did), so those samples count exactly the
// phase's lines however the threads are scheduled.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -f %t.log.*
// RUN: env ESAN_OPTIONS=sample_freq=2:report_format=json:log_path=%t.log %run %t
// RUN: %python %S/Inputs/check_report.py %t.log --count 1 \
// RUN:   "heap == 3000 + 200" \
// RUN:   "sample_period_ms == 2 and len(level0) == samples" \
// RUN:   "level0.count(3000) >= 2 and level0.count(200) >= 2" \
// RUN:   "level0.index(3000) < len(level0) - 1 - level0[::-1].index(200)" \
// RUN:   "all(0 <= n <= 3200 for n in level0)" \
// RUN:   "levels[1]['period_ms'] == 8 and len(levels[1]['lines']) == samples // 4" \
// RUN:   "levels[2]['period_ms'] == 32 and len(levels[2]['lines']) == samples // 16" \
// RUN:   "levels[0]['peak_lines'] == max(level0)"
#include <sanitizer/efsan_interface.h>
#include <stdlib.h>

static void phase(volatile char *lines, int n) {
  unsigned start = __efsan_get_sample_count();
  unsigned clean_windows = 0, last_clean = 0;
  for (;;) {
    unsigned before = __efsan_get_sample_count();
    for (int i = 0; i < n; i++)
      lines[i * 64]++;
    unsigned after = __efsan_get_sample_count();
    if (before == after && before > start && before != last_clean) {
      clean_windows++;
      last_clean = before;
    }
    // Wait for the sample that closes the last clean window.
    if (clean_windows >= 2 && after > last_clean)
      return;
  }
}

int main(void) {
  char *big = aligned_alloc(64, 3000 * 64);
  char *small = aligned_alloc(64, 200 * 64);
  phase(big, 3000);
  phase(small, 200);
  return 0;
}
