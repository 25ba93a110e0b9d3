//===-- efsan_ws_phases.c - working sets of the program's named phases ----===//
//
// __efsan_mark_phase(name) ends the open phase and opens the next one. A
// phase's working set is every line touched between its start and its end.
// The shadow has no bit to spare for it, so while a phase is open the
// sampler ORs each shadow word's "touched since the last sample" bits (bit 0
// of its eight bytes) into one byte of a bitmap, one bit per line, before it
// clears them; a phase boundary takes a sample at once, so that the bitmap
// holds exactly the lines touched since the phase began. At the end of the
// phase the bitmap is counted (by object too) and cleared. The sampler only
// pays for this on words that had a touched line anyway, and only while a
// phase is open.
//
// Everything here runs with the sampler lock held: samples, phase ends and
// reports are one sequence.
//
//===----------------------------------------------------------------------===//
#include "efsan_working_set.h"
#include "efsan_ws_mrc.h"

// One bit per line: a byte per shadow word, 1/8 of the shadow's reservation.
#define PHASE_BITS_SIZE ((EFSAN_SHADOW_END - EFSAN_SHADOW_OFFSET) / 8)
#define MAX_PHASES 4096

u8 *efsan_ws_phase_bits;
static u8 *phase_bitmap;          // reserved at the first phase
static uptr bits_lo = ~(uptr)0, bits_hi; // bytes of the bitmap written

struct phase {
  const char *name;
  u64 start_ns, end_ns; // on the sampler's clock from the run's start
  u64 lines;
  bool open; // still running (a report while the program runs)
  struct efsan_ws_top *top; // null without object attribution
};
static struct phase phases[MAX_PHASES];
static u32 num_phases;
static u32 phases_dropped;
static const char *open_name; // the open phase's, null if none
static u64 open_start_ns;
static struct phase open_so_far; // the open phase at a report while it runs

void efsan_ws_phase_note(u64 *shadow_word, u64 touched) {
  // Bit i of the byte: line i of the word (bytes are 0 or 1, so the product
  // gathers them into the top byte without carries).
  u8 lines = (u8)((touched * 0x0102040810204080ULL) >> 56);
  uptr index = ((uptr)shadow_word - EFSAN_SHADOW_OFFSET) / 8;
  if (efsan_ws_phase_bits[index] != (efsan_ws_phase_bits[index] | lines))
    efsan_ws_phase_bits[index] |= lines;
  if (index < bits_lo)
    bits_lo = index;
  if (index > bits_hi)
    bits_hi = index;
}

struct phase_count {
  u64 lines;
  struct efsan_ws_objects *tally;
};

static void count_bitmap_words(u64 *words, uptr count, void *arg) {
  struct phase_count *c = arg;
  for (uptr i = 0; i < count; i++) {
    u64 word = words[i];
    if (!word)
      continue;
    c->lines += __builtin_popcountll(word);
    if (!c->tally)
      continue;
    // Byte b of the word is shadow word (index + b): 512 bytes of app each.
    uptr index = ((uptr)&words[i] - (uptr)phase_bitmap);
    for (int b = 0; b < 8; b++) {
      u8 lines = (u8)(word >> (8 * b));
      if (!lines)
        continue;
      uptr app = (index + (uptr)b) * 512;
      efsan_ws_objects_add(c->tally, app, lines);
      // The reuse split's sample of the phase's lines.
      u8 sampled = lines & efsan_ws_timeline_sampled_lines(index + (uptr)b);
      if (sampled)
        efsan_ws_objects_add_sampled(c->tally, app, sampled);
    }
  }
}

// The phase's number for its miss-ratio curve (MAX_PHASES: the open one at
// a report while it runs).
static u32 phase_index(const struct phase *p) {
  return p == &open_so_far ? MAX_PHASES : (u32)(p - phases);
}

// Counts the bitmap into *p (lines, top objects).
static void count_phase(struct phase *p) {
  struct phase_count c = {0, 0};
  if (efsan_ws_objects_enabled())
    c.tally = efsan_ws_objects_begin();
  if (bits_lo <= bits_hi)
    efsan_for_each_resident((uptr)phase_bitmap + (bits_lo & ~(uptr)7),
                            (uptr)phase_bitmap + ((bits_hi + 8) & ~(uptr)7),
                            count_bitmap_words, &c, 0);
  p->lines = c.lines;
  efsan_ws_mrc_phase_count(phase_index(p), p != &open_so_far, p->name);
  if (c.tally) {
    efsan_ws_timeline_count_phase_reused(c.tally);
    if (!p->top)
      p->top = efsan_mmap(sizeof(struct efsan_ws_top));
    efsan_ws_objects_top(c.tally, (u32)efsan_flags.report_objects, p->top);
    efsan_ws_objects_end(c.tally);
  }
}

static void clear_bitmap(void) {
  if (bits_lo > bits_hi)
    return;
  uptr page = efsan_page_size();
  uptr lo = ((uptr)phase_bitmap + bits_lo) & ~(page - 1);
  uptr hi = ((uptr)phase_bitmap + bits_hi + page) & ~(page - 1);
  efsan_madvise_dontneed(lo, hi - lo);
  bits_lo = ~(uptr)0;
  bits_hi = 0;
}

static void end_open_phase(u64 now_ns) {
  if (!open_name)
    return;
  if (num_phases == MAX_PHASES) {
    phases_dropped++;
  } else {
    struct phase *p = &phases[num_phases++];
    p->name = open_name;
    p->start_ns = open_start_ns;
    p->end_ns = now_ns;
    count_phase(p);
  }
  clear_bitmap();
  efsan_ws_timeline_phase_boundary();
  open_name = 0;
  efsan_ws_phase_bits = 0;
}

static const char *intern(const char *name) {
  uptr length = efsan_internal_strlen(name) + 1;
  char *copy = efsan_mmap(length);
  efsan_internal_memcpy(copy, name, length);
  return copy;
}

// With the sampler lock, right after the boundary's sample.
static void switch_phase(void *arg) {
  const char *name = arg;
  // At the boundary's sample: the phase's lines are those it counted, and
  // the snapshots of every level end there too.
  end_open_phase(efsan_ws_last_sample_ns());
  if (!name)
    return;
  if (!phase_bitmap) {
    phase_bitmap = efsan_mmap_noreserve(PHASE_BITS_SIZE);
    efsan_regions_exclude((uptr)phase_bitmap,
                          (uptr)phase_bitmap + PHASE_BITS_SIZE);
  }
  open_name = name;
  efsan_ws_mrc_phase_open();
  // After the count of the phase that ended (the program waits for it, and
  // the first one may start the symbolizer): the new phase starts when the
  // program goes on.
  open_start_ns = efsan_ws_elapsed_ns();
  efsan_ws_phase_bits = phase_bitmap;
}

EFSAN_INTERFACE void __efsan_mark_phase(const char *name) {
  if (efsan_active_tool != EFSAN_TOOL_WORKING_SET)
    return;
  // Copied before the lock: the program's string is read as the program
  // would (the name is the program's data).
  const char *copy = name ? intern(name[0] ? name : "(unnamed)") : 0;
  efsan_ws_sample_now(switch_phase, (void *)copy);
}

void efsan_ws_phases_before_report(bool at_exit) {
  open_so_far.open = false;
  if (!open_name)
    return;
  // The report's sample was just taken (efsan_ws_report).
  if (at_exit) {
    end_open_phase(efsan_ws_last_sample_ns());
    return;
  }
  open_so_far.name = open_name;
  open_so_far.start_ns = open_start_ns;
  open_so_far.end_ns = efsan_ws_last_sample_ns();
  open_so_far.open = true;
  count_phase(&open_so_far);
}

void efsan_ws_phases_fork_child(void) {
  // The child's working set starts at fork; so do its phases (the open one
  // goes on, from the fork).
  num_phases = 0;
  phases_dropped = 0;
  open_start_ns = 0;
  if (phase_bitmap) {
    bits_lo = 0;
    bits_hi = PHASE_BITS_SIZE - 1;
    clear_bitmap();
  }
}

static void print_phase_text(const struct phase *p) {
  char size[32], fit[64];
  efsan_format_lines(size, sizeof(size), p->lines);
  efsan_cache_fit_text(fit, sizeof(fit), p->lines);
  efsan_report_line("  phase \"%s\"%s, %llu.%03llu-%llu.%03llu s: %llu lines "
                    "(%s), %s\n",
                    p->name, p->open ? " (still running, so far)" : "",
                    p->start_ns / 1000000000, p->start_ns / 1000000 % 1000,
                    p->end_ns / 1000000000, p->end_ns / 1000000 % 1000,
                    p->lines, size, fit);
  if (p->top)
    efsan_ws_objects_print_text(p->top, "    ");
}

void efsan_ws_phases_print_text(void) {
  if (!num_phases && !open_so_far.open)
    return;
  efsan_report_line("  phases (__efsan_mark_phase), in order, each with the "
                    "lines touched from its start to its end:\n");
  for (u32 i = 0; i < num_phases; i++)
    print_phase_text(&phases[i]);
  if (open_so_far.open)
    print_phase_text(&open_so_far);
  if (phases_dropped)
    efsan_report_line("  %u later phases not recorded (at most %d)\n",
                      phases_dropped, MAX_PHASES);
}

static void print_phase_json(const struct phase *p, bool first) {
  efsan_printf("%s\n  {\"name\": ", first ? "" : ",");
  efsan_json_string(p->name);
  efsan_printf(", \"start_ms\": %llu.%03llu, \"end_ms\": %llu.%03llu, "
               "\"lines\": %llu, \"fits_level\": %d, \"open\": %s, ",
               p->start_ns / 1000000, p->start_ns / 1000 % 1000,
               p->end_ns / 1000000, p->end_ns / 1000 % 1000, p->lines,
               efsan_cache_fit_level(p->lines), p->open ? "true" : "false");
  if (p->top && p->top->reuse_known) {
    efsan_ws_reuse_print_json(&p->top->reuse);
    efsan_printf(", \"reused_fits_level\": %d, ",
                 efsan_cache_fit_level(p->top->reuse.reused));
  }
  efsan_ws_mrc_print_phase_json(phase_index(p));
  efsan_printf("\"objects\": ");
  if (p->top)
    efsan_ws_objects_print_json(p->top);
  else
    efsan_printf("[]");
  efsan_printf("}");
}

void efsan_ws_phases_print_json(void) {
  efsan_printf("\"phases\": [");
  for (u32 i = 0; i < num_phases; i++)
    print_phase_json(&phases[i], i == 0);
  if (open_so_far.open)
    print_phase_json(&open_so_far, num_phases == 0);
  efsan_printf("]");
}
