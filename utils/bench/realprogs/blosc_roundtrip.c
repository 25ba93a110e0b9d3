// The c-blosc workload of utils/realprogs.sh: compresses a file in 4 MiB
// chunks with each of three codecs on N threads (blosc's own pool),
// decompresses every chunk, checks it equals the input, and prints each
// codec's compressed size (which every build must print alike; not the
// bytes: blosc's zstd output differs from run to run at equal size).
//   blosc_roundtrip THREADS FILE
#include <blosc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK (4 << 20)

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: blosc_roundtrip THREADS FILE\n");
    return 2;
  }
  FILE *f = fopen(argv[2], "rb");
  if (!f) {
    perror(argv[2]);
    return 2;
  }
  char *in = malloc(CHUNK), *packed = malloc(CHUNK + BLOSC_MAX_OVERHEAD),
       *back = malloc(CHUNK);
  static const char *codecs[] = {"blosclz", "lz4", "zstd"};
  unsigned long long sizes[3] = {0};
  blosc_init();
  blosc_set_nthreads(atoi(argv[1]));
  size_t n;
  while ((n = fread(in, 1, CHUNK, f)) > 0) {
    for (int c = 0; c < 3; c++) {
      blosc_set_compressor(codecs[c]);
      int packed_size = blosc_compress(5, BLOSC_NOSHUFFLE, 1, n, in, packed,
                                       CHUNK + BLOSC_MAX_OVERHEAD);
      if (packed_size <= 0 ||
          blosc_decompress(packed, back, CHUNK) != (int)n ||
          memcmp(in, back, n)) {
        fprintf(stderr, "blosc_roundtrip: %s failed\n", codecs[c]);
        return 1;
      }
      sizes[c] += packed_size;
    }
  }
  blosc_destroy();
  for (int c = 0; c < 3; c++)
    printf("%s %llu\n", codecs[c], sizes[c]);
  fclose(f);
  free(in);
  free(packed);
  free(back);
  return 0;
}
