// Prints the pid the program itself sees.
// The program of the json-identity.c tests of both tools.
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(void) {
  volatile char *p = aligned_alloc(64, 4 * 64);
  for (int i = 0; i < 4; i++)
    p[i * 64] = 1;
  printf("pid %d\n", (int)getpid());
  return 0;
}
