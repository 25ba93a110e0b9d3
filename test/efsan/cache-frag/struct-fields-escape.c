// A member written only through its address in another file (issue 23's
// struct ctx, whose chain the loop in Inputs/struct-fields-escape-fill.c
// writes) was reported `count 0 (cold)`, and the hot/cold note advised moving
// such a member out. The pass flags a member whose address leaves what it
// attributes; the report says "not seen" for one with no count, calls the
// count of one with some a lower bound, and rests no layout advice on either.
// Exact counts at sample period 1: insert() writes hash[h] once per byte
// (through a derived pointer: attributed), step() reads and writes pos once
// per byte (seal() reads it once more), main reads lens[3] once. struct
// window's lens shares a line with pos: counted as cold it made the note
// "move lens out".
// At -O2 w->lens is the object's own address: the callee's declared
// `unsigned short *` tells it from a `struct window *`. The other file's
// table of struct window (seal() writes checksum once) flags nothing: the
// merged entry still has lens escaping.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag %s %S/Inputs/struct-fields-escape-fill.c -o %t
// RUN: env ESAN_OPTIONS=cache_frag_sample_period=1 %run %t 2> %t.txt
// RUN: FileCheck %s --check-prefix=CTX < %t.txt
// RUN: FileCheck %s --check-prefix=WIN < %t.txt
// RUN: %clang -O0 -g -fsanitize=efficiency-cache-frag %s %S/Inputs/struct-fields-escape-fill.c -o %t.O0
// RUN: env ESAN_OPTIONS=cache_frag_sample_period=1 %run %t.O0 2> %t.O0.txt
// RUN: FileCheck %s --check-prefix=CTX < %t.O0.txt
// RUN: FileCheck %s --check-prefix=WIN < %t.O0.txt
// The JSON says the same (heat "not_seen", address_escapes), and the viewer
// shows it.
// RUN: env ESAN_OPTIONS=cache_frag_sample_period=1:report_format=json %run %t 2> %t.json
// RUN: %python %S/Inputs/check_json.py %t.json %t.txt | FileCheck %s --check-prefix=JSON
// RUN: %efsan_view %t.json -o %t.html
// RUN: FileCheck %s --check-prefix=HTML < %t.html
// RUN: %python %S/../viewer/Inputs/check_page.py %t.html %t.png %t.json | FileCheck %s --check-prefix=PAGE

// CTX: struct ctx: size 32776, 4 fields
// CTX-NEXT: field 0 hash offset 0 size 16384 type unsigned int[4096] count 100000 (hot)
// CTX-NEXT: field 1 chain offset 16384 size 16384 type unsigned short[8192] count 0 (not seen: address escapes)
// CTX-NEXT: field 2 next offset 32768 size 4 type unsigned int count {{[1-9][0-9]*}} (cold)
// CTX-NEXT: field 3 level offset 32772 size 4 type int count 0 (cold)
// CTX-NOT: hot/cold mix
// CTX: SUMMARY

// WIN: struct window: size 140, 3 fields
// WIN-NEXT: field 0 lens offset 0 size 132 type unsigned short[66] count 1 (cold; lower bound: address escapes)
// WIN-NEXT: field 1 pos offset 132 size 4 type unsigned int count 200001 (hot)
// WIN-NEXT: field 2 checksum offset 136 size 4 type unsigned int count 1 (cold)
// WIN-NOT: hot/cold mix
// WIN: struct ctx
// WIN-NOT: struct window

// JSON: check_json: 0 findings and 2 structs match
// HTML-DAG: not seen (address escapes)
// HTML-DAG: cold (lower bound: address escapes)
// PAGE: page ok: pid {{[0-9]+}} cache-frag: 0 findings (), 2 structs
#include <stdio.h>
#include <stdlib.h>

#define N 100000

struct ctx {
  unsigned hash[4096];
  unsigned short chain[8192];
  unsigned next;
  int level;
};

struct window {
  unsigned short lens[66];
  unsigned pos;
  unsigned checksum;
};

void fill_chain(unsigned short *chain, const unsigned char *p, unsigned from,
                unsigned n);
void fill_lens(unsigned short *lens, const unsigned char *p, unsigned n);
void seal(struct window *w);

__attribute__((noinline)) static void insert(struct ctx *c,
                                             const unsigned char *p,
                                             unsigned n) {
  unsigned *ht = c->hash;
  unsigned from = c->next;
  for (unsigned i = from; i < n; i++) {
    unsigned h = (p[i] * 2654435761u) >> 20;
    ht[h] = i;
  }
  fill_chain(c->chain, p, from, n);
  c->next = n;
}

__attribute__((noinline)) static void step(struct window *w, unsigned char b) {
  w->pos = w->pos * 31 + b;
}

int main(void) {
  struct ctx *c = calloc(1, sizeof *c);
  unsigned char *data = malloc(N);
  for (unsigned i = 0; i < N; i++)
    data[i] = (unsigned char)(i * 7 + (i >> 5));
  insert(c, data, N / 2);
  insert(c, data, N);
  struct window *w = calloc(1, sizeof *w);
  for (unsigned i = 0; i < N; i++)
    step(w, data[i]);
  fill_lens(w->lens, data, N);
  seal(w);
  printf("%u\n", w->lens[3]);
  free(w);
  free(data);
  free(c);
  return 0;
}
