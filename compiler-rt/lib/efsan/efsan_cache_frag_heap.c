//===-- efsan_cache_frag_heap.c - live heap objects and thread stacks ----===//
//
// Attribution for the cache-frag tool: which live heap object (start, size,
// allocation stack, allocation number) an address belongs to. A block that
// was looked up is marked, so that freeing it tells the line records that
// refer to it (the next block at that address is another object).
//
// Heap objects live in a hash table keyed by the 256-byte block of their
// start address (so that a chain holds few objects and free is quick), in
// buckets guarded by striped locks, so that malloc and free from different
// threads rarely meet. An object of at most 4 KiB that contains an address
// starts in one of the 17 blocks ending at that address's block; larger
// objects are also kept in one list that lookups scan (lookups are rare: one
// per newly tracked line).
//
//===----------------------------------------------------------------------===//
#include "efsan_cache_frag_internal.h"

#define CF_HEAP_BLOCK_SHIFT 8
#define CF_HEAP_SMALL_MAX 4096ul
#define CF_HEAP_BUCKETS (1u << 18)
#define CF_HEAP_STRIPES 256u
#define CF_HEAP_NODES_PER_BLOCK 2048u

struct cf_heap_node {
  uptr start;
  uptr size;
  u32 stack_id;
  u32 large_index; // position in cf_large (large objects only)
  u32 serial;
  u8 attributed;   // a line record refers to it
  struct cf_heap_node *next;
};

static u32 cf_next_serial = 1;

struct cf_heap_stripe {
  efsan_mutex lock;
  struct cf_heap_node *free_nodes;
  char padding[EFSAN_CACHE_LINE_SIZE - sizeof(efsan_mutex) - sizeof(void *)];
};

static struct cf_heap_node **cf_buckets;
static struct cf_heap_stripe *cf_stripes;

// Objects larger than CF_HEAP_SMALL_MAX, unordered (swap-remove).
static efsan_mutex cf_large_lock;
static struct cf_heap_node **cf_large;
static u32 cf_large_count, cf_large_capacity;

// The stripe follows the 64 KiB region of the address and the bucket is one
// of that stripe's own: a thread allocating from its arena keeps to a few
// stripes and bucket lines, and does not bounce the other threads' locks.
#define CF_HEAP_REGION_SHIFT 16
#define CF_HEAP_BUCKETS_PER_STRIPE (CF_HEAP_BUCKETS / CF_HEAP_STRIPES)

static u64 cf_mix(uptr value) { return (u64)value * 0x9e3779b97f4a7c15ull; }

static u32 cf_stripe_of(uptr address) {
  return (u32)(cf_mix(address >> CF_HEAP_REGION_SHIFT) >> 56) &
         (CF_HEAP_STRIPES - 1);
}

static u32 cf_bucket_of(uptr address) {
  return cf_stripe_of(address) * CF_HEAP_BUCKETS_PER_STRIPE +
         ((u32)(cf_mix(address >> CF_HEAP_BLOCK_SHIFT) >> 40) &
          (CF_HEAP_BUCKETS_PER_STRIPE - 1));
}

void cf_heap_init(void) {
  cf_buckets = (struct cf_heap_node **)efsan_mmap(CF_HEAP_BUCKETS * sizeof(void *));
  cf_stripes = (struct cf_heap_stripe *)efsan_mmap(
      CF_HEAP_STRIPES * sizeof(struct cf_heap_stripe));
}

static struct cf_heap_node *cf_node_alloc(struct cf_heap_stripe *stripe) {
  if (!stripe->free_nodes) {
    struct cf_heap_node *block = (struct cf_heap_node *)efsan_mmap(
        CF_HEAP_NODES_PER_BLOCK * sizeof(struct cf_heap_node));
    for (u32 i = 0; i < CF_HEAP_NODES_PER_BLOCK; i++) {
      block[i].next = stripe->free_nodes;
      stripe->free_nodes = &block[i];
    }
  }
  struct cf_heap_node *node = stripe->free_nodes;
  stripe->free_nodes = node->next;
  return node;
}

static void cf_large_add(struct cf_heap_node *node) {
  efsan_mutex_lock(&cf_large_lock);
  if (cf_large_count == cf_large_capacity) {
    u32 capacity = cf_large_capacity ? 2 * cf_large_capacity : 1024;
    struct cf_heap_node **grown =
        (struct cf_heap_node **)efsan_mmap(capacity * sizeof(void *));
    if (cf_large) {
      efsan_internal_memcpy(grown, cf_large, cf_large_count * sizeof(void *));
      efsan_munmap(cf_large, cf_large_capacity * sizeof(void *));
    }
    cf_large = grown;
    cf_large_capacity = capacity;
  }
  node->large_index = cf_large_count;
  cf_large[cf_large_count++] = node;
  efsan_mutex_unlock(&cf_large_lock);
}

static void cf_large_del(struct cf_heap_node *node) {
  efsan_mutex_lock(&cf_large_lock);
  u32 i = node->large_index;
  if (i < cf_large_count && cf_large[i] == node) {
    cf_large[i] = cf_large[--cf_large_count];
    cf_large[i]->large_index = i;
  }
  efsan_mutex_unlock(&cf_large_lock);
}

void cf_heap_insert(uptr start, uptr size, u32 stack_id) {
  u32 bucket = cf_bucket_of(start);
  struct cf_heap_stripe *stripe = &cf_stripes[cf_stripe_of(start)];
  efsan_mutex_lock(&stripe->lock);
  struct cf_heap_node *node = cf_node_alloc(stripe);
  node->start = start;
  node->size = size;
  node->stack_id = stack_id;
  node->serial = cf_add(&cf_next_serial, 1);
  node->attributed = 0;
  node->next = cf_buckets[bucket];
  cf_buckets[bucket] = node;
  efsan_mutex_unlock(&stripe->lock);
  if (size > CF_HEAP_SMALL_MAX)
    cf_large_add(node);
}

void cf_heap_remove(uptr start) {
  u32 bucket = cf_bucket_of(start);
  struct cf_heap_stripe *stripe = &cf_stripes[cf_stripe_of(start)];
  efsan_mutex_lock(&stripe->lock);
  struct cf_heap_node **link = &cf_buckets[bucket];
  while (*link && (*link)->start != start)
    link = &(*link)->next;
  struct cf_heap_node *node = *link;
  struct cf_heap_block forgotten = {0, 0, 0, 0};
  if (node) {
    *link = node->next;
    // Unlinked from its bucket first, so a lookup that finds it in the
    // large list sees a node that is still intact.
    if (node->size > CF_HEAP_SMALL_MAX)
      cf_large_del(node);
    if (node->attributed) {
      forgotten.start = node->start;
      forgotten.size = node->size;
      forgotten.serial = node->serial;
    }
    node->next = stripe->free_nodes;
    stripe->free_nodes = node;
  }
  efsan_mutex_unlock(&stripe->lock);
  if (forgotten.serial)
    cf_forget_heap_object(forgotten.start, forgotten.size, forgotten.serial);
}

static void cf_take_block(struct cf_heap_node *node,
                          struct cf_heap_block *block) {
  node->attributed = 1;
  block->start = node->start;
  block->size = node->size;
  block->stack_id = node->stack_id;
  block->serial = node->serial;
}

static bool cf_bucket_lookup(uptr block, uptr addr,
                             struct cf_heap_block *found_block) {
  uptr block_address = block << CF_HEAP_BLOCK_SHIFT;
  u32 bucket = cf_bucket_of(block_address);
  struct cf_heap_stripe *stripe = &cf_stripes[cf_stripe_of(block_address)];
  bool found = false;
  efsan_mutex_lock(&stripe->lock);
  for (struct cf_heap_node *node = cf_buckets[bucket]; node; node = node->next) {
    if (node->start <= addr && addr - node->start < node->size &&
        node->size <= CF_HEAP_SMALL_MAX) {
      cf_take_block(node, found_block);
      found = true;
      break;
    }
  }
  efsan_mutex_unlock(&stripe->lock);
  return found;
}

bool cf_heap_lookup(uptr addr, struct cf_heap_block *block) {
  uptr last = addr >> CF_HEAP_BLOCK_SHIFT;
  uptr first = addr >= CF_HEAP_SMALL_MAX
                   ? (addr - (CF_HEAP_SMALL_MAX - 1)) >> CF_HEAP_BLOCK_SHIFT
                   : 0;
  for (uptr b = last + 1; b-- > first;)
    if (cf_bucket_lookup(b, addr, block))
      return true;
  bool found = false;
  efsan_mutex_lock(&cf_large_lock);
  for (u32 i = 0; i < cf_large_count; i++) {
    struct cf_heap_node *node = cf_large[i];
    if (node->start <= addr && addr - node->start < node->size) {
      cf_take_block(node, block);
      found = true;
      break;
    }
  }
  efsan_mutex_unlock(&cf_large_lock);
  return found;
}

void cf_heap_fork_child(void) {
  // Only the forking thread survives; a lock another thread held stays held.
  for (u32 i = 0; i < CF_HEAP_STRIPES; i++)
    efsan_internal_memset(&cf_stripes[i].lock, 0, sizeof(efsan_mutex));
  efsan_internal_memset(&cf_large_lock, 0, sizeof(efsan_mutex));
}
