//===-- efsan_ws_shared.c - lines of shared mappings, for merged reports --===//
//
// Owns the JSON list "shared_mappings": which lines of each shared mapping
// (MAP_SHARED, SysV shm, /dev/zero) this process touched. Processes of one
// tree that share memory touch the same lines at different addresses: a
// mapping is named by its file's device, inode and offset, and its lines are
// counted from the start of that file, so that efsan-view --merge counts a
// line touched by several processes once. Read from the shadow's "ever
// touched" bit at report time only.
// Does not own the rest of the report (efsan_working_set.c) nor how the
// lines are counted in the total (they are, like every other line).
//
//===----------------------------------------------------------------------===//
#include "efsan_working_set.h"

#define EVER_BITS 0x8080808080808080ULL
#define MAX_SHARED 4096

struct shared_mapping {
  uptr lo, hi;
  struct efsan_mapping_id id;
  const char *path; // in `paths`
};

struct shared_list {
  struct shared_mapping *items;
  uptr count;
  char *paths;
  uptr paths_used, paths_size;
};

static void collect(uptr lo, uptr hi, const struct efsan_mapping_id *id,
                    const char *path, void *arg) {
  struct shared_list *list = arg;
  uptr length = efsan_internal_strlen(path) + 1;
  if (list->count == MAX_SHARED || list->paths_used + length > list->paths_size)
    return;
  struct shared_mapping *m = &list->items[list->count++];
  m->lo = lo;
  m->hi = hi;
  m->id = *id;
  m->path = list->paths + list->paths_used;
  efsan_internal_memcpy(list->paths + list->paths_used, path, length);
  list->paths_used += length;
}

// The touched lines of one part of a mapping (the mapping, or a part the
// program named, __efsan_name_range), as they are found in address order;
// printed through a buffer (each efsan_printf is a write) after a header
// written at the first line found.
struct ranges {
  const struct shared_mapping *mapping;
  uptr lo, hi;      // the part: lines that start in it are its
  const char *name; // as the objects list names it
  bool *first_entry;
  bool header_printed;
  u64 start, length; // the open range, in lines of the file
  u64 lines;
  bool any_range; // printed
  char buffer[4096];
  uptr used;
};

static void print_header(struct ranges *r) {
  const struct shared_mapping *m = r->mapping;
  efsan_printf("%s\n   {\"name\": ", *r->first_entry ? "" : ",");
  *r->first_entry = false;
  efsan_json_string(r->name);
  efsan_printf(", \"path\": ");
  efsan_json_string(m->path);
  efsan_printf(
      ", \"device\": \"%02x:%02x\", \"inode\": %llu, \"offset\": %llu, "
      "\"ranges\": [",
      m->id.dev_major, m->id.dev_minor, m->id.inode, m->id.offset);
  r->header_printed = true;
}

static void flush(struct ranges *r) {
  if (!r->header_printed)
    print_header(r);
  if (r->used)
    efsan_printf("%s", r->buffer);
  r->used = 0;
  r->buffer[0] = 0;
}

static void close_range(struct ranges *r) {
  if (!r->length)
    return;
  if (r->used + 48 > sizeof(r->buffer))
    flush(r);
  r->used += efsan_snprintf(r->buffer + r->used, sizeof(r->buffer) - r->used,
                            "%s[%llu, %llu]", r->any_range ? ", " : "",
                            r->start, r->length);
  r->any_range = true;
  r->length = 0;
}

static void add_lines(struct ranges *r, u64 first, u64 count) {
  if (r->length && r->start + r->length == first) {
    r->length += count;
  } else {
    close_range(r);
    r->start = first;
    r->length = count;
  }
  r->lines += count;
}

static void scan_words(u64 *words, uptr count, void *arg) {
  struct ranges *r = arg;
  const struct shared_mapping *m = r->mapping;
  for (uptr i = 0; i < count; i++) {
    u64 ever = __atomic_load_n(&words[i], __ATOMIC_RELAXED) & EVER_BITS;
    if (!ever)
      continue;
    uptr app = efsan_app_of_shadow((const u8 *)&words[i]);
    // Bit b: line b of the word (bytes of 0 or 1 gathered by the product),
    // less the lines of the word outside the part.
    u32 bits = (u32)(((ever >> 7) * 0x0102040810204080ULL) >> 56);
    for (int b = 0; b < 8; b++) {
      uptr at = app + (uptr)b * EFSAN_CACHE_LINE_SIZE;
      if (at < r->lo || at >= r->hi)
        bits &= ~(1u << b);
    }
    u64 line = (m->id.offset + (app - m->lo)) / EFSAN_CACHE_LINE_SIZE;
    while (bits) {
      int at = __builtin_ctz(bits);
      int run = __builtin_ctz(~(bits >> at));
      add_lines(r, line + at, run);
      bits &= ~(((1u << run) - 1) << at);
    }
  }
}

static void print_part(struct ranges *r) {
  efsan_shadow_for_each_resident(r->lo, r->hi, scan_words, r, 0);
  if (!r->lines)
    return; // most shared mappings of a process are never touched
  close_range(r);
  flush(r);
  efsan_printf("], \"lines\": %llu}", r->lines);
}

#define LINE_DOWN(a) ((a) & ~(uptr)(EFSAN_CACHE_LINE_SIZE - 1))
#define LINE_UP(a) LINE_DOWN((a) + EFSAN_CACHE_LINE_SIZE - 1)

// A mapping in parts as the objects list counts it: a line that a named
// range overlaps is the first such range's; the others are the mapping's.
static void print_mapping(const struct shared_mapping *m,
                          const struct efsan_named_range *named, uptr count,
                          struct ranges *r, bool *first_entry) {
  const char *whole = m->path[0] ? m->path : "anonymous memory";
  uptr i = 0;
  for (uptr addr = m->lo; addr < m->hi;) {
    while (i < count && named[i].hi <= addr)
      i++;
    efsan_internal_memset(r, 0, sizeof(*r));
    r->mapping = m;
    r->first_entry = first_entry;
    r->lo = addr;
    if (i < count && named[i].lo < addr + EFSAN_CACHE_LINE_SIZE) {
      r->hi = LINE_UP(named[i].hi);
      r->name = efsan_ws_mapping_part_name(named[i].name);
    } else {
      r->hi = i < count ? LINE_DOWN(named[i].lo) : m->hi;
      r->name = whole;
    }
    if (r->hi > m->hi)
      r->hi = m->hi;
    print_part(r);
    addr = r->hi;
  }
}

void efsan_ws_shared_print_json(void) {
  struct shared_list list = {0};
  uptr items_size = MAX_SHARED * sizeof(struct shared_mapping);
  list.paths_size = 1 << 20;
  list.items = efsan_mmap_noreserve(items_size);
  list.paths = efsan_mmap_noreserve(list.paths_size);
  // Under the registry's lock, as every reader of the maps: fork holds it,
  // so that no thread the child loses holds the maps buffer.
  efsan_regions_lock();
  efsan_for_each_shared_mapping(collect, &list);
  efsan_regions_unlock();
  struct efsan_named_range *named = 0;
  uptr named_capacity = 0;
  uptr named_count =
      list.count ? efsan_names_snapshot(&named, &named_capacity) : 0;
  efsan_printf("\"shared_mappings\": [");
  bool first_entry = true;
  struct ranges *r = efsan_mmap(sizeof(struct ranges));
  for (uptr i = 0; i < list.count; i++)
    print_mapping(&list.items[i], named, named_count, r, &first_entry);
  efsan_printf("]");
  efsan_munmap(r, sizeof(struct ranges));
  if (named_capacity)
    efsan_munmap(named, named_capacity * sizeof(struct efsan_named_range));
  efsan_munmap(list.items, items_size);
  efsan_munmap(list.paths, list.paths_size);
}
