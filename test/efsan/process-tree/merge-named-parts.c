// Parts of a shared mapping that the program named (__efsan_name_range) are
// data structures of their own in every process (a forked child keeps the
// names), and efsan-view --merge counts each part's lines once across the
// processes. The parent names lines [0, 128) of a 256-line MAP_SHARED
// mapping "Buffer Blocks" and [128, 192) "Locks", then forks two workers:
// worker 0 touches [0, 64), worker 1 [32, 160), the parent [150, 200).
// "Buffer Blocks": [0, 128) once, 128 lines (160 summed), [32, 64) by two:
// 32. "Locks": [128, 192) once, 64 (74 summed: 32 + 42), [150, 160) by two:
// 10. The rest of the mapping: [192, 200), 8. The mapping: [0, 200), 200
// lines once, 242 summed, 42 by several.
// RUN: %clang -O2 -g -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -rf %t.tmp && mkdir %t.tmp
// RUN: env TMPDIR=%t.tmp %run %t 2> %t.stderr
// RUN: %efsan_view --merge %t.tmp/efsan.* -o %t.merged.json
// RUN: %python %S/Inputs/check_merged.py %t.merged.json %t.tmp/efsan.* \
// RUN:   "[(m['name'], m['lines'], m['summed_lines'], m['overlap_lines']) for m in merged['shared_mappings']] == [('/dev/zero (deleted)', 200, 242, 42)]" \
// RUN:   "(structure('mapping', '\"Buffer Blocks\" in /dev/zero (deleted)')['lines'], structure('mapping', '\"Buffer Blocks\" in /dev/zero (deleted)')['summed_lines'], structure('mapping', '\"Buffer Blocks\" in /dev/zero (deleted)')['overlap_lines']) == (128, 160, 32)" \
// RUN:   "(structure('mapping', '\"Locks\" in /dev/zero (deleted)')['lines'], structure('mapping', '\"Locks\" in /dev/zero (deleted)')['summed_lines'], structure('mapping', '\"Locks\" in /dev/zero (deleted)')['overlap_lines']) == (64, 74, 10)" \
// RUN:   "(structure('mapping', '/dev/zero (deleted)')['lines'], structure('mapping', '/dev/zero (deleted)')['overlap_lines']) == (8, 0)" \
// RUN:   "merged['total']['shared_lines'] == 200 and merged['total']['overlap_lines'] == 42" \
// RUN:   | FileCheck %s
// CHECK: merged ok: working-set of 3 processes
// RUN: %efsan_view --merge %t.tmp/efsan.* | FileCheck %s --check-prefix=TEXT
// TEXT: mapping 128 160 2 32 "Buffer Blocks" in /dev/zero (deleted)
// TEXT: mapping 64 74 2 10 "Locks" in /dev/zero (deleted)
// TEXT: /dev/zero (deleted) (device {{.*}}): 200 lines counted once, 242 summed, 42 touched by more than one of 3 processes
#include <sanitizer/efsan_interface.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define LINE 64

static void touch(volatile char *p, int first, int end) {
  for (int i = first; i < end; i++)
    p[i * LINE] = 1;
}

int main(void) {
  char *shared = mmap(0, 256 * LINE, PROT_READ | PROT_WRITE,
                      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shared == MAP_FAILED)
    return 2;
  __efsan_name_range(shared, 128 * LINE, "Buffer Blocks");
  __efsan_name_range(shared + 128 * LINE, 64 * LINE, "Locks");
  static const int from[2] = {0, 32}, to[2] = {64, 160};
  pid_t workers[2];
  for (int k = 0; k < 2; k++) {
    workers[k] = fork();
    if (workers[k] == 0) {
      touch(shared, from[k], to[k]);
      exit(0);
    }
  }
  for (int k = 0; k < 2; k++)
    waitpid(workers[k], 0, 0);
  touch(shared, 150, 200);
  return 0;
}
