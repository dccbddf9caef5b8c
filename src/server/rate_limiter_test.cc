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

TEST(RateLimiterTest, AdmitReportsTheBucketForTheRateLimitHeaders) {
  RateLimiter limiter(/*rate=*/2, /*burst=*/3);
  auto first = limiter.Admit("k");
  ASSERT_TRUE(first);
  EXPECT_TRUE(first->allowed);
  EXPECT_EQ(first->limit, 3);
  EXPECT_EQ(first->remaining, 2);
  EXPECT_EQ(first->reset_seconds, 1);  // one token at 2/s: 0.5 s, rounded up
  limiter.Admit("k");
  limiter.Admit("k");
  auto refused = limiter.Admit("k");
  ASSERT_TRUE(refused);
  EXPECT_FALSE(refused->allowed);
  EXPECT_EQ(refused->remaining, 0);
  EXPECT_GT(refused->retry_after_seconds, 0);
  EXPECT_LE(refused->retry_after_seconds, 0.5);
  EXPECT_EQ(refused->reset_seconds, 2);  // three tokens at 2/s: 1.5 s, rounded up
  EXPECT_FALSE(RateLimiter(0, 1).Admit("k")) << "unlimited: no headers";
}

}  // namespace
}  // namespace engram::server
