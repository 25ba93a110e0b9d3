//===-- efsan_figures.c - printed figures with the digits they have -------===//
//
// Both tools' reports print durations to three significant digits and
// estimates rounded to their error (docs/CacheFrag.md, "Figures"; the
// viewer's formatting.py prints the same from the JSON, which keeps full
// precision).
//
//===----------------------------------------------------------------------===//
#include "efsan_internal.h"

u64 efsan_round_3(u64 n) {
  u64 scale = 1;
  while (n / scale >= 1000)
    scale *= 10;
  if (scale == 1)
    return n;
  return (n + scale / 2) / scale * scale;
}

// A duration to three significant digits: "166 ms", "48.8 ms", "1.23 s",
// "12.3 us", "789 ns"; from 1000 s up, whole seconds.
void efsan_format_duration(char *buffer, uptr length, u64 ns) {
  u64 r = efsan_round_3(ns);
  u64 unit = r >= 1000000000ull ? 1000000000ull
             : r >= 1000000     ? 1000000
             : r >= 1000        ? 1000
                                : 1;
  const char *name = unit == 1000000000ull ? "s"
                     : unit == 1000000     ? "ms"
                     : unit == 1000        ? "us"
                                           : "ns";
  u64 whole = r / unit, rest = r % unit;
  if (whole >= 100 || unit == 1)
    efsan_snprintf(buffer, length, "%llu %s", whole, name);
  else if (whole >= 10)
    efsan_snprintf(buffer, length, "%llu.%llu %s", whole, rest / (unit / 10),
                   name);
  else
    efsan_snprintf(buffer, length, "%llu.%02llu %s", whole,
                   rest / (unit / 100), name);
}

// The power of ten of error's leading digit (1 for an error below 10).
static u64 error_unit(u64 error) {
  u64 unit = 1;
  while (error / unit >= 10)
    unit *= 10;
  return unit;
}

u64 efsan_round_to_error(u64 value, u64 error) {
  u64 unit = error_unit(error);
  return (value + unit / 2) / unit * unit;
}

u64 efsan_round_error(u64 error) {
  // Two significant digits.
  u64 unit = error_unit(error) / 10;
  if (!unit)
    return error;
  return (error + unit / 2) / unit * unit;
}
