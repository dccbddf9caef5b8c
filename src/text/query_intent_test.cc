#include "text/query_intent.h"

#include <gtest/gtest.h>

namespace engram::text {
namespace {

TEST(QueryIntentTest, HistoryMarkersInEnglish) {
  EXPECT_TRUE(AsksAboutHistory("Where did I live before?"));
  EXPECT_TRUE(AsksAboutHistory("What car did I use to drive? I USED TO drive a Golf"));
  EXPECT_TRUE(AsksAboutHistory("Which editor did I previously prefer?"));
  EXPECT_TRUE(AsksAboutHistory("What did I like at first?"));
  EXPECT_TRUE(AsksAboutHistory("Which team do I no longer support?"));
  EXPECT_TRUE(AsksAboutHistory("What did I eat in the past?"));
  EXPECT_TRUE(AsksAboutHistory("Who don't I talk to anymore?"));
  EXPECT_TRUE(AsksAboutHistory("\xff\xfe before\xff"));  // invalid bytes only separate words
}

TEST(QueryIntentTest, HistoryMarkersInChinese) {
  EXPECT_TRUE(AsksAboutHistory("我之前住在哪里？"));
  EXPECT_TRUE(AsksAboutHistory("我以前喜欢什么颜色？"));
  EXPECT_TRUE(AsksAboutHistory("我曾经养过什么宠物？"));
}

TEST(QueryIntentTest, CurrentStateQuestionsAreNotHistory) {
  EXPECT_FALSE(AsksAboutHistory("Where do I live?"));
  EXPECT_FALSE(AsksAboutHistory("What is my favourite colour?"));
  EXPECT_FALSE(AsksAboutHistory("Is the user fine to use tomorrow's slot?"));  // "use to" is not "used to"
  EXPECT_FALSE(AsksAboutHistory("beforehand firstly pastry"));                // whole words only
  EXPECT_FALSE(AsksAboutHistory("我现在住在哪里？"));
  EXPECT_FALSE(AsksAboutHistory(""));
}

TEST(QueryIntentTest, PresentStateQuestions) {
  EXPECT_TRUE(AsksAboutPresentState("Which editor do I use these days?"));
  EXPECT_TRUE(AsksAboutPresentState("What's the state of the billing queue?"));
  EXPECT_TRUE(AsksAboutPresentState("Is the mirror in Oslo reachable?"));
  EXPECT_TRUE(AsksAboutPresentState("我家猫现在吃哪种粮？"));
  EXPECT_TRUE(AsksAboutPresentState("测试机装的 Ubuntu 是哪个版本？"));
  EXPECT_FALSE(AsksAboutPresentState("When did Ana adopt her cat?"));
  EXPECT_FALSE(AsksAboutPresentState("When is my flight?"));  // asks a time
  EXPECT_TRUE(AsksAboutPresentState("What do I listen to when I run?"));  // a habit
  EXPECT_FALSE(AsksAboutPresentState("What's the name of the café we went to when we visited Lyon?"));
  EXPECT_FALSE(AsksAboutPresentState("我上大学的时候住哪？"));
  EXPECT_TRUE(AsksAboutPresentState("我一般什么时候打羽毛球？"));  // asks a time
  EXPECT_FALSE(AsksAboutPresentState("What was the name of the bakery we liked?"));
  EXPECT_FALSE(AsksAboutPresentState("Which city is my brother from before the move?"));
  EXPECT_FALSE(AsksAboutPresentState("你给我推荐过哪些书？"));
  EXPECT_FALSE(AsksAboutPresentState("上次体检是什么时候？"));
  EXPECT_FALSE(AsksAboutPresentState("Tell me about hiking"));  // no present form
}

TEST(QueryIntentTest, QuestionsAboutTheUsual) {
  EXPECT_TRUE(AsksAboutTheUsual("Where do I usually work from?"));
  EXPECT_TRUE(AsksAboutTheUsual("What do I eat most days?"));
  EXPECT_TRUE(AsksAboutTheUsual("我平时在哪个办公室上班？"));
  EXPECT_FALSE(AsksAboutTheUsual("Where am I working from right now?"));
  EXPECT_FALSE(AsksAboutTheUsual("我这周在哪儿办公？"));
}

TEST(QueryIntentTest, QuestionsThatNameThePresent) {
  EXPECT_TRUE(NamesThePresent("Who's on call right now?"));
  EXPECT_TRUE(NamesThePresent("Which number should people call me on at the moment?"));
  EXPECT_TRUE(NamesThePresent("How am I getting to work these days?"));
  EXPECT_TRUE(NamesThePresent("我这几天怎么上班？"));
  EXPECT_TRUE(NamesThePresent("我最近怎么去上班？"));
  EXPECT_TRUE(NamesThePresent("What shift am I working this month?"));
  EXPECT_FALSE(NamesThePresent("我现在住哪？"));  // 现在, "now": where one lives
  EXPECT_FALSE(NamesThePresent("Where do I live now?"));
  EXPECT_FALSE(NamesThePresent("What is my phone number?"));
  EXPECT_FALSE(NamesThePresent("Where was I at the start?"));  // "at the" without "moment"
  EXPECT_FALSE(NamesThePresent("我的手机号是多少？"));
  EXPECT_FALSE(NamesThePresent("Is the snow melting?"));  // "now" as a part of a word
}

}  // namespace
}  // namespace engram::text
