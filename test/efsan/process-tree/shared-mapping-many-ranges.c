// A shared mapping touched line by line with gaps has a range per line in
// the JSON report, more than one write of the report's buffer: the parent
// touches the even lines of a 4096-line MAP_SHARED mapping (2048 ranges of
// one line), a forked child the odd lines of its first 1024 (512 ranges).
// Merged: 2560 lines once, none by two processes.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -rf %t.tmp && mkdir %t.tmp
// RUN: env TMPDIR=%t.tmp %run %t
// RUN: %python %S/Inputs/check_tree_dir.py %t.tmp/efsan.* 1 working-set shared-mapping-many-ranges.c.tmp \
// RUN:   "[len(r['shared_mappings'][0]['ranges']) for r in reports] == [2048, 512]" \
// RUN:   "reports[0]['shared_mappings'][0]['ranges'][:2] == [[0, 1], [2, 1]]" \
// RUN:   "reports[1]['shared_mappings'][0]['ranges'][-1] == [1023, 1]"
// RUN: %efsan_view --merge %t.tmp/efsan.* --format json -o %t.merged.json
// RUN: %python %S/Inputs/check_merged.py %t.merged.json %t.tmp/efsan.* \
// RUN:   "(merged['total']['shared_lines'], merged['total']['overlap_lines']) == (2560, 0)" | FileCheck %s
// CHECK: merged ok: working-set of 2 processes
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
  volatile char *p = mmap(0, 4096 * 64, PROT_READ | PROT_WRITE,
                          MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return 2;
  pid_t child = fork();
  if (child == 0) {
    for (int i = 1; i < 1024; i += 2)
      p[i * 64] = 1;
    exit(0);
  }
  waitpid(child, 0, 0);
  for (int i = 0; i < 4096; i += 2)
    p[i * 64] = 1;
  return 0;
}
