// The sanitizer runtime is linked into the program, its data among the
// program's: none of its globals (file-local statics of its sources, the
// __efsan_/__sanitizer names) is ever one of the program's data structures,
// even where a line the program touched (string literals, small globals)
// starts with one of them. docs/examples/phases.c showed it: a line of its
// literals began with __efsan_which_tool and was listed under that name.
// The check lists the runtime's symbols from the binary's own symbol table
// (readelf) and compares.
// RUN: %clang -O2 -g -fsanitize=efficiency-working-set %srcroot/docs/examples/phases.c -o %t
// RUN: env ESAN_OPTIONS=report_format=json:report_objects=100:sample_freq=10 %run %t 2> %t.json
// RUN: readelf -sW %t > %t.syms
// RUN: %python %s.py %t.json %t.syms table
