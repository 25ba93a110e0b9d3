//===-- efsan_ws_objects.c - the working set by data structure ------------===//
//
// Splits a set of touched lines (the whole working set, or a phase's) by the
// object that holds each line:
//   - heap: the heap block (efsan_heap.c), merged by allocation site (the
//     allocation stack: the stack depot gives equal stacks one id). A block
//     freed before the report keeps its lines until a newer block covers
//     them: each line counts once, for the newest block that held it.
//   - global: the global variable, from the module's ELF symbol table (no
//     symbolizer process); data of a module without a symbol for it counts
//     for the module.
//   - stack: the thread whose stack it is (the main thread's otherwise).
//   - mapping: the file mapped there, or anonymous memory.
// A range the program named (__efsan_name_range, efsan_names.c) is an
// object of its own, of the kind of memory it is in, whatever holds it.
// The region registry says which of the four a line is. Everything is built
// when a report or a phase's end asks for it: the instrumented accesses and
// the sampler's scan pay nothing; the malloc interceptor records the block
// and its allocation stack.
//
//===----------------------------------------------------------------------===//
#include "efsan_working_set.h"
#include "efsan_ws_mrc.h"

const char *const efsan_ws_object_kind_names[EFSAN_WS_OBJECT_KINDS] = {
    "?", "heap", "global", "stack", "mapping"};

bool efsan_ws_objects_enabled(void) {
  return efsan_active_tool == EFSAN_TOOL_WORKING_SET &&
         efsan_flags.report_objects > 0;
}

void efsan_ws_objects_init(void) {
  if (efsan_flags.report_objects <= 0)
    return;
  efsan_heap_keep_freed = true;
  efsan_heap_init();
}

//===-- Thread stacks --------------------------------------------------------===//

#define MAX_THREAD_STACKS 4096
struct thread_stack {
  uptr lo, hi, start_routine;
};
static struct thread_stack *thread_stacks; // by thread index, mmap'd
static u32 thread_stacks_known;           // highest index + 1

void efsan_ws_objects_thread_start(u32 thread, uptr lo, uptr hi,
                                   uptr start_routine) {
  if (!efsan_ws_objects_enabled() || thread >= MAX_THREAD_STACKS)
    return;
  if (!__atomic_load_n(&thread_stacks, __ATOMIC_ACQUIRE)) {
    struct thread_stack *table =
        efsan_mmap_noreserve(MAX_THREAD_STACKS * sizeof(struct thread_stack));
    struct thread_stack *none = 0;
    if (!__atomic_compare_exchange_n(&thread_stacks, &none, table, false,
                                     __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
      efsan_munmap(table, MAX_THREAD_STACKS * sizeof(struct thread_stack));
  }
  struct thread_stack *entry = &thread_stacks[thread];
  entry->start_routine = start_routine;
  entry->lo = lo;
  __atomic_store_n(&entry->hi, hi, __ATOMIC_RELEASE);
  u32 known = __atomic_load_n(&thread_stacks_known, __ATOMIC_RELAXED);
  while (known < thread + 1 &&
         !__atomic_compare_exchange_n(&thread_stacks_known, &known, thread + 1,
                                      false, __ATOMIC_RELAXED,
                                      __ATOMIC_RELAXED)) {
  }
}

// A thread that starts on a stack an ended thread used (glibc caches them)
// takes its lines: the newest thread first.
static u32 thread_of_stack(uptr addr) {
  if (!thread_stacks)
    return 0;
  for (u32 t = __atomic_load_n(&thread_stacks_known, __ATOMIC_ACQUIRE); t-- > 1;)
    if (__atomic_load_n(&thread_stacks[t].hi, __ATOMIC_ACQUIRE) > addr &&
        thread_stacks[t].lo <= addr)
      return t;
  return 0;
}

//===-- Interval tables ------------------------------------------------------===//

struct interval {
  uptr lo, hi;
  u64 id;
  u32 serial;
};

struct interval_table {
  struct interval *items;
  uptr count, capacity;
  uptr last; // index of the last hit
};

static void table_push(struct interval_table *t, uptr lo, uptr hi, u64 id,
                       u32 serial) {
  if (t->count == t->capacity) {
    uptr capacity = t->capacity ? 2 * t->capacity : 1024;
    struct interval *grown = efsan_mmap(capacity * sizeof(struct interval));
    if (t->count)
      efsan_internal_memcpy(grown, t->items, t->count * sizeof(struct interval));
    if (t->capacity)
      efsan_munmap(t->items, t->capacity * sizeof(struct interval));
    t->items = grown;
    t->capacity = capacity;
  }
  struct interval *item = &t->items[t->count++];
  item->lo = lo;
  item->hi = hi;
  item->id = id;
  item->serial = serial;
}

static void table_release(struct interval_table *t) {
  if (t->capacity)
    efsan_munmap(t->items, t->capacity * sizeof(struct interval));
  efsan_internal_memset(t, 0, sizeof(*t));
}

// Heap sort (no libc in the runtime, and the tables can hold millions of
// blocks) of count elements of the given size, a multiple of 8.
typedef bool (*less_fn)(const void *a, const void *b);
static void swap_bytes(u8 *a, u8 *b, uptr size) {
  u64 *x = (u64 *)a, *y = (u64 *)b;
  for (uptr i = 0; i < size / 8; i++) {
    u64 c = x[i];
    x[i] = y[i];
    y[i] = c;
  }
}
static void sift_down(u8 *base, uptr size, uptr root, uptr count, less_fn less) {
  for (;;) {
    uptr child = 2 * root + 1;
    if (child >= count)
      return;
    if (child + 1 < count && less(base + child * size, base + (child + 1) * size))
      child++;
    if (!less(base + root * size, base + child * size))
      return;
    swap_bytes(base + root * size, base + child * size, size);
    root = child;
  }
}
static void heap_sort(void *items, uptr count, uptr size, less_fn less) {
  u8 *base = items;
  for (uptr i = count / 2; i-- > 0;)
    sift_down(base, size, i, count, less);
  for (uptr end = count; end-- > 1;) {
    swap_bytes(base, base + end * size, size);
    sift_down(base, size, 0, end, less);
  }
}

static bool starts_before(const void *a, const void *b) {
  const struct interval *x = a, *y = b;
  return x->lo != y->lo ? x->lo < y->lo : x->serial < y->serial;
}
static bool address_before(const void *a, const void *b) {
  return *(const uptr *)a < *(const uptr *)b;
}

// Sorts by start, then serial, in place (the heap table can hold millions
// of blocks, and a buffer beside it cost a page fault per 128 of them): a
// quicksort, which falls back to the heap sort past 2 log2(n) levels. The
// heap sort alone, on the 200,000 blocks of a tree, took 35 ms at each
// rebuild of the heap table; this takes about a third.
static void swap_intervals(struct interval *a, struct interval *b) {
  struct interval c = *a;
  *a = *b;
  *b = c;
}
static void quick_sort(struct interval *items, uptr n, int depth) {
  while (n > 16) {
    if (depth-- == 0) {
      heap_sort(items, n, sizeof(struct interval), starts_before);
      return;
    }
    // The median of the first, middle and last as the pivot, moved to the
    // front.
    struct interval *a = &items[0], *m = &items[n / 2], *z = &items[n - 1];
    if (starts_before(m, a))
      swap_intervals(m, a);
    if (starts_before(z, m)) {
      swap_intervals(z, m);
      if (starts_before(m, a))
        swap_intervals(m, a);
    }
    swap_intervals(&items[0], m);
    struct interval pivot = items[0];
    uptr i = 0, j = n;
    for (;;) {
      while (starts_before(&items[++i], &pivot) && i < n - 1) {
      }
      while (starts_before(&pivot, &items[--j])) {
      }
      if (i >= j)
        break;
      swap_intervals(&items[i], &items[j]);
    }
    swap_intervals(&items[0], &items[j]);
    // The smaller side first, by recursion: the stack stays at log2(n).
    if (j < n - j - 1) {
      quick_sort(items, j, depth);
      items += j + 1;
      n -= j + 1;
    } else {
      quick_sort(items + j + 1, n - j - 1, depth);
      n = j;
    }
  }
  for (uptr i = 1; i < n; i++)
    for (uptr k = i; k > 0 && starts_before(&items[k], &items[k - 1]); k--)
      swap_intervals(&items[k], &items[k - 1]);
}

static void table_sort(struct interval_table *t) {
  int depth = 0;
  for (uptr n = t->count; n; n >>= 1)
    depth += 2;
  quick_sort(t->items, t->count, depth);
  t->last = 0;
}

// Active intervals of the sweep below, a max-heap by serial.
static bool older(const struct interval *a, const struct interval *b) {
  return a->serial < b->serial;
}
static void active_push(struct interval **heap, uptr *count,
                        struct interval *item) {
  uptr i = (*count)++;
  heap[i] = item;
  while (i && older(heap[(i - 1) / 2], heap[i])) {
    struct interval *swap = heap[i];
    heap[i] = heap[(i - 1) / 2];
    heap[(i - 1) / 2] = swap;
    i = (i - 1) / 2;
  }
}
static void active_pop(struct interval **heap, uptr *count) {
  heap[0] = heap[--*count];
  uptr i = 0;
  for (;;) {
    uptr child = 2 * i + 1;
    if (child >= *count)
      return;
    if (child + 1 < *count && older(heap[child], heap[child + 1]))
      child++;
    if (!older(heap[i], heap[child]))
      return;
    struct interval *swap = heap[i];
    heap[i] = heap[child];
    heap[child] = swap;
    i = child;
  }
}

// Makes a table sorted by start disjoint: where intervals overlap, the one
// with the larger serial owns the bytes (for heap blocks: the newest
// allocation; a freed block keeps what no newer block took). A sweep over
// the start and end addresses with the intervals that cover the current
// address in a heap by serial.
static void table_make_disjoint(struct interval_table *t) {
  uptr n = t->count;
  // Most tables have no overlap at all (no block was freed and partly
  // reused): nothing to do.
  uptr reach = 0;
  bool overlaps = false;
  for (uptr i = 0; i < n && !overlaps; i++) {
    overlaps = t->items[i].lo < reach;
    if (t->items[i].hi > reach)
      reach = t->items[i].hi;
  }
  if (!overlaps)
    return;
  uptr *ends = efsan_mmap(n * sizeof(uptr));
  struct interval **active = efsan_mmap(n * sizeof(struct interval *));
  for (uptr i = 0; i < n; i++)
    ends[i] = t->items[i].hi;
  heap_sort(ends, n, sizeof(uptr), address_before);
  struct interval_table out = {0, 0, 0, 0};
  uptr next_start = 0, next_end = 0, num_active = 0;
  while (next_start < n || next_end < n) {
    uptr x = next_start < n && t->items[next_start].lo < ends[next_end]
                 ? t->items[next_start].lo
                 : ends[next_end];
    while (next_start < n && t->items[next_start].lo == x)
      active_push(active, &num_active, &t->items[next_start++]);
    while (next_end < n && ends[next_end] == x)
      next_end++;
    while (num_active && active[0]->hi <= x)
      active_pop(active, &num_active);
    if (!num_active)
      continue;
    uptr to = next_start < n && t->items[next_start].lo < ends[next_end]
                  ? t->items[next_start].lo
                  : ends[next_end];
    struct interval *owner = active[0];
    struct interval *last = out.count ? &out.items[out.count - 1] : 0;
    if (last && last->hi == x && last->id == owner->id &&
        last->serial == owner->serial)
      last->hi = to;
    else
      table_push(&out, x, to, owner->id, owner->serial);
  }
  efsan_munmap(ends, n * sizeof(uptr));
  efsan_munmap(active, n * sizeof(struct interval *));
  table_release(t);
  *t = out;
}

// Binary search in a sorted array of disjoint ranges, each element of
// `size` bytes starting with uptr lo, hi (intervals, regions, mappings): the
// index of the first one that overlaps [addr, addr + width), or count.
static uptr find_overlap(const void *items, uptr count, uptr size, uptr addr,
                         uptr width) {
  const u8 *base = items;
  uptr lo = 0, hi = count;
  while (lo < hi) {
    uptr mid = lo + (hi - lo) / 2;
    if (((const uptr *)(base + mid * size))[1] <= addr)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < count && ((const uptr *)(base + lo * size))[0] < addr + width
             ? lo
             : count;
}

// The index of the range holding addr, or count.
static uptr find_range(const void *items, uptr count, uptr size, uptr addr) {
  return find_overlap(items, count, size, addr, 1);
}

// The object of the line at addr: the interval holding its first byte, else
// the first one that starts inside the line (a block that is not aligned to
// lines owns its first line too); null if none.
static const struct interval *table_find(struct interval_table *t, uptr addr) {
  if (!t->count)
    return 0;
  const struct interval *hit = &t->items[t->last];
  if (hit->lo <= addr && addr < hit->hi)
    return hit;
  uptr i = find_overlap(t->items, t->count, sizeof(struct interval), addr,
                        EFSAN_CACHE_LINE_SIZE);
  if (i == t->count)
    return 0;
  t->last = i;
  return &t->items[i];
}

//===-- Counting -------------------------------------------------------------===//

// Object ids: kind in the top byte, then the kind's own id.
#define ID(kind, value) (((u64)(kind) << 56) | (u64)(value))
#define KIND_OF(id) ((int)((id) >> 56))
#define VALUE_OF(id) ((id) & ((1ULL << 56) - 1))
// Ids stay the same from one tally to the next (the timeline compares the
// objects of many periods): a file is named by its path's number in a table
// kept for the life of the process, never by its place in one read of the
// maps. Global ids are the variable's start address; data of a module that
// no symbol covers is the module's path number with this bit.
#define UNNAMED_DATA (1ULL << 52)
// Lines that hold parts of several globals of a module (small variables
// packed together) are the module's path number with both bits: naming them
// after one of the variables would be arbitrary.
#define SHARED_LINES (1ULL << 51)
#define UNKNOWN_MODULE 0xffffffu
// Mapping ids: the path's number + 1; 0 is memory unmapped before the report.
#define UNMAPPED 0
// A named range, of any kind: the name's number (efsan_names.c) with this
// bit.
#define NAMED_RANGE (1ULL << 53)

struct count_entry {
  u64 id;   // 0: empty slot (no valid id is 0: heap ids have bit 56 set)
  u64 lines;
  // The timeline's reuse split: of the lines, those in its sample (all of
  // them unless snapshots were estimated), and of those the ones touched
  // in several sample periods.
  u64 sampled, reused;
};

struct mapping {
  uptr lo, hi;
  const char *path; // "" for anonymous memory
  const char *data_of; // the image whose data this is (globals), or null
  u32 path_number;     // + 1 (0 until a line of it is counted)
  u32 image_number;    // + 1, of data_of (0 until asked)
};

struct efsan_ws_objects {
  struct efsan_region *regions;
  uptr num_regions, region_capacity, last_region;
  struct interval_table heap; // heap_cache's items when heap_shared
  bool heap_shared;
  struct interval_table globals;
  struct mapping *mappings;
  uptr num_mappings, mapping_capacity;
  u8 *globals_loaded; // per mapping: its module's symbols are in `globals`
  char *strings;      // the mappings' paths
  uptr strings_used, strings_capacity;
  struct count_entry *counts;
  uptr count_capacity, count_used;
  struct efsan_named_range *named;
  uptr num_named, named_capacity, last_named;
};

static void add_heap_block(const struct efsan_heap_block *block, bool freed,
                           void *arg) {
  struct interval_table *heap = arg;
  (void)freed;
  // A block without an allocation stack is kept only where it owns bytes a
  // named one held (efsan_heap.c): its lines are heap memory of no known
  // block, as those of the blocks that were not kept.
  table_push(heap, block->start, block->start + (block->size ? block->size : 1),
             ID(EFSAN_WS_OBJECT_HEAP,
                block->stack_id ? (u64)block->stack_id + 1 : 0),
             block->serial);
}

static const char *intern_path(struct efsan_ws_objects *t, const char *path) {
  uptr length = efsan_internal_strlen(path) + 1;
  if (t->strings_used + length > t->strings_capacity) {
    // Paths already handed out stay where they are: a new chunk.
    uptr capacity = length > 65536 ? length : 65536;
    t->strings = efsan_mmap(capacity);
    t->strings_capacity = capacity;
    t->strings_used = 0;
  }
  char *copy = t->strings + t->strings_used;
  efsan_internal_memcpy(copy, path, length);
  t->strings_used += length;
  return copy;
}

static void add_mapping(uptr lo, uptr hi, int prot, const char *path,
                        void *arg) {
  struct efsan_ws_objects *t = arg;
  (void)prot;
  if (t->num_mappings == t->mapping_capacity) {
    uptr capacity = t->mapping_capacity ? 2 * t->mapping_capacity : 256;
    struct mapping *grown = efsan_mmap(capacity * sizeof(struct mapping));
    u8 *loaded = efsan_mmap(capacity);
    if (t->num_mappings) {
      efsan_internal_memcpy(grown, t->mappings,
                            t->num_mappings * sizeof(struct mapping));
      efsan_munmap(t->mappings, t->mapping_capacity * sizeof(struct mapping));
      efsan_munmap(t->globals_loaded, t->mapping_capacity);
    }
    t->mappings = grown;
    t->globals_loaded = loaded;
    t->mapping_capacity = capacity;
  }
  struct mapping *m = &t->mappings[t->num_mappings];
  m->lo = lo;
  m->hi = hi;
  m->path = intern_path(t, path);
  m->path_number = 0;
  m->image_number = 0;
  // .bss follows its image's last file mapping.
  struct mapping *prev = t->num_mappings ? m - 1 : 0;
  m->data_of = path[0] == '/' ? m->path
               : !path[0] && prev && prev->hi == lo && prev->path[0] == '/'
                   ? prev->path
                   : 0;
  t->num_mappings++;
}

static uptr find_mapping(struct efsan_ws_objects *t, uptr addr) {
  return find_range(t->mappings, t->num_mappings, sizeof(struct mapping), addr);
}

static void add_global_symbol(uptr start, uptr size, void *arg) {
  struct efsan_ws_objects *t = arg;
  table_push(&t->globals, start, start + size, ID(EFSAN_WS_OBJECT_GLOBAL, start),
             0);
}

static bool same_image(const struct mapping *a, const struct mapping *b) {
  return a == b || (a->data_of && b->data_of &&
                    !efsan_internal_strcmp(a->data_of, b->data_of));
}

// The paths of the files objects were named after, numbered in the order
// first seen, for the life of the process. Few (the program's files and
// libraries), so a linear search; each mapping of a tally asks once. Used
// with the sampler lock held, as every tally is.
#define MAX_PATHS 4096
static const char **known_paths;
static u32 num_known_paths;
static const char *intern_name(const char *name);

static u32 path_number(const char *path) {
  for (u32 i = 0; i < num_known_paths; i++)
    if (!efsan_internal_strcmp(known_paths[i], path))
      return i;
  if (num_known_paths == MAX_PATHS)
    return UNKNOWN_MODULE;
  if (!known_paths)
    known_paths = efsan_mmap(MAX_PATHS * sizeof(char *));
  known_paths[num_known_paths] = intern_name(path);
  return num_known_paths++;
}

// The number of the image whose data holds addr (one object per module for
// its data without a symbol), UNKNOWN_MODULE if none.
static u64 image_of(struct efsan_ws_objects *t, uptr addr) {
  uptr m = find_mapping(t, addr);
  if (m == t->num_mappings || !t->mappings[m].data_of)
    return UNKNOWN_MODULE;
  struct mapping *mapping = &t->mappings[m];
  if (!mapping->image_number)
    mapping->image_number = path_number(mapping->data_of) + 1;
  return mapping->image_number - 1;
}

static void load_globals_of(struct efsan_ws_objects *t, uptr mapping) {
  // Every mapping of that image shares the module's symbols: load them once.
  const struct mapping *image = &t->mappings[mapping];
  for (uptr i = 0; i < t->num_mappings; i++)
    if (same_image(&t->mappings[i], image))
      t->globals_loaded[i] = 1;
  uptr before = t->globals.count;
  efsan_for_each_global_symbol(t->mappings[mapping].lo, add_global_symbol, t);
  if (t->globals.count != before) {
    table_sort(&t->globals);
    // Aliases (two names for one variable) overlap: the first keeps it.
    table_make_disjoint(&t->globals);
  }
}

static void count_add(struct efsan_ws_objects *t, u64 id, u64 lines,
                      u64 sampled, u64 reused);

static void grow_counts(struct efsan_ws_objects *t) {
  struct count_entry *old = t->counts;
  uptr old_capacity = t->count_capacity;
  t->count_capacity = old_capacity ? 2 * old_capacity : 4096;
  t->counts = efsan_mmap(t->count_capacity * sizeof(struct count_entry));
  t->count_used = 0;
  for (uptr i = 0; i < old_capacity; i++)
    if (old[i].id)
      count_add(t, old[i].id, old[i].lines, old[i].sampled, old[i].reused);
  if (old)
    efsan_munmap(old, old_capacity * sizeof(struct count_entry));
}

static void count_add(struct efsan_ws_objects *t, u64 id, u64 lines,
                      u64 sampled, u64 reused) {
  if (2 * (t->count_used + 1) > t->count_capacity)
    grow_counts(t);
  uptr mask = t->count_capacity - 1;
  uptr slot = (uptr)((id * 0x9e3779b97f4a7c15ull) >> 20) & mask;
  while (t->counts[slot].id && t->counts[slot].id != id)
    slot = (slot + 1) & mask;
  if (!t->counts[slot].id) {
    t->counts[slot].id = id;
    t->count_used++;
  }
  t->counts[slot].lines += lines;
  t->counts[slot].sampled += sampled;
  t->counts[slot].reused += reused;
}

// The heap's blocks, sorted and made disjoint, as of heap_cache_version:
// the timeline splits every period by object and the report does at exit,
// and a program with many blocks (a tree of 200,000 nodes) paid a walk of
// the heap table and a sort of all its blocks each time (80 ms, a tenth of
// the run). Most periods and the exit report see the blocks the previous
// tally saw (freeing a block keeps its record), so the table is kept and
// built again only when efsan_heap_version changed. The buffer stays too:
// a new one cost a page fault per 128 blocks each time. Tallies are made
// with the sampler lock held, so these need no lock of their own; a tally
// begun while another uses a stale table builds a private one.
static struct interval_table heap_cache;
static u64 heap_cache_version;
static bool heap_cache_valid;
static u32 heap_cache_users;

static void build_heap_table(struct interval_table *table) {
  table->count = 0;
  if (efsan_verbosity() >= 2) {
    uptr records, uncovered = efsan_heap_uncovered_records(&records);
    efsan_vreport(2, "objects: %zu heap records, %zu with a byte the coverage "
                     "counts miss\n", records, uncovered);
  }
  efsan_heap_for_each(add_heap_block, table);
  table_sort(table);
  table_make_disjoint(table);
}

static void take_heap_table(struct efsan_ws_objects *t) {
  u64 version = efsan_heap_version();
  bool current = heap_cache_valid && heap_cache_version == version;
  if (!current && heap_cache_users) {
    build_heap_table(&t->heap);
    efsan_vreport(2, "objects: heap table of %zu ranges built for one tally "
                     "(the kept one is in use)\n", t->heap.count);
    return;
  }
  if (!current) {
    heap_cache_valid = false;
    build_heap_table(&heap_cache);
    heap_cache_version = version;
    heap_cache_valid = true;
  }
  efsan_vreport(2, "objects: heap table of %zu ranges %s\n", heap_cache.count,
                current ? "reused (no block allocated or dropped since it was "
                          "built)"
                        : "built");
  heap_cache_users++;
  t->heap = heap_cache;
  t->heap.last = 0;
  t->heap_shared = true;
}

void efsan_ws_objects_fork_child(void) {
  // A tally the forking thread did not own may have been using or building
  // the table.
  heap_cache_users = 0;
  heap_cache_valid = false;
}

struct efsan_ws_objects *efsan_ws_objects_begin(void) {
  struct efsan_ws_objects *t = efsan_mmap(sizeof(struct efsan_ws_objects));
  t->num_regions =
      efsan_regions_snapshot(&t->regions, &t->region_capacity);
  take_heap_table(t);
  t->num_named = efsan_names_snapshot(&t->named, &t->named_capacity);
  // Under the registry's lock, as every reader of the maps: fork holds it,
  // so that no thread the child loses holds the maps buffer.
  efsan_regions_lock();
  efsan_for_each_mapping(add_mapping, t);
  efsan_regions_unlock();
  return t;
}

void efsan_ws_objects_end(struct efsan_ws_objects *t) {
  if (t->heap_shared)
    heap_cache_users--;
  else
    table_release(&t->heap);
  table_release(&t->globals);
  if (t->region_capacity)
    efsan_munmap(t->regions, t->region_capacity * sizeof(struct efsan_region));
  if (t->mapping_capacity) {
    efsan_munmap(t->mappings, t->mapping_capacity * sizeof(struct mapping));
    efsan_munmap(t->globals_loaded, t->mapping_capacity);
  }
  // The path strings stay: the top objects of phases name them.
  if (t->count_capacity)
    efsan_munmap(t->counts, t->count_capacity * sizeof(struct count_entry));
  if (t->named_capacity)
    efsan_munmap(t->named,
                 t->named_capacity * sizeof(struct efsan_named_range));
  efsan_munmap(t, sizeof(*t));
}

static u32 region_kind(struct efsan_ws_objects *t, uptr addr) {
  if (t->last_region < t->num_regions &&
      t->regions[t->last_region].lo <= addr &&
      addr < t->regions[t->last_region].hi)
    return t->regions[t->last_region].kind;
  uptr i = find_range(t->regions, t->num_regions, sizeof(struct efsan_region),
                      addr);
  if (i == t->num_regions)
    return EFSAN_REGION_OTHER;
  t->last_region = i;
  return t->regions[i].kind;
}

static const int kind_of_region[EFSAN_REGION_KINDS] = {
    [EFSAN_REGION_HEAP] = EFSAN_WS_OBJECT_HEAP,
    [EFSAN_REGION_GLOBALS] = EFSAN_WS_OBJECT_GLOBAL,
    [EFSAN_REGION_STACK] = EFSAN_WS_OBJECT_STACK,
    [EFSAN_REGION_OTHER] = EFSAN_WS_OBJECT_MAPPING};

static u64 unnamed_object_of(struct efsan_ws_objects *t, uptr addr,
                             uptr *same_until, u32 kind);

// The object of the line at addr, and the end of the range that surely has
// the same object (so that a run of lines is looked up once). A named range
// takes the line as a heap block does: the range holding its first byte,
// else the first that starts in it.
static u64 object_of(struct efsan_ws_objects *t, uptr addr, uptr *same_until) {
  u32 kind = region_kind(t, addr);
  if (!t->num_named)
    return unnamed_object_of(t, addr, same_until, kind);
  // The first named range that ends after addr. Scans go up in address
  // order: the last answer is tried first.
  uptr i = t->last_named;
  if (i > t->num_named || (i < t->num_named && t->named[i].hi <= addr) ||
      (i > 0 && t->named[i - 1].hi > addr)) {
    i = find_overlap(t->named, t->num_named, sizeof(struct efsan_named_range),
                     addr, ~addr); // to the end of the address space
    t->last_named = i;
  }
  if (i < t->num_named && t->named[i].lo < addr + EFSAN_CACHE_LINE_SIZE) {
    *same_until = t->named[i].hi;
    return ID(kind_of_region[kind], NAMED_RANGE | t->named[i].name);
  }
  u64 id = unnamed_object_of(t, addr, same_until, kind);
  // The run ends at the line the next named range starts in.
  if (i < t->num_named) {
    uptr line = t->named[i].lo & ~(uptr)(EFSAN_CACHE_LINE_SIZE - 1);
    if (line < *same_until)
      *same_until = line;
  }
  return id;
}

static u64 unnamed_object_of(struct efsan_ws_objects *t, uptr addr,
                             uptr *same_until, u32 kind) {
  *same_until = addr + EFSAN_CACHE_LINE_SIZE;
  switch (kind) {
  case EFSAN_REGION_HEAP: {
    const struct interval *block = table_find(&t->heap, addr);
    if (block) {
      *same_until = block->hi;
      return block->id;
    }
    return ID(EFSAN_WS_OBJECT_HEAP, 0); // heap memory of no known block
  }
  case EFSAN_REGION_GLOBALS: {
    const struct interval *global = table_find(&t->globals, addr);
    if (!global) {
      uptr m = find_mapping(t, addr);
      if (m < t->num_mappings && !t->globals_loaded[m]) {
        load_globals_of(t, m);
        global = table_find(&t->globals, addr);
      }
      if (!global)
        return ID(EFSAN_WS_OBJECT_GLOBAL, UNNAMED_DATA | image_of(t, addr));
    }
    const struct interval *next = global + 1;
    bool has_next = next < t->globals.items + t->globals.count;
    if (has_next && next->lo < addr + EFSAN_CACHE_LINE_SIZE)
      return ID(EFSAN_WS_OBJECT_GLOBAL,
                UNNAMED_DATA | SHARED_LINES | image_of(t, addr));
    // The lines before the one the next global starts in are this one's.
    *same_until = global->hi;
    if (has_next && (next->lo & ~(uptr)(EFSAN_CACHE_LINE_SIZE - 1)) < *same_until)
      *same_until = next->lo & ~(uptr)(EFSAN_CACHE_LINE_SIZE - 1);
    return global->id;
  }
  case EFSAN_REGION_STACK:
    return ID(EFSAN_WS_OBJECT_STACK, thread_of_stack(addr));
  default: {
    uptr m = find_mapping(t, addr);
    if (m == t->num_mappings)
      return ID(EFSAN_WS_OBJECT_MAPPING, UNMAPPED);
    *same_until = t->mappings[m].hi;
    // All mappings of one file (and all anonymous memory) are one object.
    struct mapping *mapping = &t->mappings[m];
    if (!mapping->path_number)
      mapping->path_number = path_number(mapping->path) + 1;
    return ID(EFSAN_WS_OBJECT_MAPPING, mapping->path_number);
  }
  }
}

enum count_what { COUNT_LINES, COUNT_SAMPLED, COUNT_REUSED };

static void add_lines(struct efsan_ws_objects *t, uptr app, u8 lines,
                      u64 scale, enum count_what what) {
  while (lines) {
    int first = __builtin_ctz(lines);
    uptr addr = app + (uptr)first * EFSAN_CACHE_LINE_SIZE;
    uptr same_until;
    u64 id = object_of(t, addr, &same_until);
    // The lines of this word up to same_until are the same object's.
    uptr span = (same_until - addr + EFSAN_CACHE_LINE_SIZE - 1) /
                EFSAN_CACHE_LINE_SIZE;
    u32 mask = span >= 8 ? 0xffu : ((1u << span) - 1);
    u8 mine = lines & (u8)(mask << first);
    u64 n = (u64)__builtin_popcount(mine) * scale;
    count_add(t, id, what == COUNT_LINES ? n : 0,
              what == COUNT_SAMPLED ? n : 0, what == COUNT_REUSED ? n : 0);
    lines &= (u8)~mine;
  }
}

void efsan_ws_objects_add(struct efsan_ws_objects *t, uptr app, u8 lines) {
  add_lines(t, app, lines, 1, COUNT_LINES);
}

void efsan_ws_objects_add_sampled(struct efsan_ws_objects *t, uptr app,
                                  u8 lines) {
  add_lines(t, app, lines, 1, COUNT_SAMPLED);
}

void efsan_ws_objects_add_reused(struct efsan_ws_objects *t, uptr app,
                                 u8 lines) {
  add_lines(t, app, lines, 1, COUNT_REUSED);
}

void efsan_ws_objects_add_scaled(struct efsan_ws_objects *t, uptr app,
                                 u8 lines, u64 scale) {
  add_lines(t, app, lines, scale, COUNT_LINES);
}

void efsan_ws_objects_for_each_count(struct efsan_ws_objects *t,
                                     void (*visit)(u64 id, u64 lines, void *arg),
                                     void *arg) {
  for (uptr i = 0; i < t->count_capacity; i++)
    if (t->counts[i].id && t->counts[i].lines)
      visit(t->counts[i].id, t->counts[i].lines, arg);
}

//===-- The top objects --------------------------------------------------------===//

// Names live as long as the process: a phase's top objects are printed by
// every later report.
static char *name_arena;
static uptr name_arena_used, name_arena_capacity;
static const char *intern_name(const char *name) {
  uptr length = efsan_internal_strlen(name) + 1;
  if (name_arena_used + length > name_arena_capacity) {
    name_arena_capacity = length > 65536 ? length : 65536;
    name_arena = efsan_mmap(name_arena_capacity);
    name_arena_used = 0;
  }
  char *copy = name_arena + name_arena_used;
  efsan_internal_memcpy(copy, name, length);
  name_arena_used += length;
  return copy;
}

static const char *base_name(const char *path) {
  const char *base = path;
  for (const char *p = path; *p; p++)
    if (*p == '/')
      base = p + 1;
  return base;
}

// '"Buffer Blocks" in /dev/zero (deleted)': the mapping a part of one was
// named in, which the report shows even once it is unmapped; other memory
// is told by its kind.
static const char *named_range_name(u64 id) {
  char buffer[EFSAN_MAX_RANGE_NAME + 512];
  u32 name = (u32)(VALUE_OF(id) & ~NAMED_RANGE);
  const char *in = efsan_name_mapping(name);
  if (KIND_OF(id) == EFSAN_WS_OBJECT_MAPPING && in)
    efsan_snprintf(buffer, sizeof(buffer), "\"%s\" in %s", efsan_name_text(name),
                   in[0] ? in : "anonymous memory");
  else
    efsan_snprintf(buffer, sizeof(buffer), "\"%s\"", efsan_name_text(name));
  return intern_name(buffer);
}

static const char *object_name(u64 id, u32 *stack_id) {
  char buffer[512];
  u64 value = VALUE_OF(id);
  *stack_id = 0;
  if (value & NAMED_RANGE)
    return named_range_name(id);
  switch (KIND_OF(id)) {
  case EFSAN_WS_OBJECT_HEAP: {
    if (!value)
      return efsan_alloc_stacks_sampled()
                 ? "heap memory of no known block (most in blocks whose "
                   "allocation stack was not sampled: alloc_stacks_exact)"
                 : "heap memory of no known block";
    *stack_id = (u32)(value - 1);
    // Blocks of the dynamic loader and the C++ library for themselves are
    // no data structure of the program: one entry each, with no stack.
    const char *owner = efsan_runtime_memory_owner(*stack_id);
    if (owner) {
      *stack_id = 0;
      efsan_snprintf(buffer, sizeof(buffer),
                     "runtime memory: %s's own blocks", owner);
      return intern_name(buffer);
    }
    // The site: the first frame outside the allocation wrappers.
    struct efsan_frame frame;
    if (!efsan_symbolize_site(*stack_id, &frame))
      return "heap blocks whose allocation stack has no frame";
    efsan_format_frame(buffer, sizeof(buffer), &frame);
    return intern_name(buffer);
  }
  case EFSAN_WS_OBJECT_GLOBAL: {
    if (value & UNNAMED_DATA) {
      u64 number = value & ~(UNNAMED_DATA | SHARED_LINES);
      const char *image =
          number < num_known_paths ? known_paths[number] : "unknown module";
      efsan_snprintf(buffer, sizeof(buffer),
                     value & SHARED_LINES ? "%s: lines shared by several globals"
                                          : "%s: data without a symbol",
                     base_name(image));
      return intern_name(buffer);
    }
    const char *name = efsan_global_name((uptr)value);
    return name ? name : "unnamed global";
  }
  case EFSAN_WS_OBJECT_STACK: {
    if (!value)
      return "main thread stack";
    const char *routine =
        efsan_start_function_name(
            thread_stacks ? thread_stacks[value].start_routine : 0);
    const char *given = efsan_thread_given_name((u32)value);
    if (given)
      efsan_snprintf(buffer, sizeof(buffer), "thread T%llu '%s' stack (%s)",
                     value, given, routine ? routine : "?");
    else
      efsan_snprintf(buffer, sizeof(buffer), "thread T%llu stack (%s)", value,
                     routine ? routine : "?");
    return intern_name(buffer);
  }
  default: {
    if (value == UNMAPPED)
      return "memory unmapped before the report";
    const char *path =
        value - 1 < num_known_paths ? known_paths[value - 1] : "";
    return path[0] ? path : "anonymous memory";
  }
  }
}

const char *efsan_ws_mapping_part_name(u32 name) {
  return named_range_name(ID(EFSAN_WS_OBJECT_MAPPING, NAMED_RANGE | name));
}

const char *efsan_ws_object_name(u64 id, int *kind, u32 *stack_id) {
  *kind = KIND_OF(id);
  return object_name(id, stack_id);
}

const char *efsan_ws_object_range_name(u64 id) {
  return VALUE_OF(id) & NAMED_RANGE
             ? efsan_name_text((u32)(VALUE_OF(id) & ~NAMED_RANGE))
             : 0;
}

// Frames of a heap site that the text report prints below its name (after
// the allocation wrappers it went through).
#define PRINTED_CALLERS 2
#define MAX_STACK_FRAMES 16

// Whether two listed objects would print the same lines: two allocation
// stacks that differ only in frames the report does not show (cut at the
// runtime's frames or below the printed callers) are one site to a user.
static bool prints_alike(const struct efsan_ws_object *a,
                         const struct efsan_ws_object *b) {
  if (a->kind != b->kind || efsan_internal_strcmp(a->name, b->name))
    return false;
  if (a->kind != EFSAN_WS_OBJECT_HEAP || (!a->stack_id && !b->stack_id))
    return true;
  return efsan_stacks_alike(a->stack_id, b->stack_id, PRINTED_CALLERS);
}

// The object that holds the line at addr (for the miss-ratio curves).
u64 efsan_ws_objects_id_of(struct efsan_ws_objects *t, uptr addr) {
  uptr same_until;
  return object_of(t, addr, &same_until);
}

// The entry of `top` that object `id` is listed as (prints alike), or -1.
int efsan_ws_objects_top_index(const struct efsan_ws_top *top, u64 id) {
  struct efsan_ws_object o;
  o.name = efsan_ws_object_name(id, &o.kind, &o.stack_id);
  for (u32 i = 0; i < top->count; i++)
    if (prints_alike(&o, &top->objects[i]))
      return (int)i;
  return -1;
}

void efsan_ws_objects_top(struct efsan_ws_objects *t, u32 max,
                          struct efsan_ws_top *top) {
  efsan_internal_memset(top, 0, sizeof(*top));
  if (max > EFSAN_WS_MAX_TOP)
    max = EFSAN_WS_MAX_TOP;
  u64 total = 0, objects = 0;
  struct efsan_ws_reuse_sum sum;
  efsan_internal_memset(&sum, 0, sizeof(sum));
  for (uptr i = 0; i < t->count_capacity; i++)
    if (t->counts[i].id && t->counts[i].lines) {
      total += t->counts[i].lines;
      sum.sampled += t->counts[i].sampled;
      sum.reused += t->counts[i].reused;
      objects++;
    }
  // The reuse of all objects: the sum of each one's estimate (a structure
  // that no sampled line fell in takes the ratio of all of them).
  top->sampled_lines = sum.sampled;
  top->sampled_reused = sum.reused;
  for (uptr i = 0; i < t->count_capacity; i++)
    if (t->counts[i].id && t->counts[i].lines)
      efsan_ws_reuse_add(&sum, t->counts[i].lines, t->counts[i].sampled,
                         t->counts[i].reused);
  efsan_ws_reuse_total(&sum, &top->reuse);
  top->reused_lines = top->reuse.reused;
  top->reuse_known = efsan_ws_timeline_on();
  // Selection of the largest: max is small.
  u64 listed = 0;
  while (top->count < max && top->count < objects) {
    struct count_entry *best = 0;
    for (uptr i = 0; i < t->count_capacity; i++) {
      struct count_entry *e = &t->counts[i];
      if (e->id && e->lines &&
          (!best || e->lines > best->lines ||
           (e->lines == best->lines && e->id < best->id)))
        best = e;
    }
    struct efsan_ws_object *o = &top->objects[top->count++];
    o->kind = KIND_OF(best->id);
    o->lines = best->lines;
    o->name = object_name(best->id, &o->stack_id);
    o->range_name = efsan_ws_object_range_name(best->id);
    o->sampled = best->sampled;
    o->reused = best->reused;
    listed += best->lines;
    best->lines = 0; // taken
    for (u32 i = 0; i + 1 < top->count; i++) {
      if (!prints_alike(&top->objects[i], o))
        continue;
      top->objects[i].lines += o->lines;
      top->objects[i].sampled += o->sampled;
      top->objects[i].reused += o->reused;
      top->count--;
      objects--;
      break;
    }
  }
  // A merged entry may have grown past the ones before it.
  for (u32 i = 1; i < top->count; i++)
    for (u32 j = i; j > 0 && top->objects[j].lines > top->objects[j - 1].lines;
         j--) {
      struct efsan_ws_object swap = top->objects[j];
      top->objects[j] = top->objects[j - 1];
      top->objects[j - 1] = swap;
    }
  top->rest_objects = objects - top->count;
  top->rest_lines = total - listed;
  top->total_objects = objects;
}

//===-- Printing ---------------------------------------------------------------===//

// The site is in the object's name already; the allocation wrappers it
// called (innermost first) and its callers follow, one a line.
static void print_site_frames(u32 stack_id, const char *sub_indent) {
  struct efsan_frame frames[MAX_STACK_FRAMES];
  uptr n = efsan_symbolize_stack(stack_id, frames, MAX_STACK_FRAMES);
  uptr site = efsan_site_index(frames, n);
  for (uptr f = 0; f < n && f <= site + PRINTED_CALLERS; f++) {
    if (f == site)
      continue;
    // As the site is named: a frame without debug info (a library's
    // module+offset) gets no "?:0".
    char frame[kEfsanMaxPlace + 64];
    efsan_format_frame(frame, sizeof(frame), &frames[f]);
    efsan_report_line("%s%s %s\n", sub_indent,
                      f < site ? "through wrapper" : "called from", frame);
  }
}

void efsan_ws_objects_print_text(const struct efsan_ws_top *top,
                                 const char *indent) {
  char size[32], sub_indent[64];
  efsan_snprintf(sub_indent, sizeof(sub_indent), "%s          ", indent);
  for (u32 i = 0; i < top->count; i++) {
    const struct efsan_ws_object *o = &top->objects[i];
    efsan_format_lines(size, sizeof(size), o->lines);
    efsan_report_line("%s%-7s %llu lines (%s)  %s\n", indent,
                      efsan_ws_object_kind_names[o->kind], o->lines, size,
                      o->name);
    if (o->kind == EFSAN_WS_OBJECT_HEAP && o->stack_id)
      print_site_frames(o->stack_id, sub_indent);
    // After the name and its frames, which read as one.
    if (top->reuse_known)
      efsan_ws_timeline_print_object_reuse(sub_indent, top, o);
    efsan_ws_mrc_print_object_text(top, i, sub_indent);
  }
  if (top->rest_objects) {
    efsan_format_lines(size, sizeof(size), top->rest_lines);
    efsan_report_line("%sand %llu more object%s: %llu lines (%s)\n", indent,
                      top->rest_objects, top->rest_objects == 1 ? "" : "s",
                      top->rest_lines, size);
  }
}

void efsan_ws_json_range_name(const char *name) {
  if (!name)
    return;
  efsan_printf(", \"named_range\": ");
  efsan_json_string(name);
}

void efsan_ws_objects_print_json(const struct efsan_ws_top *top) {
  efsan_printf("[");
  for (u32 i = 0; i < top->count; i++) {
    const struct efsan_ws_object *o = &top->objects[i];
    efsan_printf("%s\n   {\"kind\": \"%s\", \"name\": ", i ? "," : "",
                 efsan_ws_object_kind_names[o->kind]);
    efsan_json_string(o->name);
    efsan_ws_json_range_name(o->range_name);
    efsan_printf(", \"lines\": %llu, ", o->lines);
    if (top->reuse_known) {
      struct efsan_ws_reuse r;
      efsan_ws_reuse_of(top, o, &r);
      efsan_ws_reuse_print_json(&r);
      efsan_printf(", ");
    }
    efsan_ws_mrc_print_object_json(top, i);
    efsan_printf("\"alloc_stack\": ");
    if (o->kind != EFSAN_WS_OBJECT_HEAP || !o->stack_id) {
      efsan_printf("null}");
      continue;
    }
    efsan_json_stack(o->stack_id);
    efsan_printf("}");
  }
  efsan_printf("]");
}
