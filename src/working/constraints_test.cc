// working/constraints_test.cc — which sentences are negative constraints, in varied phrasings.
#include "working/constraints.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace engram::working {
namespace {

TEST(SentencesTest, SplitsOnSentencesAndLines) {
  EXPECT_THAT(Sentences("I need a flight to Denver. Don't book anything before 11am!\nNo insurance"),
              ::testing::ElementsAre("I need a flight to Denver.", "Don't book anything before 11am!",
                                     "No insurance"));
  EXPECT_THAT(Sentences("帮我订机票。不要经济舱。"), ::testing::ElementsAre("帮我订机票。", "不要经济舱。"));
}

TEST(ConstraintsTest, DirectivesAndRefusalsAreConstraints) {
  for (const char* s : {"Don't use red in the charts.", "Please never push to main directly.",
                        "Avoid the staging cluster this week.", "You do not want insurance.",
                        "I don’t eat pork.", "We must not change the public API.",
                        "I won't pay more than $100 for the change.", "Under no circumstances transfer me to another agent.",
                        "No baggage and no insurance.", "Change the flight without changing the passengers.",
                        "you shouldn't delete the logs", "Do not mention the discount unless asked.",
                        "不要用红色。", "禁止在周末部署", "别再给我推荐咖啡了", "千万不要删除日志", "避免使用全局变量。"}) {
    EXPECT_TRUE(IsConstraint(s)) << s;
  }
}

TEST(ConstraintsTest, StatesThoughtsQuestionsAndNarrationAreNot) {
  for (const char* s : {"I don't remember the reservation number.", "You don't care about money.",
                        "I don't know which flight it was.", "Don't worry about the budget.",
                        "No, that's the wrong order.", "No problem at all.", "The build is not green yet.",
                        "Why don't you use the cache?", "I have never been to Lisbon.", "We don't have any pets.",
                        "Coffee without doubt helps.", "Do you want insurance?", "我特别喜欢红色。", "别人都在用 Redis。",
                        "我不记得订单号了", "这个区别不大", "There is no way to know that.",
                        "There shouldn't be any fees because I have insurance.", "It doesn't matter much.",
                        "I won't be able to make the flight.", "The long layovers don't fit my schedule.",
                        "You will not receive a refund for that one."}) {
    EXPECT_FALSE(IsConstraint(s)) << s;
  }
}

TEST(ConstraintsTest, RetractionsNameWhatTheyTakeBack) {
  EXPECT_TRUE(Retracts("Actually you can use red now.", "Don't use red in the charts."));
  EXPECT_TRUE(Retracts("Never mind the pork thing, I eat it now.", "I don't eat pork."));
  EXPECT_TRUE(Retracts("红色可以用了。", "不要用红色。"));
  EXPECT_FALSE(Retracts("You can use blue for the axis.", "Don't use red in the charts."))
      << "a retraction must name what the constraint forbade";
  EXPECT_FALSE(Retracts("Red is my favourite colour.", "Don't use red in the charts.")) << "no retract phrase";
  EXPECT_FALSE(Retracts("It's fine to go on with the booking.", "I don't need insurance or baggage for this booking."))
      << "one shared word of four is the context, not what was forbidden";
}

TEST(ConstraintsTest, ASentenceWithSeveralConstraintsGivesOneAClause) {
  EXPECT_THAT(ConstraintClauses("Don't use red anywhere, and never mention the price."),
              ::testing::ElementsAre("Don't use red anywhere", "never mention the price."));
  EXPECT_THAT(ConstraintClauses("When booking, don't use my Visa card."),
              ::testing::ElementsAre("When booking, don't use my Visa card.")) << "one constraint keeps its context";
  EXPECT_THAT(ConstraintClauses("不要用红色，也别提价格。"), ::testing::ElementsAre("不要用红色", "也别提价格。"));
  EXPECT_TRUE(ConstraintClauses("I like blue.").empty());
}

TEST(ConstraintsTest, RuledOutPaths) {
  EXPECT_TRUE(IsRuledOut("Restarting the pod didn't work."));
  EXPECT_TRUE(IsRuledOut("重启也不行"));
  EXPECT_FALSE(IsRuledOut("Did the restart work?"));
  EXPECT_FALSE(IsRuledOut("Restarting the pod worked."));
}

}  // namespace
}  // namespace engram::working
