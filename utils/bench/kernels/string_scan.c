/* Text processing through libc's str* functions: strlen, strchr, strstr,
 * strcmp, strncpy and strtok_r over a pool of generated words and lines. */
#include <stdlib.h>
#include <string.h>
#include "bench_common.h"

enum { LINES = 4000, LINE_LEN = 300, PASSES = 2700 };

int main(void) {
  static const char *const words[] = {
      "cache", "line", "false", "sharing", "working", "set", "shadow", "thread",
      "sample", "window", "counter", "struct", "field", "padding", "needle"};
  enum { NWORDS = sizeof(words) / sizeof(words[0]) };
  char *text = malloc((size_t)LINES * LINE_LEN);
  char *copy = malloc(LINE_LEN);
  if (!text || !copy) return 1;
  uint64_t seed = 7;
  for (int l = 0; l < LINES; l++) {
    char *line = text + (size_t)l * LINE_LEN;
    line[0] = '\0';
    size_t used = 0;
    for (;;) {
      const char *w = words[bench_next(&seed) % NWORDS];
      size_t wl = strlen(w);
      if (used + wl + 2 >= LINE_LEN) break;
      memcpy(line + used, w, wl);
      used += wl;
      line[used++] = ' ';
      line[used] = '\0';
    }
  }
  uint64_t sum = 0;
  for (int p = 0; p < PASSES; p++) {
    const char *needle = words[p % NWORDS];
    for (int l = 0; l < LINES; l++) {
      const char *line = text + (size_t)l * LINE_LEN;
      sum += strlen(line);
      const char *hit = strstr(line, needle);
      sum += hit ? (uint64_t)(hit - line) : 7;
      const char *ch = strchr(line, 'z' - p % 20);
      sum += ch ? (uint64_t)(ch - line) : 3;
      sum += (uint64_t)(strcmp(line, text + (size_t)((l + 1) % LINES) * LINE_LEN) > 0);
      if (l % 16 == 0) {
        strncpy(copy, line, LINE_LEN - 1);
        copy[LINE_LEN - 1] = '\0';
        char *save = NULL;
        for (char *tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
          sum = bench_mix(sum, strlen(tok));
      }
    }
  }
  bench_print_checksum("string_scan", sum);
  free(text); free(copy);
  return 0;
}
