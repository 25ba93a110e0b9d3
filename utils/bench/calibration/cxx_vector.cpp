// A std::vector of 24-byte per-thread structs, each thread updating its own
// element. Fix: each element 64-byte aligned.
#include <cstdint>
#include <cstdio>
#include <thread>
#include <vector>

static const long kIterations = 100000000L;
struct
#ifdef FIX
    alignas(64)
#endif
    Tally {
  uint64_t hits = 0;
  uint64_t misses = 0;
  uint64_t last = 0;
};

static uint64_t step(uint64_t x) {
  x ^= x << 13;
  x ^= x >> 7;
  return x ^ (x << 17);
}

int main() {
  std::vector<Tally> tallies(2);
  std::vector<std::thread> threads;
  for (int me = 0; me < 2; me++)
    threads.emplace_back([&tallies, me] {
      volatile Tally &t = tallies[me];
      uint64_t x = me + 11;
      for (long i = 0; i < kIterations; i++) {
        x = step(x);
        t.hits = t.hits + (x >> 63);
        t.misses = t.misses + (~x >> 63);
        t.last = x >> 48;
      }
    });
  for (auto &t : threads)
    t.join();
  uint64_t sum = 0;
  for (auto &t : tallies)
    sum = sum * 31 + t.hits * 7 + t.misses * 3 + t.last;
  std::printf("cxx_vector checksum %016llx\n", (unsigned long long)sum);
}
