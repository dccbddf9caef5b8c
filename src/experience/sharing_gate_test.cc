#include "experience/sharing_gate.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace engram::experience {
namespace {

using ::testing::ElementsAre;

const ExperienceOptions kDefaults;

TEST(SharingGateTest, TwoAgentsAreNotEnoughEvenWhenAllSucceeded) {
  GateDecision d = EvaluateSharingGate({{"a", 5, 5}, {"b", 5, 5}}, kDefaults);
  EXPECT_FALSE(d.shared);
  EXPECT_EQ(d.agents, 2);
  EXPECT_DOUBLE_EQ(d.success_rate, 1.0);
}

TEST(SharingGateTest, ThreeAgentsAtTwoThirdsAreBelowSeventyPercent) {
  GateDecision d = EvaluateSharingGate({{"a", 1, 1}, {"b", 1, 1}, {"c", 1, 0}}, kDefaults);
  EXPECT_FALSE(d.shared);
  EXPECT_NEAR(d.success_rate, 0.667, 1e-3);
}

TEST(SharingGateTest, ThreeAgentsAllSucceedingPassWithTheirNames) {
  GateDecision d = EvaluateSharingGate({{"c", 1, 1}, {"a", 1, 1}, {"b", 1, 1}}, kDefaults);
  EXPECT_TRUE(d.shared);
  EXPECT_THAT(d.source_agents, ElementsAre("a", "b", "c"));
  EXPECT_EQ(DescribeGate(d, "succeeded"), "3 of 3 decided episodes of 3 agents succeeded (a, b, c)");
}

TEST(SharingGateTest, TheRateIsPooledOverEpisodesAndExactlySeventyPercentPasses) {
  // 7 of 10: the gate is inclusive, and binary floating point must not flip it.
  EXPECT_TRUE(EvaluateSharingGate({{"a", 4, 3}, {"b", 3, 2}, {"c", 3, 2}}, kDefaults).shared);
  EXPECT_FALSE(EvaluateSharingGate({{"a", 4, 3}, {"b", 3, 2}, {"c", 4, 2}}, kDefaults).shared);  // 7 of 11
}

TEST(SharingGateTest, EpisodesWithoutAnAgentAndAgentsWithoutDecidedEpisodesDoNotCount) {
  GateDecision d = EvaluateSharingGate({{"", 9, 9}, {"a", 1, 1}, {"b", 1, 1}, {"c", 0, 0}}, kDefaults);
  EXPECT_FALSE(d.shared);
  EXPECT_EQ(d.agents, 2);
  EXPECT_EQ(d.decided, 2);
}

TEST(SharingGateTest, TalliesOfOneAgentAddUpAndTheThresholdsAreOptions) {
  GateDecision d = EvaluateSharingGate({{"a", 1, 1}, {"a", 1, 0}}, kDefaults);
  EXPECT_EQ(d.agents, 1);
  EXPECT_EQ(d.decided, 2);
  ExperienceOptions loose;
  loose.share_min_agents = 1;
  loose.share_min_success_rate = 0.5;
  EXPECT_TRUE(EvaluateSharingGate({{"a", 1, 1}, {"a", 1, 0}}, loose).shared);
}

}  // namespace
}  // namespace engram::experience
