/* Phoenix-shape word count: a generated text of lower-case words is split
 * between 2 threads at a word boundary; each counts the words of its part
 * in its own open-addressing hash table (a key is a pointer and length into
 * the text), and the main thread merges the two tables. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "bench_common.h"

enum { THREADS = 2, TEXT_BYTES = 24 * 1024 * 1024, VOCABULARY = 8192, TABLE = 1 << 15, PASSES = 8 };

struct entry { const char *word; unsigned length; unsigned count; };
struct count_job { const char *begin, *end; struct entry *table; };

static unsigned hash_word(const char *word, unsigned length) {
  unsigned h = 2166136261u;
  for (unsigned i = 0; i < length; i++) h = (h ^ (unsigned char)word[i]) * 16777619u;
  return h;
}

/* The slot holding word, or the empty slot where it goes. */
static struct entry *find_slot(struct entry *table, const char *word, unsigned length) {
  for (unsigned slot = hash_word(word, length) & (TABLE - 1);; slot = (slot + 1) & (TABLE - 1)) {
    struct entry *e = &table[slot];
    if (!e->word || (e->length == length && memcmp(e->word, word, length) == 0)) return e;
  }
}

static void add_count(struct entry *table, const char *word, unsigned length, unsigned count) {
  struct entry *e = find_slot(table, word, length);
  if (!e->word) {
    e->word = word;
    e->length = length;
  }
  e->count += count;
}

static void *count_words(void *arg) {
  struct count_job *job = arg;
  for (int pass = 0; pass < PASSES; pass++) {
    const char *p = job->begin;
    while (p < job->end) {
      while (p < job->end && (*p < 'a' || *p > 'z')) p++;
      const char *word = p;
      while (p < job->end && *p >= 'a' && *p <= 'z') p++;
      if (p > word) add_count(job->table, word, (unsigned)(p - word), 1);
    }
  }
  return NULL;
}

int main(void) {
  char *text = malloc(TEXT_BYTES + 1);
  if (!text) return 1;
  uint64_t seed = 37;
  static char words[VOCABULARY][12];
  for (int w = 0; w < VOCABULARY; w++) {
    uint64_t r = bench_next(&seed);
    int length = 3 + (int)(r % 8);
    for (int i = 0; i < length; i++) words[w][i] = (char)('a' + (r >> (8 + 5 * i)) % 26);
    words[w][length] = 0;
  }
  size_t size = 0;
  while (size < TEXT_BYTES) {
    uint64_t r = bench_next(&seed);
    /* The product of two uniform draws favours the first words, as in prose. */
    const char *word = words[((r & 0xffff) * ((r >> 16) & 0xffff)) >> 19];
    size_t length = strlen(word);
    if (size + length + 1 > TEXT_BYTES) break;
    memcpy(text + size, word, length);
    size += length;
    text[size++] = (r >> 40) % 13 ? ' ' : '\n';
  }
  memset(text + size, ' ', TEXT_BYTES - size);
  text[TEXT_BYTES] = 0;
  struct count_job jobs[THREADS];
  pthread_t threads[THREADS];
  const char *split = text + TEXT_BYTES / 2;
  while (*split >= 'a' && *split <= 'z') split++;
  jobs[0].begin = text; jobs[0].end = split;
  jobs[1].begin = split; jobs[1].end = text + TEXT_BYTES;
  for (int t = 0; t < THREADS; t++) {
    jobs[t].table = calloc(TABLE, sizeof(struct entry));
    if (!jobs[t].table) return 1;
    if (pthread_create(&threads[t], NULL, count_words, &jobs[t])) return 1;
  }
  for (int t = 0; t < THREADS; t++) pthread_join(threads[t], NULL);
  /* Merge the second table into the first, then sum the counts of each
   * vocabulary word, in vocabulary order. */
  for (int slot = 0; slot < TABLE; slot++) {
    const struct entry *e = &jobs[1].table[slot];
    if (e->word) add_count(jobs[0].table, e->word, e->length, e->count);
  }
  uint64_t sum = 0;
  for (int w = 0; w < VOCABULARY; w++) {
    const struct entry *e = find_slot(jobs[0].table, words[w], (unsigned)strlen(words[w]));
    sum = bench_mix(sum, e->word ? e->count : 0);
  }
  bench_print_checksum("ph_word_count", sum);
  for (int t = 0; t < THREADS; t++) free(jobs[t].table);
  free(text);
  return 0;
}
