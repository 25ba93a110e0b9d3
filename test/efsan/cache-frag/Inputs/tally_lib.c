// A library whose struct fields threads count in their own tables: one
// load of `reads`, one load and one store of `writes` per call of
// tally_once; `unused` is never touched.
struct tally {
  long reads;
  long writes;
  long unused;
};

__attribute__((noinline)) void tally_once(struct tally *t) {
  t->writes += t->reads;
}

void tally_work(struct tally *t, int calls) {
  for (int i = 0; i < calls; i++)
    tally_once(t);
}
