#include "experience/experience_forget_score.h"

#include <gtest/gtest.h>

#include <cmath>

namespace engram::experience {
namespace {

constexpr TimestampMs kDay = 86400000;
const ExperienceOptions kDefaults;

TEST(ForgetScoreTest, DesignFormulaValues) {
  // Fresh, never accessed, succeeded: 0.5 + 0 + 0.2.
  EXPECT_NEAR(ForgetScore({.last_access = 0, .accesses = 0, .success_rate = 1}, 0, kDefaults), 0.7, 1e-12);
  // 60 days, 3 accesses, half success: 0.5/e + 0.3 ln 4 + 0.1.
  EXPECT_NEAR(ForgetScore({.last_access = 0, .accesses = 3, .success_rate = 0.5}, 60 * kDay, kDefaults),
              0.5 / std::exp(1.0) + 0.3 * std::log(4.0) + 0.1, 1e-12);
  // An access in the future counts as now.
  EXPECT_NEAR(ForgetScore({.last_access = 5 * kDay, .accesses = 0, .success_rate = 0}, 0, kDefaults), 0.5, 1e-12);
}

TEST(ForgetScoreTest, ANeverRecalledFailureGoesColdAfter55DaysAndIsDeletedAfter138) {
  auto at = [](int days) {
    return Judge(ForgetScore({.last_access = 0, .accesses = 0, .success_rate = 0}, days * kDay, kDefaults), kDefaults);
  };
  EXPECT_EQ(at(54), ForgetVerdict::kWarm);   // 60 ln 2.5 = 54.98
  EXPECT_EQ(at(55), ForgetVerdict::kCold);
  EXPECT_EQ(at(138), ForgetVerdict::kCold);  // 60 ln 10 = 138.16
  EXPECT_EQ(at(139), ForgetVerdict::kDelete);
}

TEST(ForgetScoreTest, ASuccessNeverGoesColdAndAccessesKeepThingsWarm) {
  EXPECT_EQ(Judge(ForgetScore({.last_access = 0, .accesses = 0, .success_rate = 1}, 10000 * kDay, kDefaults), kDefaults),
            ForgetVerdict::kWarm);
  // One access: 0.3 ln 2 = 0.208 ≥ 0.2 for ever.
  EXPECT_EQ(Judge(ForgetScore({.last_access = 0, .accesses = 1, .success_rate = 0}, 10000 * kDay, kDefaults), kDefaults),
            ForgetVerdict::kWarm);
}

TEST(ForgetScoreTest, SuccessRatesOfEpisodesAndRules) {
  EXPECT_EQ(EpisodeSuccessRate("success"), 1.0);
  EXPECT_EQ(EpisodeSuccessRate("partial"), 0.5);
  EXPECT_EQ(EpisodeSuccessRate("failure"), 0.0);
  EXPECT_EQ(EpisodeSuccessRate("unknown"), 0.0);
  Rule avoid{.polarity = "avoid", .support = 4, .success_count = 1, .failure_count = 3};
  EXPECT_DOUBLE_EQ(RuleSuccessRate(avoid), 0.75);
  Rule doing{.polarity = "do", .support = 4, .success_count = 1, .failure_count = 3};
  EXPECT_DOUBLE_EQ(RuleSuccessRate(doing), 0.25);
  EXPECT_DOUBLE_EQ(RuleSuccessRate(Rule{.polarity = "do"}), 0.0);
}

}  // namespace
}  // namespace engram::experience
