// Programs that check their output at exit close stderr in an exit handler
// of their own (gnulib's close_stdout in coreutils, grep, tar; xz), which
// runs before the runtime's: the report still reaches the start-up stderr,
// through the runtime's copy of it. Before, it was lost ("| count 0").
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t-ws
// RUN: %run %t-ws 2> %t.ws.err
// RUN: FileCheck %s --check-prefix=WS < %t.ws.err
// RUN: %clang -O2 -fsanitize=efficiency-cache-frag %s -o %t-cf
// RUN: %run %t-cf 2> %t.cf.err
// RUN: FileCheck %s --check-prefix=CF < %t.cf.err
// A pipe to stderr sees its end once the program has exited: a forked
// child that detaches (closes 0, 1 and 2) keeps no copy of it open. The
// child lists its open descriptors (none but the listing's own).
// RUN: %run %t-ws daemon 2>&1 | FileCheck %s --check-prefix=DAEMON
// WS: SUMMARY: EfficiencySanitizer: working set
// CF: SUMMARY: EfficiencySanitizer: cache-frag
// DAEMON: child descriptors open after closing 0-2: 0
// DAEMON: SUMMARY: EfficiencySanitizer: working set
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void close_stdout(void) {
  if (fclose(stdout) != 0 || fclose(stderr) != 0)
    _exit(1);
}

static int open_descriptors(void) {
  DIR *d = opendir("/proc/self/fd");
  if (!d)
    return -1;
  int n = 0, own = dirfd(d);
  struct dirent *e;
  while ((e = readdir(d)))
    if (e->d_name[0] != '.' && atoi(e->d_name) != own)
      n++;
  closedir(d);
  return n;
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "daemon")) {
    int pipefd[2];
    if (pipe(pipefd))
      return 1;
    pid_t pid = fork();
    if (pid == 0) {
      close(0);
      close(1);
      close(2);
      close(pipefd[0]);
      int n = open_descriptors() - 1; // less the pipe's write end
      if (write(pipefd[1], &n, sizeof(n)) != sizeof(n))
        _exit(1);
      _exit(0);
    }
    close(pipefd[1]);
    int n = -1;
    if (read(pipefd[0], &n, sizeof(n)) != sizeof(n))
      return 1;
    waitpid(pid, 0, 0);
    fprintf(stderr, "child descriptors open after closing 0-2: %d\n", n);
    return 0;
  }
  atexit(close_stdout);
  printf("done\n");
  return 0;
}
