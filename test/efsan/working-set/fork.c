// A forked child has its own working set (starting at fork), its own
// sampler and its own report, under its own PID: on stderr with
// tree_reports=0, as JSON in the process tree's directory by default.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -f %t.log.*
// RUN: env ESAN_OPTIONS=sample_freq=1:report_format=json:log_path=%t.log %run %t
// RUN: %python %S/Inputs/check_report.py %t.log --count 2 \
// RUN:   "pid == filename_pid" "samples >= 2" \
// RUN:   "sorted(r['regions']['heap'] for r in reports) == [200, 300 + 50]"
// RUN: env ESAN_OPTIONS=tree_reports=0 %run %t 2>&1 | FileCheck %s
// RUN: rm -rf %t.tmp && mkdir %t.tmp
// RUN: env TMPDIR=%t.tmp %run %t 2>&1 | FileCheck %s --check-prefix=TREE
// TREE: ==[[PARENT:[0-9]+]]==  heap     350 lines
// TREE: EfficiencySanitizer: 1 process started by this one reported so far
// RUN: %python %S/../process-tree/Inputs/check_tree_dir.py %t.tmp/efsan.fork.c.tmp.* 1 working-set fork.c.tmp \
// RUN:   "sorted(r['regions']['heap'] for r in reports) == [200, 300 + 50]"
// CHECK-DAG: ==[[CHILD:[0-9]+]]==  heap     200 lines
// CHECK-DAG: ==[[PARENT:[0-9]+]]==  heap     350 lines
// CHECK-DAG: SUMMARY: EfficiencySanitizer: working set of {{[0-9]+}} cache lines ({{.*}}) in process [[CHILD]]
// CHECK-DAG: SUMMARY: EfficiencySanitizer: working set of {{[0-9]+}} cache lines ({{.*}}) in process [[PARENT]]
#include <sanitizer/efsan_interface.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static void touch(volatile char *lines, int n) {
  for (int i = 0; i < n; i++)
    lines[i * 64]++;
}

// Lets the (parent's or child's) sampler take a few samples; bounded, so a
// missing sampler fails the check instead of hanging.
static void wait_for_samples(unsigned n) {
  for (int i = 0; i < 5000 && __efsan_get_sample_count() < n; i++)
    usleep(1000);
}

int main(void) {
  char *before = aligned_alloc(64, 300 * 64);
  char *in_child = aligned_alloc(64, 200 * 64);
  char *after = aligned_alloc(64, 50 * 64);
  touch(before, 300);
  pid_t pid = fork();
  if (pid == 0) {
    touch(in_child, 200);
    wait_for_samples(2);
    exit(0);
  }
  int status;
  waitpid(pid, &status, 0);
  touch(after, 50);
  wait_for_samples(2);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
