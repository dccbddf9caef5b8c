#include "server/rate_limiter.h"

#include <algorithm>

namespace engram::server {

std::optional<double> RateLimiter::Take(const std::string& caller) {
  if (rate_ <= 0) return std::nullopt;
  const auto now = std::chrono::steady_clock::now();
  std::lock_guard<std::mutex> lock(mu_);
  auto [it, fresh] = buckets_.try_emplace(caller, Bucket{burst_, now});
  Bucket& b = it->second;
  if (!fresh) {
    b.tokens = std::min(burst_, b.tokens + std::chrono::duration<double>(now - b.at).count() * rate_);
    b.at = now;
  }
  if (b.tokens >= 1) {
    b.tokens -= 1;
    return std::nullopt;
  }
  return (1 - b.tokens) / rate_;
}

}  // namespace engram::server
