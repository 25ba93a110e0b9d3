// An instrumented shared library references and exports no symbol that
// projects which police their libraries' symbols reject: PostgreSQL's build
// stops at "libpq must not be calling any function which invokes exit"
// (its check: undefined symbols matching "exit", less __cxa_atexit), and
// cache-frag's module destructor called __efsan_exit.
// RUN: %clang -O2 -fPIC -shared -fsanitize=efficiency-cache-frag %s -o %t.cf.so
// RUN: %clang -O2 -fPIC -shared -fsanitize=efficiency-working-set %s -o %t.ws.so
// RUN: llvm-nm -D %t.cf.so | FileCheck %s --check-prefix=CF
// RUN: llvm-nm -D %t.cf.so %t.ws.so | FileCheck %s --implicit-check-not=exit --implicit-check-not=abort
// The library is instrumented (it references the runtime), so the check
// above has something to look at.
// CF: U __efsan_init
// CF: U __efsan_module_fini
// CHECK: U __efsan_init
struct stats {
  long hits, misses;
};

void count(struct stats *s, int hit) {
  if (hit)
    s->hits++;
  else
    s->misses++;
}
