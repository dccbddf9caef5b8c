#include "write/extraction/change_statement.h"

#include <gtest/gtest.h>

namespace engram::extraction {
namespace {

TEST(ChangeStatementTest, ChangeVerbsAndNowWordsStateAChange) {
  EXPECT_EQ(NowStance::kChange, ReadNowStance("Our billing jobs got migrated over to the new queue."));
  EXPECT_EQ(NowStance::kChange, ReadNowStance("These days I mostly read on a Kindle."));
  EXPECT_EQ(NowStance::kChange, ReadNowStance("She took over as head of support in May."));
  EXPECT_EQ(NowStance::kChange, ReadNowStance("I no longer drink soda"));
  EXPECT_EQ(NowStance::kChange, ReadNowStance("Relocated to Leeds with the whole family."));
  EXPECT_EQ(NowStance::kChange, ReadNowStance("我们组目前归平台部管"));
  EXPECT_EQ(NowStance::kChange, ReadNowStance("周末的羽毛球换到周六上午"));
}

TEST(ChangeStatementTest, CorrectionsAndTemporaryStatesCount) {
  EXPECT_EQ(NowStance::kChange, ReadNowStance("Sorry, I meant room 214, not 241."));
  EXPECT_EQ(NowStance::kTemporary, ReadNowStance("For now the nightly build runs on the spare box."));
  EXPECT_EQ(NowStance::kTemporary, ReadNowStance("临时在国贸办公室办公。"));
  // With its span said (这两天, "these two days"), a temporary state is bounded.
  EXPECT_EQ(NowStance::kBounded, ReadNowStance("这两天临时在国贸办公室办公。"));
  // A lasting change in another sentence wins.
  EXPECT_EQ(NowStance::kChange, ReadNowStance("I moved to Leeds. For now I'm renting."));
  EXPECT_EQ(NowStance::kChange, ReadNowStance("说错了，会议在三楼"));
}

TEST(ChangeStatementTest, SentenceFinalLeMarksANewSituation) {
  EXPECT_EQ(NowStance::kChange, ReadNowStance("猫粮品牌我们用皇家的了。"));
  EXPECT_EQ(NowStance::kChange, ReadNowStance("他在杭州定居了啦！"));
  EXPECT_EQ(NowStance::kChange, ReadNowStance("王姐调走了，新来的是赵哥"));  // at a clause's end
  EXPECT_EQ(NowStance::kPlain, ReadNowStance("我吃了一碗面，味道不错"));  // 了 after a verb: an act, not a state
}

TEST(ChangeStatementTest, PlainFactsAreNoChange) {
  EXPECT_EQ(NowStance::kPlain, ReadNowStance("I live in Munich."));
  EXPECT_EQ(NowStance::kPlain, ReadNowStance("The staging cluster runs Postgres 15."));
  EXPECT_EQ(NowStance::kPlain, ReadNowStance("我在南京上班"));
  EXPECT_EQ(NowStance::kPlain, ReadNowStance(""));
}

TEST(ChangeStatementTest, WishesPlansQuotesAndQuestionsAreNoChange) {
  EXPECT_EQ(NowStance::kNotNow, ReadNowStance("I'm thinking about moving to Berlin next year."));
  EXPECT_EQ(NowStance::kNotNow, ReadNowStance("I wish we had switched to Rust years ago."));
  EXPECT_EQ(NowStance::kNotNow, ReadNowStance("Did you move to the new flat already?"));
  EXPECT_EQ(NowStance::kNotNow, ReadNowStance("According to Dana, the team switched to Linear."));
  EXPECT_EQ(NowStance::kNotNow, ReadNowStance("我们打算下个月换成新的供应商"));
  EXPECT_EQ(NowStance::kNotNow, ReadNowStance("你现在住哪儿？"));
}

TEST(ChangeStatementTest, AnActOnlyTriedOrNearlyDoneIsNoChange) {
  EXPECT_EQ(NowStance::kNotNow, ReadNowStance("I almost moved to Liverpool last spring."));
  EXPECT_EQ(NowStance::kNotNow, ReadNowStance("We came close to migrating the queue to Kafka."));
  EXPECT_EQ(NowStance::kNotNow, ReadNowStance("上个月险些辞职去了腾讯"));
  // An outcome word says what happened after all, unless it denies.
  EXPECT_EQ(NowStance::kNotNow, ReadNowStance("差点搬去厦门，后来没搬成。"));
  EXPECT_EQ(NowStance::kChange, ReadNowStance("I almost stayed in Berlin but moved to Leipzig in the end."));
  EXPECT_EQ(NowStance::kChange, ReadNowStance("我们差点没赶上，不过上个月终于搬到了深圳。"));
  // A change said before the attempt stands.
  EXPECT_EQ(NowStance::kChange, ReadNowStance("My phone is a Pixel 8 now, though I almost kept the iPhone."));
  // Before no verb in the past, "almost" and "nearly" say how often, how much or how.
  EXPECT_EQ(NowStance::kChange, ReadNowStance("I almost always cycle now that I moved to Leeds."));
  EXPECT_EQ(NowStance::kChange, ReadNowStance("It took nearly 3 months, but we've migrated to Kafka."));
  EXPECT_EQ(NowStance::kChange, ReadNowStance("We moved CI to GitHub Actions, it was nearly painless."));
}

TEST(ChangeStatementTest, DreamsAreNoChange) {
  EXPECT_EQ(NowStance::kNotNow, ReadNowStance("Had a dream last night that I quit and joined Google."));
  EXPECT_EQ(NowStance::kNotNow, ReadNowStance("昨晚做了个梦，梦里我搬到了巴黎"));
  // Idioms of a dream come true are no dream.
  EXPECT_EQ(NowStance::kChange, ReadNowStance("Finally landed my dream job: I joined Google last week."));
  EXPECT_EQ(NowStance::kChange, ReadNowStance("做梦都没想到，我现在住在杭州了。"));
}

TEST(ChangeStatementTest, DenialsAreNotNowUnlessTheySayAChange) {
  EXPECT_EQ(NowStance::kNotNow, ReadNowStance("I've never lived in London."));
  EXPECT_EQ(NowStance::kChange, ReadNowStance("I don't eat meat any more."));
}

TEST(ChangeStatementTest, ATextIsNotNowOnlyWhenEverySentenceIs) {
  EXPECT_EQ(NowStance::kPlain, ReadNowStance("I live in Leeds. Have you been?"));
  EXPECT_EQ(NowStance::kNotNow, ReadNowStance("Have you been to Leeds? I might go in June."));
}

TEST(ChangeStatementTest, NarratedPastChangesNothingUnlessItSaysHowThingsStandNow) {
  EXPECT_EQ(NowStance::kNotNow, ReadNowStance("When I was ten we moved to Ohio."));
  EXPECT_EQ(NowStance::kChange, ReadNowStance("以前在银行，现在转行做设计了"));
}

TEST(ChangeStatementTest, AnyOfSeveralSentencesMayStateIt) {
  EXPECT_EQ(NowStance::kChange, ReadNowStance("Quick update. We moved the standup to 10am. Any objections?"));
}

}  // namespace
TEST(ChangeStatementTest, AStateSaidWithItsEndIsBounded) {
  EXPECT_EQ(NowStance::kBounded, ReadNowStance("Raj is on PTO, Lena's covering on-call till Monday."));
  EXPECT_EQ(NowStance::kBounded, ReadNowStance("For the next few days, reach me at 555-0199."));
  EXPECT_EQ(NowStance::kBounded, ReadNowStance("三楼这周装修，先在五楼会议室办公。"));
  // An open-ended temporary change is not bounded, and a past span is no state of now.
  EXPECT_EQ(NowStance::kTemporary, ReadNowStance("I'm switching to light mode for a while."));
  EXPECT_EQ(NowStance::kNotNow, ReadNowStance("I used to live in Boston until 2019."));
  // A span ahead, or "until" before a clause of its own, bounds a state too; a span behind does not.
  EXPECT_EQ(NowStance::kBounded, ReadNowStance("For the next two weeks I'm working from Lyon."));
  EXPECT_EQ(NowStance::kBounded, ReadNowStance("Broke my wrist, so it's the bus for the next six weeks."));
  EXPECT_EQ(NowStance::kBounded, ReadNowStance("Until the repair's done I'm stuck on an old ThinkPad."));
  EXPECT_EQ(NowStance::kBounded, ReadNowStance("接下来两周我在厦门远程办公。"));
  EXPECT_EQ(NowStance::kBounded, ReadNowStance("车送修了，这一周只能先挤地铁。"));
  EXPECT_NE(NowStance::kBounded, ReadNowStance("I've lived in Leeds for two years."));
  EXPECT_NE(NowStance::kBounded, ReadNowStance("近三个月都在杭州。"));
  EXPECT_EQ(NowStance::kTemporary, ReadNowStance("这两周临时被派到成都分公司支援。"));  // a word says it
  // A bounded sentence says how things stand for now: the later-change search reads it.
  EXPECT_EQ(ChangeSentences("Hi. Until Friday I'm at the Leeds office.").size(), 1u);
}

TEST(ChangeStatementTest, AnotherMindScopesOverItsOwnClauseOnly) {
  // A clause after a hard break that states a change is the speaker's own.
  EXPECT_EQ(NowStance::kChange, ReadNowStance("Doctor told me to cut caffeine, so it's rooibos tea every morning now."));
  EXPECT_EQ(NowStance::kChange, ReadNowStance("My friend says I should try Arc, but I've switched to Firefox already."));
  // Without one, the sentence stays about another mind or time.
  EXPECT_EQ(NowStance::kNotNow, ReadNowStance("My friend says I should switch to Arc, but I'm not sure."));
  EXPECT_EQ(NowStance::kNotNow, ReadNowStance("打算明年搬去昆明，那边气候好，不过还没定。"));
  EXPECT_EQ(NowStance::kNotNow, ReadNowStance("Should I switch to Arc, or stay with Chrome?"));
}

TEST(ChangeStatementTest, AStateBackToNormalIsAChange) {
  EXPECT_EQ(NowStance::kChange, ReadNowStance("Search is back to normal since the reindex."));
  EXPECT_EQ(NowStance::kChange, ReadNowStance("登录服务恢复正常。"));
  // "again" alone repeats an act: "Had a latte again this morning" changes no habit.
  EXPECT_NE(NowStance::kChange, ReadNowStance("Had a latte again this morning, oops."));
}

TEST(ChangeStatementTest, ALastingChangeWithASpanIsNoBoundedState) {
  EXPECT_EQ(NowStance::kChange, ReadNowStance("I left Hillside this week and I am tutoring online now."));
  EXPECT_EQ(NowStance::kChange, ReadNowStance("I moved to Porto, at least until something better turns up."));
}

TEST(ChangeStatementTest, ChangeSentencesAreTheOnesThatStateIt) {
  const std::string text = "Great to hear from you! I left Hillside last month. Any tips for a tutor?";
  const std::vector<std::string_view> sentences = ChangeSentences(text);
  ASSERT_EQ(sentences.size(), 1u);
  EXPECT_EQ(sentences[0], "I left Hillside last month.");
  EXPECT_TRUE(ChangeSentences("I live in Munich.").empty());
  EXPECT_TRUE(ChangeSentences("Lately I've been exploring options.").empty());  // a now word alone
  EXPECT_TRUE(ChangeSentences("I've been playing for about four months now.").empty());
  EXPECT_TRUE(ChangeSentences("I'm actually a big fan of Nintendo games.").empty());
  EXPECT_EQ(ChangeSentences("Actually, the meeting is in room 4.").size(), 1u);
}

// Someone else's words in quotes say nothing of how things stand for the speaker; quotes that only
// name a thing are read.
TEST(ChangeStatementTest, QuotedWordsAreNoChange) {
  EXPECT_EQ(NowStance::kPlain, ReadNowStance("朋友发消息说“我现在住在合肥了，有空来玩”，我还挺意外的。"));
  EXPECT_EQ(NowStance::kPlain, ReadNowStance("My friend texted \"I live in Bristol now, come visit\", which surprised me."));
  EXPECT_EQ(NowStance::kChange, ReadNowStance("I switched to \"dark mode\" last week."));
}

// A thing's state word says nothing of the speaker's facts; a refusal says nothing of now; 自从 says
// how things stand since.
TEST(ChangeStatementTest, ThingsStatesRefusalsAndSince) {
  EXPECT_NE(NowStance::kChange, ReadNowStance("Our Austin office went down for maintenance yesterday."));
  EXPECT_EQ(NowStance::kNotNow, ReadNowStance("I'd never switch to Firefox, no way."));
  EXPECT_EQ(NowStance::kNotNow, ReadNowStance("我绝不会换安卓手机。"));
  EXPECT_EQ(NowStance::kChange, ReadNowStance("自从安家苏州以后，周末反而常坐高铁回上海逛街。"));
}

TEST(ChangeStatementTest, SaysOnlyWhatIsWhenNoSentenceIsAQuestionOrOfAnotherTimeOrMind) {
  EXPECT_TRUE(SaysOnlyWhatIs("Priya called last night. She's loving Vancouver so far."));
  EXPECT_TRUE(SaysOnlyWhatIs("老陈出来创业了，做跨境电商，天天熬夜盯后台。"));
  EXPECT_TRUE(SaysOnlyWhatIs("I'm on the growth analytics team now."));
  // One sentence of another kind is enough: a question, a hypothetical, a plan, a report.
  EXPECT_FALSE(SaysOnlyWhatIs("假如换成飞书项目的话，迁移成本会不会很高？先随便了解下，不一定换。"));
  EXPECT_FALSE(SaysOnlyWhatIs("ThinkPad适合写代码吗？身边好多人在用"));
  EXPECT_FALSE(SaysOnlyWhatIs("I'm thinking of moving to Raleigh next year. The rent is cheaper."));
  EXPECT_FALSE(SaysOnlyWhatIs("My coworker says Obsidian is better. I tried it once."));
  EXPECT_FALSE(SaysOnlyWhatIs(""));
}


TEST(ChangeStatementTest, AOneWordFillerSaysNothingOfHowThingsStand) {
  EXPECT_EQ(NowStance::kNotNow,
            ReadNowStance("honestly if I could work anywhere it'd be Valve 😂 anyway, help me prep for my review?"));
  EXPECT_EQ(NowStance::kNotNow, ReadNowStance("Would Linear be better for us? lol"));
  // A word of change alone is a change; a plain sentence of more words counts.
  EXPECT_EQ(NowStance::kChange, ReadNowStance("Moved! Do you know any good cafés in Leeds?"));
  EXPECT_EQ(NowStance::kPlain, ReadNowStance("Would Linear be better? We use Jira."));
  EXPECT_EQ(NowStance::kPlain, ReadNowStance("lol"));
}

}  // namespace engram::extraction
