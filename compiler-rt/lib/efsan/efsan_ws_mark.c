//===-- efsan_ws_mark.c - the working set's marking of the shadow --------===//
//
// The lines of a range marked in the shadow (bits 0 and 7 of each line's
// byte), and their shadow pages in the changed-page map. The inline check
// that skips ranges marked already is efsan_ws_mark_range
// (efsan_working_set.h).
//
//===----------------------------------------------------------------------===//
#include "efsan_ws_mrc.h"

#define ONES 0x0101010101010101ULL

static inline u64 load_word(const u8 *p) {
  u64 word;
  __builtin_memcpy(&word, p, 8);
  return word;
}

// Check before store: a line with bit 0 gets no store, so lines the program
// touches again and again within a period cost it no writes to shared
// memory. Stores stay byte-sized so that they never overwrite bits that
// another thread or the sampler changes next door. One changed-page store
// per shadow page written, after that page's shadow stores (x86 keeps
// stores in order and the store is a release, so a sampler that clears the
// byte and then reads the shadow sees the new bits or finds the page
// changed again), and without a test of the byte first
// (docs/InstrumentationABI.md, "Changed-page map", says why). A line the
// miss-ratio curves observe (efsan_ws_mrc.c) is recorded there instead and
// keeps bit 0 clear.
void efsan_ws_mark_shadow(u8 *shadow, u8 *last) {
  u8 *end = last + 1;
  u8 *unannounced = 0; // the changed-page byte still to store
  while (shadow < end) {
    uptr left = (uptr)(end - shadow);
    if (left >= 32 && (load_word(shadow) & load_word(shadow + 8) &
                       load_word(shadow + 16) & load_word(shadow + 24) &
                       ONES) == ONES) {
      shadow += 32;
      continue;
    }
    uptr bytes = left < 8 ? left : 8;
    if (bytes == 8 && (load_word(shadow) & ONES) == ONES) {
      shadow += 8;
      continue;
    }
    for (u8 *stop = shadow + bytes; shadow < stop; shadow++) {
      u8 bits = *(volatile u8 *)shadow;
      if (bits & 1)
        continue;
      if (EFSAN_UNLIKELY(efsan_ws_mrc_observed(shadow))) {
        efsan_ws_mrc_access(shadow); // leaves bit 0 clear
        continue;
      }
      *(volatile u8 *)shadow = bits | EFSAN_WS_ACCESS_BITS;
      u8 *dirty = efsan_dirty_byte_of(shadow);
      if (dirty != unannounced && unannounced)
        __atomic_store_n(unannounced, 1, __ATOMIC_RELEASE);
      unannounced = dirty;
    }
  }
  if (unannounced)
    __atomic_store_n(unannounced, 1, __ATOMIC_RELEASE);
}

void efsan_ws_mark_range_clipped(uptr addr, uptr size) {
  if (addr >= EFSAN_APP_END || size == 0)
    return;
  efsan_ws_mark_shadow(efsan_shadow_of(addr),
                       efsan_shadow_of(EFSAN_APP_END - 1));
}
