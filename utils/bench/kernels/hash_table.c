/* Open-addressing (linear probing) hash table of 64-bit keys: inserts with
 * updates, then lookups of present and absent keys. */
#include <stdlib.h>
#include "bench_common.h"

enum { CAPACITY = 1 << 22, INSERTS = 2000000, LOOKUPS = 32000000 };

struct slot { uint64_t key; uint64_t value; };

static struct slot *table;

static size_t home(uint64_t key) {
  return (size_t)((key * 0x9e3779b97f4a7c15ull) >> 43) & (CAPACITY - 1);
}

static void insert(uint64_t key, uint64_t value) {
  size_t i = home(key);
  while (table[i].key != 0 && table[i].key != key) i = (i + 1) & (CAPACITY - 1);
  table[i].key = key;
  table[i].value += value;
}

static uint64_t lookup(uint64_t key) {
  size_t i = home(key);
  while (table[i].key != 0) {
    if (table[i].key == key) return table[i].value;
    i = (i + 1) & (CAPACITY - 1);
  }
  return 0;
}

int main(void) {
  table = calloc(CAPACITY, sizeof(struct slot));
  if (!table) return 1;
  uint64_t seed = 4;
  for (long n = 0; n < INSERTS; n++)
    insert((bench_next(&seed) % 1500000) + 1, (uint64_t)n);
  uint64_t sum = 0;
  for (long n = 0; n < LOOKUPS; n++)
    sum += lookup((bench_next(&seed) % 3000000) + 1);
  bench_print_checksum("hash_table", sum);
  free(table);
  return 0;
}
