// bench/bench_util.h — timing and the deterministic PRNG shared by the `engram-bench` subcommands.
//
//   Clock::time_point t0 = Clock::now(); ...; double ms = MsSince(t0);   // wall time, ms
//   double cpu0 = ThreadCpuMs(); ...; double cpu = ThreadCpuMs() - cpu0;  // this thread's CPU, ms
//   Rng rng(seed); rng.Between(10, 40);                                   // same sequence everywhere
#ifndef ENGRAM_BENCH_BENCH_UTIL_H_
#define ENGRAM_BENCH_BENCH_UTIL_H_

#include <time.h>

#include <chrono>
#include <cstdint>
#include <vector>

namespace engram::bench {

using Clock = std::chrono::steady_clock;

// Wall time since `start`, in ms.
inline double MsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// CPU time consumed by the calling thread, ms: unlike wall time it does not count the time other
// processes hold the core, so it compares builds on a shared machine.
inline double ThreadCpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

// SplitMix64 (Steele, Lea, Flood 2014): small, fast, and the same sequence everywhere (no <random>
// distributions, whose output differs between standard libraries).
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1).
  double Unit() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
  // Uniform in [0, n) (n > 0).
  size_t Below(size_t n) { return static_cast<size_t>(Next() % n); }
  // Uniform in [lo, hi].
  int64_t Between(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(Next() % static_cast<uint64_t>(hi - lo + 1));
  }
  template <typename T>
  const T& Pick(const std::vector<T>& v) {
    return v[static_cast<size_t>(Next() % v.size())];
  }

 private:
  uint64_t state_;
};

}  // namespace engram::bench

#endif  // ENGRAM_BENCH_BENCH_UTIL_H_
