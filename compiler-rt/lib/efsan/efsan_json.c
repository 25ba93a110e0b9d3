//===-- efsan_json.c - what both tools' JSON reports share ----------------===//
//
// String escaping for both tools' JSON reports, in one place so that the two
// cannot drift apart in how they quote a string.
//
//===----------------------------------------------------------------------===//
#include "efsan_internal.h"

void efsan_json_string(const char *s) {
  // Printed in chunks: a string (a path, a suggestion) may be longer than
  // any buffer on the stack, and each efsan_printf is one write.
  char buffer[256];
  uptr at = 0;
  buffer[at++] = '"';
  for (; s && *s; s++) {
    if (at > sizeof(buffer) - 8) {
      buffer[at] = 0;
      efsan_printf("%s", buffer);
      at = 0;
    }
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') {
      buffer[at++] = '\\';
      buffer[at++] = (char)c;
    } else if (c < 0x20) {
      at += efsan_snprintf(buffer + at, sizeof(buffer) - at, "\\u%04x", c);
    } else {
      buffer[at++] = (char)c;
    }
  }
  buffer[at++] = '"';
  buffer[at] = 0;
  efsan_printf("%s", buffer);
}
