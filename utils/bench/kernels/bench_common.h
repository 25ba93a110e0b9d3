/* Shared by the benchmark kernels: a deterministic PRNG and the checksum line
 * that utils/bench.sh compares across configurations. Header-only so that each
 * kernel stays one self-contained translation unit. */
#ifndef EFSAN_BENCH_COMMON_H
#define EFSAN_BENCH_COMMON_H

#include <stdint.h>
#include <stdio.h>

/* splitmix64: fixed seed, so every configuration computes the same input. */
static inline uint64_t bench_next(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* Mixes a value into a running checksum (order-dependent, like FNV). */
static inline uint64_t bench_mix(uint64_t sum, uint64_t value) {
  return (sum ^ value) * 0x100000001b3ull + (sum >> 29);
}

static inline void bench_print_checksum(const char *kernel, uint64_t sum) {
  printf("%s checksum %016llx\n", kernel, (unsigned long long)sum);
}

/* The input file of the kernels that stream a mapped file once (the Phoenix
 * suite's programs mmap their input): argv[1] is the file; with
 * `--make-input FILE` the kernel writes it instead (bytes from `byte`, in
 * order) and exits. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static inline int bench_make_input(const char *path, size_t bytes, uint64_t seed,
                                   unsigned char (*byte)(size_t, uint64_t *)) {
  FILE *f = fopen(path, "wb");
  if (!f) return 1;
  static unsigned char block[1 << 20];
  for (size_t done = 0; done < bytes;) {
    size_t n = bytes - done < sizeof(block) ? bytes - done : sizeof(block);
    for (size_t i = 0; i < n; i++) block[i] = byte(done + i, &seed);
    if (fwrite(block, 1, n, f) != n) return 1;
    done += n;
  }
  return fclose(f) != 0;
}

/* Maps the file as Phoenix's programs do (readable and writable, private). */
static inline unsigned char *bench_map_input(const char *path, size_t *bytes) {
  int fd = open(path, O_RDONLY);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) return NULL;
  void *p = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
  close(fd);
  if (p == MAP_FAILED) return NULL;
  *bytes = (size_t)st.st_size;
  return p;
}

#endif
