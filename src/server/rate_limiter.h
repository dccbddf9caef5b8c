// server/rate_limiter.h — a token bucket per caller (API key id; "owner" for the local owner):
// `rate` requests a second on average, bursts of up to `burst`. Thread-safe.
#ifndef ENGRAM_SERVER_RATE_LIMITER_H_
#define ENGRAM_SERVER_RATE_LIMITER_H_

#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace engram::server {

class RateLimiter {
 public:
  // rate <= 0: unlimited. burst < 1 is taken as 1.
  RateLimiter(double rate, double burst) : rate_(rate), burst_(burst < 1 ? 1 : burst) {}

  // Takes one token of `caller`'s bucket: nullopt when there was one, else the seconds until there
  // is (for Retry-After).
  std::optional<double> Take(const std::string& caller);

 private:
  struct Bucket {
    double tokens;
    std::chrono::steady_clock::time_point at;
  };
  double rate_;
  double burst_;
  std::mutex mu_;
  std::map<std::string, Bucket> buckets_;
};

}  // namespace engram::server

#endif  // ENGRAM_SERVER_RATE_LIMITER_H_
