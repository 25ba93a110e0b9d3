/* A process tree: the program forks and execs itself 200 times, one child
 * at a time, and each child does a little work of its own (a heap block
 * filled and hashed) and exits. What a tool adds to each process's start
 * and exit (its start-up, its report, the symbolizer it runs) is what a
 * server that starts a process per connection, a build system or a shell
 * pipeline pays: the benchmark shows it per process, in milliseconds. */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bench_common.h"

enum { CHILDREN = 200, CHILD_BYTES = 256 << 10 };

__attribute__((noinline)) static unsigned char *child_buffer(size_t size) {
  return malloc(size);
}

/* The child's work: its status is a hash of what it computed. */
static int child(unsigned seed) {
  unsigned char *buffer = child_buffer(CHILD_BYTES);
  if (!buffer)
    return 255;
  uint64_t state = seed;
  for (size_t i = 0; i < CHILD_BYTES; i += 8) {
    uint64_t v = bench_next(&state);
    memcpy(buffer + i, &v, 8);
  }
  uint64_t sum = 0;
  for (size_t i = 0; i < CHILD_BYTES; i++)
    sum = bench_mix(sum, buffer[i]);
  free(buffer);
  return (int)(sum % 251);
}

int main(int argc, char **argv) {
  if (argc == 3 && !strcmp(argv[1], "child"))
    return child((unsigned)atoi(argv[2]));
  uint64_t sum = 0;
  for (int i = 0; i < CHILDREN; i++) {
    pid_t pid = fork();
    if (pid < 0)
      return 1;
    if (pid == 0) {
      char seed[16];
      snprintf(seed, sizeof(seed), "%d", i);
      execl("/proc/self/exe", argv[0], "child", seed, (char *)0);
      _exit(127);
    }
    int status;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
        WEXITSTATUS(status) >= 251)
      return 1;
    sum = bench_mix(sum, (uint64_t)WEXITSTATUS(status));
  }
  bench_print_checksum("proc_tree", sum);
  return 0;
}
