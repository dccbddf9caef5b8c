#include "server/rate_limiter.h"

#include <algorithm>
#include <cmath>

namespace engram::server {

std::optional<double> RateLimiter::Take(const std::string& caller) {
  auto quota = Admit(caller);
  if (!quota || quota->allowed) return std::nullopt;
  return quota->retry_after_seconds;
}

std::optional<RateQuota> RateLimiter::Admit(const std::string& caller) {
  if (rate_ <= 0) return std::nullopt;
  const auto now = std::chrono::steady_clock::now();
  std::lock_guard<std::mutex> lock(mu_);
  auto [it, fresh] = buckets_.try_emplace(caller, Bucket{burst_, now});
  Bucket& b = it->second;
  if (!fresh) {
    b.tokens = std::min(burst_, b.tokens + std::chrono::duration<double>(now - b.at).count() * rate_);
    b.at = now;
  }
  RateQuota q;
  q.allowed = b.tokens >= 1;
  if (q.allowed) {
    b.tokens -= 1;
  } else {
    q.retry_after_seconds = (1 - b.tokens) / rate_;
  }
  q.limit = static_cast<int>(burst_);
  q.remaining = static_cast<int>(std::floor(b.tokens));
  q.reset_seconds = static_cast<int>(std::ceil((burst_ - b.tokens) / rate_));
  return q;
}

}  // namespace engram::server
