// Parent and child each print their own pid, once, after fork.
// The program of the json-fork.c tests of both tools.
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

// Each process prints its own pid once, after fork (a line buffered before
// fork would be printed by both).
static void print_pid(void) {
  printf("pid %d\n", (int)getpid());
  fflush(stdout);
}

int main(void) {
  volatile char *p = aligned_alloc(64, 4 * 64);
  pid_t child = fork();
  if (child < 0)
    return 2;
  for (int i = 0; i < 4; i++)
    p[i * 64] = 1;
  print_pid();
  if (child == 0)
    exit(0); // through exit(), so the child writes its report
  int status;
  if (waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
      WEXITSTATUS(status) != 0)
    return 1;
  return 0;
}
