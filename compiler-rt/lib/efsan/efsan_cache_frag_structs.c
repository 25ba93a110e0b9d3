//===-- efsan_cache_frag_structs.c - struct field counters ----------------===//
//
// The struct tables the pass emits per module (docs/InstrumentationABI.md):
// checked for their layout version and registered by the module
// constructors, copied when a module goes away (its counters die with it),
// and merged by type for the report: one struct type compiled into several
// modules is one entry whose counts are the sums, and whose field escapes
// where it escapes in any module.
//
// The sampled path counts into a table of the thread's own, not into the
// module's counter: threads that each work on their own instance of one
// type (Phoenix's per-thread argument structs) sample the same counters,
// and an atomic add to a counter the other core has just written was 85%
// of what a sample cost (ph_linear_regression 1.59x; docs/performance.md).
// A count is the module's counter plus what the threads' tables hold for it.
//
//===----------------------------------------------------------------------===//
#include "efsan_cache_frag_internal.h"

struct efsan_struct_info {
  const char *name;
  u32 size;
  u32 num_fields;
  const u32 *field_offsets;
  const u32 *field_sizes;
  const char *const *field_type_names;
  u64 *field_counters;
  // Null without debug info; else each field's source member name(s), null
  // for a field no member is in (padding the compiler added).
  const char *const *field_names;
  // Null when no field has a flag; else one byte per field.
  const u8 *field_flags;
};

// field_flags bit 0: the field's address escapes where the pass cannot
// follow it, so its count misses accesses.
#define CF_FIELD_ADDRESS_ESCAPES 1

// The module info's layout version (docs/InstrumentationABI.md); version 1
// had no version and no field_flags.
#define CF_ABI_VERSION 2

// A global with a struct or array type in the module's debug info.
struct efsan_global_layout {
  const void *address;
  const char *name;   // as the source names it
  const char *layout; // efsan_cache_frag_members.c
};

struct efsan_cache_frag_module_info {
  u32 abi_version;
  const char *module_name;
  u32 num_structs;
  struct efsan_struct_info *structs;
  u32 num_globals;
  const struct efsan_global_layout *globals;
};

struct cf_module {
  struct efsan_cache_frag_module_info *info;
  // Non-null once the module exited: its counters, struct after struct.
  u64 *saved_counters;
};

#define CF_MAX_MODULES 4096
// Also held while a thread's table is made, emptied or given up, so that a
// table is never read after it went, and a module's counters never written
// after it exited.
static efsan_mutex cf_modules_lock;
static struct cf_module cf_modules[CF_MAX_MODULES];
static u32 cf_module_count;
static u32 cf_modules_dropped;

//===-- The threads' field counts -------------------------------------------===//

// Open addressing on the counter's address; a counter that finds no slot in
// CF_FIELD_PROBES is counted in the module, as all were before.
#define CF_FIELD_SLOTS 512
#define CF_FIELD_PROBES 8
struct cf_field_slot {
  u64 *counter; // written once, after count: readers compare it, never follow it
  u64 count;
};
struct cf_field_table {
  u32 generation;
  struct cf_field_slot slots[CF_FIELD_SLOTS];
};

// By thread index; the tables of exited threads are emptied into the
// modules and given back.
static struct cf_field_table **cf_field_tables;
static u32 cf_field_table_limit; // the highest index with a table + 1
// Moves on when a module exits: a table made before then may hold counts
// of its counters, which nobody counts any more (the memory may be another
// module's soon); they go the next time its thread counts. Exit g moved it
// from g to g + 1 and took the counters in cf_exited_counters[g].
static u32 cf_field_generation;
static struct {
  uptr lo, hi;
} cf_exited_counters[CF_MAX_MODULES];
static __thread struct cf_field_table *cf_own_field_table
    __attribute__((tls_model("initial-exec")));
static __thread bool cf_field_counting_over
    __attribute__((tls_model("initial-exec")));

static inline uptr cf_field_hash(const u64 *counter) {
  return (uptr)(((u64)(uptr)counter * 0x9e3779b97f4a7c15ull) >> 55);
}

// The counter's slot, or the free slot it would take; null when its
// probes are all taken by others.
static struct cf_field_slot *cf_field_slot_of(struct cf_field_table *table,
                                              const u64 *counter) {
  uptr h = cf_field_hash(counter);
  for (uptr i = 0; i < CF_FIELD_PROBES; i++) {
    struct cf_field_slot *slot = &table->slots[(h + i) % CF_FIELD_SLOTS];
    u64 *c = __atomic_load_n(&slot->counter, __ATOMIC_ACQUIRE);
    if (c == counter || !c)
      return slot;
  }
  return 0;
}

static u64 cf_field_table_count(struct cf_field_table *table,
                                const u64 *counter) {
  struct cf_field_slot *slot = cf_field_slot_of(table, counter);
  return slot && cf_load(&slot->counter) == counter ? cf_load(&slot->count)
                                                    : 0;
}

// Whether a table of this generation may hold counts of a module that
// exited since. Under cf_modules_lock.
static bool cf_counter_exited_locked(const u64 *counter, u32 generation) {
  for (u32 g = generation; g < cf_field_generation; g++)
    if ((uptr)counter >= cf_exited_counters[g].lo &&
        (uptr)counter < cf_exited_counters[g].hi)
      return true;
  return false;
}

// The counter's count: the module's and the threads'. Under cf_modules_lock.
static u64 cf_field_count_locked(u64 *counter) {
  u64 count = cf_load(counter);
  for (u32 t = 0; t < cf_field_table_limit; t++) {
    struct cf_field_table *table = cf_load(&cf_field_tables[t]);
    if (table && !cf_counter_exited_locked(counter, cf_load(&table->generation)))
      count += cf_field_table_count(table, counter);
  }
  return count;
}

// Drops the counts of modules that exited since the table's generation.
// Under cf_modules_lock, by the table's thread. The slots stay taken (a
// probe sequence must not break); a counter at that address again counts
// on from 0.
static void cf_field_table_renew_locked(struct cf_field_table *table) {
  if (table->generation == cf_field_generation)
    return;
  for (uptr i = 0; i < CF_FIELD_SLOTS; i++) {
    struct cf_field_slot *slot = &table->slots[i];
    if (slot->counter && cf_counter_exited_locked(slot->counter, table->generation))
      cf_store(&slot->count, 0);
  }
  cf_store(&table->generation, cf_field_generation);
}

// The thread's table, made the first time or renewed after a module exited;
// null for a thread that counts in the modules.
static __attribute__((noinline)) struct cf_field_table *cf_renew_field_table(void) {
  u32 thread = efsan_thread_index;
  if (cf_field_counting_over || thread >= CF_MAX_THREAD_INFOS || !cf_field_tables)
    return 0;
  efsan_mutex_lock(&cf_modules_lock);
  struct cf_field_table *table = cf_own_field_table;
  if (table) {
    cf_field_table_renew_locked(table);
  } else {
    table = (struct cf_field_table *)efsan_mmap(sizeof(*table));
    table->generation = cf_field_generation;
    cf_store(&cf_field_tables[thread], table);
    if (thread >= cf_field_table_limit)
      cf_store(&cf_field_table_limit, thread + 1);
  }
  efsan_mutex_unlock(&cf_modules_lock);
  cf_own_field_table = table;
  return table;
}

void cf_count_field(u64 *counter, u64 weight) {
  struct cf_field_table *table = cf_own_field_table;
  if (!table || table->generation != cf_load(&cf_field_generation))
    table = cf_renew_field_table();
  struct cf_field_slot *slot = table ? cf_field_slot_of(table, counter) : 0;
  if (slot && slot->counter == counter) {
    cf_store(&slot->count, slot->count + weight);
    return;
  }
  if (slot) {
    cf_store(&slot->count, weight);
    __atomic_store_n(&slot->counter, counter, __ATOMIC_RELEASE);
    return;
  }
  // The thread runs the module's code: its counters are there.
  cf_add(counter, weight);
}

void cf_fields_thread_exit(void) {
  cf_field_counting_over = true;
  struct cf_field_table *table = cf_own_field_table;
  if (!table)
    return;
  efsan_mutex_lock(&cf_modules_lock);
  cf_field_table_renew_locked(table);
  // Every module it counted for is alive: the table's counts go there,
  // under the lock, so that no reader counts them twice or not at all.
  for (uptr i = 0; i < CF_FIELD_SLOTS; i++)
    if (table->slots[i].counter && table->slots[i].count)
      cf_add(table->slots[i].counter, table->slots[i].count);
  cf_store(&cf_field_tables[efsan_thread_index], (struct cf_field_table *)0);
  efsan_mutex_unlock(&cf_modules_lock);
  cf_own_field_table = 0;
  efsan_munmap(table, sizeof(*table));
}

void cf_fields_init(void) {
  cf_field_tables = (struct cf_field_table **)efsan_mmap_noreserve(
      (uptr)CF_MAX_THREAD_INFOS * sizeof(struct cf_field_table *));
}

void cf_structs_module_init(void *module_info) {
  struct efsan_cache_frag_module_info *info = module_info;
  // A module of version 1 starts with its name's address, whose low half is
  // never 2 (the string is in the image, far above address 2).
  if (info->abi_version != CF_ABI_VERSION)
    efsan_fatal("a module was instrumented by another efsan (its cache-frag "
                "module info is not version %u); rebuild it with the "
                "efsan-clang of this runtime",
                CF_ABI_VERSION);
  if (!info->num_structs && !info->num_globals)
    return;
  efsan_mutex_lock(&cf_modules_lock);
  if (cf_module_count < CF_MAX_MODULES) {
    cf_modules[cf_module_count].info = info;
    cf_modules[cf_module_count].saved_counters = 0;
    cf_module_count++;
  } else {
    cf_modules_dropped++;
  }
  efsan_mutex_unlock(&cf_modules_lock);
}

static uptr cf_module_counter_total(struct efsan_cache_frag_module_info *info) {
  uptr total = 0;
  for (u32 i = 0; i < info->num_structs; i++)
    total += info->structs[i].num_fields;
  return total;
}

void cf_structs_module_exit(void *module_info) {
  struct efsan_cache_frag_module_info *info = module_info;
  efsan_mutex_lock(&cf_modules_lock);
  for (u32 m = 0; m < cf_module_count; m++) {
    if (cf_modules[m].info != info || cf_modules[m].saved_counters)
      continue;
    uptr total = cf_module_counter_total(info);
    u64 *saved = (u64 *)efsan_mmap((total ? total : 1) * sizeof(u64));
    uptr at = 0;
    for (u32 i = 0; i < info->num_structs; i++) {
      struct efsan_struct_info *s = &info->structs[i];
      for (u32 f = 0; f < s->num_fields; f++)
        saved[at++] = cf_field_count_locked(&s->field_counters[f]);
    }
    cf_modules[m].saved_counters = saved;
    // The threads' tables forget these counters (cf_field_table_renew_locked).
    u32 g = cf_field_generation;
    cf_exited_counters[g].lo = ~(uptr)0;
    cf_exited_counters[g].hi = 0;
    for (u32 i = 0; i < info->num_structs; i++) {
      const struct efsan_struct_info *s = &info->structs[i];
      uptr first = (uptr)s->field_counters;
      if (!s->num_fields)
        continue;
      if (first < cf_exited_counters[g].lo)
        cf_exited_counters[g].lo = first;
      if (first + s->num_fields * sizeof(u64) > cf_exited_counters[g].hi)
        cf_exited_counters[g].hi = first + s->num_fields * sizeof(u64);
    }
    cf_store(&cf_field_generation, g + 1);
    break;
  }
  efsan_mutex_unlock(&cf_modules_lock);
}

// The type's name without its kind: a module with debug info names it as
// the source does ("struct server" in C, "ns::Token" in C++), one without
// (or one that only declares the type, as for an extern global) as LLVM
// does ("struct.server", "class.ns::Token").
static const char *cf_struct_base_name(const char *name, bool source_name) {
  static const char *const kSourceKinds[] = {"struct ", "union ", "class "};
  static const char *const kLLVMKinds[] = {"struct.", "union.", "class."};
  const char *const *kinds = source_name ? kSourceKinds : kLLVMKinds;
  for (int i = 0; i < 3; i++) {
    uptr length = efsan_internal_strlen(kinds[i]);
    if (!efsan_internal_strncmp(name, kinds[i], length))
      return name + length;
  }
  return name;
}

static bool cf_same_layout(const struct cf_struct_usage *usage,
                           const struct efsan_struct_info *s) {
  // The fields of both come from the same LLVM struct type; debug info
  // only adds their names (a field no member is in is padding). So one
  // type named both ways is one entry when the layouts agree.
  if (usage->size != s->size || usage->num_fields != s->num_fields ||
      efsan_internal_strcmp(
          cf_struct_base_name(usage->name, usage->field_names != 0),
          cf_struct_base_name(s->name, s->field_names != 0)) != 0)
    return false;
  for (u32 f = 0; f < s->num_fields; f++)
    if (usage->field_offsets[f] != s->field_offsets[f] ||
        usage->field_sizes[f] != s->field_sizes[f])
      return false;
  return true;
}

// A usage's counts, then its escape flags.
static uptr cf_usage_bytes(u32 num_fields) {
  return (num_fields ? num_fields : 1) * (sizeof(u64) + sizeof(bool));
}

uptr cf_structs_collect(struct cf_struct_usage **out, uptr *capacity_out) {
  efsan_mutex_lock(&cf_modules_lock);
  uptr capacity = 0;
  for (u32 m = 0; m < cf_module_count; m++)
    capacity += cf_modules[m].info->num_structs;
  struct cf_struct_usage *usages = 0;
  uptr count = 0;
  if (capacity)
    usages = (struct cf_struct_usage *)efsan_mmap(capacity *
                                                  sizeof(struct cf_struct_usage));
  for (u32 m = 0; m < cf_module_count; m++) {
    struct efsan_cache_frag_module_info *info = cf_modules[m].info;
    const u64 *saved = cf_modules[m].saved_counters;
    for (u32 i = 0; i < info->num_structs; i++) {
      struct efsan_struct_info *s = &info->structs[i];
      struct cf_struct_usage *usage = 0;
      for (uptr u = 0; u < count && !usage; u++)
        if (cf_same_layout(&usages[u], s))
          usage = &usages[u];
      if (!usage) {
        usage = &usages[count++];
        usage->name = s->name;
        usage->size = s->size;
        usage->num_fields = s->num_fields;
        usage->field_offsets = s->field_offsets;
        usage->field_sizes = s->field_sizes;
        usage->field_type_names = s->field_type_names;
        usage->field_names = s->field_names;
        usage->counts = (u64 *)efsan_mmap(cf_usage_bytes(s->num_fields));
        usage->escapes = (bool *)(usage->counts + s->num_fields);
        usage->total = 0;
      } else if (!usage->field_names && s->field_names) {
        // The source's names win over LLVM's.
        usage->name = s->name;
        usage->field_type_names = s->field_type_names;
        usage->field_names = s->field_names;
      }
      for (u32 f = 0; f < s->num_fields; f++) {
        // Escaping in one module is escaping for the type.
        if (s->field_flags && (s->field_flags[f] & CF_FIELD_ADDRESS_ESCAPES))
          usage->escapes[f] = true;
        u64 c = saved ? *saved++ : cf_field_count_locked(&s->field_counters[f]);
        usage->counts[f] += c;
        usage->total += c;
      }
    }
  }
  efsan_mutex_unlock(&cf_modules_lock);
  *out = usages;
  *capacity_out = capacity;
  return count;
}

void cf_structs_release(struct cf_struct_usage *usages, uptr count,
                        uptr capacity) {
  for (uptr u = 0; u < count; u++)
    efsan_munmap(usages[u].counts, cf_usage_bytes(usages[u].num_fields));
  if (usages)
    efsan_munmap(usages, capacity * sizeof(struct cf_struct_usage));
}

u32 cf_structs_modules_dropped(void) { return cf_modules_dropped; }

// Globals of modules that exited are not looked at: their addresses may
// belong to another module now.
bool cf_global_type_of(uptr start, const char **name, const char **layout) {
  bool found = false;
  efsan_mutex_lock(&cf_modules_lock);
  for (u32 m = 0; m < cf_module_count && !found; m++) {
    const struct efsan_cache_frag_module_info *info = cf_modules[m].info;
    if (cf_modules[m].saved_counters)
      continue;
    for (u32 g = 0; g < info->num_globals && !found; g++) {
      const struct efsan_global_layout *global = &info->globals[g];
      if ((uptr)global->address != start)
        continue;
      *name = global->name;
      *layout = global->layout;
      found = true;
    }
  }
  efsan_mutex_unlock(&cf_modules_lock);
  return found;
}
