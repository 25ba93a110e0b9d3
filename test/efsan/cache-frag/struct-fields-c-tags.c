// A C struct is never a C++ library type or a lambda, whatever its tag:
// PostgreSQL's `struct _MdfdVec`, a tag spelled like a C++ typeinfo name
// (`_ZTS4item`, which C's TBAA does not mangle: it stays the tag), a struct
// tagged `anon`, and an untagged struct (clang's LLVM name `struct.anon`)
// are listed with their fields, with and without debug info, and nothing is
// folded away. Counts are exact: N = 1000 reads of each field used.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag %s -o %t
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t 2>&1 | FileCheck %s --check-prefixes=CHECK,DEBUG --implicit-check-not="library or lambda"
// RUN: %clang -O2 -fsanitize=efficiency-cache-frag %s -o %t.nodebug
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1 %run %t.nodebug 2>&1 | FileCheck %s --check-prefixes=CHECK,NODEBUG --implicit-check-not="library or lambda"
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_sample_period=1:report_format=json %run %t.nodebug 2>&1 | FileCheck %s --check-prefix=JSON
// JSON: "folded_library_structs": {"types": 0, "accesses": 0}

typedef struct _MdfdVec {
  int mdfd_vfd;
  unsigned mdfd_segno;
} MdfdVec;

struct _ZTS4item {
  long key;
  long value;
};

struct anon {
  short a;
  short b;
};

struct {
  char c;
  char d;
} untagged[4];

MdfdVec *volatile vecs;
struct _ZTS4item *volatile items;
struct anon *volatile anons;

__attribute__((noinline)) long use(int i) {
  return vecs[i].mdfd_vfd + vecs[i].mdfd_segno + items[i].key + anons[i].b +
         untagged[i].d;
}

int main(void) {
  static MdfdVec v[4];
  static struct _ZTS4item it[4];
  static struct anon an[4];
  vecs = v;
  items = it;
  anons = an;
  long sum = 0;
  for (int n = 0; n < 1000; n++)
    sum += use(n & 3);
  return (int)(sum & 1);
}

// CHECK: Struct field usage (estimated accesses per field):
// DEBUG-DAG: struct _MdfdVec: size 8, 2 fields, 2000 accesses
// DEBUG-DAG: field 0 mdfd_vfd offset 0 size 4 type int count 1000 (hot)
// DEBUG-DAG: field 1 mdfd_segno offset 4 size 4 type unsigned int count 1000 (hot)
// DEBUG-DAG: struct _ZTS4item: size 16, 2 fields, 1000 accesses
// DEBUG-DAG: field 0 key offset 0 size 8 type long count 1000 (hot)
// DEBUG-DAG: struct anon: size 4, 2 fields, 1000 accesses
// DEBUG-DAG: field 1 b offset 2 size 2 type short count 1000 (hot)
// NODEBUG-DAG: struct._MdfdVec: size 8, 2 fields, 2000 accesses
// NODEBUG-DAG: struct._ZTS4item: size 16, 2 fields, 1000 accesses
// NODEBUG-DAG: struct.anon{{(\.[0-9]+)?}}: size 4, 2 fields, 1000 accesses
// The untagged struct is named after its variable with debug info
// (struct-fields-anonymous-global.c), by LLVM's name without.
// DEBUG-DAG: struct <anonymous> untagged: size 2, 2 fields, 1000 accesses
// DEBUG-DAG: field 1 d offset 1 size 1 type char count 1000 (hot)
// NODEBUG-DAG: struct.anon{{(\.[0-9]+)?}}: size 2, 2 fields, 1000 accesses
// CHECK: SUMMARY: EfficiencySanitizer: cache-frag: 0 false sharing, 0 true sharing, 0 predicted false sharing; 4 struct types with field accesses
