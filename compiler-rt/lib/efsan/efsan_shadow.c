//===-- efsan_shadow.c - the shadow mapping -------------------------------===//
//
// One shadow byte per 64-byte line at (addr >> 6) + 0x7fff8000, reserved
// once with MAP_NORESERVE so only touched shadow pages cost memory. Scans go
// through mincore so that they cost in proportion to the shadow pages that
// exist, never to the 2 TiB reserved. The working set's changed-page map
// (efsan.h) lets the sampler go further and visit only the shadow pages that
// changed since its last sample. The working set marks the shadow in
// efsan_ws_mark.c.
//
//===----------------------------------------------------------------------===//
#include "efsan_internal.h"

#define ALL_BYTES(b) (0x0101010101010101ULL * (u8)(b))

void efsan_shadow_reserve(void) {
  int err = efsan_mmap_fixed_noreserve(EFSAN_SHADOW_OFFSET,
                                       EFSAN_SHADOW_END - EFSAN_SHADOW_OFFSET);
  if (err)
    efsan_fatal("cannot reserve the shadow memory [0x%llx, 0x%llx) "
                "(errno %d): the range is already mapped or the address "
                "space is limited (ulimit -v)",
                EFSAN_SHADOW_OFFSET, EFSAN_SHADOW_END, err);
}

void efsan_shadow_forget_all(void) {
  efsan_madvise_dontneed(EFSAN_SHADOW_OFFSET,
                         EFSAN_SHADOW_END - EFSAN_SHADOW_OFFSET);
}

// 16384 pages of shadow (64 MiB, covering 4 GiB of application memory) per
// mincore call. Callers serialize on the sampler lock, so one vector will do.
#define MINCORE_CHUNK_PAGES 16384
static u8 mincore_vec[MINCORE_CHUNK_PAGES];

bool efsan_for_each_resident(uptr lo, uptr hi, efsan_shadow_visitor visit,
                             void *arg, const bool *stop) {
  uptr page = efsan_page_size();
  uptr chunk = lo & ~(page - 1);
  while (chunk < hi) {
    if (stop && __atomic_load_n(stop, __ATOMIC_RELAXED))
      return false;
    uptr pages = (hi - chunk + page - 1) / page;
    if (pages > MINCORE_CHUNK_PAGES)
      pages = MINCORE_CHUNK_PAGES;
    if (efsan_mincore(chunk, pages * page, mincore_vec) == 0) {
      uptr i = 0;
      while (i < pages) {
        // Eight absent pages at a time: most of a large mapping's shadow
        // was never touched.
        if ((i & 7) == 0 && i + 8 <= pages) {
          u64 eight;
          __builtin_memcpy(&eight, &mincore_vec[i], 8);
          if (!(eight & 0x0101010101010101ULL)) {
            i += 8;
            continue;
          }
        }
        if (!(mincore_vec[i] & 1)) {
          i++;
          continue;
        }
        uptr run = i;
        while (run < pages && (mincore_vec[run] & 1))
          run++;
        uptr run_lo = chunk + i * page, run_hi = chunk + run * page;
        if (run_lo < lo)
          run_lo = lo;
        if (run_hi > hi)
          run_hi = hi;
        if (run_lo < run_hi)
          visit((u64 *)run_lo, (run_hi - run_lo) / 8, arg);
        i = run;
      }
    }
    chunk += pages * page;
  }
  return true;
}

bool efsan_shadow_for_each_resident(uptr app_lo, uptr app_hi,
                                    efsan_shadow_visitor visit, void *arg,
                                    const bool *stop) {
  if (app_hi > EFSAN_APP_END)
    app_hi = EFSAN_APP_END;
  if (app_lo >= app_hi)
    return true;
  // Regions are page aligned, so their shadow is 64-byte (word) aligned and
  // two regions never share a shadow word.
  uptr shadow_lo = (uptr)efsan_shadow_of(app_lo) & ~(uptr)7;
  uptr shadow_hi = ((uptr)efsan_shadow_of(app_hi - 1) + 8) & ~(uptr)7;
  return efsan_for_each_resident(shadow_lo, shadow_hi, visit, arg, stop);
}

static void visit_changed_words(u64 *dirty_words, uptr count, u8 wanted,
                                efsan_shadow_page_visitor visit, void *arg) {
  u64 wanted_bytes = ALL_BYTES(wanted);
  uptr shadow_page_size = (uptr)1 << EFSAN_SHADOW_PAGE_SHIFT;
  u64 *pending_words =
      (u64 *)((uptr)dirty_words - EFSAN_DIRTY_MAP + EFSAN_PENDING_MAP);
  for (uptr w = 0; w < count; w++) {
    u64 dirty = __atomic_load_n(&dirty_words[w], __ATOMIC_RELAXED);
    if (!dirty && !(pending_words[w] & wanted_bytes))
      continue;
    // The exchange takes exactly the changed bytes set so far and, as a
    // full barrier, orders the clearing before the shadow reads below.
    if (dirty)
      dirty = __atomic_exchange_n(&dirty_words[w], 0, __ATOMIC_SEQ_CST);
    u8 *dirty_bytes = (u8 *)&dirty, *pending_bytes = (u8 *)&pending_words[w];
    for (int b = 0; b < 8; b++) {
      if (!dirty_bytes[b] && !(pending_bytes[b] & wanted))
        continue;
      uptr index = (uptr)&dirty_words[w] - EFSAN_DIRTY_MAP + b;
      u64 *shadow =
          (u64 *)(EFSAN_SHADOW_OFFSET + (index << EFSAN_SHADOW_PAGE_SHIFT));
      pending_bytes[b] =
          visit(shadow, shadow_page_size / 8, pending_bytes[b], arg);
    }
  }
}

// The part of the changed-page map under the regions, in pages of the map
// (each covers 1 GiB of application memory); pages never written are
// skipped with mincore, 16384 at a time.
static u8 dirty_vec[MINCORE_CHUNK_PAGES];

bool efsan_shadow_for_each_changed(const struct efsan_region *regions, uptr n,
                                   u8 wanted, efsan_shadow_page_visitor visit,
                                   void *arg, const bool *stop) {
  uptr page = efsan_page_size();
  uptr done = EFSAN_DIRTY_MAP; // map pages below this were visited
  for (uptr r = 0; r < n; r++) {
    uptr lo = regions[r].lo, hi = regions[r].hi;
    if (hi > EFSAN_APP_END)
      hi = EFSAN_APP_END;
    if (lo >= hi)
      continue;
    uptr map_lo = (uptr)efsan_dirty_byte_of(efsan_shadow_of(lo)) & ~(page - 1);
    uptr map_hi =
        ((uptr)efsan_dirty_byte_of(efsan_shadow_of(hi - 1)) + page) &
        ~(page - 1);
    if (map_lo < done) // regions are sorted; neighbours share map pages
      map_lo = done;
    for (uptr chunk = map_lo; chunk < map_hi;) {
      if (stop && __atomic_load_n(stop, __ATOMIC_RELAXED))
        return false;
      uptr pages = (map_hi - chunk) / page;
      if (pages > MINCORE_CHUNK_PAGES)
        pages = MINCORE_CHUNK_PAGES;
      if (efsan_mincore(chunk, pages * page, dirty_vec) == 0) {
        // A page of the map that was never written has no changed page and
        // no pending one (pending bytes are set only on pages found changed).
        for (uptr i = 0; i < pages; i++) {
          if (!(dirty_vec[i] & 1))
            continue;
          if (stop && __atomic_load_n(stop, __ATOMIC_RELAXED))
            return false;
          visit_changed_words((u64 *)(chunk + i * page), page / 8, wanted,
                              visit, arg);
        }
      }
      chunk += pages * page;
    }
    if (map_hi > done)
      done = map_hi;
  }
  return true;
}
