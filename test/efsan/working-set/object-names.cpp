// Report lines that a long C++ name or an unmapped range used to cut short:
// - an allocation site in a function whose demangled name is kilobytes long
//   (templates) lost its file:line ("preprocessToken(simplecpp::TokenList&,
//   ... st"): the name is cut with "...", the place stays;
// - lines of a mapping unmapped before the report read "memory unmapped
//   since", a sentence with no end.
// (A block that does not start on a line has 65 lines.)
// RUN: %clangxx -O2 -g -fsanitize=efficiency-working-set %s -o %t
// RUN: %run %t 2>&1 | FileCheck %s
// CHECK: data structures, most lines first
// CHECK-DAG: mapping 640 lines (40.0 KiB)  memory unmapped before the report
// CHECK-DAG: heap    {{6[45]}} lines ({{4.[01]}} KiB)  {{char\* make_buffer<.*\.\.\. .*}}object-names.cpp:[[@LINE+11]]
#include <map>
#include <stdlib.h>
#include <string.h>
#include <string>
#include <sys/mman.h>
#include <vector>

template <class... Types> __attribute__((noinline)) char *make_buffer() {
  // Each type's name is spelled out in the function's name.
  static_assert(sizeof...(Types) > 0, "");
  char *p = (char *)malloc(64 * 64);
  __asm__ volatile("" : : "r"(p) : "memory");
  return p;
}

using Table = std::map<std::string, std::vector<std::string>>;

int main() {
  char *buffer = make_buffer<Table, std::map<std::string, Table>,
                             std::vector<std::map<std::string, Table>>,
                             std::map<Table, std::vector<Table>>>();
  memset(buffer, 1, 64 * 64);
  // Far from where the runtime's own mappings at exit go (they would take
  // the freed range and name it).
  char *mapped = (char *)mmap((void *)0x500000000000UL, 10 * 4096,
                              PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  memset(mapped, 2, 10 * 4096);
  munmap(mapped, 10 * 4096);
  free(buffer);
  return 0;
}
