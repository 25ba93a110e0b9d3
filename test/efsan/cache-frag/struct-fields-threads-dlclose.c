// Each thread counts its sampled field accesses in a table of its own (an
// atomic add to a counter both cores write was most of a sample's cost);
// the report adds up the module's counters and the tables of the threads
// still running, exited threads' counts go to the module, and a module's
// counts are kept when it is unloaded. Loaded again (often at the same
// address), its counters start from zero: a count a thread made in the
// first copy is not counted again in the second. With every access sampled
// the counts are exact: calls = 1000 + 2000 + 3000 + 4000 + 500 in the first
// copy, 3000 + 3000 + 700 in the second, 17200: one load of `reads` and two
// accesses to `writes` per call. One thread of the second copy is still
// running (blocked) when the program exits.
// RUN: %clang -O2 -g -fPIC -shared -fsanitize=efficiency-cache-frag %S/Inputs/tally_lib.c -o %t.so
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag %s -o %t -ldl -pthread
// RUN: env ESAN_OPTIONS=cache_frag_sample_period=1 %run %t %t.so 2>&1 | FileCheck %s
// RUN: %if taskset %{ env ESAN_OPTIONS=cache_frag_sample_period=1 taskset -c 0 %run %t %t.so 2>&1 | FileCheck %s %}
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct tally {
  long reads, writes, unused;
};

static void (*tally_work)(struct tally *, int);

struct job {
  struct tally tally __attribute__((aligned(64)));
  int calls;
  int block; // then wait for a byte that never comes
};

static int never[2], worked[2];

static void *run(void *arg) {
  struct job *job = arg;
  tally_work(&job->tally, job->calls);
  if (job->block) {
    char byte = 1;
    if (write(worked[1], &byte, 1) != 1)
      abort();
    while (read(never[0], &byte, 1) < 0) {
    }
  }
  return NULL;
}

static void load(const char *path, void **handle) {
  *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!*handle) {
    fprintf(stderr, "%s\n", dlerror());
    exit(2);
  }
  tally_work = (void (*)(struct tally *, int))dlsym(*handle, "tally_work");
}

static void round_of(int threads, const int *calls, int blocked, int own) {
  static struct job jobs[4];
  pthread_t ids[4];
  for (int t = 0; t < threads; t++) {
    jobs[t].calls = calls[t];
    jobs[t].block = t == blocked;
    pthread_create(&ids[t], NULL, run, &jobs[t]);
  }
  struct tally mine = {1, 0, 0};
  tally_work(&mine, own);
  for (int t = 0; t < threads; t++)
    if (t != blocked)
      pthread_join(ids[t], NULL);
  char byte;
  if (blocked >= 0 && read(worked[0], &byte, 1) != 1)
    abort();
}

int main(int argc, char **argv) {
  if (pipe(never) || pipe(worked))
    return 2;
  void *handle;
  load(argv[1], &handle);
  round_of(4, (const int[]){1000, 2000, 3000, 4000}, -1, 500);
  dlclose(handle);
  load(argv[1], &handle);
  round_of(2, (const int[]){3000, 3000}, 1, 700);

  return 0;
}

// CHECK: struct tally: size 24, 3 fields, 51600 accesses
// CHECK-NEXT: field 0 reads offset 0 size 8 type long count 17200
// CHECK-NEXT: field 1 writes offset 8 size 8 type long count 34400
// CHECK-NEXT: field 2 unused offset 16 size 8 type long count 0
