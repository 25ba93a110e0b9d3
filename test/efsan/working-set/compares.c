// The lines that memcmp and bcmp read are counted exactly, whichever way the
// call goes: checked inline and called past the interceptor (sizes 1 to 64),
// expanded into loads by codegen (small constant sizes), or through the
// interceptor (size 0, more than 64, and every call when a flag asks for the
// interceptor's own marks). Only the compares read the heap buffers below.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -f %t.log.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.log %run %t
// RUN: %python %S/Inputs/check_report.py %t.log --count 1 "heap == 33"
// intercept_memcmp=0: no compare marks anything, inline or not.
// RUN: rm -f %t.log.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.log:intercept_memcmp=0 %run %t
// RUN: %python %S/Inputs/check_report.py %t.log --count 1 "heap == 0"
// strict_memcmp=0: blocks that differ are read up to the first difference.
// RUN: rm -f %t.log.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.log:strict_memcmp=0 %run %t
// RUN: %python %S/Inputs/check_report.py %t.log --count 1 "heap == 29"
// At -O0 nothing is expanded; the same lines.
// RUN: %clang -O0 -fsanitize=efficiency-working-set %s -o %t.O0
// RUN: rm -f %t.log.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.log %run %t.O0
// RUN: %python %S/Inputs/check_report.py %t.log --count 1 "heap == 33"
#include <stdlib.h>
#include <string.h>

// Two lines of 'a', written without being seen, with one byte changed to
// 'x' at `differ` (-1: none): the block's lines count only when a compare
// reads them.
__attribute__((disable_sanitizer_instrumentation, noinline)) static char *
unseen_block(int differ) {
  char *block = aligned_alloc(64, 2 * 64);
  for (int i = 0; i < 2 * 64; i++)
    block[i] = i == differ ? 'x' : 'a';
  return block;
}

// A size the compiler cannot see.
__attribute__((noinline)) static size_t opaque(size_t n) {
  __asm__ volatile("" : "+r"(n));
  return n;
}

int main(void) {
  char *a, *b;
  int bad = 0;
  // Constant sizes that codegen expands into loads.
  a = unseen_block(-1), b = unseen_block(-1);
  bad |= memcmp(a + 60, b + 60, 8) != 0;              // straddles: 2 + 2
  a = unseen_block(-1), b = unseen_block(-1);
  bad |= memcmp(a + 10, b + 10, 24) != 0;             // bcmp: 1 + 1
  // A constant size of at most 64 that is called (not expanded); the blocks
  // differ at their first byte.
  a = unseen_block(40), b = unseen_block(-1);
  bad |= memcmp(a + 40, b + 40, 40) <= 0;             // 2 + 2 (strict: 1 + 1)
  // Sizes the compiler cannot see.
  a = unseen_block(-1), b = unseen_block(-1);
  bad |= memcmp(a, b, opaque(0)) != 0;                // nothing
  a = unseen_block(-1), b = unseen_block(-1);
  bad |= memcmp(a + 5, b + 5, opaque(20)) != 0;       // 1 + 1
  a = unseen_block(-1), b = unseen_block(-1);
  bad |= memcmp(a + 1, b + 1, opaque(64)) != 0;       // bcmp, straddles: 2 + 2
  a = unseen_block(-1), b = unseen_block(-1);
  bad |= memcmp(a + 63, b + 63, opaque(1)) != 0;      // 1 + 1
  a = unseen_block(-1), b = unseen_block(-1);
  bad |= memcmp(a + 62, b + 1, opaque(4)) != 0;       // 2 + 1
  // More than 64 bytes: the interceptor.
  a = unseen_block(-1), b = unseen_block(-1);
  bad |= memcmp(a + 3, b + 3, opaque(65)) != 0;       // 2 + 2
  a = unseen_block(0), b = unseen_block(-1);
  bad |= memcmp(a, b, 100) <= 0;                      // 2 + 2 (strict: 1 + 1)
  // A size of 0 that is a constant: nothing.
  a = unseen_block(-1), b = unseen_block(-1);
  bad |= memcmp(a, b, 0) != 0;
  // bcmp called by name.
  a = unseen_block(-1), b = unseen_block(-1);
  bad |= bcmp(a + 32, b + 32, opaque(48)) != 0;       // 2 + 2
  // 4 + 2 + 4 + 2 + 4 + 2 + 3 + 4 + 4 + 4 = 33; strict_memcmp=0: 29.
  return bad;
}
