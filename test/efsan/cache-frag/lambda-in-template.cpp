// A lambda in a member function template: clang names its closure type as
// the demangler spells it ("struct.void Analyzer::run<Token>(Token*,
// int)::'lambda'(Token const*)"). It is left out of the struct-field report
// with the other closure types (its captures are no layout a user chose),
// and counted in the line that says so; the program's own types are listed.
// Before: the closure type was listed, "type any pointer" captures and all
// (cppcheck: 16 of them), and counted in the SUMMARY.
// RUN: %clangxx -O1 -g -fsanitize=efficiency-cache-frag %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t 2>&1 | FileCheck %s
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1:cache_frag_struct_library=1 %run %t 2>&1 | FileCheck %s --check-prefix=LIBRARY
#include <cstdio>

struct Token {
  int value;
  Token *next;
};

template <typename F>
__attribute__((noinline)) void visit(Token *t, F f) {
  for (; t; t = t->next)
    f(t);
}

struct Analyzer {
  long total = 0;
  template <typename T> void run(T *t, int bias) {
    long scale = 3;
    visit(t, [&](const Token *token) { total += token->value * scale + bias; });
  }
};

int main() {
  static Token tokens[1000];
  for (int i = 0; i < 1000; i++) {
    tokens[i].value = i;
    tokens[i].next = i + 1 < 1000 ? &tokens[i + 1] : nullptr;
  }
  Analyzer analyzer;
  for (int round = 0; round < 100; round++)
    analyzer.run(tokens, round);
  printf("%ld\n", analyzer.total);
  return 0;
}
// CHECK-NOT: 'lambda'
// CHECK: Token: size 16, 2 fields
// CHECK-NOT: 'lambda'
// CHECK: {{[0-9]+}} C++ library or lambda types with {{[0-9]+}} accesses not shown
// CHECK-NOT: 'lambda'
// CHECK: SUMMARY: EfficiencySanitizer: cache-frag: 0 false sharing, 0 true sharing, 0 predicted false sharing; {{[0-9]+}} struct types
// LIBRARY: 'lambda'(Token const*): size 24, 3 fields
