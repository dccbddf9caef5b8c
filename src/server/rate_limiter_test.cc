#include "server/rate_limiter.h"

#include <gtest/gtest.h>

namespace engram::server {
namespace {

TEST(RateLimiterTest, BurstThenRefusedWithAWait) {
  RateLimiter limiter(/*rate=*/1, /*burst=*/3);
  for (int i = 0; i < 3; ++i) EXPECT_FALSE(limiter.Take("k")) << i;
  auto wait = limiter.Take("k");
  ASSERT_TRUE(wait);
  EXPECT_GT(*wait, 0);
  EXPECT_LE(*wait, 1.0);
  EXPECT_FALSE(limiter.Take("other")) << "buckets are per caller";
}

TEST(RateLimiterTest, ZeroRateIsUnlimited) {
  RateLimiter limiter(0, 1);
  for (int i = 0; i < 1000; ++i) ASSERT_FALSE(limiter.Take("k"));
}

}  // namespace
}  // namespace engram::server
