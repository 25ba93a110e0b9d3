//===-- efsan_caches.c - this machine's cache hierarchy -------------------===//
//
// The caches of CPU 0 as the kernel describes them in
// /sys/devices/system/cpu/cpu0/cache/index*/ (level, type, size,
// shared_cpu_list), read once at start-up (a program may chroot or close
// its files later); where the kernel describes none (a Firecracker VM's),
// as the CPU does through cpuid. The working-set report compares its figures with the
// data caches: a working set "fits" the smallest data or unified cache that
// is at least as large. A cache private to a core (or its hyperthreads)
// holds that much per core; a shared one holds it for all the CPUs that
// share it.
//
//===----------------------------------------------------------------------===//
#include "efsan_internal.h"

#include <cpuid.h>

static struct efsan_cache caches[EFSAN_MAX_CACHES];
static u32 num_caches;
// Where they come from, for the report.
static const char *caches_source = "";

static u64 parse_number(const char **p) {
  u64 value = 0;
  while (**p >= '0' && **p <= '9')
    value = value * 10 + (u64)(*(*p)++ - '0');
  return value;
}

// "32K", "1024K", "32M": the size in bytes; 0 if unreadable.
static u64 parse_size(const char *text) {
  u64 value = parse_number(&text);
  switch (*text) {
  case 'K':
    return value << 10;
  case 'M':
    return value << 20;
  case 'G':
    return value << 30;
  default:
    return value;
  }
}

// "0-1", "0,4", "0-3,8-11": the number of CPUs in the list.
static u32 count_cpu_list(const char *text) {
  u32 count = 0;
  while (*text >= '0' && *text <= '9') {
    u64 first = parse_number(&text), last = first;
    if (*text == '-') {
      text++;
      last = parse_number(&text);
    }
    if (last >= first)
      count += (u32)(last - first + 1);
    if (*text != ',')
      break;
    text++;
  }
  return count;
}

static bool read_attribute(u32 index, const char *name, char *buffer,
                           uptr size) {
  char path[96];
  efsan_snprintf(path, sizeof(path),
                 "/sys/devices/system/cpu/cpu0/cache/index%u/%s", index, name);
  sptr length = efsan_read_file(path, buffer, size);
  if (length <= 0)
    return false;
  while (length > 0 && (buffer[length - 1] == '\n' || buffer[length - 1] == ' '))
    buffer[--length] = 0;
  return true;
}

static void add_cache(int level, const char *type, u64 size_bytes,
                      u32 shared_by_cpus) {
  if (num_caches >= EFSAN_MAX_CACHES || level <= 0 || !size_bytes)
    return;
  struct efsan_cache *c = &caches[num_caches++];
  c->level = level;
  efsan_snprintf(c->type, sizeof(c->type), "%s", type);
  c->size_bytes = size_bytes;
  c->shared_by_cpus = shared_by_cpus;
}

// Intel's leaf 4 and AMD's 0x8000001d (with topology extensions) describe
// each cache of the CPU: its type, level, geometry and how many logical
// CPUs may share it (the most the package's numbering allows).
static void caches_from_deterministic_leaf(unsigned leaf) {
  static const char *const types[] = {"", "Data", "Instruction", "Unified"};
  for (unsigned index = 0; index < 16; index++) {
    unsigned a, b, c, d;
    __cpuid_count(leaf, index, a, b, c, d);
    unsigned type = a & 31;
    if (!type || type > 3)
      break;
    u64 ways = ((b >> 22) & 0x3ff) + 1, partitions = ((b >> 12) & 0x3ff) + 1,
        line = (b & 0xfff) + 1, sets = (u64)c + 1;
    add_cache((int)((a >> 5) & 7), types[type], ways * partitions * line * sets,
              ((a >> 14) & 0xfff) + 1);
  }
}

static void caches_from_cpuid(void) {
  unsigned a, b, c, d;
  if (!__get_cpuid(0, &a, &b, &c, &d))
    return;
  unsigned max_leaf = a;
  bool intel = b == 0x756e6547 && d == 0x49656e69 && c == 0x6c65746e;
  unsigned max_extended = __get_cpuid(0x80000000, &a, &b, &c, &d) ? a : 0;
  if (intel && max_leaf >= 4) {
    caches_from_deterministic_leaf(4);
  } else if (max_extended >= 0x8000001d &&
             __get_cpuid(0x80000001, &a, &b, &c, &d) && (c >> 22) & 1) {
    caches_from_deterministic_leaf(0x8000001d);
  } else if (max_extended >= 0x80000006) {
    // AMD without topology extensions (a VM may hide them): the L1 data
    // and L2 caches of a core from the legacy leaves. Their L3 figure is
    // the whole processor's (508 MiB on an EPYC VM whose core complex has
    // 32 MiB), no size a working set fits: left out.
    __cpuid(0x80000005, a, b, c, d);
    add_cache(1, "Data", (u64)(c >> 24) << 10, 0);
    __cpuid(0x80000006, a, b, c, d);
    add_cache(2, "Unified", (u64)(c >> 16) << 10, 0);
  }
  if (num_caches)
    caches_source = ", from cpuid";
}

void efsan_caches_init(void) {
  num_caches = 0;
  caches_source = "";
  // index0, index1, ... are numbered without gaps.
  for (u32 index = 0; num_caches < EFSAN_MAX_CACHES; index++) {
    char level[16], type[32], size[32], shared[256];
    if (!read_attribute(index, "level", level, sizeof(level)) ||
        !read_attribute(index, "type", type, sizeof(type)) ||
        !read_attribute(index, "size", size, sizeof(size)))
      break;
    struct efsan_cache *c = &caches[num_caches];
    const char *p = level;
    c->level = (int)parse_number(&p);
    efsan_snprintf(c->type, sizeof(c->type), "%s", type);
    c->size_bytes = parse_size(size);
    c->shared_by_cpus =
        read_attribute(index, "shared_cpu_list", shared, sizeof(shared))
            ? count_cpu_list(shared)
            : 0;
    if (c->level > 0 && c->size_bytes)
      num_caches++;
  }
  if (!num_caches)
    caches_from_cpuid();
}

u32 efsan_caches(const struct efsan_cache **out) {
  *out = caches;
  return num_caches;
}

static bool holds_data(const struct efsan_cache *c) {
  return !efsan_internal_strcmp(c->type, "Data") ||
         !efsan_internal_strcmp(c->type, "Unified");
}

const struct efsan_cache *efsan_cache_fit(u64 lines) {
  u64 bytes = lines * EFSAN_CACHE_LINE_SIZE;
  const struct efsan_cache *best = 0;
  for (u32 i = 0; i < num_caches; i++)
    if (holds_data(&caches[i]) && caches[i].size_bytes >= bytes &&
        (!best || caches[i].level < best->level))
      best = &caches[i];
  return best;
}

int efsan_cache_fit_level(u64 lines) {
  const struct efsan_cache *c = efsan_cache_fit(lines);
  return c ? c->level : 0;
}

// The largest data cache: what a working set that fits none exceeds.
static const struct efsan_cache *last_level(void) {
  const struct efsan_cache *last = 0;
  for (u32 i = 0; i < num_caches; i++)
    if (holds_data(&caches[i]) && (!last || caches[i].level > last->level))
      last = &caches[i];
  return last;
}

void efsan_cache_fit_text(char *buffer, uptr length, u64 lines) {
  const struct efsan_cache *c = efsan_cache_fit(lines);
  if (!c) {
    c = last_level();
    if (c)
      efsan_snprintf(buffer, length, "exceeds L%d (%llu KiB)", c->level,
                     c->size_bytes >> 10);
    else
      efsan_snprintf(buffer, length, "cache sizes unknown");
    return;
  }
  efsan_snprintf(buffer, length, "fits L%d%s (%llu KiB)", c->level,
                 c->level == 1 ? "d" : "", c->size_bytes >> 10);
}

void efsan_caches_print_text(void) {
  if (!num_caches) {
    efsan_report_line("  caches: unknown (no /sys/devices/system/cpu/cpu0/"
                      "cache, and cpuid describes none)\n");
    return;
  }
  char line[512];
  uptr used = 0;
  for (u32 i = 0; i < num_caches; i++) {
    const struct efsan_cache *c = &caches[i];
    if (!holds_data(c))
      continue;
    if (!c->shared_by_cpus)
      used += efsan_snprintf(line + used, sizeof(line) - used,
                             "%sL%d%s %llu KiB (per core)", used ? ", " : "",
                             c->level, c->level == 1 ? "d" : "",
                             c->size_bytes >> 10);
    else
      used += efsan_snprintf(
          line + used, sizeof(line) - used, "%sL%d%s %llu KiB (%s%u CPU%s)",
          used ? ", " : "", c->level, c->level == 1 ? "d" : "",
          c->size_bytes >> 10, c->shared_by_cpus > 1 ? "shared by " : "",
          c->shared_by_cpus, c->shared_by_cpus == 1 ? "" : "s");
  }
  efsan_report_line("  caches of this machine (CPU 0%s): %s\n", caches_source,
                    line);
}

void efsan_caches_print_json(void) {
  efsan_printf("\"caches\": [");
  for (u32 i = 0; i < num_caches; i++) {
    const struct efsan_cache *c = &caches[i];
    efsan_printf("%s{\"level\": %d, \"type\": ", i ? ", " : "", c->level);
    efsan_json_string(c->type);
    efsan_printf(", \"size_bytes\": %llu, \"shared_by_cpus\": %u}",
                 c->size_bytes, c->shared_by_cpus);
  }
  efsan_printf("]");
}
