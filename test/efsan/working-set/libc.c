// Bytes that only libc reads or writes on the program's behalf are counted:
// the program's own code never touches these buffers.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -f %t.log.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.log %run %t
// RUN: %python %S/Inputs/check_report.py %t.log --count 1 "heap == 4 * 100 + 10"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// Called through pointers so the compiler cannot turn them into inline code
// or efsan's own memset/memcpy callouts: these are libc's.
void *(*volatile libc_memset)(void *, int, size_t) = memset;
void *(*volatile libc_memcpy)(void *, const void *, size_t) = memcpy;
size_t (*volatile libc_strlen)(const char *) = strlen;

enum { kLines = 100 };

int main(void) {
  char *set = aligned_alloc(64, kLines * 64);
  char *copy = aligned_alloc(64, kLines * 64);
  char *input = aligned_alloc(64, kLines * 64);
  char *text = aligned_alloc(64, kLines * 64);
  char *formatted = aligned_alloc(64, 10 * 64);
  libc_memset(set, 'x', kLines * 64);        // 100 lines written
  libc_memcpy(copy, set, kLines * 64);       // 100 more written (set read)
  int fd = open("/dev/zero", O_RDONLY);
  if (fd < 0 || read(fd, input, kLines * 64) != kLines * 64) // 100 more
    return 1;
  close(fd);
  libc_memcpy(text, set, kLines * 64 - 1);  // 100 more
  text[kLines * 64 - 1] = 0;                 // (a line memcpy wrote)
  size_t length = libc_strlen(text);         // reads them again
  // snprintf writes 639 digits and the NUL: exactly 10 lines.
  snprintf(formatted, 10 * 64, "%0*d", 10 * 64 - 1, 0);
  return length == kLines * 64 - 1 ? 0 : 1;
}
