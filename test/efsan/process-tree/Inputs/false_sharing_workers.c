// A parent and two forked workers (named "worker"), each running the same
// lock-step false sharing of its own copy of a global struct: two threads
// take 2000 turns each, T1 incrementing pair.a, T2 pair.b. In each process
// that is 3999 invalidations observed (cache-frag/false-sharing-global.c
// explains the count) and 4000 accesses of each field, so the merged report
// has one finding of 3 * 3999 invalidations in 3 processes and the fields
// 12000 accesses each.
// The program of process-tree/merge-cache-frag.c and viewer/merged-pages.c.
#include "../../cache-frag/Inputs/lockstep.h"
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

struct pair {
  long a;
  long b;
};

_Alignas(64) volatile struct pair pair;

static void count(int me) {
  if (me)
    pair.b++;
  else
    pair.a++;
}

int main(void) {
  pid_t workers[2];
  for (int k = 0; k < 2; k++) {
    workers[k] = fork();
    if (workers[k] < 0)
      return 2;
    if (workers[k] == 0) {
      prctl(PR_SET_NAME, "worker");
      lockstep_run(count);
      exit(0);
    }
  }
  lockstep_run(count);
  int status = 0;
  for (int k = 0; k < 2; k++) {
    int s;
    if (waitpid(workers[k], &s, 0) != workers[k] || !WIFEXITED(s) ||
        WEXITSTATUS(s))
      status = 1;
  }
  return status;
}
