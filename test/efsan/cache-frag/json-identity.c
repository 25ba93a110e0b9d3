// The JSON report says which process and program it is about: schema_version
// 3, the pid the program itself sees, and the executable's path as the
// kernel knows it (docs/JSONSchema.md), whatever argv[0] says.
// RUN: %clang -O2 -fsanitize=efficiency-cache-frag %S/../Inputs/print_pid.c -o %t
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json:log_path=%t.dir/r %run %t > %t.dir/stdout
// RUN: %python %S/../Inputs/check_identity.py %t.dir/stdout %t.dir/r cache-frag %t | FileCheck %s
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:report_format=json:log_path=%t.dir/r %python -c "import os, sys; os.execv(sys.argv[1], ['not-the-program'])" %t > %t.dir/stdout
// RUN: %python %S/../Inputs/check_identity.py %t.dir/stdout %t.dir/r cache-frag %t | FileCheck %s
// CHECK: identity ok 1
