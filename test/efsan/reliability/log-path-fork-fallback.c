// A forked child opens its own log_path.PID. If it cannot (here the
// directory is gone), its report goes to stderr with a warning; the child's
// exit status and buffered stdout are kept.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: env ESAN_OPTIONS=log_path=%t.dir/report %run %t %t.dir > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=OUT < %t.out
// OUT-DAG: child output
// OUT-DAG: child exited with 5
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// ERR: EfficiencySanitizer: WARNING: cannot open log file '{{.*}}.dir/report.{{[0-9]+}}' (errno 2); the report goes to stderr
// ERR: SUMMARY: EfficiencySanitizer: working set
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
  // Remove the directory with the parent's log file in it.
  DIR *dir = opendir(argv[1]);
  struct dirent *entry;
  char path[4096];
  while ((entry = readdir(dir)))
    if (strcmp(entry->d_name, ".") && strcmp(entry->d_name, "..")) {
      snprintf(path, sizeof(path), "%s/%s", argv[1], entry->d_name);
      unlink(path);
    }
  closedir(dir);
  rmdir(argv[1]);
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    printf("child output\n"); // buffered until exit
    exit(5);
  }
  int status;
  waitpid(pid, &status, 0);
  printf("child exited with %d\n", WEXITSTATUS(status));
  return 0;
}
