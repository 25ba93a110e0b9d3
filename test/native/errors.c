// Combinations only clang itself knows about, refused in its words.
// REQUIRES: native-clang
// RUN: not %clang -fsanitize=efficiency-working-set -fsanitize=numerical -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=NSAN
// NSAN: error: invalid argument '-fsanitize=efficiency-working-set' not allowed with '-fsanitize=numerical'
// RUN: not %clang -fsanitize=efficiency-cache-frag -fsanitize=kernel-memory -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=KMSAN
// KMSAN: error: invalid argument '-fsanitize=efficiency-cache-frag' not allowed with '-fsanitize=kernel-memory'
// RUN: not %clang -fsanitize=efficiency-cache-frag -fsanitize=kernel-hwaddress -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=KHWASAN
// KHWASAN: error: invalid argument '-fsanitize=efficiency-cache-frag' not allowed with '-fsanitize=kernel-hwaddress'
// Misspelled tools are clang's unknown values.
// RUN: not %clang -fsanitize=efficiency-workingset -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=TYPO
// TYPO: error: unsupported argument 'efficiency-workingset' to option '-fsanitize='
// The attribute accepts the names; an unknown one warns as for any sanitizer.
// RUN: %clang -fsanitize=efficiency-working-set -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=ATTR
// ATTR: warning: unknown sanitizer 'efficiency-bogus' ignored
// ATTR-NEXT: {{.*}}bogus
// ATTR: 1 warning generated.
__attribute__((no_sanitize("efficiency-working-set", "efficiency-cache-frag", "efficiency"))) void fine(void) {}
__attribute__((no_sanitize("efficiency-bogus"))) void bogus(void) {}
int main(void) { return 0; }
