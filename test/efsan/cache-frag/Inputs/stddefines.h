// Phoenix's allocation helpers (stddefines.h): static inline in a header,
// an error check that prints and asserts, so that they are inlined into
// every caller and every object's innermost frame is theirs.
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK_ERROR(a)                                                        \
  {                                                                           \
    if (a) {                                                                  \
      perror("Error at line\n\t" #a "\nSystem Msg");                          \
      assert((a) == 0);                                                       \
    }                                                                         \
  }

static inline void *CALLOC(size_t num, size_t size) {
  void *temp = calloc(num, size);
  CHECK_ERROR(temp == NULL);
  return temp;
}
