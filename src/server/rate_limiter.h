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

// One request's place in its caller's bucket, for the X-RateLimit-* headers.
struct RateQuota {
  bool allowed = true;            // a token was taken
  int limit = 0;                  // X-RateLimit-Limit: the bucket's size (burst), requests
  int remaining = 0;              // X-RateLimit-Remaining: whole tokens left after this request
  int reset_seconds = 0;          // X-RateLimit-Reset: seconds until the bucket is full again (ceil)
  double retry_after_seconds = 0;  // when refused: until one token is there (Retry-After, ceil)
};

class RateLimiter {
 public:
  // rate <= 0: unlimited. burst < 1 is taken as 1.
  RateLimiter(double rate, double burst) : rate_(rate), burst_(burst < 1 ? 1 : burst) {}

  // Takes one token of `caller`'s bucket: nullopt when there was one, else the seconds until there
  // is (for Retry-After).
  std::optional<double> Take(const std::string& caller);

  // As Take, with the bucket's state after the request; nullopt when unlimited (rate <= 0).
  std::optional<RateQuota> Admit(const std::string& caller);

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
