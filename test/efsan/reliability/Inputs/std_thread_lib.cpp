// A C++ library that starts a std::thread (std::thread::_M_start_thread in
// libstdc++), for a C program that loads it with dlopen.
#include <thread>

static volatile long counted;

extern "C" long count_in_thread(long n) {
  std::thread worker([n] {
    for (long i = 0; i < n; i++)
      counted = counted + 1;
  });
  worker.join();
  return counted;
}
