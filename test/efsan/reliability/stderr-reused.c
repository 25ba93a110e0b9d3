// A program (a daemon, typically) that closes stderr and opens a file of its
// own gets that file as fd 2. The report must not be written into the
// program's data: it goes to fd 2 only while fd 2 is the start-up stderr,
// else to the runtime's copy of the start-up stderr (before, it was lost).
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -f %t.data
// RUN: %run %t %t.data > %t.out 2> %t.startup-err
// RUN: count 0 < %t.out
// RUN: FileCheck %s < %t.startup-err
// RUN: %python -c "import sys; sys.exit(open(sys.argv[1]).read() != 'RECORD 1\n')" %t.data
// The same program with log_path: the report is in the log file.
// RUN: rm -f %t.data %t.log.*
// RUN: env ESAN_OPTIONS=log_path=%t.log %run %t %t.data
// RUN: %python -c "import sys; sys.exit(open(sys.argv[1]).read() != 'RECORD 1\n')" %t.data
// RUN: cat %t.log.* | FileCheck %s
// CHECK: SUMMARY: EfficiencySanitizer: working set
// stderr redirected to a file that the program keeps: the report is there.
// RUN: %run %t 2> %t.err
// RUN: FileCheck %s < %t.err
#include <fcntl.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc < 2)
    return 0;
  close(2);
  int fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644); // fd 2
  if (write(fd, "RECORD 1\n", 9) != 9)
    return 1;
  return 0;
}
