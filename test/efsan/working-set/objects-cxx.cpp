// C++: a std::vector's buffer is listed under the program's function that
// made it (the std:: frames of the allocation stack are skipped), a new[]
// array under its own site, and a global std::array by its C++ name. The
// heap blocks are not aligned to lines: each count is N ± 1 (a line shared
// by two blocks counts for the one holding its first byte).
// RUN: %clangxx -O2 -g -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -f %t.log.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.log %run %t
// RUN: %python %S/Inputs/check_report.py %t.log --count 1 \
// RUN:   "1999 <= site('build_index(unsigned long)') <= 2001" \
// RUN:   "499 <= site('make_scratch()') <= 501" \
// RUN:   "named('global', 'cache::slots')['lines'] == 100"
#include <array>
#include <vector>

namespace cache {
alignas(64) std::array<char, 100 * 64> slots;
}

__attribute__((noinline)) std::vector<char> build_index(unsigned long lines) {
  return std::vector<char>(lines * 64, 1);
}

__attribute__((noinline, disable_tail_calls)) char *make_scratch() {
  return new char[500 * 64];
}

int main() {
  std::vector<char> index = build_index(2000);
  char *scratch = make_scratch();
  long sum = 0;
  for (unsigned long i = 0; i < index.size(); i += 64)
    sum += ((volatile char *)index.data())[i];
  for (int i = 0; i < 500 * 64; i += 64)
    ((volatile char *)scratch)[i] = 1;
  for (int i = 0; i < 100 * 64; i += 64)
    ((volatile char *)cache::slots.data())[i] = 1;
  delete[] scratch;
  return (int)(sum & 1) - 1 + 1;
}
