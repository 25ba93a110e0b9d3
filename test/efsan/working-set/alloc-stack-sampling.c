// Past alloc_stacks_exact allocations, allocation stacks are sampled: one
// allocation per alloc_stack_sample_bytes allocated on average gets its
// stack, a block of twice that or more always (a C++ program making
// millions of allocations paid a fifth of its time unwinding each). The
// blocks without one name no structure and the table is not told of them
// (a lock per malloc and free, a tenth of cppcheck's time): their lines
// count as heap memory of no known block, and every line is counted once.
// Here: 50 blocks of 64 bytes first (within the exact budget, each its own
// line, all of site make_early), then 4000 blocks of 64 bytes (make_small),
// then a 128 KiB buffer (make_big, 2048 lines): with alloc_stacks_exact=100
// and 4 KiB between samples, the buffer keeps its site, most small blocks
// have none and a few (about 4000 * 64 / 4096 = 62) are make_small's.
// With alloc_stacks_exact=0, every block has its stack, as before.
// RUN: %clang -O2 -g -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -f %t.log.* %t.exact.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.log:alloc_stacks_exact=100:alloc_stack_sample_bytes=4096 %run %t
// RUN: %python %S/Inputs/check_report.py %t.log --count 1 \
// RUN:   "allocation_stacks == {'exact_allocations': 100, 'sample_bytes': 4096, 'sampled': True, 'unsampled_at_least': allocation_stacks['unsampled_at_least']}" \
// RUN:   "3000 <= allocation_stacks['unsampled_at_least'] <= 4000" \
// RUN:   "site('make_early') == 50 and site('make_big') == 2048" \
// RUN:   "10 <= site('make_small') <= 200" \
// RUN:   "site('make_small') + named('heap', 'heap memory of no known block (most in blocks whose allocation stack was not sampled: alloc_stacks_exact)')['lines'] == 4000" \
// RUN:   "sum(o['lines'] for o in objects) + objects_rest['lines'] == total_lines"
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.exact:alloc_stacks_exact=0 %run %t
// RUN: %python %S/Inputs/check_report.py %t.exact --count 1 \
// RUN:   "not allocation_stacks['sampled'] and allocation_stacks['unsampled_at_least'] == 0" \
// RUN:   "site('make_early') == 50 and site('make_small') == 4000 and site('make_big') == 2048"
// The text report says so above the structures, once.
// RUN: env ESAN_OPTIONS=alloc_stacks_exact=100:alloc_stack_sample_bytes=4096 %run %t 2>&1 | FileCheck %s
// RUN: %run %t 2>&1 | FileCheck %s --check-prefix=DEFAULT
// CHECK: data structures, most lines first ({{[0-9]+}} in all):
// CHECK-NEXT: Allocation stacks are sampled: the first 100 allocations have theirs, then one per 4096 bytes allocated on average (at least {{[0-9]+}} blocks have none; alloc_stacks_exact=0 keeps every one).
// CHECK-NOT: Allocation stacks are sampled
// CHECK: heap memory of no known block (most in blocks whose allocation stack was not sampled: alloc_stacks_exact)
// DEFAULT-NOT: Allocation stacks are sampled
// DEFAULT-NOT: not sampled
#include <stdlib.h>

#define EARLY 50
#define SMALL 4000

static volatile char *blocks[EARLY + SMALL];
static volatile char *big;

// One line each: 64-byte blocks, 64-byte aligned. (Not allocation
// wrappers, which a site would look through: they return nothing.)
__attribute__((noinline)) static void make_early(int i) {
  blocks[i] = aligned_alloc(64, 64);
}
__attribute__((noinline)) static void make_small(int i) {
  blocks[i] = aligned_alloc(64, 64);
}
__attribute__((noinline)) static void make_big(void) {
  big = aligned_alloc(64, 128 * 1024);
}

int main(void) {
  for (int i = 0; i < EARLY; i++)
    make_early(i);
  for (int i = EARLY; i < EARLY + SMALL; i++)
    make_small(i);
  make_big();
  for (int i = 0; i < EARLY + SMALL; i++)
    blocks[i][0] = 1;
  for (int i = 0; i < 128 * 1024; i += 64)
    big[i] = 1;
  return 0;
}
