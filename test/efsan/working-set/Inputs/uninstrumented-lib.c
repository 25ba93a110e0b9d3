// A shared library built without efsan (for dlopen.c).
char lib_table[64 * 64] __attribute__((aligned(64)));

char *lib_table_address(void) { return lib_table; }

// Its own accesses are not seen: it is not instrumented.
void lib_fill(char *buffer, int lines) {
  for (int i = 0; i < lines; i++)
    ((volatile char *)buffer)[i * 64] = 1;
}
