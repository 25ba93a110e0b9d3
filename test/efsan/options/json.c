// report_format=json: one JSON document with the documented keys.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: env ESAN_OPTIONS=report_format=json:sample_freq=5:log_path=%t.dir/r %run %t 2
// RUN: %python -c "import glob, json, sys; path, = glob.glob(sys.argv[1] + '/r.*'); r = json.load(open(path)); \
// RUN:   assert set(r) >= {'tool', 'schema_version', 'pid', 'executable', 'cache_line_size', 'total_lines', 'regions', 'sample_period_ms', 'levels'}, r; \
// RUN:   assert r['tool'] == 'working-set' and r['schema_version'] == 5 and r['cache_line_size'] == 64 and r['sample_period_ms'] == 5, r; \
// RUN:   assert str(r['pid']) == path.rsplit('.', 1)[1], r; \
// RUN:   assert set(r['regions']) == {'heap', 'globals', 'stack', 'other'} and r['regions']['heap'] == 25, r; \
// RUN:   assert r['total_lines'] == sum(r['regions'].values()), r; \
// RUN:   assert len(r['levels']) == 7 and [l['period_ms'] for l in r['levels']] == [5 * 4 ** k for k in range(7)], r; \
// RUN:   assert all(set(l) >= {'period_ms', 'lines'} and all(isinstance(n, int) for n in l['lines']) for l in r['levels']), r; \
// RUN:   assert len(r['levels'][0]['lines']) == r['samples'] >= 2, r" %t.dir
// With record_snapshots=0 there is no sampler: no samples, empty series.
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: env ESAN_OPTIONS=report_format=json:record_snapshots=0:log_path=%t.dir/r %run %t
// RUN: %python -c "import glob, json, sys; path, = glob.glob(sys.argv[1] + '/r.*'); r = json.load(open(path)); \
// RUN:   assert r['samples'] == 0 and all(l['lines'] == [] for l in r['levels']) and r['regions']['heap'] == 25, r" %t.dir
// snapshot_history bounds each level's buffer; the newest snapshots are kept.
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: env ESAN_OPTIONS=report_format=json:sample_freq=1:snapshot_history=2:log_path=%t.dir/r %run %t 3
// RUN: %python -c "import glob, json, sys; path, = glob.glob(sys.argv[1] + '/r.*'); r = json.load(open(path)); \
// RUN:   assert len(r['levels'][0]['lines']) == 2 and r['levels'][0]['taken'] == r['samples'] >= 2, r" %t.dir
#include <sanitizer/efsan_interface.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
  volatile char *p = aligned_alloc(64, 25 * 64);
  for (int i = 0; i < 25; i++)
    p[i * 64] = 1;
  // Wait for argv[1] samples; bounded, so a missing sampler fails the check
  // instead of hanging.
  unsigned samples = argc > 1 ? (unsigned)atoi(argv[1]) : 0;
  for (int i = 0; i < 5000 && __efsan_get_sample_count() < samples; i++)
    usleep(1000);
  return 0;
}
