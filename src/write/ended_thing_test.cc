#include "write/ended_thing.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace engram {
namespace {

class EndedThingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto made = text::Analyzer::Create(TextAnalysis::kFull);
    ASSERT_TRUE(made.has_value()) << made.error().ToString();
    analyzer_ = std::move(*made);
  }

  // True when `newer` says its speaker ended a thing `older` names.
  bool Ends(const std::string& newer, const std::string& older) {
    const std::vector<EndedThing> ended = ReadEndedThings(*analyzer_, newer);
    const ThingPhrases n = ReadThingPhrases(*analyzer_, newer);
    return NamesAnEndedThing(*analyzer_, ended, n.terms, ReadThingPhrases(*analyzer_, older), older);
  }

  std::unique_ptr<text::Analyzer> analyzer_;
};

// The thing ended is the phrase after the verb, up to an adverb, a time or the clause's end; in
// Chinese it may stand before the verb.
TEST_F(EndedThingTest, ReadsTheThingEnded) {
  auto one = [&](const std::string& text) {
    const std::vector<EndedThing> e = ReadEndedThings(*analyzer_, text);
    return e.size() == 1 ? e.front().phrase.terms : std::vector<std::string>{"<" + std::to_string(e.size()) + ">"};
  };
  EXPECT_EQ(one("Quit soda entirely, sparkling water only now"), (std::vector<std::string>{"soda"}));
  EXPECT_EQ(one("cancelled hulu two weeks ago"), (std::vector<std::string>{"hulu"}));
  EXPECT_EQ(one("I'm no longer at Acme Corp, fyi"), (std::vector<std::string>{"acm", "corp"}));
  EXPECT_EQ(ReadEndedThings(*analyzer_, "宏达科技我上周已经辞了").size(), 1u);
  EXPECT_EQ(ReadEndedThings(*analyzer_, "为了睡眠把咖啡戒了").size(), 1u);
  // Not the speaker's ending, or not one at all.
  for (const char* text : {"My roommate quit Acme Corp last week", "I might quit soda", "Should I quit soda?",
                           "tried to quit soda, lasted two days", "I'd never quit Vim", "医生让我把咖啡戒了",
                           "她把咖啡戒了", "I stopped at the bakery on the way", "everyone keeps telling me to quit soda"}) {
    EXPECT_TRUE(ReadEndedThings(*analyzer_, text).empty()) << text;
  }
}

TEST_F(EndedThingTest, AnOlderStatementNamingTheThingEnded) {
  EXPECT_TRUE(Ends("Ditched Dropbox for good, everything lives in iCloud now", "I keep my files in Dropbox"));
  EXPECT_TRUE(Ends("no longer at acme corp btw", "I'm an accountant at Acme Corp"));
  EXPECT_TRUE(Ends("cancelled my Hulu subscription", "I watch shows on Hulu every night"));
  EXPECT_TRUE(Ends("quit soda three weeks ago", "I drink a lot of soda with lunch"));
  EXPECT_TRUE(Ends("left Valencia in the spring, we're near Madrid now", "We rent a flat in Valencia"));
  EXPECT_TRUE(Ends("为了睡眠把咖啡戒了", "我每天早上喝一杯咖啡"));
  EXPECT_TRUE(Ends("宏达科技我上周已经辞了", "我在宏达科技做会计"));
  EXPECT_TRUE(Ends("已经不在深圳了，回老家了", "我在深圳上班"));
  EXPECT_TRUE(Ends("I'm not at Acme Corp anymore", "I'm an accountant at Acme Corp"));
  EXPECT_TRUE(Ends("威尔仕的卡我退了", "我在威尔仕健身办了年卡"));
}

TEST_F(EndedThingTest, WhatIsNotTheThingEnded) {
  // Left for the day, or something left behind: "left" and "dropped" end only a name.
  EXPECT_FALSE(Ends("left Acme Corp at 6pm, long day", "I'm an accountant at Acme Corp"));
  EXPECT_FALSE(Ends("left my umbrella at Acme Corp", "I'm an accountant at Acme Corp"));
  EXPECT_FALSE(Ends("dropped my phone in the sink", "I use an old Pixel phone"));
  // Another thing of the same name, or the same kind of thing said of another one.
  EXPECT_FALSE(Ends("cancelled my acme corp credit card", "I'm an accountant at Acme Corp"));
  EXPECT_FALSE(Ends("quit google chrome, firefox is nicer", "I work at Google"));
  EXPECT_FALSE(Ends("sold my old bike", "My bike is a Trek"));
  EXPECT_FALSE(Ends("华为手表我卖了", "我用的是华为手机"));
  EXPECT_FALSE(Ends("I'm not at Acme Corp today, working from home", "I'm an accountant at Acme Corp"));
  // A customer's hold ends no work there.
  EXPECT_FALSE(Ends("星巴克的会员卡我退了", "我在星巴克上班"));
  EXPECT_FALSE(Ends("cancelled my Acme Corp membership", "I work at Acme Corp"));
  // "left" ends a name right after it, and not the first of two objects.
  EXPECT_FALSE(Ends("Left my MacBook at the office over the weekend", "I use a MacBook Pro for work"));
  EXPECT_FALSE(Ends("Left Sarah a voicemail about dinner", "I live with my girlfriend Sarah"));
  // For a day, for a while, on a trip, or undone.
  EXPECT_FALSE(Ends("Gave up the gym for this week, my ankle hurts", "I go to the gym every morning"));
  EXPECT_FALSE(Ends("刚离开北京，去上海出差三天", "我住在北京"));
  EXPECT_FALSE(Ends("Deleted Instagram for a day and reinstalled it by dinner", "I use Instagram a lot"));
  // A name is not the speaker (Emily, Kelly end in -ly too); a capital that only opens a sentence,
  // or a message in capitals, names nothing; 不在 without 了 is where one is now; "kicked off"
  // starts; a person left somewhere.
  EXPECT_FALSE(Ends("Emily quit Acme Corp last month", "I'm an accountant at Acme Corp"));
  EXPECT_FALSE(Ends("Just left home, on my way now", "Home base is Austin TX"));
  EXPECT_FALSE(Ends("JUST LEFT WORK", "I work at Globex"));
  EXPECT_FALSE(Ends("我现在不在公司，在楼下买咖啡", "我在公司做产品经理"));
  EXPECT_FALSE(Ends("We kicked off the Atlas project", "I'm leading the Atlas project"));
  EXPECT_FALSE(Ends("Left Emma at daycare and drove to work", "I take Emma to swim class every Tuesday"));
  EXPECT_FALSE(Ends("cancelled Friday's meeting with Sarah", "I have a weekly meeting with Sarah"));
  // 他 of 吉他 is no one else; curly apostrophes read as straight ones.
  EXPECT_TRUE(Ends("我把吉他卖了", "我有一把吉他"));
  EXPECT_TRUE(Ends("I\u2019m no longer at Acme Corp", "I'm an accountant at Acme Corp"));
  // A title, a plan, a story of long ago.
  EXPECT_FALSE(Ends("read a post titled 'Why I Quit Soda' today", "I drink a lot of soda with lunch"));
  EXPECT_FALSE(Ends("I'll quit soda after the holidays", "I drink a lot of soda with lunch"));
  EXPECT_FALSE(Ends("I quit soda as a teenager and started again at 30", "I drink a lot of soda with lunch"));
}

// Any bytes, cut anywhere, are read without fault.
TEST_F(EndedThingTest, AnyBytesReadWithoutFault) {
  const std::string text = "no longer at “Acme” — 已经不在深圳了！把咖啡戒了 left ‘Lyon’ \xff\xfe quit";
  for (size_t cut = 0; cut <= text.size(); ++cut) {
    const std::string part = text.substr(0, cut);
    const std::vector<EndedThing> e = ReadEndedThings(*analyzer_, part);
    (void)NamesAnEndedThing(*analyzer_, e, {}, ReadThingPhrases(*analyzer_, part), part);
  }
}

}  // namespace
}  // namespace engram
