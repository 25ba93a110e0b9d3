// __has_feature(efficiency_sanitizer) is true with either tool and false
// without one, as __has_feature(thread_sanitizer) is for tsan.
// REQUIRES: native-clang
// RUN: %clang -fsanitize=efficiency-working-set -E -P %s | FileCheck %s --check-prefix=ON
// RUN: %clang -fsanitize=efficiency-cache-frag -E -P %s | FileCheck %s --check-prefix=ON
// RUN: %clang -E -P %s | FileCheck %s --check-prefix=OFF
// RUN: %clang -fsanitize=efficiency-working-set -fno-sanitize=efficiency -E -P %s | FileCheck %s --check-prefix=OFF
// ON: efsan-on
// OFF: efsan-off
#if __has_feature(efficiency_sanitizer)
efsan-on
#else
efsan-off
#endif
