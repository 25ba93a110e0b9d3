// One struct type is one entry of the field usage report, with source names,
// even when one module names it from debug info ("struct server", the file
// that defines the global) and another as LLVM does ("struct.server", a file
// that only declares it extern, so its debug info has no type for it). It
// was reported twice, its counts split: the field one file reads hot in one
// entry and cold in the other (redis: struct redisServer / struct.redisServer;
// cppcheck: Token / class.Token). The same for a C++ class in a namespace.
// RUN: rm -rf %t && split-file %s %t
// RUN: %clang -O1 -g -fsanitize=efficiency-cache-frag %t/a.c %t/b.c -o %t/c
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t/c 2>&1 | FileCheck %s --check-prefix=C
// C: Struct field usage
// C-NEXT: struct server: size 24, 4 fields, {{[0-9]+}} accesses
// C-NEXT: field 0 pid offset 0 size 4 type int count {{[1-9][0-9]*}} (hot)
// C-NEXT: field 1 hz offset 8 size 8 type long count {{[1-9][0-9]*}} (hot)
// C-NOT: struct.server
// RUN: %clangxx -O1 -g -fsanitize=efficiency-cache-frag -x c++ %t/a.cpp -x c++ %t/b.cpp -o %t/cxx
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t/cxx 2>&1 | FileCheck %s --check-prefix=CXX
// CXX: Struct field usage
// CXX-NEXT: ns::Token: size 24, 3 fields, {{[0-9]+}} accesses
// CXX-NEXT: field 0 kind offset 0 size 4 type int count {{[1-9][0-9]*}} (hot)
// CXX-NEXT: field 1 value offset 8 size 8 type long count {{[1-9][0-9]*}} (hot)
// CXX-NOT: class.ns::Token

//--- a.c
struct server { int pid; long hz; int nthreads; int other; };
struct server srv = {1, 10, 3, 0};
void loop_b(void);
volatile long sink;
int main(void) {
  for (int i = 0; i < 1000; i++)
    sink = srv.pid;
  loop_b();
  return 0;
}
//--- b.c
struct server { int pid; long hz; int nthreads; int other; };
extern struct server srv;
extern volatile long sink;
void loop_b(void) {
  for (int i = 0; i < 3000; i++)
    sink = srv.hz;
}
//--- a.cpp
namespace ns { class Token { public: int kind; long value; Token *next; }; }
ns::Token tok = {1, 2, 0};
void loop_b();
volatile long sink;
int main() {
  for (int i = 0; i < 1000; i++)
    sink = tok.kind;
  loop_b();
  return 0;
}
//--- b.cpp
namespace ns { class Token { public: int kind; long value; Token *next; }; }
extern ns::Token tok;
extern volatile long sink;
void loop_b() {
  for (int i = 0; i < 3000; i++)
    sink = tok.value;
}
