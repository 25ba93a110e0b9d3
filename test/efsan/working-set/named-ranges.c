// A server's shared memory (PostgreSQL's ShmemInitStruct): one shared
// anonymous mapping carved into parts, each named with __efsan_name_range
// (from a copy of the name, freed at once). A forked worker touches two
// parts and a little of the rest; the parent touches every part, then
// unmaps the segment before exit. Each report lists each part it touched as
// a row of its own, with exactly the lines touched, by the name the parent
// gave it, in the mapping it was named in, also once the mapping is gone;
// the rest of the mapping keeps the mapping's row.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: env ESAN_OPTIONS=tree_reports=0 %run %t 2>&1 | FileCheck %s
// RUN: rm -f %t.log.* %t.vars
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.log %run %t %t.vars
// RUN: %python %S/Inputs/check_report.py %t.log --count 2 --vars %t.vars \
// RUN:   "part('Buffer Blocks') == (300 if filename_pid == WORKER else 512)" \
// RUN:   "part('Proc Array') == 96" \
// RUN:   "part('LWLock Array') == (None if filename_pid == WORKER else 40)" \
// RUN:   "named('mapping', '\"Proc Array\" in /dev/zero (deleted)')['alloc_stack'] is None" \
// RUN:   "(named('mapping', '/dev/zero (deleted)') or {}).get('lines') == (13 if filename_pid == WORKER else None)" \
// RUN:   "(named('mapping', 'memory unmapped before the report') or {}).get('lines') == (None if filename_pid == WORKER else 64)"
// The same program without the sanitizer: the call does nothing.
// RUN: %clang -O2 %s -o %t.plain && %run %t.plain | FileCheck %s --check-prefix=PLAIN
// PLAIN: parts: 3
#include <sanitizer/efsan_interface.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

enum { kBufferLines = 512, kLockLines = 40, kProcLines = 96, kRestLines = 64 };
#define SEGMENT_SIZE (1 << 20)

static char *segment;
static size_t segment_used;
static int parts;

static char *init_struct(const char *name, size_t size) {
  char *part = segment + segment_used;
  segment_used += size;
  char *copy = strdup(name);
  __efsan_name_range(part, size, copy);
  free(copy); // the runtime keeps its own copy
  parts++;
  return part;
}

static void touch(volatile char *p, int lines) {
  for (int i = 0; i < lines; i++)
    p[i * 64]++;
}

int main(int argc, char **argv) {
  segment = mmap(0, SEGMENT_SIZE, PROT_READ | PROT_WRITE,
                 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (segment == MAP_FAILED) {
    perror("mmap");
    return 1;
  }
  char *buffers = init_struct("Buffer Blocks", kBufferLines * 64);
  char *locks = init_struct("LWLock Array", kLockLines * 64);
  char *procs = init_struct("Proc Array", kProcLines * 64);
  char *rest = segment + segment_used;
  printf("parts: %d\n", parts);
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    touch(buffers, 300);
    touch(procs, kProcLines);
    touch(rest, 13);
    exit(0);
  }
  int status;
  waitpid(pid, &status, 0);
  if (argc > 1) {
    FILE *vars = fopen(argv[1], "w");
    fprintf(vars, "WORKER=%d\n", (int)pid);
    fclose(vars);
  }
  touch(buffers, kBufferLines);
  touch(locks, kLockLines);
  touch(procs, kProcLines);
  touch(rest, kRestLines);
  munmap(segment, SEGMENT_SIZE);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}

// The worker's report comes first (the parent waits for it).
// CHECK: ==[[WORKER:[0-9]+]]==  data structures, most lines first
// CHECK-NEXT: ==[[WORKER]]==    mapping 300 lines (18.8 KiB)  "Buffer Blocks" in /dev/zero (deleted)
// CHECK: ==[[WORKER]]==    mapping 96 lines (6.0 KiB)  "Proc Array" in /dev/zero (deleted)
// CHECK: ==[[WORKER]]==    mapping 13 lines (832 B)  /dev/zero (deleted)
// CHECK-NOT: LWLock Array
// CHECK: SUMMARY: EfficiencySanitizer: working set of {{[0-9]+}} cache lines ({{.*}}) in process [[WORKER]]
// CHECK: ==[[PARENT:[0-9]+]]==  data structures, most lines first
// CHECK-NEXT: ==[[PARENT]]==    mapping 512 lines (32.0 KiB)  "Buffer Blocks" in /dev/zero (deleted)
// CHECK: ==[[PARENT]]==    mapping 96 lines (6.0 KiB)  "Proc Array" in /dev/zero (deleted)
// CHECK: ==[[PARENT]]==    mapping 64 lines (4.0 KiB)  memory unmapped before the report
// CHECK: ==[[PARENT]]==    mapping 40 lines (2.5 KiB)  "LWLock Array" in /dev/zero (deleted)
// CHECK: SUMMARY: EfficiencySanitizer: working set of {{[0-9]+}} cache lines ({{.*}}) in process [[PARENT]]
