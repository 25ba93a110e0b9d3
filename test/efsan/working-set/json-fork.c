// After fork, parent and child each write their own JSON report (log_path=P:
// P.PID), and each report carries the pid of the process that wrote it, the
// same executable, and schema_version 5.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %S/../Inputs/fork_pids.c -o %t
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.dir/r %run %t > %t.dir/stdout
// RUN: %python %S/../Inputs/check_identity.py %t.dir/stdout %t.dir/r working-set %t | FileCheck %s
// CHECK: identity ok 2
