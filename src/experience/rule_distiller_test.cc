#include "experience/rule_distiller.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace engram::experience {
namespace {

using ::testing::ElementsAre;

DistillEpisode Success(std::vector<std::string> tools) { return {true, std::move(tools)}; }
DistillEpisode Failure(std::vector<std::string> tools) { return {false, std::move(tools)}; }

TEST(RuleDistillerTest, StepsCommonToSuccessesInTheirOrder) {
  auto rules = DistillPatterns({Success({"find_user", "get_order", "cancel_order"}),
                                Success({"find_user", "get_order", "get_order", "cancel_order"}),
                                Success({"get_order", "find_user", "cancel_order", "note"}),
                                Success({"find_user", "cancel_order"})});
  ASSERT_EQ(rules.size(), 1u);
  EXPECT_EQ(rules[0].polarity, "do");
  EXPECT_EQ(rules[0].kind, "sequence");
  EXPECT_THAT(rules[0].tools, ElementsAre("find_user", "get_order", "cancel_order"))
      << "note is in 1 of 4 successes: not common";
  EXPECT_EQ(PatternText("cancel_order", rules[0]),
            "For tasks of type cancel_order: call find_user, then get_order, then cancel_order.");
}

TEST(RuleDistillerTest, FailuresGiveAvoidRulesWhenRareInSuccesses) {
  auto rules = DistillPatterns({Success({"get_reservation", "transfer"}), Success({"get_reservation", "transfer"}),
                                Failure({"get_reservation", "cancel_reservation"}),
                                Failure({"cancel_reservation", "book"}), Failure({"get_reservation", "book"}),
                                Failure({"get_reservation"})});
  ASSERT_EQ(rules.size(), 4u);
  EXPECT_EQ(rules[0], (RulePattern{"do", "sequence", {"get_reservation", "transfer"}}));
  EXPECT_EQ(rules[1], (RulePattern{"avoid", "omission", {"transfer"}}))
      << "every failure left out what every success called: the most failure-specific";
  EXPECT_EQ(rules[2], (RulePattern{"avoid", "tool", {"book"}}));
  EXPECT_EQ(rules[3], (RulePattern{"avoid", "tool", {"cancel_reservation"}}))
      << "ties by name; get_reservation is common in successes and left out by only 1 failure";
  EXPECT_EQ(PatternText("read_only", rules[2]), "For tasks of type read_only: avoid calling book.");
  EXPECT_EQ(PatternText("t", rules[1]), "For tasks of type t: avoid finishing without calling transfer.");
}

TEST(RuleDistillerTest, AtMostThreeAvoidRulesTheMostFailureSpecificFirst) {
  auto rules = DistillPatterns({Success({"a"}), Success({"a"}), Success({"a", "w"}), Success({"a"}), Success({"a"}),
                                Failure({"w", "x", "y", "z"}), Failure({"w", "x", "y", "z"}),
                                Failure({"a", "x", "y"}), Failure({"a", "x"})});
  ASSERT_EQ(rules.size(), 4u);
  EXPECT_EQ(rules[0], (RulePattern{"do", "tool", {"a"}}));
  EXPECT_EQ(rules[1], (RulePattern{"avoid", "tool", {"x"}})) << "4 of 4 failures, no success";
  EXPECT_EQ(rules[2], (RulePattern{"avoid", "tool", {"y"}})) << "3 of 4";
  EXPECT_EQ(rules[3], (RulePattern{"avoid", "omission", {"a"}})) << "2 of 4 left a out; z ties but comes later by name";
}

TEST(RuleDistillerTest, OneEpisodeIsAnAnecdote) {
  EXPECT_TRUE(DistillPatterns({Success({"a", "b"}), Failure({"c"})}).empty());
  auto one_tool = DistillPatterns({Success({"a", "b"}), Success({"a"}), Success({"a", "c"})});
  ASSERT_EQ(one_tool.size(), 1u);
  EXPECT_EQ(one_tool[0], (RulePattern{"do", "tool", {"a"}}));
  EXPECT_TRUE(DistillPatterns({}).empty());
  // Failures alone can still say what to avoid.
  auto only_failures = DistillPatterns({Failure({"x"}), Failure({"x", "y"}), Failure({"z"})});
  ASSERT_EQ(only_failures.size(), 1u);
  EXPECT_EQ(only_failures[0], (RulePattern{"avoid", "tool", {"x"}}));
}

TEST(RuleDistillerTest, MatchingConfirmingAndConflicts) {
  RulePattern seq{"do", "sequence", {"a", "b"}};
  EXPECT_TRUE(PatternMatches(seq, {"a", "x", "b"}));
  EXPECT_TRUE(PatternMatches(seq, {"a", "b", "a"}));
  EXPECT_FALSE(PatternMatches(seq, {"b", "a"}));
  EXPECT_FALSE(PatternMatches(seq, {"a"}));
  RulePattern avoid{"avoid", "tool", {"b"}};
  EXPECT_TRUE(PatternMatches(avoid, {"b"}));
  EXPECT_FALSE(PatternMatches(avoid, {"a"}));
  EXPECT_TRUE(PatternConfirmedBy(seq, true));
  EXPECT_FALSE(PatternConfirmedBy(seq, false));
  EXPECT_TRUE(PatternConfirmedBy(avoid, false));
  EXPECT_TRUE(PatternsConflict(seq, avoid));
  EXPECT_FALSE(PatternsConflict(seq, {"avoid", "tool", {"c"}}));
  EXPECT_FALSE(PatternsConflict(seq, {"do", "tool", {"b"}}));
  RulePattern omission{"avoid", "omission", {"b"}};
  EXPECT_TRUE(PatternMatches(omission, {"a"}));
  EXPECT_FALSE(PatternMatches(omission, {"a", "b"}));
  EXPECT_TRUE(PatternConfirmedBy(omission, false));
  EXPECT_FALSE(PatternsConflict(seq, omission)) << "both have b called";
  EXPECT_TRUE(PatternsConflict(omission, avoid)) << "call b / never call b";
  EXPECT_EQ(PatternKey("t", omission), "t|avoid|omission|b");
  EXPECT_EQ(PatternKey("t", seq), "t|do|sequence|");
  EXPECT_EQ(PatternKey("t", avoid), "t|avoid|tool|b");
}

}  // namespace
}  // namespace engram::experience
