// Two data structures allocated at one site from two callers (zstd's read
// and write pools both allocate in AIO_IOPool_createIoJob) are two entries
// of the report that read alike by their site: the page names each by the
// caller where their stacks part, in the data-structure bars and table.
// RUN: %clang -O2 -g -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.dir/r %run %t
// RUN: %efsan_view %t.dir/r.* -o %t.dir/page.html
// RUN: FileCheck %s < %t.dir/page.html
// CHECK-DAG: data-name="allocated in make_block (alike-sites.c:[[#SITE:]]) from build_table" data-lines="300"
// CHECK-DAG: data-name="allocated in make_block (alike-sites.c:[[#SITE]]) from build_index" data-lines="100"
// CHECK-DAG: <td>allocated in make_block (alike-sites.c:[[#SITE]]) from build_table<
// CHECK-DAG: <td>allocated in make_block (alike-sites.c:[[#SITE]]) from build_index<
#include <stdlib.h>

// Fills the block: not an allocation wrapper's shape, so it is the site.
__attribute__((noinline)) static char *make_block(int lines) {
  char *p = aligned_alloc(64, lines * 64);
  if (!p)
    abort();
  for (int i = 0; i < lines * 64; i += 64)
    p[i] = (char)i;
  return p;
}

// Each caller reads its block after the call: no tail call drops its frame.
__attribute__((noinline)) static long build_index(char **out) {
  *out = make_block(100);
  return (*out)[64];
}
__attribute__((noinline)) static long build_table(char **out) {
  *out = make_block(300);
  return (*out)[128];
}

int main(void) {
  char *index, *table;
  long sum = build_index(&index) + build_table(&table);
  return sum == 1;
}
