// A parent and three forked workers (named "worker") that share an
// anonymous MAP_SHARED mapping of 256 lines: the parent touches its lines
// [0, 32), worker k the lines [32 + 48k, 96 + 48k), so that workers 0 and 1
// share [80, 96) and workers 1 and 2 share [128, 144). Each worker also
// fills a heap block of 100 lines of its own (worker_block), the parent one
// of 40 (parent_block). The merged report's answers follow from these
// numbers alone: the shared lines counted once are [0, 192), 192 of them;
// 224 summed (32 + 3 * 64); 32 touched by more than one process, all by
// workers; the workers' heap 300 lines.
// The program of process-tree/merge-working-set.c and viewer/merged-pages.c.
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#define LINE 64

static void touch(volatile char *p, int first, int count) {
  for (int i = first; i < first + count; i++)
    p[i * LINE] = 1;
}

__attribute__((noinline)) static char *worker_block(void) {
  return aligned_alloc(LINE, 100 * LINE);
}

__attribute__((noinline)) static char *parent_block(void) {
  return aligned_alloc(LINE, 40 * LINE);
}

int main(void) {
  char *shared = mmap(0, 256 * LINE, PROT_READ | PROT_WRITE,
                      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shared == MAP_FAILED)
    return 2;
  touch(shared, 0, 32);
  pid_t workers[3];
  for (int k = 0; k < 3; k++) {
    workers[k] = fork();
    if (workers[k] < 0)
      return 2;
    if (workers[k] == 0) {
      prctl(PR_SET_NAME, "worker");
      touch(shared, 32 + 48 * k, 64);
      touch(worker_block(), 0, 100);
      exit(0);
    }
  }
  touch(parent_block(), 0, 40);
  int status = 0;
  for (int k = 0; k < 3; k++) {
    int s;
    if (waitpid(workers[k], &s, 0) != workers[k] || !WIFEXITED(s) ||
        WEXITSTATUS(s))
      status = 1;
  }
  return status;
}
