// Bytes that only libc reads or writes on the program's behalf are counted:
// the program's own code never touches these buffers.
// RUN: %clang -O2 -fsanitize=efficiency-working-set %s -o %t
// RUN: rm -f %t.log.*
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.log %run %t
// RUN: %python %S/Inputs/check_report.py %t.log --count 1 "heap == 4 * 100 + 10 + 32 + 10"
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
char *(*volatile libc_strstr)(const char *, const char *) = strstr;
char *(*volatile libc_strchr)(const char *, int) = strchr;
char *(*volatile libc_strrchr)(const char *, int) = strrchr;
char *(*volatile libc_strtok_r)(char *, const char *, char **) = strtok_r;
char *(*volatile libc_strncpy)(char *, const char *, size_t) = strncpy;
int (*volatile libc_memcmp)(const void *, const void *, size_t) = memcmp;
int (*volatile libc_bcmp)(const void *, const void *, size_t) = bcmp;

// Writes the strings below without being seen: only libc's reads of them
// count.
__attribute__((disable_sanitizer_instrumentation, noinline)) static char *
unseen_string(int lines, int spaces, char fill, int special_at, char special,
              int nul_at) {
  char *s = aligned_alloc(64, lines * 64);
  for (int i = 0; i < lines * 64; i++)
    s[i] = i == special_at ? special : i >= nul_at ? 0 : i < spaces ? ' ' : fill;
  return s;
}

// The string functions read up to their match or the terminating NUL (and
// strtok_r writes the NUL that ends the token): 32 more lines, all heap.
static int strings(void) {
  // The match starts in line 5: lines 0..5 (6).
  char *haystack = unseen_string(20, 0, 'a', 5 * 64 + 10, 'x', 20 * 64 - 1);
  if (libc_strstr(haystack, "xa") != haystack + 5 * 64 + 10)
    return 1;
  // Found in line 3: lines 0..3 (4).
  char *found = unseen_string(20, 0, 'a', 3 * 64 + 1, 'q', 20 * 64 - 1);
  if (libc_strchr(found, 'q') != found + 3 * 64 + 1)
    return 1;
  // Not found: up to the NUL in line 7 (8).
  char *missing = unseen_string(20, 0, 'a', -1, 0, 7 * 64 + 5);
  if (libc_strchr(missing, 'q'))
    return 1;
  // strrchr reads the whole string: NUL in line 4 (5).
  char *last = unseen_string(20, 0, 'a', 64 + 2, 'r', 4 * 64 + 1);
  if (libc_strrchr(last, 'r') != last + 64 + 2)
    return 1;
  // Delimiters up to line 1, the token up to the ',' in line 2, which
  // becomes its NUL: lines 0..2 (3).
  char *tokens = unseen_string(10, 64 + 3, 'b', 2 * 64 + 10, ',', 10 * 64 - 1);
  char *save;
  char *token = libc_strtok_r(tokens, " ,", &save);
  if (token != tokens + 64 + 3 || save != tokens + 2 * 64 + 11)
    return 1;
  // strncpy reads the source up to its NUL in line 1 (2) and writes all n
  // bytes of the destination (4).
  char *source = unseen_string(10, 0, 'c', -1, 0, 64 + 5);
  char *destination = aligned_alloc(64, 4 * 64);
  libc_strncpy(destination, source, 4 * 64);
  return 0;
}

// memcmp and bcmp read both blocks whole (strict_memcmp, the default), even
// when the first bytes differ: 3 + 3 and 2 + 2 lines.
static int compares(void) {
  char *first = unseen_string(3, 0, 'a', 0, 'x', 3 * 64);
  char *second = unseen_string(3, 0, 'a', 0, 'y', 3 * 64);
  if (libc_memcmp(first, second, 3 * 64) >= 0)
    return 1;
  char *left = unseen_string(2, 0, 'b', -1, 0, 2 * 64);
  char *right = unseen_string(2, 0, 'b', -1, 0, 2 * 64);
  return libc_bcmp(left, right, 2 * 64) != 0;
}

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
  if (strings() || compares())
    return 1;
  return length == kLines * 64 - 1 ? 0 : 1;
}
