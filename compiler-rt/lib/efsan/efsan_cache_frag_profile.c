//===-- efsan_cache_frag_profile.c - what this machine measured -----------===//
//
// The machine profile: what a shared cache line costs on this machine, as
// efsan-calibrate measured it (efsan_cache_frag_calibrate.c), kept in a file
// every cache-frag run on the machine reads at start-up. A run cannot
// measure it itself: pinned to one core, or beside other work, its threads
// never write a line at the same time, and a claim must not change with how
// busy the run was (docs/CacheFrag.md, "The machine profile"). The file
// keeps each measurement (the last CF_PROFILE_VALUES of each kind): a VM
// whose vCPUs share a core at one time and not at another gets both, and
// the claims are the range over them, their point the median of the rounds
// of the state the run met (below) or of all.
//
// One file per CPU model and CPU count, plain text:
//   key GenuineIntel-6-167-2cpus
//   updated 2026-11-29T07:40:12Z
//   transfer_ns 58 61 55
//   hammered_loss_ppm 371000 352000 368000
//   rmw_loss_ppm 882000 875000 891000
//   paired_loss_ppm 2000 0 1000
//   hammered_least_loss_ppm 61000 58000 66000
//   rmw_removed_loss_ppm 991000 990000 992000
//   hammered_most_loss_ppm 752000 741000 760000
//   hammered_stores_loss_ppm 752000 741000 760000
//
//===----------------------------------------------------------------------===//
#include "efsan_cache_frag_internal.h"

#define CF_PROFILE_VALUES 32
#define CF_PROFILE_BYTES 8192

struct cf_measured {
  u32 count;
  u32 values[CF_PROFILE_VALUES];
};
static struct cf_measured cf_measurements[CF_PROFILE_KINDS];
static const char *const cf_profile_names[CF_PROFILE_KINDS] = {
    "transfer_ns", "hammered_loss_ppm", "rmw_loss_ppm", "paired_loss_ppm",
    "hammered_least_loss_ppm", "rmw_removed_loss_ppm",
    "hammered_most_loss_ppm", "hammered_stores_loss_ppm",
    "one_write_loss_ppm", "work_8_loss_ppm", "work_32_loss_ppm",
    "work_1_loss_ppm", "work_2_loss_ppm", "work_4_loss_ppm",
    "unoptimised_loss_ppm", "rmw_work_1_loss_ppm",
    "rmw_removed_work_1_loss_ppm"};
static char cf_profile_file[512];
static char cf_profile_key[96];
static char cf_profile_updated[32];
// Why there is no profile, when there is none.
static const char *cf_profile_why = "cache_frag_machine_profile=none";

//===-- The machine's key ---------------------------------------------------===//

static u32 cf_online_cpus(void) {
  char text[256];
  if (efsan_read_file("/sys/devices/system/cpu/online", text, sizeof(text)) <= 0)
    return 0;
  u32 count = 0;
  for (const char *p = text; *p >= '0' && *p <= '9';) {
    u32 lo = 0, hi;
    while (*p >= '0' && *p <= '9')
      lo = lo * 10 + (u32)(*p++ - '0');
    hi = lo;
    if (*p == '-') {
      hi = 0;
      for (p++; *p >= '0' && *p <= '9';)
        hi = hi * 10 + (u32)(*p++ - '0');
    }
    count += hi >= lo ? hi - lo + 1 : 0;
    if (*p == ',')
      p++;
  }
  return count;
}

// "GenuineIntel-6-167-2cpus": what decides a line's cost (the CPU model and
// how many CPUs the machine has: a VM of another size is another machine).
static void cf_make_key(char *key, uptr size) {
  char vendor[13];
  unsigned family, model;
  cf_cpu_model(vendor, &family, &model);
  efsan_snprintf(key, size, "%s-%u-%u-%ucpus", vendor, family, model,
                 cf_online_cpus());
}

//===-- Reading and writing -------------------------------------------------===//

static bool cf_is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

static bool cf_starts_word(const char *line, const char *word) {
  uptr n = efsan_internal_strlen(word);
  return !efsan_internal_strncmp(line, word, n) &&
         (cf_is_space(line[n]) || !line[n] || line[n] == '\n');
}

static void cf_copy_word(char *out, uptr size, const char *p) {
  uptr n = 0;
  while (*p && *p != '\n' && !cf_is_space(*p) && n + 1 < size)
    out[n++] = *p++;
  out[n] = 0;
}

static void cf_parse_values(struct cf_measured *m, const char *p) {
  while (*p && *p != '\n') {
    while (cf_is_space(*p))
      p++;
    if (*p < '0' || *p > '9')
      break;
    u64 v = 0;
    while (*p >= '0' && *p <= '9')
      v = v * 10 + (u64)(*p++ - '0');
    if (m->count < CF_PROFILE_VALUES && v <= 0xffffffffu)
      m->values[m->count++] = (u32)v;
  }
}

// The file this run reads and efsan-calibrate writes, or false (with the
// reason) when there is none to use.
static bool cf_profile_path(void) {
  const char *option = efsan_flags.cache_frag_machine_profile;
  if (!option || !option[0] || !efsan_internal_strcmp(option, "none"))
    return false;
  if (efsan_internal_strcmp(option, "auto")) {
    efsan_snprintf(cf_profile_file, sizeof(cf_profile_file), "%s", option);
    return true;
  }
  const char *xdg = efsan_getenv("XDG_CACHE_HOME"), *home = efsan_getenv("HOME");
  if (xdg && xdg[0] == '/')
    efsan_snprintf(cf_profile_file, sizeof(cf_profile_file),
                   "%s/efsan/machine-%s.txt", xdg, cf_profile_key);
  else if (home && home[0] == '/')
    efsan_snprintf(cf_profile_file, sizeof(cf_profile_file),
                   "%s/.cache/efsan/machine-%s.txt", home, cf_profile_key);
  else {
    cf_profile_why = "no HOME or XDG_CACHE_HOME to keep one in";
    return false;
  }
  return true;
}

void cf_profile_load(void) {
  cf_make_key(cf_profile_key, sizeof(cf_profile_key));
  if (!cf_profile_path())
    return;
  static char text[CF_PROFILE_BYTES];
  if (efsan_read_file(cf_profile_file, text, sizeof(text)) < 0) {
    cf_profile_why = "none measured on this machine: efsan-calibrate makes one";
    return;
  }
  char key[sizeof(cf_profile_key)] = "";
  struct cf_measured read[CF_PROFILE_KINDS];
  efsan_internal_memset(read, 0, sizeof(read));
  for (const char *line = text; *line;) {
    if (cf_starts_word(line, "key"))
      cf_copy_word(key, sizeof(key), line + 4);
    else if (cf_starts_word(line, "updated"))
      cf_copy_word(cf_profile_updated, sizeof(cf_profile_updated), line + 8);
    for (int k = 0; k < CF_PROFILE_KINDS; k++)
      if (cf_starts_word(line, cf_profile_names[k]))
        cf_parse_values(&read[k],
                        line + efsan_internal_strlen(cf_profile_names[k]));
    while (*line && *line != '\n')
      line++;
    if (*line)
      line++;
  }
  // A profile of another machine (a home directory shared by several, a
  // file named by the option) prices nothing here.
  if (efsan_internal_strcmp(key, cf_profile_key)) {
    cf_profile_why = "the profile file is of another machine";
    efsan_vreport(1, "cache-frag: %s is the profile of %s, not of this "
                     "machine (%s): not used\n",
                  cf_profile_file, key[0] ? key : "no machine",
                  cf_profile_key);
    return;
  }
  efsan_internal_memcpy(cf_measurements, read, sizeof(read));
}

// Adds a measurement; the oldest goes when the kind has CF_PROFILE_VALUES.
void cf_profile_add(int kind, u32 value) {
  struct cf_measured *m = &cf_measurements[kind];
  if (m->count == CF_PROFILE_VALUES) {
    for (u32 i = 1; i < m->count; i++)
      m->values[i - 1] = m->values[i];
    m->count--;
  }
  m->values[m->count++] = value;
}

// "2026-11-29T07:40:12Z" from seconds since the epoch (days to a civil
// date: Howard Hinnant's algorithm).
static void cf_format_utc(char *out, uptr size, u64 seconds) {
  u64 days = seconds / 86400, rest = seconds % 86400;
  sptr z = (sptr)days + 719468;
  sptr era = z / 146097;
  u64 doe = (u64)(z - era * 146097);
  u64 yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  sptr y = (sptr)yoe + era * 400;
  u64 doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  u64 mp = (5 * doy + 2) / 153;
  u64 d = doy - (153 * mp + 2) / 5 + 1;
  u64 m = mp < 10 ? mp + 3 : mp - 9;
  if (m <= 2)
    y++;
  efsan_snprintf(out, size, "%04lld-%02llu-%02lluT%02llu:%02llu:%02lluZ",
                 (long long)y, m, d, rest / 3600, rest / 60 % 60, rest % 60);
}

bool cf_profile_save(void) {
  if (!cf_profile_file[0])
    return false;
  cf_format_utc(cf_profile_updated, sizeof(cf_profile_updated),
                efsan_realtime_seconds());
  static char text[CF_PROFILE_BYTES];
  uptr n = (uptr)efsan_snprintf(
      text, sizeof(text),
      "# efsan machine profile: what a shared cache line costs on this "
      "machine, measured by efsan-calibrate\n"
      "# (docs/CacheFrag.md, \"The machine profile\"); every cache-frag run "
      "on a machine of this key reads it.\n"
      "key %s\nupdated %s\n",
      cf_profile_key, cf_profile_updated);
  for (int k = 0; k < CF_PROFILE_KINDS && n < sizeof(text); k++) {
    n += (uptr)efsan_snprintf(text + n, sizeof(text) - n, "%s",
                              cf_profile_names[k]);
    for (u32 i = 0; i < cf_measurements[k].count && n < sizeof(text); i++)
      n += (uptr)efsan_snprintf(text + n, sizeof(text) - n, " %u",
                                cf_measurements[k].values[i]);
    if (n < sizeof(text))
      n += (uptr)efsan_snprintf(text + n, sizeof(text) - n, "\n");
  }
  if (n >= sizeof(text))
    return false;
  return efsan_write_file_replacing(cf_profile_file, text, n);
}

//===-- What the claims use -------------------------------------------------===//

bool cf_profile_has(int kind) { return cf_measurements[kind].count > 0; }
u32 cf_profile_count(int kind) { return cf_measurements[kind].count; }

//===-- The state this run met -------------------------------------------===//
//
// A round of efsan-calibrate adds one measurement of every kind, so a
// kind's k-th value from the end and the transfer's k-th from the end are
// of one round. The rounds fall into states by their transfers (a VM's
// vCPUs in one core complex, 35-55 ns, or in two, 175-250 ns): sorted, a
// transfer more than CF_STATE_GAP times the one before starts another. A
// run is in the state whose transfers its own is in, or within a factor of
// two of; the claims' point is the median of that state's rounds, the
// ranges stay over every round (docs/CacheFrag.md, "The machine's state").
#define CF_STATE_GAP 1.5
static bool cf_round_in_state[CF_PROFILE_VALUES]; // by round, newest first
static u32 cf_state_rounds;

// The state of a transfer: the least transfer of its state's rounds, or 0
// where it is in none.
// Values in ascending order (a profile holds at most CF_PROFILE_VALUES).
static void cf_sort(const u32 *values, u32 count, u32 *sorted) {
  for (u32 i = 0; i < count; i++) {
    u32 v = values[i], j = i;
    for (; j > 0 && sorted[j - 1] > v; j--)
      sorted[j] = sorted[j - 1];
    sorted[j] = v;
  }
}

u32 cf_profile_state_of(u32 transfer_ns) {
  const struct cf_measured *t = &cf_measurements[CF_PROFILE_TRANSFER];
  u32 sorted[CF_PROFILE_VALUES];
  cf_sort(t->values, t->count, sorted);
  for (u32 first = 0; first < t->count;) {
    u32 last = first;
    while (last + 1 < t->count &&
           sorted[last + 1] <= CF_STATE_GAP * sorted[last])
      last++;
    if (transfer_ns * 2 >= sorted[first] && transfer_ns <= 2 * sorted[last]) {
      // Within a factor of two of two states (a gap under 4x): the nearer.
      bool next_nearer =
          last + 1 < t->count && transfer_ns > sorted[last] &&
          (double)sorted[last + 1] / transfer_ns <
              (double)transfer_ns / sorted[last];
      if (!next_nearer)
        return sorted[first];
    }
    first = last + 1;
  }
  return 0;
}

u32 cf_profile_select_state(u32 transfer_ns) {
  const struct cf_measured *t = &cf_measurements[CF_PROFILE_TRANSFER];
  u32 state = cf_profile_state_of(transfer_ns);
  cf_state_rounds = 0;
  for (u32 r = 0; r < CF_PROFILE_VALUES; r++) {
    cf_round_in_state[r] =
        state && r < t->count &&
        cf_profile_state_of(t->values[t->count - 1 - r]) == state;
    cf_state_rounds += cf_round_in_state[r];
  }
  return cf_state_rounds;
}

u32 cf_profile_state_rounds(void) { return cf_state_rounds; }

// A kind's values of the state's rounds, or all of them where the state has
// none of that kind (a kind efsan-calibrate measured only in the other
// state).
static u32 cf_profile_values(int kind, bool state_only, u32 *out) {
  const struct cf_measured *m = &cf_measurements[kind];
  u32 n = 0;
  for (u32 i = 0; i < m->count; i++)
    if (!state_only || cf_round_in_state[m->count - 1 - i])
      out[n++] = m->values[i];
  if (!n && state_only)
    return cf_profile_values(kind, false, out);
  return n;
}

// The least, the median (the lower middle of an even count) and the most
// measured, of the state's rounds or of all.
enum cf_rank { CF_LEAST, CF_MEDIAN, CF_MOST };
static u32 cf_profile_sorted(int kind, enum cf_rank which, bool state_only) {
  u32 values[CF_PROFILE_VALUES], sorted[CF_PROFILE_VALUES];
  u32 count = cf_profile_values(kind, state_only, values);
  cf_sort(values, count, sorted);
  if (!count)
    return 0;
  return sorted[which == CF_LEAST    ? 0
                : which == CF_MEDIAN ? (count - 1) / 2
                                     : count - 1];
}

u32 cf_profile_count_at_most(int kind, u32 value) {
  const struct cf_measured *m = &cf_measurements[kind];
  u32 n = 0;
  for (u32 i = 0; i < m->count; i++)
    n += m->values[i] <= value;
  return n;
}

u32 cf_profile_point(int kind) {
  return cf_profile_sorted(kind, CF_MEDIAN, cf_state_rounds > 0);
}
u32 cf_profile_low(int kind) {
  return cf_profile_sorted(kind, CF_LEAST, false);
}
u32 cf_profile_high(int kind) {
  return cf_profile_sorted(kind, CF_MOST, false);
}
u32 cf_profile_state_low(int kind) {
  return cf_profile_sorted(kind, CF_LEAST, cf_state_rounds > 0);
}
u32 cf_profile_state_high(int kind) {
  return cf_profile_sorted(kind, CF_MOST, cf_state_rounds > 0);
}

bool cf_profile_found(void) {
  for (int k = 0; k < CF_PROFILE_KINDS; k++)
    if (cf_profile_has(k))
      return true;
  return false;
}
const char *cf_profile_where(void) { return cf_profile_file; }
const char *cf_profile_when(void) { return cf_profile_updated; }
const char *cf_profile_missing(void) { return cf_profile_why; }
const char *cf_profile_machine(void) { return cf_profile_key; }
