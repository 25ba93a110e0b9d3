// A test driver that compares what its (instrumented) children print on
// stderr, as pg_regress does with psql: the children's reports must not be
// there. The parent runs itself as a child four ways (fork+exec, system(),
// popen(), posix_spawn), captures each child's stderr and exits 1 unless it
// is exactly what the child prints in a plain build. The parent, the root of
// the tree, still reports on stderr and says where the children's reports
// are; they are there, one JSON file per process, and so is the root's.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -rf %t.tmp %t.err && mkdir %t.tmp
// RUN: env TMPDIR=%t.tmp %run %t %t.err 2> %t.stderr
// RUN: FileCheck %s < %t.stderr
// CHECK-NOT: MISMATCH
// CHECK: ==[[ROOT:[0-9]+]]==EfficiencySanitizer: the total working set size
// CHECK: SUMMARY: EfficiencySanitizer: working set of {{[0-9]+}} cache lines ({{.*}}) in process [[ROOT]]
// CHECK-NEXT: ==[[ROOT]]==EfficiencySanitizer: 4 processes started by this one reported so far, in [[DIR:.*]]/efsan.child-stderr.c.tmp.[[ROOT]]/ (merge them: efsan-view --merge [[DIR]]/efsan.child-stderr.c.tmp.[[ROOT]])
// CHECK-NOT: EfficiencySanitizer
// RUN: ls %t.tmp/efsan.*/ | count 5
// RUN: %python %S/Inputs/check_tree_dir.py %t.tmp/efsan.* 4 working-set child-stderr.c.tmp
//
// cache-frag alike.
// RUN: %clang -O2 -fsanitize=efficiency-cache-frag %s -o %t.cf
// RUN: rm -rf %t.tmp && mkdir %t.tmp
// RUN: env TMPDIR=%t.tmp %run %t.cf %t.err 2> %t.stderr
// RUN: FileCheck %s --check-prefix=CF < %t.stderr
// CF-NOT: MISMATCH
// CF: SUMMARY: EfficiencySanitizer:
// CF-NEXT: EfficiencySanitizer: 4 processes started by this one reported so far, in {{.*}}/efsan.child-stderr.c.tmp.cf.{{[0-9]+}}/
// RUN: %python %S/Inputs/check_tree_dir.py %t.tmp/efsan.* 4 cache-frag child-stderr.c.tmp.cf
//
// tree_reports=0, the old behaviour: every child reports on its stderr.
// RUN: env TMPDIR=%t.tmp ESAN_OPTIONS=tree_reports=0 not %run %t %t.err 2> %t.stderr
// RUN: FileCheck %s --check-prefix=OLD < %t.stderr
// OLD-COUNT-4: MISMATCH
// OLD-NOT: reported so far
//
// A child started without ESAN_TREE in its environment is a root of its own.
// RUN: rm -rf %t.tmp && mkdir %t.tmp
// RUN: env TMPDIR=%t.tmp not %run %t %t.err unset 2> %t.stderr
// RUN: FileCheck %s --check-prefix=UNSET < %t.stderr
// UNSET-COUNT-1: MISMATCH system()
// UNSET-NOT: MISMATCH
// UNSET: EfficiencySanitizer: 3 processes started by this one reported so far
#define _GNU_SOURCE
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;
static char self[4096];
static const char *err_file;
static int status;

static void expect(const char *how, const char *got, int n) {
  char want[64];
  snprintf(want, sizeof(want), "child %d says hello\n", n);
  if (strcmp(got, want)) {
    fprintf(stderr, "MISMATCH %s: got '%s'\n", how, got);
    status = 1;
  }
}

static void read_all(int fd, char *buf, size_t size) {
  size_t used = 0;
  ssize_t n;
  while (used + 1 < size && (n = read(fd, buf + used, size - 1 - used)) > 0)
    used += n;
  buf[used] = 0;
}

static void read_file(const char *path, char *buf, size_t size) {
  FILE *f = fopen(path, "r");
  size_t n = f ? fread(buf, 1, size - 1, f) : 0;
  buf[n] = 0;
  if (f)
    fclose(f);
}

int main(int argc, char **argv) {
  if (argc == 3 && !strcmp(argv[1], "child")) {
    // Memory of its own, so that it has a working set to report.
    volatile char *p = malloc(4096);
    for (int i = 0; i < 4096; i += 64)
      p[i] = 1;
    fprintf(stderr, "child %s says hello\n", argv[2]);
    return 0;
  }
  if (argc < 2)
    return 2;
  err_file = argv[1];
  int unset = argc > 2 && !strcmp(argv[2], "unset");
  ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (len <= 0)
    return 2;
  self[len] = 0;
  char buf[65536], cmd[8192];

  // fork + exec, stderr into a pipe.
  int fds[2];
  if (pipe(fds))
    return 2;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 2);
    close(fds[0]);
    close(fds[1]);
    execl(self, self, "child", "1", (char *)0);
    _exit(127);
  }
  close(fds[1]);
  read_all(fds[0], buf, sizeof(buf));
  close(fds[0]);
  waitpid(pid, 0, 0);
  expect("fork+exec", buf, 1);

  // system(), stderr into a file.
  snprintf(cmd, sizeof(cmd), "%s'%s' child 2 2>'%s'", unset ? "env -u ESAN_TREE " : "",
           self, err_file);
  if (system(cmd) != 0)
    status = 1;
  read_file(err_file, buf, sizeof(buf));
  expect("system()", buf, 2);

  // popen(), stderr into the pipe it reads.
  snprintf(cmd, sizeof(cmd), "'%s' child 3 2>&1", self);
  FILE *f = popen(cmd, "r");
  size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
  buf[n] = 0;
  if (!f || pclose(f) != 0)
    status = 1;
  expect("popen()", buf, 3);

  // posix_spawn, stderr into a pipe.
  if (pipe(fds))
    return 2;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  char *args[] = {self, "child", "4", 0};
  if (posix_spawn(&pid, self, &actions, 0, args, environ))
    return 2;
  close(fds[1]);
  read_all(fds[0], buf, sizeof(buf));
  close(fds[0]);
  waitpid(pid, 0, 0);
  expect("posix_spawn", buf, 4);
  return status;
}
