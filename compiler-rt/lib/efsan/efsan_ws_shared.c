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

// The ranges of one mapping, as they are found in address order; printed
// through a buffer (each efsan_printf is a write).
struct ranges {
  const struct shared_mapping *mapping;
  u64 start, length; // the open range, in lines of the file
  u64 lines;
  bool any_range; // printed
  char buffer[4096];
  uptr used;
};

static void flush(struct ranges *r) {
  if (r->used)
    efsan_printf("%s", r->buffer);
  r->used = 0;
  r->buffer[0] = 0;
}

static void print_header(struct ranges *r, bool first_mapping) {
  const struct shared_mapping *m = r->mapping;
  efsan_printf("%s\n   {\"name\": ", first_mapping ? "" : ",");
  // As the objects list names a mapping (a file's path; shared anonymous
  // memory is the kernel's "/dev/zero (deleted)").
  efsan_json_string(m->path[0] ? m->path : "anonymous memory");
  efsan_printf(
      ", \"device\": \"%02x:%02x\", \"inode\": %llu, \"offset\": %llu, "
      "\"ranges\": [",
      m->id.dev_major, m->id.dev_minor, m->id.inode, m->id.offset);
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
    u64 line = (m->id.offset + (app - m->lo)) / EFSAN_CACHE_LINE_SIZE;
    // Bit b: line b of the word (bytes of 0 or 1 gathered by the product).
    u32 bits = (u32)(((ever >> 7) * 0x0102040810204080ULL) >> 56);
    while (bits) {
      int at = __builtin_ctz(bits);
      int run = __builtin_ctz(~(bits >> at));
      add_lines(r, line + at, run);
      bits &= ~(((1u << run) - 1) << at);
    }
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
  efsan_printf("\"shared_mappings\": [");
  bool first = true;
  struct ranges *r = efsan_mmap(sizeof(struct ranges));
  for (uptr i = 0; i < list.count; i++) {
    efsan_internal_memset(r, 0, sizeof(*r));
    r->mapping = &list.items[i];
    efsan_shadow_for_each_resident(r->mapping->lo, r->mapping->hi, scan_words,
                                   r, 0);
    if (!r->lines)
      continue;
    // The header waits for the first line: most shared mappings of a
    // process (its libraries' are private) are never touched.
    print_header(r, first);
    first = false;
    close_range(r);
    flush(r);
    efsan_printf("], \"lines\": %llu}", r->lines);
  }
  efsan_printf("]");
  efsan_munmap(r, sizeof(struct ranges));
  efsan_munmap(list.items, items_size);
  efsan_munmap(list.paths, list.paths_size);
}
