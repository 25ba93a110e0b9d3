//===-- efsan_modules.cpp - efsan glue: the modules loaded in the process --===//
//
// Which module (the executable, a shared library) holds a code or data
// address, where it is loaded and its GNU build ID: what the symbolizer is
// asked with, what the symbol cache is keyed by, and what tells a frame
// from a stale return address. Not here: symbolization itself
// (efsan_symbolize.cpp, efsan_symbolizer_process.cpp).
//
// sanitizer_common's ListOfModules would do, but it keeps each module's
// path and each of its segments in blocks of the internal allocator's
// smallest size classes, and the first block of a class costs a process a
// region of free lists (a megabyte written: a quarter of what a short
// process's report adds to it). Here the list lives in mmap'd vectors and
// the paths in a bump allocator, kept for the process's life so that a
// path handed out never dangles. The list is read again only when the
// dynamic loader says it loaded or unloaded something since (dl_iterate_phdr's
// dlpi_adds and dlpi_subs), so an address in no module costs no new walk.
//
//===----------------------------------------------------------------------===//
#include "efsan_glue.h"
#include "sanitizer_common/sanitizer_common.h"
#include "sanitizer_common/sanitizer_libc.h"
#include "sanitizer_common/sanitizer_mutex.h"

#include <elf.h>
#include <link.h>

using namespace __sanitizer;
using namespace __efsan;

namespace {
struct Segment {
  uptr beg, end;
  bool executable;
};

struct Entry {
  Module module;
  uptr first_segment, segment_count;
};

StaticSpinMutex modules_mu;
InternalMmapVectorNoCtor<Entry> entries;
InternalMmapVectorNoCtor<Segment> segments;
InternalMmapVectorNoCtor<const char *> kept_paths;
LowLevelAllocator path_storage;
bool listed;
unsigned long long listed_adds, listed_subs;

// A path kept for the process's life, one copy per distinct path.
const char *KeepPath(const char *path) {
  for (uptr i = 0; i < kept_paths.size(); i++)
    if (!internal_strcmp(kept_paths[i], path))
      return kept_paths[i];
  uptr length = internal_strlen(path);
  char *copy = (char *)path_storage.Allocate(length + 1);
  internal_memcpy(copy, path, length + 1);
  kept_paths.push_back(copy);
  return copy;
}

// The GNU build ID among the notes of one PT_NOTE segment.
void ReadBuildId(const char *notes, uptr size, Module *module) {
  const char *end = notes + size;
  while (notes + sizeof(Elf64_Nhdr) <= end) {
    const Elf64_Nhdr *note = (const Elf64_Nhdr *)notes;
    const char *name = notes + sizeof(Elf64_Nhdr);
    const char *desc = name + RoundUpTo(note->n_namesz, 4);
    const char *next = desc + RoundUpTo(note->n_descsz, 4);
    if (next > end || next <= notes)
      return;
    if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 &&
        !internal_memcmp(name, "GNU", 4) &&
        note->n_descsz <= sizeof(module->build_id)) {
      internal_memcpy(module->build_id, desc, note->n_descsz);
      module->build_id_size = note->n_descsz;
      return;
    }
    notes = next;
  }
}

int AddModule(struct dl_phdr_info *info, size_t, void *arg) {
  bool *first = (bool *)arg;
  const char *path = info->dlpi_name;
  char binary[kMaxPathLength];
  if (*first) {
    // The executable comes first, without a name.
    *first = false;
    listed_adds = info->dlpi_adds;
    listed_subs = info->dlpi_subs;
    if (!path || !path[0]) {
      ReadBinaryNameCached(binary, sizeof(binary));
      path = binary;
    }
  }
  if (!path || !path[0])
    return 0;
  Entry entry = {};
  entry.module.path = KeepPath(path);
  entry.module.base = info->dlpi_addr;
  entry.first_segment = segments.size();
  for (uptr i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *phdr = &info->dlpi_phdr[i];
    if (phdr->p_type == PT_GNU_EH_FRAME)
      entry.module.eh_frame_hdr = info->dlpi_addr + phdr->p_vaddr;
    if (phdr->p_type == PT_NOTE && !entry.module.build_id_size)
      ReadBuildId((const char *)(info->dlpi_addr + phdr->p_vaddr),
                  phdr->p_memsz, &entry.module);
    if (phdr->p_type != PT_LOAD)
      continue;
    uptr beg = info->dlpi_addr + phdr->p_vaddr;
    segments.push_back({beg, beg + phdr->p_memsz, (phdr->p_flags & PF_X) != 0});
  }
  entry.segment_count = segments.size() - entry.first_segment;
  entries.push_back(entry);
  return 0;
}

void ListModules() {
  entries.clear();
  segments.clear();
  bool first = true;
  dl_iterate_phdr(AddModule, &first);
  listed = true;
}

int ReadCounters(struct dl_phdr_info *info, size_t, void *arg) {
  unsigned long long *counters = (unsigned long long *)arg;
  counters[0] = info->dlpi_adds;
  counters[1] = info->dlpi_subs;
  return 1;
}

// Whether a module was loaded or unloaded since the list was made.
bool ModulesChanged() {
  unsigned long long counters[2] = {listed_adds, listed_subs};
  dl_iterate_phdr(ReadCounters, counters);
  return counters[0] != listed_adds || counters[1] != listed_subs;
}

const Entry *Search(uptr addr, bool *executable) {
  for (uptr i = 0; i < entries.size(); i++) {
    const Entry &entry = entries[i];
    for (uptr k = 0; k < entry.segment_count; k++) {
      const Segment &segment = segments[entry.first_segment + k];
      if (addr >= segment.beg && addr < segment.end) {
        *executable = segment.executable;
        return &entry;
      }
    }
  }
  return nullptr;
}
} // namespace

bool __efsan::FindCxxLibraryCode(uptr *begin, uptr *end, uptr *eh_frame_hdr) {
  SpinMutexLock lock(&modules_mu);
  if (!listed || ModulesChanged())
    ListModules();
  for (uptr i = 0; i < entries.size(); i++) {
    const Entry &entry = entries[i];
    const char *name = StripModuleName(entry.module.path);
    if (internal_strncmp(name, "libstdc++.so", 12) &&
        internal_strncmp(name, "libc++.so", 9))
      continue;
    for (uptr k = 0; k < entry.segment_count; k++) {
      const Segment &segment = segments[entry.first_segment + k];
      if (!segment.executable)
        continue;
      *begin = segment.beg;
      *end = segment.end;
      *eh_frame_hdr = entry.module.eh_frame_hdr;
      return true;
    }
  }
  return false;
}

bool __efsan::FindModule(uptr addr, Module *module, bool *executable) {
  SpinMutexLock lock(&modules_mu);
  bool in_code = false;
  if (!listed)
    ListModules();
  const Entry *entry = Search(addr, &in_code);
  if (!entry && ModulesChanged()) {
    ListModules();
    entry = Search(addr, &in_code);
  }
  if (!entry)
    return false;
  *module = entry->module;
  if (executable)
    *executable = in_code;
  return true;
}
