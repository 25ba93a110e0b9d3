//===-- efsan_names.c - names the program gives ranges of its memory ------===//
//
// __efsan_name_range(addr, size, name) names [addr, addr + size) in both
// tools' reports: a program that carves one big mapping into parts (a
// server's shared memory) shows each part by its name instead of one row
// for the whole mapping. Kept here: a sorted list of disjoint named ranges
// (a later call replaces the overlap) and the names, numbered for the life
// of the process so that the working set's object ids stay the same from
// one tally to the next. Each name also keeps the path of the mapping it
// was given in, read at the call, so that a part of a mapping unmapped
// before the report is still shown with its mapping.
//
// Not owned here: what a tool does with a name. Nothing here runs on an
// access; a call costs a binary search, a move of the ranges after it and,
// when the mappings changed since the last call, a read of the maps.
//
// Everything is under the region registry's lock: fork holds it (a forked
// child inherits the names with this memory), and every reader of the
// maps takes it.
//
//===----------------------------------------------------------------------===//
#include "efsan_internal.h"

// Names and their hash table are reserved whole (MAP_NORESERVE, resident
// where written) so that a name never moves: reports read it without the
// lock, by a number they took from a range read under it.
#define MAX_NAMES (1u << 16)
#define NAME_SLOTS (2 * MAX_NAMES)
#define MAX_RANGES (1u << 20)

struct name {
  const char *text;
  const char *in; // the path of the mapping named in ("": anonymous), or null
};
static struct name *names;
static u32 *name_slots; // name number + 1, 0: empty
static u32 num_names;

static struct efsan_named_range *ranges;
static uptr num_ranges, ranges_capacity;

static char *arena;
static uptr arena_used, arena_capacity;

// The last mapping the maps showed, valid while no mapping was made since
// (efsan_regions_generation): carving one segment reads the maps once.
static uptr cached_lo, cached_hi;
static const char *cached_path;
static u32 cached_generation;
static bool cached;

static const char *copy_string(const char *s, uptr length) {
  if (arena_used + length + 1 > arena_capacity) {
    arena_capacity = length + 1 > 65536 ? length + 1 : 65536;
    arena = efsan_mmap(arena_capacity);
    arena_used = 0;
  }
  char *copy = arena + arena_used;
  efsan_internal_memcpy(copy, s, length);
  copy[length] = 0;
  arena_used += length + 1;
  return copy;
}

static u64 hash_string(u64 h, const char *s) {
  for (; *s; s++)
    h = (h ^ (u8)*s) * 1099511628211ULL; // FNV-1a
  return h;
}

static bool same_in(const char *a, const char *b) {
  return a == b || (a && b && !efsan_internal_strcmp(a, b));
}

// The number of the name (text, in), added if new; -1 when the table is
// full. text is at most EFSAN_MAX_RANGE_NAME bytes, NUL-terminated.
static int intern_name(const char *text, const char *in) {
  if (!names) {
    names = efsan_mmap_noreserve(MAX_NAMES * sizeof(struct name));
    name_slots = efsan_mmap_noreserve(NAME_SLOTS * sizeof(u32));
  }
  u64 h = hash_string(1469598103934665603ULL, text);
  if (in)
    h = hash_string(h ^ 0xff, in);
  u32 slot = (u32)(h >> 20) & (NAME_SLOTS - 1);
  for (; name_slots[slot]; slot = (slot + 1) & (NAME_SLOTS - 1)) {
    const struct name *n = &names[name_slots[slot] - 1];
    if (!efsan_internal_strcmp(n->text, text) && same_in(n->in, in))
      return (int)name_slots[slot] - 1;
  }
  if (num_names == MAX_NAMES)
    return -1;
  struct name *n = &names[num_names];
  n->text = copy_string(text, efsan_internal_strlen(text));
  n->in = in;
  name_slots[slot] = num_names + 1;
  return (int)num_names++;
}

#define MAX_PATH_LENGTH 4096
struct find_mapping {
  uptr addr;
  uptr lo, hi;
  bool kernels; // [heap], [stack], ...
  char path[MAX_PATH_LENGTH];
};

static void visit_mapping(uptr lo, uptr hi, int prot, const char *path,
                          void *arg) {
  struct find_mapping *find = arg;
  (void)prot;
  if (find->hi || find->addr < lo || find->addr >= hi)
    return;
  find->lo = lo;
  find->hi = hi;
  find->kernels = path[0] == '[';
  uptr length = efsan_internal_strlen(path);
  if (length >= MAX_PATH_LENGTH)
    length = MAX_PATH_LENGTH - 1;
  efsan_internal_memcpy(find->path, path, length);
  find->path[length] = 0;
}

// The paths names were given in: a few mappings, each named many times.
#define MAX_PATHS 256
static const char *paths[MAX_PATHS];
static u32 num_paths;

static const char *intern_path(const char *path) {
  for (u32 i = 0; i < num_paths; i++)
    if (!efsan_internal_strcmp(paths[i], path))
      return paths[i];
  const char *copy = copy_string(path, efsan_internal_strlen(path));
  if (num_paths < MAX_PATHS)
    paths[num_paths++] = copy;
  return copy;
}

// The path of the mapping holding addr ("" for anonymous memory); null if
// none holds it or it is the kernel's ([heap], [stack]: the reports name
// those by kind). Called with the registry's lock held.
static const char *mapping_path(uptr addr) {
  u32 generation = __atomic_load_n(&efsan_regions_generation, __ATOMIC_ACQUIRE);
  if (cached && generation == cached_generation && cached_lo <= addr &&
      addr < cached_hi)
    return cached_path;
  static struct find_mapping find; // under the lock; too big for a stack
  find.addr = addr;
  find.lo = find.hi = 0;
  efsan_for_each_mapping(visit_mapping, &find);
  if (!find.hi)
    return 0;
  cached = true;
  cached_generation = generation;
  cached_lo = find.lo;
  cached_hi = find.hi;
  cached_path = find.kernels ? 0 : intern_path(find.path);
  return cached_path;
}

// The index of the first range that ends after addr.
static uptr first_ending_after(uptr addr) {
  uptr lo = 0, hi = num_ranges;
  while (lo < hi) {
    uptr mid = lo + (hi - lo) / 2;
    if (ranges[mid].hi <= addr)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// Replaces what [lo, hi) overlaps with the range named `name` (none if
// name is -1). False when the list is full.
static bool set_range(uptr lo, uptr hi, int name) {
  uptr first = first_ending_after(lo), last = first;
  while (last < num_ranges && ranges[last].lo < hi)
    last++;
  struct efsan_named_range replacement[3];
  uptr count = 0;
  // What the overlapped ranges keep outside [lo, hi).
  if (first < last && ranges[first].lo < lo) {
    replacement[count] = ranges[first];
    replacement[count++].hi = lo;
  }
  if (name >= 0) {
    replacement[count].lo = lo;
    replacement[count].hi = hi;
    replacement[count++].name = (u32)name;
  }
  if (first < last && ranges[last - 1].hi > hi) {
    replacement[count] = ranges[last - 1];
    replacement[count++].lo = hi;
  }
  uptr after = num_ranges - last;
  uptr needed = first + count + after;
  if (needed > MAX_RANGES)
    return false;
  if (needed > ranges_capacity) {
    uptr capacity = ranges_capacity ? 2 * ranges_capacity : 256;
    struct efsan_named_range *grown =
        efsan_mmap(capacity * sizeof(struct efsan_named_range));
    if (num_ranges)
      efsan_internal_memcpy(grown, ranges,
                            num_ranges * sizeof(struct efsan_named_range));
    if (ranges_capacity)
      efsan_munmap(ranges, ranges_capacity * sizeof(struct efsan_named_range));
    ranges = grown;
    ranges_capacity = capacity;
  }
  if (after)
    efsan_internal_memmove(&ranges[first + count], &ranges[last],
                           after * sizeof(struct efsan_named_range));
  for (uptr i = 0; i < count; i++)
    ranges[first + i] = replacement[i];
  num_ranges = needed;
  return true;
}

// Each kind of bad call is reported once: a program that makes it in a
// loop must not flood stderr.
enum { BAD_RANGE, TOO_MANY_NAMES, TOO_MANY_RANGES, BAD_KINDS };
static bool warned[BAD_KINDS];

static void warn_once(int kind, uptr addr, uptr size, const char *what) {
  if (__atomic_exchange_n(&warned[kind], true, __ATOMIC_RELAXED))
    return;
  efsan_warn("__efsan_name_range(0x%zx, %zu, ...): %s; not named (further "
             "such calls are ignored silently)",
             addr, size, what);
}

void efsan_names_set(uptr addr, uptr size, const char *name) {
  if (!size)
    return;
  if (addr >= EFSAN_APP_END || size > EFSAN_APP_END - addr) {
    warn_once(BAD_RANGE, addr, size,
              "the range goes past the end of the program's address space");
    return;
  }
  // The program's string, read before the lock (a bad pointer faults in
  // the caller's call, as strlen would), cut to a printable length.
  char text[EFSAN_MAX_RANGE_NAME + 1];
  uptr length = 0;
  if (name)
    while (name[length] && length < EFSAN_MAX_RANGE_NAME)
      length++;
  if (length)
    efsan_internal_memcpy(text, name, length);
  text[length] = 0;
  if (name && name[length] && length >= 3)
    text[length - 1] = text[length - 2] = text[length - 3] = '.';
  efsan_regions_lock();
  int number = -1;
  bool full = false;
  if (length) {
    number = intern_name(text, mapping_path(addr));
    full = number < 0;
  }
  bool placed = !full && set_range(addr, addr + size, number);
  efsan_regions_unlock();
  if (full)
    warn_once(TOO_MANY_NAMES, addr, size, "too many distinct names");
  else if (!placed)
    warn_once(TOO_MANY_RANGES, addr, size, "too many named ranges");
}

EFSAN_INTERFACE void __efsan_name_range(const void *addr, uptr size,
                                        const char *name) {
  // A constructor may name memory before any instrumented module started
  // the runtime; its warnings need the glue.
  efsan_glue_init();
  efsan_names_set((uptr)addr, size, name);
}

uptr efsan_names_snapshot(struct efsan_named_range **out, uptr *out_capacity) {
  efsan_regions_lock();
  uptr count = num_ranges;
  if (count > *out_capacity) {
    if (*out_capacity)
      efsan_munmap(*out, *out_capacity * sizeof(struct efsan_named_range));
    *out = efsan_mmap(ranges_capacity * sizeof(struct efsan_named_range));
    *out_capacity = ranges_capacity;
  }
  if (count)
    efsan_internal_memcpy(*out, ranges,
                          count * sizeof(struct efsan_named_range));
  efsan_regions_unlock();
  return count;
}

bool efsan_names_find(uptr lo, uptr hi, struct efsan_named_range *found) {
  efsan_regions_lock();
  uptr i = first_ending_after(lo);
  bool hit = i < num_ranges && ranges[i].lo < hi;
  if (hit)
    *found = ranges[i];
  efsan_regions_unlock();
  return hit;
}

const char *efsan_name_text(u32 name) {
  return name < MAX_NAMES && names ? names[name].text : "?";
}

const char *efsan_name_mapping(u32 name) {
  return name < MAX_NAMES && names ? names[name].in : 0;
}
