// With report_format=json and log_path=P, every report is its own valid JSON
// document in its own file: __efsan_report() writes P.PID.1, P.PID.2, ...;
// the report at exit is P.PID. (Text reports share P.PID.)
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.dir/r %run %t
// RUN: %python %S/../working-set/Inputs/check_report.py %t.dir/r --count 1 "heap == 30"
// RUN: %python -c "import glob, json, sys; files = sorted(glob.glob(sys.argv[1] + '/r.*.*')); assert len(files) == 2, files; heaps = sorted(json.load(open(f))['regions']['heap'] for f in files); assert heaps == [10, 20], heaps" %t.dir
#include <sanitizer/efsan_interface.h>
#include <stdlib.h>

char *lines; // not static: see working-set/exit-paths.c

int main(void) {
  lines = aligned_alloc(64, 30 * 64);
  for (int i = 0; i < 10; i++)
    ((volatile char *)lines)[i * 64] = 1;
  __efsan_report();
  for (int i = 10; i < 20; i++)
    ((volatile char *)lines)[i * 64] = 1;
  __efsan_report();
  for (int i = 20; i < 30; i++)
    ((volatile char *)lines)[i * 64] = 1;
  return 0;
}
