// log_path's file is opened at start-up. A program that closes every
// descriptor it did not open (as daemons do) and opens a file of its own may
// get the log's descriptor number back: the report must go to the log file,
// not into the program's file.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: env ESAN_OPTIONS=log_path=%t.dir/log %run %t %t.dir/data
// RUN: %python -c "import sys; sys.exit(open(sys.argv[1]).read() != 'RECORD 1\n')" %t.dir/data
// RUN: cat %t.dir/log.* | FileCheck %s
// CHECK: SUMMARY: EfficiencySanitizer: working set
#include <fcntl.h>
#include <unistd.h>

int main(int argc, char **argv) {
  for (int fd = 3; fd < 1024; fd++)
    close(fd);
  int fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644); // the log's number
  if (write(fd, "RECORD 1\n", 9) != 9)
    return 1;
  return 0;
}
