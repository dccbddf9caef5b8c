#include "experience/rule_confidence.h"

#include <gtest/gtest.h>

namespace engram::experience {
namespace {

// Values from the closed form (p + z²/2n − z·sqrt(p(1−p)/n + z²/4n²)) / (1 + z²/n), z = 1.96.
TEST(WilsonLowerBoundTest, KnownValues) {
  EXPECT_NEAR(WilsonLowerBound(6, 6), 0.6097, 1e-4);
  EXPECT_NEAR(WilsonLowerBound(5, 5), 0.5655, 1e-4);
  EXPECT_NEAR(WilsonLowerBound(9, 10), 0.5958, 1e-4);
  EXPECT_NEAR(WilsonLowerBound(10, 10), 0.7225, 1e-4);
  EXPECT_NEAR(WilsonLowerBound(50, 100), 0.4038, 1e-4);
  EXPECT_DOUBLE_EQ(WilsonLowerBound(0, 0), 0.0);
  EXPECT_DOUBLE_EQ(WilsonLowerBound(0, 5), 0.0);
  EXPECT_DOUBLE_EQ(WilsonLowerBound(7, 5), WilsonLowerBound(5, 5)) << "clamped";
}

TEST(WilsonLowerBoundTest, GrowsWithEvidenceAtTheSameRate) {
  EXPECT_LT(WilsonLowerBound(4, 5), WilsonLowerBound(8, 10));
  EXPECT_LT(WilsonLowerBound(8, 10), WilsonLowerBound(80, 100));
  EXPECT_LT(WilsonLowerBound(80, 100), 0.8);
}

}  // namespace
}  // namespace engram::experience
