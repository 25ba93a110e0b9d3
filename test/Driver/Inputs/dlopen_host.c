// dlopen_host LIBRARY FUNCTION: a program built without efsan that loads
// LIBRARY, calls `long FUNCTION(void)` in it and prints the result.
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: dlopen_host LIBRARY FUNCTION\n");
    return 2;
  }
  void *library = dlopen(argv[1], RTLD_NOW);
  if (!library) {
    fprintf(stderr, "dlopen_host: %s\n", dlerror());
    return 1;
  }
  long (*function)(void) = (long (*)(void))dlsym(library, argv[2]);
  if (!function) {
    fprintf(stderr, "dlopen_host: %s\n", dlerror());
    return 1;
  }
  printf("%s returned %ld\n", argv[2], function());
  return 0;
}
