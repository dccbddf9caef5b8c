#include "write/thing_phrase.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace engram {
namespace {

class ThingPhraseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto made = text::Analyzer::Create(TextAnalysis::kFull);
    ASSERT_TRUE(made.has_value()) << made.error().ToString();
    analyzer_ = std::move(*made);
  }

  bool Same(const std::string& newer, const std::string& older) {
    return NameTheSameThing(ReadThingPhrases(*analyzer_, newer), ReadThingPhrases(*analyzer_, older));
  }

  std::unique_ptr<text::Analyzer> analyzer_;
};

// A phrase ends at a verb or marker of the lexicon, a past tense or a number; its head is last.
TEST_F(ThingPhraseTest, PhrasesEndAtVerbsMarkersAndNumbers) {
  ThingPhrases p = ReadThingPhrases(*analyzer_, "We swapped out the hallway printer, it's an HP LaserJet M404 now.");
  ASSERT_GE(p.phrases.size(), 2u);
  EXPECT_EQ(p.phrases[0].terms, (std::vector<std::string>{"hallway", "printer"}));
  EXPECT_EQ(p.phrases[1].terms.back(), "laserjet");
  EXPECT_TRUE(p.terms.count("m404") > 0);  // a term of the text, in no phrase
}

TEST_F(ThingPhraseTest, OneThingNamedAgain) {
  EXPECT_TRUE(Same("Upgraded my cloud storage to Premium yesterday.", "I'm on the Basic plan for my cloud storage."));
  EXPECT_TRUE(Same("We swapped out the hallway printer for an HP.", "The hallway printer is a Brother."));
  // Each one's modifiers must be said by the other: "the third-floor printer" after "the office
  // printer on the third floor" is missed ("office" is not said again) — as "my shoes" after "my
  // running shoes" must be.
  EXPECT_FALSE(Same("We swapped out the third-floor printer.", "The office printer on the third floor is a Brother."));
  EXPECT_TRUE(Same("Anytime Fitness closed down, so I signed up with Planet Fitness.", "My gym is Anytime Fitness."));
}

// A shared word is not a shared thing: another head (a part, a use), a modifier the older never
// said, or an owner the newer does not name.
TEST_F(ThingPhraseTest, ASharedWordIsNoSharedThing) {
  EXPECT_FALSE(Same("I switched phone carriers to Mint.", "My phone case is blue."));
  EXPECT_FALSE(Same("I changed my bank password today.", "My bank is Chase."));
  EXPECT_FALSE(Same("We moved the backend repo to GitLab.", "The frontend repo is on GitHub."));
  EXPECT_FALSE(Same("I traded my car in for a Tesla.", "My wife's car is a Volvo."));
  EXPECT_FALSE(Same("I switched my eye doctor to Dr. Lee.", "My dentist is Dr. Kim."));  // "Dr" names nothing
  EXPECT_FALSE(Same("I replaced the band of my watch with a nylon one.", "My watch is a Garmin."));  // a part
  EXPECT_FALSE(Same("Changed the lamp in the living room to a Hue.", "The lamp in my office is an IKEA Forsa."));
  EXPECT_FALSE(Same("Switched the tablet I take for allergies to Zyrtec.", "My tablet is an iPad Air."));
  EXPECT_FALSE(Same("The landlord switched the laundry room to card-only machines.", "My landlord is Mr. Alvarez."));
}

// Chinese: the clause's topic, said first after its words of time and discourse, 我 and 把.
TEST_F(ThingPhraseTest, AChineseTopicIsAWholeWordOfBoth) {
  EXPECT_TRUE(OpensWithTheTopicOf("表弟不干厨师了，跑去当网约车司机。", "我表弟在一家餐馆当厨师。"));
  EXPECT_TRUE(OpensWithTheTopicOf("前几天把宽带升到了500兆。", "宽带现在是100兆的。"));
  EXPECT_FALSE(OpensWithTheTopicOf("鞋换成亚瑟士了。", "我上班穿的是皮鞋。"));  // the end of a longer word
  EXPECT_TRUE(OpensWithTheTopicOf("乐刻那家关门了，我转去了超级猩猩。", "我办的健身卡是乐刻的。"));
  EXPECT_FALSE(OpensWithTheTopicOf("手机套餐换成了29元的。", "我的手机壳是蓝色的。"));
  EXPECT_FALSE(OpensWithTheTopicOf("生产环境的服务器升级到Ubuntu了。", "测试环境的服务器是CentOS。"));
  EXPECT_FALSE(OpensWithTheTopicOf("我把笔记本的壁纸换成了山景。", "我的笔记本是ThinkPad。"));  // an owner
  EXPECT_FALSE(OpensWithTheTopicOf("医生给我换了一种降压药。", "我的医生是李大夫。"));        // an agent
  EXPECT_FALSE(OpensWithTheTopicOf("房东最近换了手机号。", "我的房东是张阿姨。"));            // an agent
  EXPECT_FALSE(OpensWithTheTopicOf("自行车换了个座垫。", "我的自行车是捷安特。"));            // a part
  EXPECT_FALSE(OpensWithTheTopicOf("手机换成苹果了。", "我老公的手机是小米。"));            // another's
}

// Any bytes — cut mid-character, mixed scripts, stray marks — read without fault, and every phrase
// read is of terms of the text.
TEST_F(ThingPhraseTest, AnyBytesReadWithoutFault) {
  const std::string texts[] = {"我的工作电脑是MacBook，家里那台换成了Windows的。", "The landlord's desk I use, of the lobby, "
                               "switched to 5th floor!", "眼镜换了一副镜片\xff\xfe的的了", "’s 's of for with to into 的"};
  for (const std::string& full : texts) {
    for (size_t cut = 0; cut <= full.size(); ++cut) {
      const std::string text = full.substr(0, cut);
      ThingPhrases p = ReadThingPhrases(*analyzer_, text, {"user"});
      for (const ThingPhrase& phrase : p.phrases) {
        ASSERT_FALSE(phrase.terms.empty()) << text;
        EXPECT_TRUE(p.terms.count(phrase.terms.back()) > 0) << text;
      }
      OpensWithTheTopicOf(text, full);
      OpensWithTheTopicOf(full, text);
    }
  }
}

}  // namespace
}  // namespace engram
