// Bad option strings, a table of them: each is a one-line error on stderr
// and exit status 1 before main, also when log_path is set (errors never go
// only to the log file) and when exitcode=0 (a program that never ran does
// not exit 0). Valid values that used to be refused (handle_*=exclusive) are
// accepted.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: %python %S/Inputs/bad_options.py %t %t.dir
#include <stdio.h>
int main(void) {
  printf("main ran\n");
  return 0;
}
