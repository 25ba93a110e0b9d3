//===-- efsan_heap.c - the heap blocks the program allocated --------------===//
//
// Every block malloc (and operator new) returned: start, size, allocation
// stack and allocation number. Both tools use it: cache-frag asks which live
// block holds an address (a block that was looked up is marked, so that
// freeing it tells the line records that refer to it: the next block at that
// address is another object); the working-set tool's object attribution
// (efsan_ws_objects.c) lists all blocks at report time, and keeps freed
// blocks too ("freed" entries), so that the lines of a buffer freed before
// the report still count for its allocation site until a new block takes
// the same start address (not blocks without an allocation stack: past
// alloc_stacks_exact most have none, efsan.c).
//
// Heap objects live in a hash table keyed by the 256-byte block of their
// start address (so that a chain holds few objects and free is quick), live
// blocks and freed records in chains of their own (an allocation looks for
// the freed records at its start, a free for the live block: walking the
// other kind too, a cache miss per node, was most of the working set's time
// in malloc and free in a C++ program), in
// buckets guarded by striped locks, so that malloc and free from different
// threads rarely meet. An object of at most 4 KiB that contains an address
// starts in one of the 17 blocks ending at that address's block; larger
// objects are also kept in one list that lookups scan (lookups are rare: one
// per newly tracked line). Only the interceptors and reports touch the table,
// never the instrumented accesses.
//
// The working set names a block by its allocation site, so it keeps only the
// blocks that have an allocation stack (past alloc_stacks_exact, few do):
// the coverage counts below say, without a lock, whether a block without
// one lands on bytes some record covers. Only then is the table told: the
// small freed records under it are forgotten, and it is kept only to own
// its bytes over a larger one. A lock per malloc and per free was a tenth
// of the working set's time in cppcheck.
//
//===----------------------------------------------------------------------===//
#include "efsan_internal.h"

#define HEAP_BLOCK_SHIFT 8
#define HEAP_SMALL_MAX 4096ul
#define HEAP_BUCKETS (1u << 18)
#define HEAP_STRIPES 256u
#define HEAP_NODES_PER_BLOCK 2048u

struct efsan_heap_node {
  uptr start;
  uptr size;
  u32 stack_id;
  u32 large_index; // position in heap_large (large objects only)
  u32 serial;
  u8 attributed;   // a line record refers to it
  u8 freed;        // kept after free (efsan_heap_keep_freed)
  u8 in_table;     // in a bucket's chain (not on the free list)
  struct efsan_heap_node *next;
};

// Serials are handed to each thread in chunks: one shared counter bumped by
// every malloc of every thread cost a cache-line transfer each time (a
// quarter of the heap table's time in cppcheck -j2). Unique, and increasing
// in each thread; between threads a block may get a smaller serial than an
// older block of another thread's, which matters only where blocks of two
// threads with different starts overlap (the newest owns the bytes).
#define HEAP_SERIAL_CHUNK 256u
static u32 heap_next_serial = 1;
static __thread u32 thread_next_serial
    __attribute__((tls_model("initial-exec")));
static __thread u32 thread_serial_end
    __attribute__((tls_model("initial-exec")));
bool efsan_heap_keep_freed;
// Freed blocks kept at most (48 bytes each); beyond that a freed block is
// dropped and its lines count as heap memory of no known block. Each thread
// adds its changes to the count 64 at a time (the same transfers as the
// serial's otherwise): the bound holds within 64 records a thread.
#define HEAP_MAX_FREED (1 << 20)
#define HEAP_FREED_BATCH 64
static sptr heap_freed_count;
static __thread int thread_freed_delta
    __attribute__((tls_model("initial-exec")));

// Nodes come from blocks of HEAP_NODES_PER_BLOCK, handed out in order: a
// block's pages become resident as its nodes are used, so that a stripe
// that holds a few live blocks costs a few pages, not a whole block (the
// 256 stripes of a program whose heap spans many regions would otherwise
// cost 24 MiB at once).
// The first node of each block only links the stripe's blocks, newest
// first: efsan_heap_for_each reads the nodes in the order they lie in
// memory rather than chain by chain (200,000 blocks: 40 ms of cache misses
// through the chains, a few ms through the blocks).
struct efsan_heap_stripe {
  efsan_mutex lock;
  struct efsan_heap_node *free_nodes;
  struct efsan_heap_node *fresh, *fresh_end; // the current block's unused nodes
  struct efsan_heap_node *blocks;
  // Records inserted and dropped in the stripe: their sum over the stripes
  // is the table's version (efsan_heap_version).
  u64 changes;
  char padding[EFSAN_CACHE_LINE_SIZE - sizeof(efsan_mutex) - 4 * sizeof(void *) -
               sizeof(u64)];
};

static struct efsan_heap_node **heap_buckets;       // live blocks
static struct efsan_heap_node **heap_freed_buckets; // freed records
static struct efsan_heap_stripe *heap_stripes;

// Objects larger than HEAP_SMALL_MAX, unordered (swap-remove).
static efsan_mutex heap_large_lock;
static struct efsan_heap_node **heap_large;
static u32 heap_large_count, heap_large_capacity;

// The stripe follows the 64 KiB region of the address and the bucket is one
// of that stripe's own: a thread allocating from its arena keeps to a few
// stripes and bucket lines, and does not bounce the other threads' locks.
#define HEAP_REGION_SHIFT 16
#define HEAP_BUCKETS_PER_STRIPE (HEAP_BUCKETS / HEAP_STRIPES)

// How many records cover each 16-byte granule (records of at most
// HEAP_SMALL_MAX bytes; malloc's blocks start on granules, so a block
// beside a record shares none) and each 4 KiB page (larger ones: a 1 GiB
// block counts 262144 pages, not 67 million granules), kept with the freed
// records (efsan_heap_keep_freed: the working set, which tells the table of
// some blocks only). Records of two stripes can share a granule or a page,
// so the counts change atomically; one that reaches 255 stays there (its
// bytes just take the locked path from then on).
#define HEAP_COVER_GRANULE_SHIFT 4
#define HEAP_COVER_PAGE_SHIFT 12
static u8 *heap_granule_cover, *heap_page_cover;

static void heap_cover_count(u8 *count, bool add) {
  u8 old = __atomic_load_n(count, __ATOMIC_RELAXED);
  do {
    if (old == 255 || (!add && old == 0))
      return;
  } while (!__atomic_compare_exchange_n(count, &old, add ? old + 1 : old - 1,
                                        true, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED));
}

// The counts of a record of [start, start+size): [*first, *last] of
// *counts. False for a range that wraps or ends past the application's
// space (never counted: efsan_heap_may_cover says true there).
static bool heap_cover_span(uptr start, uptr size, u8 **counts, uptr *first,
                            uptr *last) {
  uptr end = start + (size ? size : 1) - 1;
  if (end < start || end >= EFSAN_APP_END)
    return false;
  unsigned shift = HEAP_COVER_GRANULE_SHIFT;
  *counts = heap_granule_cover;
  if (size > HEAP_SMALL_MAX)
    *counts = heap_page_cover, shift = HEAP_COVER_PAGE_SHIFT;
  *first = start >> shift;
  *last = end >> shift;
  return true;
}

static void heap_cover(uptr start, uptr size, bool add) {
  u8 *counts;
  uptr first, last;
  if (!efsan_heap_keep_freed ||
      !heap_cover_span(start, size, &counts, &first, &last))
    return;
  for (uptr i = first; i <= last; i++)
    heap_cover_count(&counts[i], add);
}

bool efsan_heap_may_cover(uptr start, uptr size) {
  uptr last = start + (size ? size : 1) - 1;
  if (last < start || last >= EFSAN_APP_END)
    return true;
  for (uptr p = start >> HEAP_COVER_PAGE_SHIFT;
       p <= last >> HEAP_COVER_PAGE_SHIFT; p++)
    if (__atomic_load_n(&heap_page_cover[p], __ATOMIC_RELAXED))
      return true;
  for (uptr g = start >> HEAP_COVER_GRANULE_SHIFT;
       g <= last >> HEAP_COVER_GRANULE_SHIFT; g++)
    if (__atomic_load_n(&heap_granule_cover[g], __ATOMIC_RELAXED))
      return true;
  return false;
}

static u64 heap_mix(uptr value) { return (u64)value * 0x9e3779b97f4a7c15ull; }

static u32 heap_stripe_of(uptr address) {
  return (u32)(heap_mix(address >> HEAP_REGION_SHIFT) >> 56) &
         (HEAP_STRIPES - 1);
}

static u32 heap_bucket_of(uptr address) {
  return heap_stripe_of(address) * HEAP_BUCKETS_PER_STRIPE +
         ((u32)(heap_mix(address >> HEAP_BLOCK_SHIFT) >> 40) &
          (HEAP_BUCKETS_PER_STRIPE - 1));
}

void efsan_heap_init(void) {
  heap_buckets = (struct efsan_heap_node **)efsan_mmap(HEAP_BUCKETS * sizeof(void *));
  heap_freed_buckets =
      (struct efsan_heap_node **)efsan_mmap(HEAP_BUCKETS * sizeof(void *));
  heap_stripes = (struct efsan_heap_stripe *)efsan_mmap(
      HEAP_STRIPES * sizeof(struct efsan_heap_stripe));
  if (efsan_heap_keep_freed) {
    // Address space only: the pages of the counts that the heap's records
    // use become resident, and no scan visits them.
    uptr granule_bytes = EFSAN_APP_END >> HEAP_COVER_GRANULE_SHIFT;
    uptr page_bytes = EFSAN_APP_END >> HEAP_COVER_PAGE_SHIFT;
    heap_granule_cover = (u8 *)efsan_mmap_noreserve(granule_bytes);
    heap_page_cover = (u8 *)efsan_mmap_noreserve(page_bytes);
    efsan_regions_exclude((uptr)heap_granule_cover,
                          (uptr)heap_granule_cover + granule_bytes);
    efsan_regions_exclude((uptr)heap_page_cover,
                          (uptr)heap_page_cover + page_bytes);
  }
}

static struct efsan_heap_node *heap_node_alloc(struct efsan_heap_stripe *stripe) {
  struct efsan_heap_node *node = stripe->free_nodes;
  if (node) {
    stripe->free_nodes = node->next;
    return node;
  }
  if (stripe->fresh == stripe->fresh_end) {
    struct efsan_heap_node *block = (struct efsan_heap_node *)efsan_mmap(
        HEAP_NODES_PER_BLOCK * sizeof(struct efsan_heap_node));
    block->next = stripe->blocks;
    stripe->blocks = block;
    stripe->fresh = block + 1;
    stripe->fresh_end = block + HEAP_NODES_PER_BLOCK;
  }
  return stripe->fresh++;
}

static void heap_large_add(struct efsan_heap_node *node) {
  efsan_mutex_lock(&heap_large_lock);
  if (heap_large_count == heap_large_capacity) {
    u32 capacity = heap_large_capacity ? 2 * heap_large_capacity : 1024;
    struct efsan_heap_node **grown =
        (struct efsan_heap_node **)efsan_mmap(capacity * sizeof(void *));
    if (heap_large) {
      efsan_internal_memcpy(grown, heap_large, heap_large_count * sizeof(void *));
      efsan_munmap(heap_large, heap_large_capacity * sizeof(void *));
    }
    heap_large = grown;
    heap_large_capacity = capacity;
  }
  node->large_index = heap_large_count;
  heap_large[heap_large_count++] = node;
  efsan_mutex_unlock(&heap_large_lock);
}

static void heap_large_del(struct efsan_heap_node *node) {
  efsan_mutex_lock(&heap_large_lock);
  u32 i = node->large_index;
  if (i < heap_large_count && heap_large[i] == node) {
    heap_large[i] = heap_large[--heap_large_count];
    heap_large[i]->large_index = i;
  }
  efsan_mutex_unlock(&heap_large_lock);
}

// Freed blocks kept at one start address. A freed block keeps the bytes no
// newer block at its start covers, so each kept one is larger than every
// newer block there (one that is not owns nothing and is dropped); past this
// many, the oldest is dropped too, and its tail counts as heap memory of no
// known block. With that, a chain holds a bounded number of records per
// start, and malloc and free cost O(1) however the program reuses an
// address (a 24-byte block, then a 20-byte one, then 24 again...).
#define HEAP_FREED_PER_START 4u

static u32 heap_serial(void) {
  if (thread_next_serial == thread_serial_end) {
    thread_next_serial = __atomic_fetch_add(
        &heap_next_serial, HEAP_SERIAL_CHUNK, __ATOMIC_RELAXED);
    thread_serial_end = thread_next_serial + HEAP_SERIAL_CHUNK;
  }
  return thread_next_serial++;
}

static void heap_freed_add(int delta) {
  thread_freed_delta += delta;
  if (thread_freed_delta >= HEAP_FREED_BATCH ||
      thread_freed_delta <= -HEAP_FREED_BATCH) {
    __atomic_fetch_add(&heap_freed_count, thread_freed_delta, __ATOMIC_RELAXED);
    thread_freed_delta = 0;
  }
}

static bool heap_freed_room(void) {
  return __atomic_load_n(&heap_freed_count, __ATOMIC_RELAXED) +
             thread_freed_delta < HEAP_MAX_FREED;
}

static void heap_node_release(struct efsan_heap_stripe *stripe,
                              struct efsan_heap_node *node) {
  heap_cover(node->start, node->size, false);
  node->in_table = 0;
  node->next = stripe->free_nodes;
  stripe->free_nodes = node;
}

void efsan_heap_insert(uptr start, uptr size, u32 stack_id) {
  u32 bucket = heap_bucket_of(start);
  struct efsan_heap_stripe *stripe = &heap_stripes[heap_stripe_of(start)];
  efsan_mutex_lock(&stripe->lock);
  struct efsan_heap_node *node = 0;
  if (efsan_heap_keep_freed) {
    // The new block covers the freed ones at its start that are no larger:
    // they own nothing from now on (the first one's node is reused).
    for (struct efsan_heap_node **link = &heap_freed_buckets[bucket];
         *link;) {
      struct efsan_heap_node *old = *link;
      if (old->start != start || old->size > size) {
        link = &old->next;
        continue;
      }
      *link = old->next;
      heap_freed_add(-1);
      if (node) {
        heap_node_release(stripe, old);
      } else {
        heap_cover(old->start, old->size, false);
        node = old;
      }
    }
  }
  if (!node)
    node = heap_node_alloc(stripe);
  node->start = start;
  node->size = size;
  node->stack_id = stack_id;
  node->serial = heap_serial();
  node->attributed = 0;
  node->freed = 0;
  node->in_table = 1;
  heap_cover(start, size, true);
  node->next = heap_buckets[bucket];
  heap_buckets[bucket] = node;
  __atomic_store_n(&stripe->changes, stripe->changes + 1, __ATOMIC_RELEASE);
  efsan_mutex_unlock(&stripe->lock);
  if (size > HEAP_SMALL_MAX)
    heap_large_add(node);
}

// Unlinks the freed record at *link and gives its node back.
static void heap_drop_freed(struct efsan_heap_stripe *stripe,
                            struct efsan_heap_node **link) {
  struct efsan_heap_node *old = *link;
  *link = old->next;
  heap_freed_add(-1);
  __atomic_store_n(&stripe->changes, stripe->changes + 1, __ATOMIC_RELEASE);
  heap_node_release(stripe, old);
}

// After node (just freed) became the first freed record of its chain: the
// chain is newest first, so the freed records at its start past the first
// HEAP_FREED_PER_START are the oldest ones; they are dropped.
static void heap_trim_freed(struct efsan_heap_stripe *stripe,
                            struct efsan_heap_node *node) {
  u32 kept = 0;
  for (struct efsan_heap_node **link = &node->next; *link;) {
    struct efsan_heap_node *old = *link;
    if (old->start != node->start || ++kept < HEAP_FREED_PER_START) {
      link = &old->next;
      continue;
    }
    heap_drop_freed(stripe, link);
  }
}

bool efsan_heap_remove(uptr start, struct efsan_heap_block *attributed) {
  u32 bucket = heap_bucket_of(start);
  struct efsan_heap_stripe *stripe = &heap_stripes[heap_stripe_of(start)];
  efsan_mutex_lock(&stripe->lock);
  struct efsan_heap_node **link = &heap_buckets[bucket];
  while (*link && (*link)->start != start)
    link = &(*link)->next;
  struct efsan_heap_node *node = *link;
  bool was_attributed = false;
  if (node) {
    // Out of the large list first, so a lookup that finds it there sees a
    // node that is still intact.
    if (node->size > HEAP_SMALL_MAX)
      heap_large_del(node);
    if (node->attributed) {
      was_attributed = true;
      attributed->start = node->start;
      attributed->size = node->size;
      attributed->stack_id = node->stack_id;
      attributed->serial = node->serial;
    }
    // A block with no allocation stack (past alloc_stacks_exact, most of
    // them) is no site's: its record goes at free, and its lines count as
    // heap memory of no known block, as those of a dropped record do.
    *link = node->next;
    if (efsan_heap_keep_freed && node->stack_id && heap_freed_room()) {
      heap_freed_add(1);
      node->freed = 1;
      node->next = heap_freed_buckets[bucket];
      heap_freed_buckets[bucket] = node;
      heap_trim_freed(stripe, node);
    } else {
      if (efsan_heap_keep_freed)
        __atomic_store_n(&stripe->changes, stripe->changes + 1,
                         __ATOMIC_RELEASE);
      heap_node_release(stripe, node);
    }
  }
  efsan_mutex_unlock(&stripe->lock);
  return was_attributed;
}

// A small freed record that overlaps [start, end) starts on a granule from
// which every granule up to start is covered (by it): the scan goes back
// that far, at most HEAP_SMALL_MAX bytes, and the records are looked for in
// the chains of the heap blocks from there to end.
bool efsan_heap_take_unnamed(uptr start, uptr size) {
  if (!efsan_heap_may_cover(start, size))
    return false; // nearly every block: no lock
  uptr end = start + (size ? size : 1);
  if (end < start || end > EFSAN_APP_END)
    return true;
  uptr from = start & ~(uptr)((1u << HEAP_COVER_GRANULE_SHIFT) - 1);
  uptr limit = start > HEAP_SMALL_MAX ? start - HEAP_SMALL_MAX : 0;
  while (from > limit &&
         __atomic_load_n(&heap_granule_cover[(from >> HEAP_COVER_GRANULE_SHIFT) - 1],
                         __ATOMIC_RELAXED))
    from -= 1u << HEAP_COVER_GRANULE_SHIFT;
  for (uptr b = from >> HEAP_BLOCK_SHIFT; b <= (end - 1) >> HEAP_BLOCK_SHIFT;
       b++) {
    uptr block_address = b << HEAP_BLOCK_SHIFT;
    u32 bucket = heap_bucket_of(block_address);
    struct efsan_heap_stripe *stripe =
        &heap_stripes[heap_stripe_of(block_address)];
    efsan_mutex_lock(&stripe->lock);
    for (struct efsan_heap_node **link = &heap_freed_buckets[bucket]; *link;) {
      struct efsan_heap_node *old = *link;
      if (old->start >> HEAP_BLOCK_SHIFT != b || old->size > HEAP_SMALL_MAX ||
          old->start >= end || old->start + (old->size ? old->size : 1) <= start) {
        link = &old->next;
        continue;
      }
      heap_drop_freed(stripe, link);
    }
    efsan_mutex_unlock(&stripe->lock);
  }
  return efsan_heap_may_cover(start, size);
}

// Both counts change under the stripe lock of the record that changes, so
// a walk that read the version first sees every change it counts (it waits
// for that stripe's lock). Freeing a block that stays as a freed record
// leaves the version alone: the walk lists such records like live ones.
u64 efsan_heap_version(void) {
  u64 version = 0;
  for (u32 s = 0; s < HEAP_STRIPES; s++)
    version += __atomic_load_n(&heap_stripes[s].changes, __ATOMIC_ACQUIRE);
  return version;
}

void efsan_heap_for_each(efsan_heap_visitor visit, void *arg) {
  for (u32 s = 0; s < HEAP_STRIPES; s++) {
    struct efsan_heap_stripe *stripe = &heap_stripes[s];
    efsan_mutex_lock(&stripe->lock);
    for (struct efsan_heap_node *nodes = stripe->blocks; nodes;
         nodes = nodes->next) {
      struct efsan_heap_node *end = nodes == stripe->blocks
                                        ? stripe->fresh
                                        : nodes + HEAP_NODES_PER_BLOCK;
      for (struct efsan_heap_node *node = nodes + 1; node < end; node++) {
        if (!node->in_table)
          continue;
        struct efsan_heap_block block = {node->start, node->size,
                                         node->stack_id, node->serial};
        visit(&block, node->freed, arg);
      }
    }
    efsan_mutex_unlock(&stripe->lock);
  }
}

// Whether every count of the block's range is above 0.
static bool heap_block_covered(uptr start, uptr size) {
  u8 *counts;
  uptr first, last;
  if (!heap_cover_span(start, size, &counts, &first, &last))
    return true;
  for (uptr i = first; i <= last; i++)
    if (!__atomic_load_n(&counts[i], __ATOMIC_RELAXED))
      return false;
  return true;
}

struct heap_coverage_check {
  uptr records, uncovered;
};

static void heap_check_covered(const struct efsan_heap_block *block,
                               bool freed, void *arg) {
  struct heap_coverage_check *check = arg;
  (void)freed;
  check->records++;
  check->uncovered += !heap_block_covered(block->start, block->size);
}

uptr efsan_heap_uncovered_records(uptr *records) {
  struct heap_coverage_check check = {0, 0};
  if (efsan_heap_keep_freed)
    efsan_heap_for_each(heap_check_covered, &check);
  *records = check.records;
  return check.uncovered;
}

static void heap_take_block(struct efsan_heap_node *node,
                          struct efsan_heap_block *block) {
  node->attributed = 1;
  block->start = node->start;
  block->size = node->size;
  block->stack_id = node->stack_id;
  block->serial = node->serial;
}

// The live block of at most HEAP_SMALL_MAX bytes that holds addr and starts
// in heap block `block`; marked as looked up if `mark`.
static bool heap_bucket_lookup(uptr block, uptr addr,
                               struct efsan_heap_block *found_block, bool mark) {
  uptr block_address = block << HEAP_BLOCK_SHIFT;
  u32 bucket = heap_bucket_of(block_address);
  struct efsan_heap_stripe *stripe = &heap_stripes[heap_stripe_of(block_address)];
  bool found = false;
  efsan_mutex_lock(&stripe->lock);
  for (struct efsan_heap_node *node = heap_buckets[bucket]; node; node = node->next) {
    if (node->start <= addr && addr - node->start < node->size &&
        node->size <= HEAP_SMALL_MAX) {
      if (mark)
        heap_take_block(node, found_block);
      else
        *found_block = (struct efsan_heap_block){node->start, node->size,
                                                 node->stack_id, node->serial};
      found = true;
      break;
    }
  }
  efsan_mutex_unlock(&stripe->lock);
  return found;
}

// A block of at most HEAP_SMALL_MAX bytes that holds addr starts in one of
// the heap blocks ending at addr's.
static bool heap_small_lookup(uptr addr, struct efsan_heap_block *block,
                              bool mark) {
  uptr last = addr >> HEAP_BLOCK_SHIFT;
  uptr first = addr >= HEAP_SMALL_MAX
                   ? (addr - (HEAP_SMALL_MAX - 1)) >> HEAP_BLOCK_SHIFT
                   : 0;
  for (uptr b = last + 1; b-- > first;)
    if (heap_bucket_lookup(b, addr, block, mark))
      return true;
  return false;
}

uptr efsan_heap_block_end(uptr addr) {
  struct efsan_heap_block block;
  if (!heap_buckets || !heap_small_lookup(addr, &block, false))
    return 0;
  return block.start + block.size;
}

bool efsan_heap_lookup(uptr addr, struct efsan_heap_block *block) {
  if (heap_small_lookup(addr, block, true))
    return true;
  bool found = false;
  efsan_mutex_lock(&heap_large_lock);
  for (u32 i = 0; i < heap_large_count; i++) {
    struct efsan_heap_node *node = heap_large[i];
    if (node->start <= addr && addr - node->start < node->size) {
      heap_take_block(node, block);
      found = true;
      break;
    }
  }
  efsan_mutex_unlock(&heap_large_lock);
  return found;
}

void efsan_heap_fork_child(void) {
  // Only the forking thread survives; a lock another thread held stays held.
  for (u32 i = 0; i < HEAP_STRIPES; i++)
    efsan_internal_memset(&heap_stripes[i].lock, 0, sizeof(efsan_mutex));
  efsan_internal_memset(&heap_large_lock, 0, sizeof(efsan_mutex));
}
