// working/working_memory_test.cc — the summary keeps every constraint word for word at any budget.
#include "working/working_memory.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace engram::working {
namespace {

using ::testing::HasSubstr;

Event Turn(const std::string& role, const std::string& content, int minute) {
  Event e;
  e.id = "e" + std::to_string(minute);
  e.session_id = "s1";
  e.role = role;
  e.content = content;
  e.occurred_at = 60000LL * minute;
  return e;
}

std::vector<Event> Session() {
  std::vector<Event> events = {
      Turn("user", "Help me book a flight from Newark to Denver on May 20. You do not want insurance.", 0),
      Turn("assistant", "Sure. Any time preference?", 1),
      Turn("user", "Don't book anything before 11am. And never use my Visa card.", 2)};
  for (int i = 3; i < 40; ++i) {
    events.push_back(Turn(i % 2 ? "assistant" : "user", "Filler turn number " + std::to_string(i) +
                                                            " about seats, prices and connections in Chicago.", i));
  }
  events.push_back(Turn("user", "The 9am option didn't work for me anyway.", 40));
  events.push_back(Turn("user", "Actually you can use my Visa card now.", 41));
  return events;
}

TEST(WorkingMemoryTest, ConstraintsSurviveEveryBudgetVerbatim) {
  const std::vector<Event> events = Session();
  for (int budget : {2000, 200, 60, 10}) {
    WorkingMemory wm = BuildWorkingMemory(events, {.budget_tokens = budget});
    EXPECT_THAT(wm.text, HasSubstr("You do not want insurance.")) << budget;
    EXPECT_THAT(wm.text, HasSubstr("Don't book anything before 11am.")) << budget;
    EXPECT_THAT(wm.text, HasSubstr("Goal: Help me book a flight from Newark to Denver on May 20.")) << budget;
    EXPECT_TRUE(MissingConstraints(wm.constraints, wm.text).empty()) << budget;
    EXPECT_EQ(wm.over_budget, wm.used_tokens > budget) << budget;
  }
  WorkingMemory small = BuildWorkingMemory(events, {.budget_tokens = 120});
  EXPECT_LT(small.recent.size(), events.size());
  EXPECT_EQ(small.recent.back().id, "e41") << "the newest turns are kept";
}

TEST(WorkingMemoryTest, ARetractionSupersedesItsConstraint) {
  WorkingMemory wm = BuildWorkingMemory(Session(), {.budget_tokens = 500});
  ASSERT_EQ(wm.constraints.size(), 2u);
  EXPECT_EQ(wm.constraints[0].text, "You do not want insurance.");
  EXPECT_EQ(wm.constraints[1].text, "Don't book anything before 11am.");
  ASSERT_EQ(wm.retracted.size(), 1u);
  EXPECT_EQ(wm.retracted[0].text, "never use my Visa card.");
  EXPECT_EQ(wm.retracted[0].retracted_by, "e41");
  ASSERT_EQ(wm.ruled_out.size(), 1u);
  EXPECT_EQ(wm.ruled_out[0].text, "The 9am option didn't work for me anyway.");
}

TEST(WorkingMemoryTest, ASummaryThatDroppedAConstraintIsCaught) {
  WorkingMemory wm = BuildWorkingMemory(Session(), {.budget_tokens = 500,
                                                    .summary = "User wants a Newark-Denver flight after 11am,\n"
                                                               "no insurance. You do not   want insurance."});
  EXPECT_THAT(wm.missing, ::testing::ElementsAre("Don't book anything before 11am."));
}

TEST(WorkingMemoryTest, OnlyTheUsersWordsAreConstraints) {
  std::vector<Event> events = {Turn("user", "Plan my trip.", 0),
                               Turn("assistant", "Don't forget your passport.", 1),
                               Turn("tool", "Error: never retry this call.", 2)};
  WorkingMemory wm = BuildWorkingMemory(events, {.budget_tokens = 500});
  EXPECT_TRUE(wm.constraints.empty());
}

}  // namespace
}  // namespace engram::working
