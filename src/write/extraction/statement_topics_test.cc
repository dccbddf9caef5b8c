#include "write/extraction/statement_topics.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace engram::extraction {
namespace {

TEST(StatementTopicsTest, AVersionIsNamedByItsShape) {
  EXPECT_TRUE(NamesAVersion("We're on PostgreSQL 13 in production."));
  EXPECT_TRUE(NamesAVersion("The upgrade to Postgres 16 went through last night"));
  EXPECT_TRUE(NamesAVersion("已经全部迁到 JDK 21 了"));
  EXPECT_TRUE(NamesAVersion("bumped the base image to python 3.12."));
  EXPECT_TRUE(NamesAVersion("component-00 当前版本是 v1.1"));
  EXPECT_TRUE(NamesAVersion("we're on v3 now"));
}

TEST(StatementTopicsTest, DatesAgesCountsAndCodesAreNoVersions) {
  EXPECT_FALSE(NamesAVersion("See you on May 5, or Sunday 14."));
  EXPECT_FALSE(NamesAVersion("I'm 34 and I have 2 cats."));
  EXPECT_FALSE(NamesAVersion("My flight lands at gate B12, Room 301."));
  EXPECT_FALSE(NamesAVersion("I was born in 1988."));
  EXPECT_FALSE(NamesAVersion("It ends. 12 people came."));
}

TEST(StatementTopicsTest, TopicsPeopleAndVersionsTogether) {
  EXPECT_EQ(StatementTopics("My brother upgraded to iOS 17"), (std::vector<std::string>{"@", "@brother", "version"}));
  EXPECT_EQ(StatementTopics("我老公搬去深圳了"), (std::vector<std::string>{"@", "@老公", "residence"}));
  EXPECT_TRUE(StatementTopics("What a lovely afternoon").empty());
}

TEST(StatementTopicsTest, WhetherAStatementSpeaksOfTheSpeaker) {
  const auto speaker = [](std::string_view text) {
    const std::vector<std::string> t = StatementTopics(text);
    return std::find(t.begin(), t.end(), "@") != t.end();
  };
  EXPECT_TRUE(speaker("I've given up coffee, it's herbal tea for me now."));
  EXPECT_TRUE(speaker("We moved the standup."));
  EXPECT_TRUE(speaker("已经搬去深圳啦，北京那套退租了"));  // Chinese drops the subject
  EXPECT_TRUE(speaker("最近胃不好，咖啡彻底戒了"));
  EXPECT_FALSE(speaker("Dana switched to green tea."));
  EXPECT_FALSE(speaker("The office coffee machine was replaced with an espresso bar."));
  EXPECT_FALSE(speaker("小李最近改喝茶了"));
  EXPECT_FALSE(speaker("咖啡机坏了，小张辞职了"));
  EXPECT_FALSE(speaker("同事搬去深圳了"));
  EXPECT_FALSE(speaker("他换工作了"));
  // English chat drops "I" before a verb of the past.
  EXPECT_TRUE(speaker("Caved and got an iPhone 15 because the whole family lives on iMessage."));
  EXPECT_TRUE(speaker("Update: swapped out the murder shows for lo-fi playlists."));
  EXPECT_FALSE(speaker("Priya called, she took the job in San Diego."));
}

TEST(StatementTopicsTest, ThePeopleAChangeIsAbout) {
  const auto names = [](std::string_view text, std::string_view person) {
    const std::vector<std::string> t = StatementTopics(text);
    return std::find(t.begin(), t.end(), person) != t.end();
  };
  // Someone named beside the speaker's change is not whom it is about.
  EXPECT_FALSE(names("For the next two weeks I'm working from Lyon while my partner's at a conference.", "@partner"));
  EXPECT_FALSE(names("Life update: my sister's visiting in May, and I switched to Equinox.", "@sister"));
  // Whom the change is said of, also through a clause with no subject of its own.
  EXPECT_TRUE(names("My sister moved to Denver and I'm helping her unpack.", "@sister"));
  EXPECT_TRUE(names("My brother, who lives in Ohio, just switched to Android.", "@brother"));
  EXPECT_TRUE(names("我老公刚跳槽去了京东，工资涨了三成。", "@老公"));
  // A change of a thing says nothing of whom: everyone named counts.
  EXPECT_TRUE(names("My roommate just went keto and the fridge is now 90% bacon.", "@roommate"));
  // No change: every person named.
  EXPECT_TRUE(names("My sister Priya lives in Boston and works at a biotech.", "@sister"));
}

TEST(StatementTopicsTest, APastTenseWithItsSubjectLeftOut) {
  EXPECT_TRUE(OpensWithAPastVerb("moved over to Firefox"));
  EXPECT_TRUE(OpensWithAPastVerb("ok so, switched to Firefox"));
  EXPECT_TRUE(OpensWithAPastVerb("Finally gave Neovim a real shot"));  // an irregular past
  EXPECT_TRUE(OpensWithAPastVerb("Got promoted!!"));
  EXPECT_FALSE(OpensWithAPastVerb("I moved to Bristol"));
  EXPECT_FALSE(OpensWithAPastVerb("Red is my colour"));
  EXPECT_FALSE(OpensWithAPastVerb("Fed up with it"));  // too short to be read as a past tense
  EXPECT_FALSE(OpensWithAPastVerb("Gotham is a great show"));
  EXPECT_FALSE(OpensWithAPastVerb("Jared moved to Austin"));  // a name before its verb
  EXPECT_FALSE(OpensWithAPastVerb("Ahmed just started at Stripe"));
  EXPECT_FALSE(OpensWithAPastVerb("Jared's new job is great"));
  EXPECT_FALSE(OpensWithAPastVerb(""));
}

TEST(StatementTopicsTest, AShortKinWordAfterTheSpeakerNamesARelative) {
  const std::vector<std::string> sister = StatementTopics("我姐的工作是什么？");
  EXPECT_NE(std::find(sister.begin(), sister.end(), "@姐"), sister.end());
  const std::vector<std::string> mum = StatementTopics("上周我妈搬去成都了");
  EXPECT_NE(std::find(mum.begin(), mum.end(), "@妈"), mum.end());
  const std::vector<std::string> me = StatementTopics("我的工作是什么？");  // 的 is no kin word
  EXPECT_TRUE(std::none_of(me.begin(), me.end(), [](const std::string& t) { return t.size() > 1 && t[0] == '@'; }));
}

// Everyday words of a topic name it though the attribute's own word is not said.
TEST(StatementTopicsTest, EverydayWordsOfATopic) {
  auto has = [](const std::string& text, const std::string& topic) {
    const std::vector<std::string> t = StatementTopics(text);
    return std::find(t.begin(), t.end(), topic) != t.end();
  };
  EXPECT_TRUE(has("Alex switched careers to UX design.", "work"));
  EXPECT_TRUE(has("上周升职了，现在名片上写的是产品总监。", "work"));
  EXPECT_TRUE(has("年卡到期没续，现在每天去超级猩猩上团课。", "gym"));
  EXPECT_TRUE(has("Only buying light roast Ethiopian beans now.", "drink"));
  EXPECT_TRUE(has("Moved my inbox over to Proton.", "email"));
  EXPECT_FALSE(has("I had fish for dinner.", "diet"));  // a word of a meal, not of a diet
}

}  // namespace
}  // namespace engram::extraction
