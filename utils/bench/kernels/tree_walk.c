/* Unbalanced binary search tree of heap nodes (random keys keep it about
 * 2 ln n deep): inserts, lookups and recursive in-order walks. */
#include <stdlib.h>
#include "bench_common.h"

enum { KEYS = 200000, LOOKUPS = 1800000, WALKS = 15 };

struct node {
  uint64_t key;
  uint64_t hits;
  struct node *left, *right;
};

static struct node *insert(struct node *root, uint64_t key) {
  struct node **link = &root;
  while (*link) {
    if (key == (*link)->key) { (*link)->hits++; return root; }
    link = key < (*link)->key ? &(*link)->left : &(*link)->right;
  }
  struct node *n = malloc(sizeof(*n));
  if (!n) exit(1);
  n->key = key; n->hits = 1; n->left = n->right = NULL;
  *link = n;
  return root;
}

static const struct node *find(const struct node *n, uint64_t key) {
  while (n && n->key != key) n = key < n->key ? n->left : n->right;
  return n;
}

static uint64_t walk(const struct node *n, uint64_t acc) {
  while (n) {
    acc = walk(n->left, acc);
    acc = bench_mix(acc, n->key + n->hits);
    n = n->right;
  }
  return acc;
}

static void destroy(struct node *n) {
  while (n) {
    destroy(n->left);
    struct node *right = n->right;
    free(n);
    n = right;
  }
}

int main(void) {
  struct node *root = NULL;
  uint64_t seed = 8;
  for (long i = 0; i < KEYS; i++) root = insert(root, bench_next(&seed) % 1000000);
  uint64_t sum = 0;
  for (long i = 0; i < LOOKUPS; i++) {
    const struct node *n = find(root, bench_next(&seed) % 1000000);
    sum += n ? n->hits : 0;
  }
  for (int w = 0; w < WALKS; w++) sum = walk(root, sum + (uint64_t)w);
  bench_print_checksum("tree_walk", sum);
  destroy(root);
  return 0;
}
