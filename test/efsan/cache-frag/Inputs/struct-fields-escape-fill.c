// The second file of struct-fields-escape.c: the loops that write a member
// through its address, which the pass compiling this file cannot tie to the
// member (it only sees an `unsigned short *`), and a write of another member
// of struct window, whose table here flags no field.

struct window {
  unsigned short lens[66];
  unsigned pos;
  unsigned checksum;
};

void seal(struct window *w) { w->checksum = w->pos; }

void fill_chain(unsigned short *chain, const unsigned char *p, unsigned from,
                unsigned n) {
  for (unsigned i = from; i < n; i++)
    chain[i & 8191] = (unsigned short)(i - p[i]);
}

void fill_lens(unsigned short *lens, const unsigned char *p, unsigned n) {
  for (unsigned i = 0; i < n; i++)
    lens[i % 66] += p[i];
}
