//===-- efsan_regions.c - which memory is heap, globals, stack, other -----===//
//
// A sorted list of disjoint application ranges, each with a kind. It is the
// set of ranges whose shadow the working-set scans visit, and it splits the
// working set into heap / globals / stack / other. Ranges come from
// /proc/self/maps (re-read at every sample), refined by hints: malloc results
// are heap, thread stacks are stack. Ranges are never removed, so lines of
// memory that was unmapped since it was touched keep counting.
//
//===----------------------------------------------------------------------===//
#include "efsan_internal.h"

const char *const efsan_region_kind_names[EFSAN_REGION_KINDS] = {
    "heap", "globals", "stack", "other"};

static efsan_mutex registry_lock;
u32 efsan_regions_generation;
static struct efsan_region *regions, *scratch;
static uptr num_regions, capacity;

// A few heap ranges readable without the lock, so that the malloc
// interceptor does not take it on every call. Entries are written under the
// lock and read racily: a torn read can only make a hint be sent twice.
#define HEAP_CACHE_SIZE 8
static uptr heap_cache_lo[HEAP_CACHE_SIZE], heap_cache_hi[HEAP_CACHE_SIZE];

void efsan_regions_lock(void) { efsan_mutex_lock(&registry_lock); }
void efsan_regions_unlock(void) { efsan_mutex_unlock(&registry_lock); }

// The runtime's own large reservations (the bitmaps of the phases and the
// timeline, 256 GiB of address space each): readable and writable, but
// never the program's memory, so never a region to scan.
#define MAX_RUNTIME_RESERVATIONS 16
static uptr reserved_lo[MAX_RUNTIME_RESERVATIONS];
static uptr reserved_hi[MAX_RUNTIME_RESERVATIONS];
static u32 num_reserved;

void efsan_regions_exclude(uptr lo, uptr hi) {
  efsan_regions_lock();
  if (num_reserved < MAX_RUNTIME_RESERVATIONS) {
    reserved_lo[num_reserved] = lo;
    reserved_hi[num_reserved] = hi;
    num_reserved++;
  }
  efsan_regions_unlock();
}

static void add_range_locked(uptr lo, uptr hi, u32 kind, bool override);

// Adds [lo, hi) but for the runtime's reservations in it (the kernel shows
// neighbouring reservations, and a program's mapping next to one, as one
// mapping).
static void add_range_outside_reservations(uptr lo, uptr hi, u32 kind,
                                           u32 from) {
  for (u32 i = from; i < num_reserved && lo < hi; i++) {
    if (reserved_hi[i] <= lo || reserved_lo[i] >= hi)
      continue;
    if (lo < reserved_lo[i])
      add_range_outside_reservations(lo, reserved_lo[i], kind, i + 1);
    lo = reserved_hi[i];
  }
  if (lo < hi)
    add_range_locked(lo, hi, kind, false);
}

static void ensure_capacity(uptr needed) {
  if (needed <= capacity)
    return;
  uptr new_capacity = capacity ? capacity * 2 : 256;
  while (new_capacity < needed)
    new_capacity *= 2;
  struct efsan_region *bigger =
      efsan_mmap(new_capacity * sizeof(struct efsan_region));
  struct efsan_region *bigger_scratch =
      efsan_mmap(new_capacity * sizeof(struct efsan_region));
  if (num_regions)
    efsan_internal_memcpy(bigger, regions,
                          num_regions * sizeof(struct efsan_region));
  if (capacity) {
    efsan_munmap(regions, capacity * sizeof(struct efsan_region));
    efsan_munmap(scratch, capacity * sizeof(struct efsan_region));
  }
  regions = bigger;
  scratch = bigger_scratch;
  capacity = new_capacity;
}

static void emit(uptr *count, uptr lo, uptr hi, u32 kind) {
  if (lo >= hi)
    return;
  struct efsan_region *last = *count ? &scratch[*count - 1] : 0;
  if (last && last->hi == lo && last->kind == kind) {
    last->hi = hi;
    return;
  }
  scratch[*count].lo = lo;
  scratch[*count].hi = hi;
  scratch[*count].kind = kind;
  (*count)++;
}

static void update_heap_cache(void) {
  // The largest heap ranges are the ones most mallocs fall into.
  uptr lo[HEAP_CACHE_SIZE] = {0}, hi[HEAP_CACHE_SIZE] = {0};
  for (uptr i = 0; i < num_regions; i++) {
    if (regions[i].kind != EFSAN_REGION_HEAP)
      continue;
    uptr size = regions[i].hi - regions[i].lo;
    uptr smallest = 0;
    for (uptr j = 1; j < HEAP_CACHE_SIZE; j++)
      if (hi[j] - lo[j] < hi[smallest] - lo[smallest])
        smallest = j;
    if (size > hi[smallest] - lo[smallest]) {
      lo[smallest] = regions[i].lo;
      hi[smallest] = regions[i].hi;
    }
  }
  for (uptr j = 0; j < HEAP_CACHE_SIZE; j++) {
    __atomic_store_n(&heap_cache_lo[j], 0, __ATOMIC_RELAXED);
    __atomic_store_n(&heap_cache_hi[j], hi[j], __ATOMIC_RELAXED);
    __atomic_store_n(&heap_cache_lo[j], lo[j], __ATOMIC_RELAXED);
  }
}

// Adds [lo, hi) as kind. With override the whole range becomes kind;
// without it only the parts not known yet do. Called with the lock held.
static void add_range_locked(uptr lo, uptr hi, u32 kind, bool override) {
  // Page granularity keeps every region's shadow whole words, so that no
  // shadow word is counted for two regions.
  uptr page = efsan_page_size();
  lo &= ~(page - 1);
  hi = (hi + page - 1) & ~(page - 1);
  if (hi > EFSAN_APP_END)
    hi = EFSAN_APP_END;
  if (lo >= hi)
    return;
  ensure_capacity(num_regions + 3);
  uptr count = 0, cursor = lo;
  for (uptr i = 0; i < num_regions; i++) {
    struct efsan_region r = regions[i];
    if (r.hi <= lo) {
      emit(&count, r.lo, r.hi, r.kind);
      continue;
    }
    if (r.lo >= hi) {
      if (cursor < hi) {
        emit(&count, cursor, hi, kind);
        cursor = hi;
      }
      emit(&count, r.lo, r.hi, r.kind);
      continue;
    }
    if (cursor < r.lo)
      emit(&count, cursor, r.lo, kind);
    if (override) {
      emit(&count, r.lo, lo, r.kind);
      emit(&count, r.lo > lo ? r.lo : lo, r.hi < hi ? r.hi : hi, kind);
      emit(&count, hi, r.hi, r.kind);
    } else {
      emit(&count, r.lo, r.hi, r.kind);
    }
    if (r.hi > cursor)
      cursor = r.hi;
  }
  if (cursor < hi)
    emit(&count, cursor, hi, kind);
  struct efsan_region *old = regions;
  regions = scratch;
  scratch = old;
  num_regions = count;
  if (kind == EFSAN_REGION_HEAP || override)
    update_heap_cache();
  // Heap ranges that threads remember may have stopped being heap.
  if (override && kind != EFSAN_REGION_HEAP)
    __atomic_fetch_add(&efsan_regions_generation, 1, __ATOMIC_RELEASE);
}

void efsan_regions_set(uptr lo, uptr hi, u32 kind) {
  efsan_regions_lock();
  add_range_locked(lo, hi, kind, true);
  efsan_regions_unlock();
}

// The region containing addr, or 0. Called with the lock held.
static struct efsan_region *find_locked(uptr addr) {
  uptr lo = 0, hi = num_regions;
  while (lo < hi) {
    uptr mid = lo + (hi - lo) / 2;
    if (regions[mid].hi <= addr)
      lo = mid + 1;
    else if (regions[mid].lo > addr)
      hi = mid;
    else
      return &regions[mid];
  }
  return 0;
}

void efsan_regions_set_heap(uptr lo, uptr hi, uptr *heap_lo, uptr *heap_hi) {
  efsan_regions_lock();
  struct efsan_region *r = find_locked(lo);
  // Most blocks land in a range that is heap already: no rebuild then.
  if (!r || r->kind != EFSAN_REGION_HEAP || r->hi < hi) {
    add_range_locked(lo, hi, EFSAN_REGION_HEAP, true);
    r = find_locked(lo);
  }
  *heap_lo = r ? r->lo : 0;
  *heap_hi = r ? r->hi : 0;
  efsan_regions_unlock();
}

bool efsan_regions_find_known_heap(uptr lo, uptr hi, uptr *heap_lo,
                                   uptr *heap_hi) {
  for (uptr j = 0; j < HEAP_CACHE_SIZE; j++) {
    uptr cached_lo = __atomic_load_n(&heap_cache_lo[j], __ATOMIC_RELAXED);
    uptr cached_hi = __atomic_load_n(&heap_cache_hi[j], __ATOMIC_RELAXED);
    if (lo >= cached_lo && hi <= cached_hi) {
      *heap_lo = cached_lo;
      *heap_hi = cached_hi;
      return true;
    }
  }
  return false;
}

//===-- /proc/self/maps ----------------------------------------------------===//

// Files with an executable mapping are loaded images (the program, shared
// libraries); their other mappings and the anonymous mapping right after
// them (.bss) are globals. Other file mappings are data the program mapped.
#define MAX_IMAGES 512
struct maps_walk {
  u64 image_hashes[MAX_IMAGES];
  uptr num_images;
  uptr prev_hi;
  bool prev_is_image;
};

static u64 hash_path(const char *path) {
  u64 h = 1469598103934665603ULL; // FNV-1a
  for (; *path; path++)
    h = (h ^ (u8)*path) * 1099511628211ULL;
  return h;
}

static bool is_file(const char *path) { return path[0] == '/'; }

static void collect_images(uptr lo, uptr hi, int prot, const char *path,
                           void *arg) {
  struct maps_walk *walk = arg;
  (void)lo;
  (void)hi;
  if (!(prot & EFSAN_PROT_EXEC) || !is_file(path) ||
      walk->num_images == MAX_IMAGES)
    return;
  u64 h = hash_path(path);
  for (uptr i = 0; i < walk->num_images; i++)
    if (walk->image_hashes[i] == h)
      return;
  walk->image_hashes[walk->num_images++] = h;
}

static bool is_image(struct maps_walk *walk, const char *path) {
  if (!is_file(path))
    return false;
  u64 h = hash_path(path);
  for (uptr i = 0; i < walk->num_images; i++)
    if (walk->image_hashes[i] == h)
      return true;
  return false;
}

static void add_mapping(uptr lo, uptr hi, int prot, const char *path,
                        void *arg) {
  struct maps_walk *walk = arg;
  bool image = is_image(walk, path);
  bool follows_image = walk->prev_is_image && walk->prev_hi == lo;
  walk->prev_hi = hi;
  walk->prev_is_image = image;
  if (lo >= EFSAN_APP_END ||
      (hi > EFSAN_SHADOW_OFFSET && lo < EFSAN_SHADOW_END))
    return;
  // Inaccessible memory (guard pages, reservations) cannot be touched now;
  // if it is made accessible later, a later refresh adds it.
  if (!(prot & (EFSAN_PROT_READ | EFSAN_PROT_WRITE)))
    return;
  u32 kind;
  if (!efsan_internal_strcmp(path, "[heap]"))
    kind = EFSAN_REGION_HEAP;
  else if (!efsan_internal_strcmp(path, "[stack]"))
    kind = EFSAN_REGION_STACK;
  else if (path[0] == '[')
    return; // [vdso], [vvar]: the kernel's, never the program's data
  else if (image || (!path[0] && follows_image))
    kind = EFSAN_REGION_GLOBALS;
  else
    kind = EFSAN_REGION_OTHER;
  add_range_outside_reservations(lo, hi, kind, 0);
}

void efsan_regions_refresh(void) {
  static struct maps_walk walk; // under registry_lock
  efsan_regions_lock();
  walk.num_images = 0;
  walk.prev_hi = 0;
  walk.prev_is_image = false;
  efsan_for_each_mapping_twice(collect_images, add_mapping, &walk);
  efsan_regions_unlock();
}

void efsan_regions_init(void) { efsan_regions_refresh(); }

uptr efsan_regions_snapshot(struct efsan_region **out, uptr *out_capacity) {
  efsan_regions_lock();
  uptr count = num_regions;
  if (count > *out_capacity) {
    if (*out_capacity)
      efsan_munmap(*out, *out_capacity * sizeof(struct efsan_region));
    uptr new_capacity = capacity;
    *out = efsan_mmap(new_capacity * sizeof(struct efsan_region));
    *out_capacity = new_capacity;
  }
  if (count)
    efsan_internal_memcpy(*out, regions, count * sizeof(struct efsan_region));
  efsan_regions_unlock();
  return count;
}
