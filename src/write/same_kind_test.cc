#include "write/same_kind.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace engram {
namespace {

class SameKindTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto made = text::Analyzer::Create(TextAnalysis::kFull);
    ASSERT_TRUE(made.has_value()) << made.error().ToString();
    analyzer_ = std::move(*made);
  }

  // True when `newer` names, in a sentence of change, another thing of the kind `older` names.
  bool OneKind(const std::string& newer, const std::string& older) {
    const ChangedValues changed = ReadChangedValues(*analyzer_, newer, {});
    const ThingPhrases all = ReadThingPhrases(*analyzer_, newer);
    const ThingPhrases old = StatedValuePhrases(*analyzer_, older, {});
    const bool may = MayNameOneKind(changed, older);
    const bool one = NameOneKind(changed, all.terms, newer, old, older, false);
    EXPECT_TRUE(may || !one) << "the cheap test must never rule out a match: " << newer << " / " << older;
    return one;
  }

  std::unique_ptr<text::Analyzer> analyzer_;
};

TEST_F(SameKindTest, AnotherOfTheKindInPlaceOfTheOlder) {
  EXPECT_TRUE(OneKind("Transferred to the Leeds branch last month", "I work at the York branch of the bank"));
  EXPECT_TRUE(OneKind("they moved me onto the night shift now", "I work the early shift at the depot"));
  EXPECT_TRUE(OneKind("switched over to the marketing department in March", "I'm in the finance department"));
  EXPECT_TRUE(OneKind("我上个月调到西城分局了", "我在东城分局上班"));
  EXPECT_TRUE(OneKind("我已经转到第二实验小学了", "我在光明小学读书"));
  EXPECT_TRUE(OneKind("我们已经搬到江宁区了", "我们住在鼓楼区"));
  // The speaker as the object ("Coach moved me up to…"), the passive, or one person named by both.
  EXPECT_TRUE(OneKind("Coach moved me up to the varsity team", "I'm on the junior team"));
  EXPECT_TRUE(OneKind("got transferred over to the Leeds depot", "I'm a driver at the York depot"));
  EXPECT_TRUE(OneKind("她调到市第二医院了", "我老婆在市第一医院当护士"));
  // A sentence's end mark, or an older statement after another sentence, changes nothing.
  EXPECT_TRUE(OneKind("我上个月调到西城分局了。", "我在东城分局上班"));
  EXPECT_TRUE(OneKind("switched to the day shift", "Work is busy. I work the night shift"));
}

TEST_F(SameKindTest, NotAnotherOfTheKind) {
  // A subject of its own clause changed, not a value said of the speaker.
  EXPECT_FALSE(OneKind("Our Madrid office moved to Chamberí", "Our Lisbon office is in Alfama"));
  EXPECT_FALSE(OneKind("深圳的仓库搬到龙华了", "我们广州的仓库在番禺"));
  // A word of ICU's dictionary is no head of one character (菊花茶, 绿茶), nor a function character
  // a modifier (把).
  EXPECT_FALSE(OneKind("晚上的茶改成菊花茶了", "我早上喝的茶是绿茶"));
  EXPECT_FALSE(OneKind("我妈把电脑换成联想了", "我用的是戴尔电脑"));
  // The newer's "which one" is said in the older: the same thing again.
  EXPECT_FALSE(OneKind("Changed the payment card for my cloud storage plan", "I'm on the Basic plan for my cloud storage"));
  // It adds a thing, or states no change.
  EXPECT_FALSE(OneKind("We got a tabby cat too", "We have a ginger cat"));
  EXPECT_FALSE(OneKind("The growth squad is hiring", "I'm on the payments squad"));
  EXPECT_FALSE(OneKind("Should I move to the data team?", "I'm on the platform team"));
  // Where, when or for what the new value holds, said after it: not what replaced the older.
  EXPECT_FALSE(OneKind("I switched to almond milk for my smoothies", "I drink oat milk in my coffee"));
  EXPECT_FALSE(OneKind("I switched to the day shift while Tom is on leave", "I work the night shift"));
  EXPECT_FALSE(OneKind("We moved to the west side of the office", "I live on the east side of town"));
  // Another thing changed, or someone else's.
  EXPECT_FALSE(OneKind("Switched Netflix to the Basic plan", "I'm on the Spotify Premium plan"));
  EXPECT_FALSE(OneKind("Half of my team moved to the growth team", "I'm on the payments team"));
  // Whose change: a pronoun of many, or a name the older holds only inside a word.
  EXPECT_FALSE(OneKind("They moved to the growth squad.", "I'm on the payments squad, they are great."));
  EXPECT_FALSE(OneKind("Dev moved over to the data team", "I'm a developer on the platform team"));
  // Not a verb of change ("talked to"), nor a head that ends only one of the two phrases.
  EXPECT_FALSE(OneKind("I moved to Leeds last week, then talked to the night nurse.", "I work as a day nurse."));
  EXPECT_FALSE(OneKind("switched to the day shift", "I'm a night shift nurse"));
  // The older says no state of the speaker's.
  EXPECT_FALSE(OneKind("I switched to the JV soccer team", "I know everyone on the varsity soccer team"));
  EXPECT_FALSE(OneKind("I moved to the growth squad", "I'm proud of what the payments squad built"));
  // One head with no modifier, or nothing in common.
  EXPECT_FALSE(OneKind("switched to the team downstairs now", "I'm on the platform team"));
  EXPECT_FALSE(OneKind("I'm at Northwind now", "I work at Contoso"));
}

TEST_F(SameKindTest, AnyBytes) {
  const std::string base = "我们已经搬到江宁区了，switched to the Leeds branch now";
  for (size_t cut = 0; cut <= base.size(); ++cut) {
    const std::string text = base.substr(0, cut) + "\xFF" + base.substr(cut);
    OneKind(text, "我们住在鼓楼区, I work at the York branch");
  }
}

}  // namespace
}  // namespace engram
