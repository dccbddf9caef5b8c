#include "write/extraction/fact_frame_reader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "text/time_expression.h"
#include "write/extraction/rule_sentences.h"

namespace engram::extraction {
namespace {

// The frames of every sentence of `text`, in order, with its times found as the extractor finds
// them.
std::vector<FactFrame> Read(const std::string& text) {
  std::vector<FactFrame> out;
  FrameContext context;
  const std::string lowered = LowerAsciiBytes(text);
  std::vector<rules::Span> times;
  for (const text::TimeMention& m : text::FindTimeMentions(text, 1700000000000, 0)) times.push_back({m.byte_start, m.byte_end});
  for (const rules::Sentence& s : rules::SplitSentences(text)) {
    SentenceReading r = ReadSentenceFrames(text, lowered, s, times, &context);
    out.insert(out.end(), r.frames.begin(), r.frames.end());
  }
  return out;
}

std::string Describe(const std::vector<FactFrame>& frames) {
  std::string out;
  for (const FactFrame& f : frames) {
    out += "[" + std::string(ClauseKindName(f.kind)) + "|" + f.subject + "|" + f.attribute + "/" + f.slot + "|" +
           f.value + (f.replaces.empty() ? "" : " <- " + f.replaces) + "]";
  }
  return out;
}

// `text` reads as one frame of `subject` ("" = the speaker), `attribute` and `value`.
void ExpectOneFrame(const std::string& text, const std::string& subject, const std::string& attribute,
                    const std::string& value) {
  auto f = Read(text);
  ASSERT_EQ(f.size(), 1u) << text << " " << Describe(f);
  EXPECT_EQ(f[0].subject, subject) << text;
  EXPECT_EQ(f[0].attribute, attribute) << text;
  EXPECT_EQ(f[0].value, value) << text;
}

// `text` reads as two frames: the speaker's `employer`, then their `job`.
void ExpectEmployerAndJob(const std::string& text, const std::string& employer, const std::string& job) {
  auto f = Read(text);
  ASSERT_EQ(f.size(), 2u) << text << " " << Describe(f);
  EXPECT_EQ(f[0].attribute, "employer") << text;
  EXPECT_EQ(f[0].value, employer) << text;
  EXPECT_EQ(f[1].attribute, "job") << text;
  EXPECT_EQ(f[1].value, job) << text;
}

TEST(FactFrameReaderTest, CopulaWithAnAttributeWordIsTheSpeakers) {
  auto f = Read("Home is now Lima for me.");
  ASSERT_EQ(f.size(), 1u) << Describe(f);
  EXPECT_EQ(f[0].attribute, "lives_in");
  EXPECT_EQ(f[0].value, "Lima");
  EXPECT_EQ(f[0].subject_kind, FrameSubject::kSpeaker);
  EXPECT_EQ(f[0].kind, ClauseKind::kChange);
}

TEST(FactFrameReaderTest, ChineseStateWithFacetAndCarriedSubject) {
  auto f = Read("compound-01 的 blue 部署 当前 ready；API 连接 当前 reachable");
  ASSERT_EQ(f.size(), 2u) << Describe(f);
  EXPECT_EQ(f[0].subject, "compound-01");
  EXPECT_EQ(f[0].attribute, "deployment_state");
  ASSERT_EQ(f[0].coordinates.size(), 1u);
  EXPECT_EQ(f[0].coordinates[0], (std::pair<std::string, std::string>{"deployment", "blue"}));
  EXPECT_EQ(f[1].subject, "compound-01");
  EXPECT_EQ(f[1].attribute, "connectivity");
  EXPECT_EQ(f[1].value, "reachable");
}

TEST(FactFrameReaderTest, KindsNeverStateTheCurrentValue) {
  EXPECT_EQ(Read("计划下周把 counter-05 升级到 v2.0").at(0).kind, ClauseKind::kPlan);
  EXPECT_EQ(Read("要求 counter-05 必须保持 v2.0").at(0).kind, ClauseKind::kRequirement);
  EXPECT_EQ(Read("文档写道：counter-05 当前版本是 v2.0").at(0).kind, ClauseKind::kQuotation);
  EXPECT_EQ(Read("历史记录：2024 年时 counter-05 当前版本是 v0.8").at(0).kind, ClauseKind::kPast);
  EXPECT_EQ(Read("I've never lived in London.").at(0).kind, ClauseKind::kNegated);
  EXPECT_EQ(Read("I used to live in Boston.").at(0).kind, ClauseKind::kPast);
  EXPECT_TRUE(Read("要是哪天能去厦门定居就好了").empty());
  EXPECT_TRUE(Read("Should I move to Milan?").empty());
}

// No frame of `frames` has `attribute`.
bool NoneOf(const std::vector<FactFrame>& frames, const std::string& attribute) {
  return std::none_of(frames.begin(), frames.end(), [&](const FactFrame& f) { return f.attribute == attribute; });
}

TEST(FactFrameReaderTest, AnActOnlyTriedOrNearlyDoneStatesNothing) {
  EXPECT_TRUE(NoneOf(Read("I almost moved to Liverpool."), "lives_in")) << Describe(Read("I almost moved to Liverpool."));
  // The attempt scopes over the verbs after it in its clause; a clause after a comma is an act of its own.
  EXPECT_TRUE(NoneOf(Read("I nearly quit and joined Google last month."), "employer"))
      << Describe(Read("I nearly quit and joined Google last month."));
  EXPECT_FALSE(NoneOf(Read("I almost quit, but then I joined Google."), "employer"))
      << Describe(Read("I almost quit, but then I joined Google."));
  EXPECT_FALSE(NoneOf(Read("I tried to make Vim work for me, gave up and switched to VS Code."), "uses"))
      << Describe(Read("I tried to make Vim work for me, gave up and switched to VS Code."));
  EXPECT_TRUE(NoneOf(Read("险些搬到了厦门。"), "lives_in")) << Describe(Read("险些搬到了厦门。"));
  // An outcome word opens what happened after all.
  EXPECT_FALSE(NoneOf(Read("I almost stayed in Berlin but moved to Leipzig."), "lives_in"))
      << Describe(Read("I almost stayed in Berlin but moved to Leipzig."));
  EXPECT_TRUE(Read("Had a dream that I joined Google.").empty());
  // Whatever verb reads the value: a tool switched to, a version upgraded to.
  EXPECT_TRUE(NoneOf(Read("I tried to switch to Emacs last month."), "uses"))
      << Describe(Read("I tried to switch to Emacs last month."));
  EXPECT_TRUE(NoneOf(Read("We nearly upgraded to Postgres 16."), "version")) << Describe(Read("We nearly upgraded to Postgres 16."));
  EXPECT_TRUE(NoneOf(Read("我差点换成VS Code。"), "uses")) << Describe(Read("我差点换成VS Code。"));
  // The outcome's own words are no one's name, nor part of the value.
  ExpectOneFrame("差点留在北京，最后还是搬到了深圳。", "", "lives_in", "深圳");
  ExpectOneFrame("I moved to Leipzig in the end.", "", "lives_in", "Leipzig");
  // "almost always" says how often.
  EXPECT_FALSE(NoneOf(Read("I almost always cycle, and moved to Leeds in May."), "lives_in"))
      << Describe(Read("I almost always cycle, and moved to Leeds in May."));
}

TEST(FactFrameReaderTest, TheSpeakerAsTheObjectOfAnAppointmentIsTheSubject) {
  ExpectOneFrame("They promoted me to kitchen manager last week!", "", "job", "kitchen manager");
  ExpectOneFrame("My boss made me team lead in March.", "", "job", "team lead");
  ExpectOneFrame("领导提拔我当了部门经理。", "", "job", "部门经理");
  // Not without a title after the verb ("made me dinner", "made me feel like…"), nor when only nearly done.
  EXPECT_TRUE(NoneOf(Read("My sister made me dinner last night."), "job")) << Describe(Read("My sister made me dinner last night."));
  EXPECT_TRUE(NoneOf(Read("They almost made me head nurse."), "job")) << Describe(Read("They almost made me head nurse."));
  EXPECT_TRUE(NoneOf(Read("They made me feel like a doctor."), "job")) << Describe(Read("They made me feel like a doctor."));
  // A denial or a wish before the verb gives the speaker's fact its kind.
  EXPECT_EQ(Read("Nobody made me kitchen manager.").at(0).kind, ClauseKind::kNegated);
  EXPECT_EQ(Read("他们想提拔我当护士长。").at(0).kind, ClauseKind::kPlan);
}

TEST(FactFrameReaderTest, ADenialAfterTheValueDeniesAnotherVerb) {
  auto f = Read("Since I relocated to Halifax my old policy doesn't cover the flat.");
  ASSERT_EQ(f.size(), 1u) << Describe(f);
  EXPECT_EQ(f[0].value, "Halifax");
  EXPECT_EQ(f[0].kind, ClauseKind::kChange);
  auto denied = [](const FactFrame& frame) { return frame.kind == ClauseKind::kNegated || frame.negated; };
  EXPECT_FALSE(denied(Read("I work at Google and my team doesn't love it.").at(0)));
  EXPECT_FALSE(denied(Read("I started at Shopify not long ago.").at(0)));
  // With no subject of its own the denial is the speaker's, of the same fact.
  EXPECT_TRUE(denied(Read("I moved to Halifax but never actually lived there.").at(0)));
  EXPECT_TRUE(denied(Read("I don't work at Google.").at(0)));
  EXPECT_TRUE(denied(Read("I have never lived in London.").at(0)));
  EXPECT_TRUE(denied(Read("我现在不住在北京").at(0)));
}

TEST(FactFrameReaderTest, AStatementBeforeAnAskingClauseIsRead) {
  ExpectOneFrame("I moved to Halifax last spring, is that normal?", "", "lives_in", "Halifax");
  ExpectOneFrame("搬到杭州以后口味太淡了，有什么推荐吗？", "", "lives_in", "杭州");
  EXPECT_TRUE(Read("Do you think I should move to Leeds, or stay?").empty());
  EXPECT_TRUE(Read("Should I move to Leeds, or is Bristol better?").empty());
  // A tail asking what would follow makes the head a supposition.
  EXPECT_TRUE(Read("Say I work at Google, would I get stock options?").empty());
  EXPECT_TRUE(Read("Imagine I live in Paris, what would my commute look like?").empty());
  // A subordinate -ing phrase with a clause of its own states ("the winters are darker" is the
  // clause); one with none is part of the question.
  ExpectOneFrame("Since moving to Tromso the winters are way darker lol — how do people cope?", "", "lives_in",
                 "Tromso");
  EXPECT_TRUE(Read("After moving to Tromso, should I buy a car?").empty());
  // A question after "but" or "so" leaves the statement before it.
  ExpectOneFrame("I joined Stripe last month but what should I read before my first review?", "", "employer",
                 "Stripe");
  // A bare question of four words or fewer asks about a statement said before it.
  ExpectOneFrame("my laptop runs Ubuntu 22.04 and the fan never stops, known bug?", "Ubuntu", "version", "22.04");
  EXPECT_TRUE(Read("Moving to Tromso, good idea?").empty());
  // What one weighs, not what is: a head that opens with a verb in -ing or an auxiliary, has one
  // right after its subject, names an aim, or states only in a relative clause.
  for (const char* weighed : {"Relocating to Tromso with my kids, sensible?", "Is relocating to Tromso wise, honestly?",
                              "Me and my girlfriend relocating to Tromso, too cold?", "My goal is living in Tromso, realistic?",
                              "Before moving to Tromso which is very far north, should I buy a lamp?"}) {
    EXPECT_TRUE(Read(weighed).empty()) << weighed << " " << Describe(Read(weighed));
  }
  // 哪 with a measure word asks (哪天, 哪款); the statement before it is read.
  ExpectOneFrame("我的车牌尾号是 3，那我哪天限行？", "车牌尾号", "is", "3");
  // Elsewhere 哪 and 几 say "any" and "a few": the sentence states.
  for (const char* stated : {"我二十几岁就到了杭州，现在住在苏州。", "不知道哪年才能回老家，我现在住在苏州。", "随便哪座城市都行，我现在住在苏州。"}) {
    bool home = false;
    for (const FactFrame& f : Read(stated)) home = home || (f.attribute == "lives_in" && f.value == "苏州");
    EXPECT_TRUE(home) << stated << " " << Describe(Read(stated));
  }
}

TEST(FactFrameReaderTest, AStatementBeforeAnyQuestionAfterItIsRead) {
  // A question of any length after a stating head asks about what the head says.
  ExpectOneFrame("my husband Marco works at Ferrari in Maranello, good gift for a car-obsessed guy?", "Marco", "employer",
                 "Ferrari");
  // Not after a head that weighs ("Relocating to Tromso…") or a supposition.
  EXPECT_TRUE(Read("Relocating to Tromso with my kids, good schools for a ten-year-old up there?").empty());
  EXPECT_TRUE(Read("Say I work at Google, would I get stock options in the first year?").empty());
}

TEST(FactFrameReaderTest, BeOnAProductAndANumberIsItsVersion) {
  ExpectOneFrame("I'm on iOS 17.", "iOS", "version", "17");
  ExpectOneFrame("We're still on Postgres 13 and VACUUM is slow.", "Postgres", "version", "13");
  ExpectOneFrame("I’m on Android 14.", "Android", "version", "14");
  // A numbered noun is no product, and another's version is not the speaker's.
  for (const char* text : {"I'm on Level 4.", "I'm on Day 3 of the diet.", "We're on Floor 12.", "My mom is on iOS 15, can she use FaceTime links?",
                           "My wife's on iOS 18 and hates it."}) {
    for (const FactFrame& f : Read(text)) EXPECT_NE(f.attribute, "version") << text << " " << Describe({f});
  }
}

TEST(FactFrameReaderTest, AChineseVerbOfALastingStateNeedsYears) {
  ExpectOneFrame("在杭州住了三年了，西湖边跑步真的很舒服。", "", "lives_in", "杭州");
  ExpectOneFrame("我在北京住了快十年了。", "", "lives_in", "北京");
  ExpectEmployerAndJob("在阿里做了两年运营，天天盯数据。", "阿里", "运营");
  // Nights, days and months are a stay; no span is no state; a time it belongs to, a pointing word,
  // or a later move or resignation in the message leaves it the past.
  for (const char* text : {"在酒店住了两晚。", "在朋友家住了三天。", "在家做了三年饭。", "在家干了三年。", "我在医院住了两个月，终于出院了。",
                           "大学的时候在武汉住了四年，特别怀念热干面。", "我们在这个小区住了三年了，邻居都认识。", "我在杭州住了三年，后来搬回北京了。",
                           "我在国外住了五年，现在回国了。", "我在银行做了三年柜员，后来辞职了。"}) {
    for (const FactFrame& f : Read(text)) {
      EXPECT_FALSE(f.kind == ClauseKind::kFact && (f.attribute == "lives_in" || f.attribute == "employer")) << text << " " << Describe({f});
    }
  }
}

TEST(FactFrameReaderTest, AHomeAfterDeIsWhoeverStandsBeforeIt) {
  ExpectOneFrame("我的新家在亦庄。", "", "lives_in", "亦庄");
  // Someone else's new home is never the speaker's.
  for (const char* text : {"老王的新家在亦庄。", "王磊的新家在亦庄。", "我弟的新家在通州。"}) {
    for (const FactFrame& f : Read(text)) {
      EXPECT_FALSE(f.subject_kind == FrameSubject::kSpeaker && f.attribute == "lives_in") << text << " " << Describe({f});
    }
  }
}

TEST(FactFrameReaderTest, ABareRelationWordBeforeANameIsThatPerson) {
  ExpectOneFrame("同事老王住在回龙观，每天通勤两小时。", "老王", "lives_in", "回龙观");
  EXPECT_TRUE(Read("同事住在上海。").empty());  // whose colleague: unresolvable
}

TEST(FactFrameReaderTest, ARelativesThingIsKeyedAsTheirs) {
  // The thing is named after its owner: "mom's phone" is Samsung Galaxy S10.
  for (const auto& [text, thing] : std::vector<std::pair<std::string, std::string>>{
           {"Mom's phone is a Samsung Galaxy S10, she refuses to upgrade.", "mom's phone"},
           {"My mom's car is a Samsung Galaxy S10.", "mom's car"},
           {"我妈的车是Samsung Galaxy S10。", "我妈的车"}}) {
    ExpectOneFrame(text, thing, "is", "Samsung Galaxy S10");
  }
  // A relative's home in a place is where the relative lives.
  ExpectOneFrame("my dad's place is in Cork and I want to visit at Easter.", "my dad", "lives_in", "Cork");
  ExpectOneFrame("Mom's flat is in Cork.", "my mom", "lives_in", "Cork");
  // A relative of the relative lives where they live, never the speaker.
  for (const FactFrame& f : Read("我妈的朋友住在杭州。")) {
    EXPECT_NE(f.subject_kind, FrameSubject::kSpeaker) << Describe({f});
  }
}

TEST(FactFrameReaderTest, TheSimplePastOfALastingStateNarratesThePast) {
  for (const char* text : {"I lived in Boston.", "I used Eclipse every day at my first job.", "In my first job I used Eclipse every day.",
                           "I was still living in Boston then."}) {
    auto f = Read(text);
    ASSERT_EQ(f.size(), 1u) << text << " " << Describe(f);
    EXPECT_EQ(f[0].kind, ClauseKind::kPast) << text << " " << Describe(f);
  }
  // Present perfect, a change, or a word of now: how things stand.
  for (const char* text : {"I've lived in Boston for ten years.", "I moved to Boston.", "I lived in Boston until now, and still do."}) {
    auto f = Read(text);
    ASSERT_FALSE(f.empty()) << text;
    EXPECT_NE(f[0].kind, ClauseKind::kPast) << text << " " << Describe(f);
  }
  // The past verb must be the value's ("lives" says Rome here).
  for (const FactFrame& f : Read("Zoe was at the party and her sister lives in Rome.")) EXPECT_NE(f.kind, ClauseKind::kPast) << Describe({f});
  // What a role would require is not done.
  for (const FactFrame& f : Read("The new role would require relocating to London.")) {
    EXPECT_NE(f.kind, ClauseKind::kFact) << Describe({f});
    EXPECT_NE(f.kind, ClauseKind::kChange) << Describe({f});
  }
}

TEST(FactFrameReaderTest, AHeOrSheMeansANameOfTheSameSentence) {
  // A name said as a subject is whom "she" of the same sentence means, with no event of a
  // person's life ("took a job" is none of the lexicon's); of the next sentence it is not.
  ExpectOneFrame("Marisol took a job up north and she's already settled in Duluth.", "Marisol", "lives_in", "Duluth");
  for (const FactFrame& f : Read("Marisol called. She moved to Duluth.")) EXPECT_NE(f.subject, "Marisol") << Describe({f});
  // Not when the clause names someone else too ("he" may be Tobias), nor for a later clause.
  for (const char* text : {"Marisol met Tobias at the gym and he lives in Duluth.",
                           "Marisol adopted a dog and she named him Rufus, he sleeps in Duluth."}) {
    for (const FactFrame& f : Read(text)) EXPECT_NE(f.subject, "Marisol") << text << " " << Describe({f});
  }
}

TEST(FactFrameReaderTest, AOneTimeWeekendOfAChangeIsNoSlot) {
  // 周末 of a completed change says when it changed; of a habit ("一般") it is a recurring slot,
  // as "on Fridays" is.
  auto changed = Read("周末把网关升级到了 Envoy 1.30");
  ASSERT_EQ(changed.size(), 1u) << Describe(changed);
  EXPECT_TRUE(changed[0].coordinates.empty()) << Describe(changed);
  auto when = [](const std::string& text) {
    for (const FactFrame& frame : Read(text)) {
      for (const auto& c : frame.coordinates) {
        if (c.first == "when") return c.second;
      }
    }
    return std::string();
  };
  EXPECT_EQ(when("周末一般用 Lightroom 修图"), "周末");
  EXPECT_EQ(when("Priya works at the Globex office in Berlin on Fridays."), "on fridays");
}

TEST(FactFrameReaderTest, ValuesEndBeforeVagueTimesPlacesAndOtherClauses) {
  // {text, subject, attribute, value}: each reads as one frame.
  const std::vector<std::vector<std::string>> cases = {
      {"Tom joined Anthropic a couple of months ago.", "Tom", "employer", "Anthropic"},
      {"I work at Jack in the Box.", "", "employer", "Jack in the Box"},
      {"I work at Google — wait, did I tell you that already?", "", "employer", "Google"},
      {"Rafael works at Shopify on the checkout team.", "Rafael", "employer", "Shopify"},
      {"I work at Bank of America.", "", "employer", "Bank of America"},
      {"We moved the wiki to Confluence and the old server was switched off.", "wiki", "location", "Confluence"},
      {"入职美团已经半年了", "", "employer", "美团"}};
  for (const std::vector<std::string>& c : cases) ExpectOneFrame(c[0], c[1], c[2], c[3]);
}

TEST(FactFrameReaderTest, ChineseAdverbsGoWithTheirVerb) {
  ExpectOneFrame("听歌一直用网易云", "", "uses", "网易云");
  ExpectOneFrame("我们用的是 GitLab", "", "uses", "GitLab");
  ExpectOneFrame("我已经回长沙定居了", "", "lives_in", "长沙");
  for (const FactFrame& f : Read("现在开的是腾讯视频，主要为了追剧")) EXPECT_NE(f.subject, "主要") << Describe({f});
  for (const FactFrame& f : Read("入职蔚来了，还是干测试")) EXPECT_NE(f.subject, "还") << Describe({f});
  for (const FactFrame& f : Read("这个键盘我只用了三天就坏了")) EXPECT_NE(f.attribute, "uses") << Describe({f});
  for (const FactFrame& f : Read("我一直用心做事")) EXPECT_NE(f.attribute, "uses") << Describe({f});
  ExpectOneFrame("我们公司主要用飞书", "", "uses", "飞书");  // what the company uses, not the employer
  ExpectOneFrame("我也是程序员", "", "job", "程序员");
}

TEST(FactFrameReaderTest, ChineseEmployersEndBeforeTheJobAndTheTime) {
  ExpectOneFrame("今天腾讯入职第一天！", "", "employer", "腾讯");
  ExpectOneFrame("我入职腾讯三年了", "", "employer", "腾讯");
  // 在 X 入职: the employer is what 在 introduces, with only a particle after the verb.
  ExpectOneFrame("我已经在快手入职了", "", "employer", "快手");
  ExpectOneFrame("从网易离职后上个月在拼多多入职了", "", "employer", "拼多多");
  ExpectEmployerAndJob("考下CPA之后跳槽去普华永道做审计了", "普华永道", "审计");
  ExpectOneFrame("component-00 当前版本是 v1.1", "component-00", "version", "v1.1");
  EXPECT_TRUE(Read("全部迁到飞书文档了").empty());  // 全部 is no thing
}

TEST(FactFrameReaderTest, ChangesNameWhatTheyReplace) {
  auto move = Read("I moved from Lisbon to Porto.");
  ASSERT_EQ(move.size(), 1u) << Describe(move);
  EXPECT_EQ(move[0].value, "Porto");
  EXPECT_EQ(move[0].replaces, "Lisbon");
  EXPECT_EQ(move[0].attribute, "lives_in");
  auto tea = Read("I've switched to green tea instead of coffee.");
  ASSERT_EQ(tea.size(), 1u) << Describe(tea);
  EXPECT_EQ(tea[0].value, "green tea");
  EXPECT_EQ(tea[0].replaces, "coffee");
  auto project = Read("Priya moved from Project Apollo to Project Zephyr");
  ASSERT_EQ(project.size(), 1u) << Describe(project);
  EXPECT_EQ(project[0].subject, "Priya");
  EXPECT_EQ(project[0].attribute, "project");
}

TEST(FactFrameReaderTest, ThingsChangedByTheSpeakerAreTheSubject) {
  auto api = Read("We bumped the API to v3.2");
  ASSERT_EQ(api.size(), 1u) << Describe(api);
  EXPECT_EQ(api[0].subject, "API");
  EXPECT_EQ(api[0].value, "v3.2");
  // A product's version is the product's: "the runtime", "the base image" and "our database" are
  // where it runs, so "The API is written against Python 3.9" and "We bumped the runtime to Python
  // 3.12" are one slot.
  auto image = Read("Bumped the base image to python 3.12");
  ASSERT_EQ(image.size(), 1u) << Describe(image);
  EXPECT_EQ(image[0].subject, "python");
  EXPECT_EQ(image[0].value, "3.12");
  auto postgres = Read("We upgraded postgres to 16 over the weekend.");
  ASSERT_EQ(postgres.size(), 1u) << Describe(postgres);
  EXPECT_EQ(postgres[0].subject, "postgres");
  EXPECT_EQ(postgres[0].attribute, "version");
  EXPECT_EQ(postgres[0].value, "16");
  auto redis = Read("上周把Redis升到7了。");
  ASSERT_EQ(redis.size(), 1u) << Describe(redis);
  EXPECT_EQ(redis[0].subject, "Redis");
  EXPECT_EQ(redis[0].value, "7");
  auto plan = Read("We plan to upgrade auth-svc to v5.0 next sprint.");
  ASSERT_EQ(plan.size(), 1u) << Describe(plan);
  EXPECT_EQ(plan[0].subject, "auth-svc");
  EXPECT_EQ(plan[0].kind, ClauseKind::kPlan);
}

TEST(FactFrameReaderTest, UnresolvedSubjectsGiveNothing) {
  EXPECT_TRUE(Read("He lives in Paris.").empty());
  EXPECT_TRUE(Read("同事住在上海，每天通勤。").empty());
  EXPECT_TRUE(Read("Dancing is running for me.").empty());
}

TEST(FactFrameReaderTest, ValueSetsNameTheSlotWhateverTheVerb) {
  for (const char* text : {"I mostly work in dark mode in every editor.", "I prefer dark mode.",
                           "Dark mode is what I like best."}) {
    auto f = Read(text);
    ASSERT_EQ(f.size(), 1u) << text << Describe(f);
    EXPECT_EQ(f[0].slot, "ui_theme") << text;
  }
}

TEST(FactFrameReaderTest, DeidentifiedHeaderIsNotEvidence) {
  std::string text = "【去标识真实上下文，仅保留结构，不作为事实证据】\n<ASCII:4> <HAN:2>是 <ASCII:6>\n【当前评测事件】\nx-01 当前版本是 v1.0";
  std::vector<rules::Span> ranges = EvidenceRanges(text);
  ASSERT_EQ(ranges.size(), 1u);
  EXPECT_EQ(text.substr(ranges[0].begin), "x-01 当前版本是 v1.0");
}


// A thing before a copula, its attribute typed by the value (issue 16): the same slot however the
// thing is introduced (my / the / bare), so a later statement or correction supersedes it.
TEST(FactFrameReaderTest, ThingsBeforeACopulaAreTypedByTheirValue) {
  struct Case {
    const char* text;
    const char* subject;
    const char* attribute;
    const char* value;
  };
  for (const Case& c : std::vector<Case>{{"My dentist appointment is at 3pm.", "dentist appointment", "when", "3pm"},
                                         {"Correction: the dentist appointment is at 4pm.", "dentist appointment", "when", "4pm"},
                                         {"The offsite is on Tuesday.", "offsite", "when", "Tuesday"},
                                         {"The search cluster is down.", "search cluster", "state", "down"},
                                         {"我的航班是下午三点。", "航班", "when", "下午三点"},
                                         {"周会定在周二。", "周会", "when", "周二"},
                                         {"我们组长是小李。", "组长", "is", "小李"}}) {
    auto f = Read(c.text);
    ASSERT_EQ(f.size(), 1u) << c.text << Describe(f);
    EXPECT_EQ(f[0].subject_kind, FrameSubject::kNamed) << c.text;
    EXPECT_EQ(f[0].subject, c.subject) << c.text;
    EXPECT_EQ(f[0].attribute, c.attribute) << c.text;
    EXPECT_EQ(f[0].value, c.value) << c.text;
  }
}

TEST(FactFrameReaderTest, AnOwnedRoleAfterANameIsTheRolesValue) {
  auto lead = Read("Priya is our team lead now.");
  ASSERT_EQ(lead.size(), 1u) << Describe(lead);
  EXPECT_EQ(lead[0].subject, "team lead");
  EXPECT_EQ(lead[0].value, "Priya");
  auto favourite = Read("Green has become my favorite color.");
  ASSERT_EQ(favourite.size(), 1u) << Describe(favourite);
  EXPECT_EQ(favourite[0].subject_kind, FrameSubject::kSpeaker);
  EXPECT_EQ(favourite[0].attribute, "favorite");
  EXPECT_EQ(favourite[0].slot, "color");
  EXPECT_EQ(favourite[0].value, "Green");
  EXPECT_TRUE(Read("Tom is nice.").empty()) << "a person's description is not a slot";
  EXPECT_TRUE(Read("It is usually a family trip.").empty());
}

TEST(FactFrameReaderTest, OccupationsNamesAndJobsBesideEmployers) {
  auto nurse = Read("I'm a nurse.");
  ASSERT_EQ(nurse.size(), 1u) << Describe(nurse);
  EXPECT_EQ(nurse[0].attribute, "job");
  auto priya = Read("Priya is a staff engineer.");
  ASSERT_EQ(priya.size(), 1u) << Describe(priya);
  EXPECT_EQ(priya[0].subject, "Priya");
  EXPECT_EQ(priya[0].value, "staff engineer");
  auto both = Read("I work at Stripe as a backend engineer.");
  ASSERT_EQ(both.size(), 2u) << Describe(both);
  EXPECT_EQ(both[0].attribute, "employer");
  EXPECT_EQ(both[1].attribute, "job");
  EXPECT_EQ(both[1].value, "backend engineer");
  auto zh = Read("我在腾讯做前端开发。");
  ASSERT_EQ(zh.size(), 2u) << Describe(zh);
  EXPECT_EQ(zh[0].value, "腾讯");
  EXPECT_EQ(zh[1].value, "前端开发");
  EXPECT_TRUE(Read("I start at 9am tomorrow.").empty()) << "a time is not an employer";
  auto name = Read("Hi, I'm Lin.");
  ASSERT_EQ(name.size(), 1u) << Describe(name);
  EXPECT_EQ(name[0].attribute, "name");
  EXPECT_TRUE(Read("I got a letter from Mom.").empty()) << "\"from\" is a hometown only right after the subject";
  // Short contractions at the very start of the text (a crash on LoCoMo: "Im" read 4 bytes back).
  for (const char* text : {"Im a nurse", "Is it", "I'm", "im", "Ms", "I\xE2\x80\x99m a nurse", "m", "'s"}) Read(text);
}

TEST(FactFrameReaderTest, ABareCorrectionHasAValueAndNoAttribute) {
  auto zh = Read("不对，是周四。");
  ASSERT_EQ(zh.size(), 1u) << Describe(zh);
  EXPECT_TRUE(zh[0].correction);
  EXPECT_EQ(zh[0].attribute, "");
  EXPECT_EQ(zh[0].value, "周四");
  auto en = Read("Sorry, I meant Thursday, not Tuesday.");
  ASSERT_EQ(en.size(), 1u) << Describe(en);
  EXPECT_TRUE(en[0].correction);
  EXPECT_EQ(en[0].value, "Thursday");
  EXPECT_EQ(en[0].replaces, "Tuesday");
}

// Every byte range of varied sentences (cut anywhere, mid UTF-8 included) reads without throwing
// or crashing: the reader indexes back and forth from the words it finds.
TEST(FactFrameReaderTest, AnySubstringReadsWithoutCrashing) {
  const std::vector<std::string> texts = {
      "Hi, I'm Lin. I'm 30 years old and I work as a nurse.", "I\xE2\x80\x99m from Chengdu.",
      "Sorry, I meant Thursday, not Tuesday.", "Tom stepped down; Priya is our team lead now.",
      "We upgraded postgres to 16 over the weekend.", "Green has become my favorite color.",
      "Correction: the dentist appointment is at 4pm.", "The search cluster is back up.",
      "我妹妹小梅住在杭州", "不对，是周四。", "上周把Redis升到7了。", "我现在的工作是老师",
      "compound-01 的 blue 部署 当前 ready；API 连接 当前 reachable", "我在腾讯做前端开发。",
      "My sister just started at Google.", "老王调到了上海分公司。", "It's v3.2, not v3.1, actually."};
  for (const std::string& text : texts) {
    for (size_t b = 0; b < text.size(); ++b) {
      for (size_t e = b + 1; e <= text.size(); ++e) Read(text.substr(b, e - b));
    }
  }
}

// Issue 16, session 12: a thing's state is one slot whatever word says it.
TEST(FactFrameReaderTest, AThingsStateIsOneAttributeWhateverTheWord) {
  for (const char* text : {"The release train is degraded.", "The release train is back up.",
                           "The release train is unreachable again."}) {
    auto f = Read(text);
    ASSERT_EQ(f.size(), 1u) << text << " " << Describe(f);
    EXPECT_EQ(f[0].subject, "release train") << text;
    EXPECT_EQ(f[0].attribute, "state") << text;
  }
}

TEST(FactFrameReaderTest, ASingleWordThingAfterTheOrAnAcronymHasAState) {
  auto the = Read("The wiki is offline.");
  ASSERT_EQ(the.size(), 1u) << Describe(the);
  EXPECT_EQ(the[0].subject, "wiki");
  EXPECT_EQ(the[0].attribute, "state");
  ExpectOneFrame("LDAP's down since lunch.", "LDAP", "state", "down");
  EXPECT_TRUE(Read("Priya's team is great.").empty() || Read("Priya's team is great.")[0].subject != "Priya");
}

TEST(FactFrameReaderTest, ChineseStateWordAfterAThingWithoutCopula) {
  ExpectOneFrame("报表系统目前停用。", "报表系统", "state", "停用");
}

TEST(FactFrameReaderTest, AVersionWithNoThingSaidIsMarkedUnsaid) {
  auto it = Read("Bumped it to 2.3 this morning.");
  ASSERT_EQ(it.size(), 1u) << Describe(it);
  EXPECT_EQ(it[0].attribute, "version");
  EXPECT_TRUE(it[0].subject_unsaid);
  auto zh = Read("今天降级到 4.1 了");
  ASSERT_EQ(zh.size(), 1u) << Describe(zh);
  EXPECT_TRUE(zh[0].subject_unsaid);
  auto named = Read("We upgraded nginx to 1.25.");
  ASSERT_EQ(named.size(), 1u) << Describe(named);
  EXPECT_FALSE(named[0].subject_unsaid);
}

TEST(FactFrameReaderTest, AdverbsBetweenANameAndItsVerb) {
  ExpectOneFrame("Tomas finally moved to Krakow.", "Tomas", "lives_in", "Krakow");
}

TEST(FactFrameReaderTest, AValueInsideQuotedWordsIsReported) {
  auto zh = Read("有人在群里说“数据库都换成 16 吧”");
  for (const FactFrame& f : zh) EXPECT_NE(f.kind, ClauseKind::kFact) << Describe(zh);
  for (const FactFrame& f : zh) EXPECT_NE(f.kind, ClauseKind::kChange) << Describe(zh);
  auto named = Read("I use \"dark mode\" everywhere.");
  ASSERT_EQ(named.size(), 1u) << Describe(named);
  EXPECT_EQ(named[0].kind, ClauseKind::kFact);
}

TEST(FactFrameReaderTest, AValueBeforeABareAttributeWordIsTheSpeakers) {
  ExpectOneFrame("Porto is home now.", "", "lives_in", "Porto");
  for (const FactFrame& g : Read("Porto is home to a famous bridge.")) EXPECT_NE(g.attribute, "lives_in") << Describe({g});
}

TEST(FactFrameReaderTest, ANegatedChangeIsNoChange) {
  for (const char* text : {"还没升到 5.1", "We haven't bumped the linter to 9.0 yet."}) {
    for (const FactFrame& f : Read(text)) {
      EXPECT_NE(f.kind, ClauseKind::kChange) << text << " " << Describe({f});
      EXPECT_NE(f.kind, ClauseKind::kFact) << text << " " << Describe({f});
    }
  }
}

TEST(FactFrameReaderTest, AModalBeforeAChineseStateWordIsNoState) {
  for (const FactFrame& f : Read("结算服务不能停用")) {
    EXPECT_FALSE(f.kind == ClauseKind::kFact && f.attribute == "state") << Describe({f});
  }
}

// Issue 16, session 18: a name is the subject when a verb form follows it, not only an attribute
// verb (the clause was put on the speaker: "user works at Stripe"); but not when the speaker is
// the verb's object.
TEST(FactFrameReaderTest, ANameBeforeAnyVerbFormIsTheSubject) {
  for (const char* text : {"Tom left Google and joined Stripe.", "Tom quit Google and joined Stripe."}) {
    auto f = Read(text);
    bool stripe = false;
    for (const FactFrame& g : f) {
      EXPECT_NE(g.subject_kind, FrameSubject::kSpeaker) << text << " " << Describe(f);
      if (g.value == "Stripe") stripe = g.subject == "Tom";
    }
    EXPECT_TRUE(stripe) << text << " " << Describe(f);
  }
  for (const FactFrame& g : Read("Google hired me as a designer.")) EXPECT_NE(g.subject, "Google") << Describe({g});
  // A verb that opens a clause is no name.
  for (const FactFrame& g : Read("Got promoted to staff engineer last week.")) EXPECT_NE(g.subject, "Got") << Describe({g});
  // A name in -ed is a name (review of session 18).
  ExpectOneFrame("Jared joined Stripe.", "Jared", "employer", "Stripe");
  ExpectOneFrame("Ahmed moved to Denver.", "Ahmed", "lives_in", "Denver");
  // The speaker later in the clause: the name is not the subject of what follows.
  for (const char* text : {"Tom left before I joined Stripe.", "Sarah told everyone I moved to Denver.",
                           "Alex noticed I moved to Denver.", "Tom smiled because I joined Stripe."}) {
    for (const FactFrame& g : Read(text)) EXPECT_EQ(g.subject_kind, FrameSubject::kSpeaker) << text << " " << Describe({g});
  }
}

// A time that opens the clause stands before its subject, not in its place.
TEST(FactFrameReaderTest, ATimeBeforeTheSubject) {
  ExpectOneFrame("Last month Tom joined Stripe.", "Tom", "employer", "Stripe");
  ExpectOneFrame("In March, my sister moved to Austin.", "my sister", "lives_in", "Austin");
}

// 我爸, 我姐: short kin words after 我 name a relative; alone they are parts of other words.
TEST(FactFrameReaderTest, ShortChineseKinWordsAfterTheSpeaker) {
  for (const char* text : {"我爸住在老家。", "我姐住在成都。", "我妈妈住在成都。"}) {
    auto f = Read(text);
    ASSERT_FALSE(f.empty()) << text;
    EXPECT_EQ(f[0].subject_kind, FrameSubject::kRelative) << text << " " << Describe(f);
  }
  auto longer = Read("我妈妈住在成都。");
  ASSERT_FALSE(longer.empty());
  EXPECT_EQ(longer[0].subject, "我妈妈") << Describe(longer);
  // A short kin word that starts a longer word is not 我哥 / 我姐 (review of session 18).
  for (const char* text : {"我哥们在腾讯工作", "我姐夫住在深圳", "我弟媳住在上海", "我哥伦比亚的朋友住在上海"}) {
    for (const FactFrame& g : Read(text)) {
      EXPECT_NE(g.subject, "我哥") << text << " " << Describe({g});
      EXPECT_NE(g.subject, "我姐") << text << " " << Describe({g});
      EXPECT_NE(g.subject, "我弟") << text << " " << Describe({g});
    }
  }
  auto named = Read("我姐小梅住在杭州");
  ASSERT_FALSE(named.empty());
  EXPECT_EQ(named[0].subject, "小梅") << Describe(named);
}

// "from" names a hometown only right after the subject ("I'm from Chengdu"); in "migrated CI from
// Jenkins to GitHub Actions" it only says what the change replaced.
TEST(FactFrameReaderTest, FromInsideAChangeIsNoHometown) {
  for (const char* text : {"We migrated CI from Jenkins to GitHub Actions last sprint.",
                           "We moved our CI from Jenkins to GitHub Actions."}) {
    for (const FactFrame& f : Read(text)) EXPECT_NE(f.attribute, "hometown") << text << " " << Describe({f});
  }
  ExpectOneFrame("I'm from Chengdu.", "", "hometown", "Chengdu");
}

// A noun in -ing after a determiner is a thing ("the meeting is on Monday"); a gerund that opens
// the clause is an activity ("Being a mom is hard").
TEST(FactFrameReaderTest, ANounInIngAfterADeterminerIsAThing) {
  ExpectOneFrame("The meeting is on Monday.", "meeting", "when", "Monday");
  ExpectOneFrame("Our wedding is on Saturday.", "wedding", "when", "Saturday");
  for (const FactFrame& f : Read("Being a mom is hard.")) EXPECT_NE(f.attribute, "when") << Describe({f});
  for (const char* text : {"The thing is Tom hates Denver.", "The following is my address: 5 Main St",
                           "My feeling is Tom is right."}) {
    EXPECT_TRUE(Read(text).empty()) << text << " " << Describe(Read(text));
  }
}


// Issue 16, session 21: a time is a thing's value ("the deadline is March 3": the time used to
// be cut from the value, which left none), with what may follow it and what may not.
TEST(FactFrameReaderTest, ATimeIsAThingsValue) {
  ExpectOneFrame("The deadline is March 3.", "deadline", "when", "March 3");
  ExpectOneFrame("The standup is at 9:30.", "standup", "when", "9:30");  // no label before "9:"
  ExpectOneFrame("The offsite is on March 3 at 9am.", "offsite", "when", "March 3 at 9am");
  ExpectOneFrame("The offsite is March 3 for the launch.", "offsite", "when", "March 3");
  ExpectOneFrame("下次周会是周五。", "下次周会", "when", "周五");
  for (const FactFrame& f : Read("The box is in the garage.")) EXPECT_NE(f.attribute, "when") << Describe({f});
}

// A verb of `reschedule` moves a thing to another time: the thing is its object, or what stands
// before it; whoever moved it is not the subject. Not a time after it: not a reschedule.
TEST(FactFrameReaderTest, ARescheduleChangesAThingsTime) {
  struct Case {
    std::string text, subject, value;
  };
  for (const Case& c : std::vector<Case>{{"Standup moved to 10:15 starting this week.", "standup", "10:15"},
                                         {"The client pushed the project deadline back to April 10.", "project deadline", "April 10"},
                                         {"They pushed the launch to next Tuesday.", "launch", "next Tuesday"},
                                         {"The offsite got moved to Thursday.", "offsite", "Thursday"},
                                         {"I moved my dentist appointment to 4pm.", "dentist appointment", "4pm"},
                                         {"周会改到周四了。", "周会", "周四"},
                                         {"会议推迟到下周三下午三点。", "会议", "下周三下午三点"}}) {
    auto f = Read(c.text);
    ASSERT_EQ(f.size(), 1u) << c.text << " " << Describe(f);
    EXPECT_EQ(f[0].kind, ClauseKind::kChange) << c.text;
    EXPECT_EQ(f[0].subject, c.subject) << c.text;
    EXPECT_EQ(f[0].attribute, "when") << c.text;
    EXPECT_EQ(f[0].value, c.value) << c.text;
  }
  for (const std::string text : {"I moved to Austin in May.", "We bumped the replicas to 10.", "I pushed the fix to main on Friday."}) {
    for (const FactFrame& f : Read(text)) EXPECT_NE(f.attribute, "when") << text << " " << Describe({f});
  }
  auto denied = Read("The launch didn't move to Friday.");
  ASSERT_EQ(denied.size(), 1u) << Describe(denied);
  EXPECT_EQ(denied[0].kind, ClauseKind::kNegated);
  EXPECT_EQ(denied[0].subject, "launch");
  auto reported = Read("Someone said the launch moved to Friday.");
  ASSERT_EQ(reported.size(), 1u) << Describe(reported);
  EXPECT_EQ(reported[0].kind, ClauseKind::kQuotation);
  EXPECT_EQ(reported[0].subject, "launch");
}

// Where a thing is, what it is called and how many of a unit it has, and the verbs that change
// them (markers relocate, placed, rename, named, resize, counted): the thing is the verb's object
// or what stands before it, whoever acted.
TEST(FactFrameReaderTest, AThingsPlaceNameAndCount) {
  struct Case {
    std::string text, subject, attribute, slot, value;
    ClauseKind kind;
  };
  for (const Case& c : std::vector<Case>{
           {"The wiki is hosted on Confluence Cloud.", "wiki", "location", "", "Confluence Cloud", ClauseKind::kFact},
           {"Last month we migrated the wiki over to Notion.", "wiki", "location", "", "Notion", ClauseKind::kChange},
           {"Our billing-db is deployed in us-east-1.", "billing-db", "location", "", "us-east-1", ClauseKind::kFact},
           {"Ops moved the backup server off the old rack and into rack B7.", "backup server", "location", "", "rack B7",
            ClauseKind::kChange},
           {"搜索服务部署在杭州机房。", "搜索服务", "location", "", "杭州机房", ClauseKind::kFact},
           {"搜索服务昨天迁到了深圳机房。", "搜索服务", "location", "", "深圳机房", ClauseKind::kChange},
           {"The guest network is called Lemon-Guest.", "guest network", "name", "", "Lemon-Guest", ClauseKind::kFact},
           {"We renamed the team channel to ops-alerts.", "team channel", "name", "", "ops-alerts", ClauseKind::kChange},
           {"The Kafka cluster for analytics has 6 brokers.", "analytics kafka cluster", "count", "broker", "6 brokers",
            ClauseKind::kFact},
           {"We scaled the analytics Kafka cluster up to 9 brokers.", "analytics kafka cluster", "count", "broker",
            "9 brokers", ClauseKind::kChange}}) {
    auto f = Read(c.text);
    ASSERT_EQ(f.size(), 1u) << c.text << " " << Describe(f);
    EXPECT_EQ(f[0].kind, c.kind) << c.text;
    EXPECT_EQ(f[0].subject, c.subject) << c.text;
    EXPECT_EQ(f[0].attribute, c.attribute) << c.text;
    EXPECT_EQ(f[0].slot, c.slot) << c.text;
    EXPECT_EQ(f[0].value, c.value) << c.text;
  }
  // People have homes, not locations; a name may be a person; a version is no place; a time is no
  // count; a pronoun is no value.
  for (const std::string text : {"My uncle lives on Maple Avenue.", "We transferred Priya to the Oslo office.",
                                 "线上切到Vue 3.4了。", "We upgraded postgres to 16 over the weekend.",
                                 "The review is at 3pm.", "We moved it to where we agreed.", "I have 2 cats."}) {
    for (const FactFrame& f : Read(text)) {
      EXPECT_NE(f.attribute, "location") << text << " " << Describe({f});
      EXPECT_NE(f.attribute, "count") << text << " " << Describe({f});
    }
  }
  // A hedge before the verb is the clause's kind, not part of a thing.
  auto hedged = Read("Thinking about maybe moving to Austin next year.");
  ASSERT_EQ(hedged.size(), 1u) << Describe(hedged);
  EXPECT_EQ(hedged[0].subject_kind, FrameSubject::kSpeaker) << Describe(hedged);
  EXPECT_EQ(hedged[0].kind, ClauseKind::kPlan);
  auto maybe = Read("The wiki maybe moved to Notion.");
  ASSERT_EQ(maybe.size(), 1u) << Describe(maybe);
  EXPECT_EQ(maybe[0].subject, "wiki");
  EXPECT_EQ(maybe[0].kind, ClauseKind::kPlan);
  // The review's readings: a time is no place, a person no thing, a judgement no job, hearsay no
  // fact, a unit of time no count; "GB of RAM" is the RAM's count.
  for (const std::string text : {"The dentist appointment moved to Thursday afternoon.", "Piano lessons moved to Wednesdays.",
                                 "会议挪到了下午三点。", "Sam Lee moved to Ohio.", "The Hendersons moved to Phoenix.",
                                 "The party is hosted by my aunt.", "My focus shifted to family.", "当前部署在阿里云。",
                                 "I transferred $500 to savings.", "We almost migrated the payments service to GCP."}) {
    for (const FactFrame& f : Read(text)) EXPECT_NE(f.attribute, "location") << text << " " << Describe({f});
  }
  for (const std::string text : {"Mike Chen has 3 kids.", "The new hire has 10 years of experience.", "My project has 2 weeks left."}) {
    for (const FactFrame& f : Read(text)) EXPECT_NE(f.attribute, "count") << text << " " << Describe({f});
  }
  for (const std::string text : {"Mom is a terrible driver.", "Dad is a great cook.", "爸爸是个好司机。", "Dad was a teacher."}) {
    for (const FactFrame& f : Read(text)) EXPECT_NE(f.attribute, "job") << text << " " << Describe({f});
  }
  auto hearsay = Read("Bob thinks the docs site is hosted on Vercel.");
  ASSERT_EQ(hearsay.size(), 1u) << Describe(hearsay);
  EXPECT_EQ(hearsay[0].kind, ClauseKind::kQuotation);
  auto ram = Read("My laptop has 16 GB of RAM.");
  ASSERT_EQ(ram.size(), 1u) << Describe(ram);
  EXPECT_EQ(ram[0].slot, "ram");
  ExpectOneFrame("网关迁到上海机房以后延迟降了。", "网关", "location", "上海机房");
  ExpectOneFrame("The dog was renamed to Biscuit by the kids.", "dog", "name", "Biscuit");
  auto denied = Read("We didn't migrate the wiki to Notion.");
  ASSERT_EQ(denied.size(), 1u) << Describe(denied);
  EXPECT_EQ(denied[0].kind, ClauseKind::kNegated);
}

// A kin word said bare at a clause's start is the speaker's own relative, keyed as "my …" / "我…"
// is; a relative's job is read as a person's; a word of the present after a kin word is no name.
TEST(FactFrameReaderTest, OwnKinAndRelativesJobs) {
  ExpectOneFrame("Grandpa moved to Tucson in March.", "my grandpa", "lives_in", "Tucson");
  ExpectOneFrame("My aunt is a pharmacist.", "My aunt", "job", "pharmacist");
  ExpectOneFrame("外婆现在住在苏州。", "我外婆", "lives_in", "苏州");
  ExpectOneFrame("我堂哥是律师。", "我堂哥", "job", "律师");
  ExpectOneFrame("堂哥现在是一名工程师。", "我堂哥", "job", "工程师");
  ExpectOneFrame("我妈目前在杭州上班。", "我妈", "employer", "杭州");
  // A preposition after the relative is no name; a relative's relative is their own subject; what
  // else a relative has is no one's resolved here.
  ExpectOneFrame("我表哥从杭州搬到深圳了。", "我表哥", "lives_in", "深圳");
  ExpectOneFrame("我舅舅的女儿搬到上海了。", "我舅舅的女儿", "lives_in", "上海");
  for (const FactFrame& f : Read("我妹妹的公司搬到上海了。")) EXPECT_NE(f.subject, "我妹妹") << Describe({f});
  for (const std::string text : {"Grandpa moved to Tucson in March.", "堂哥现在是一名工程师。"}) {
    for (const FactFrame& f : Read(text)) EXPECT_EQ(f.subject_kind, FrameSubject::kRelative) << text;
  }
  // Lower case is no kin used as a name; a bare colleague is whose-unknown.
  for (const std::string text : {"grandpa sweaters are back in style.", "同事住在上海。"}) {
    for (const FactFrame& f : Read(text)) EXPECT_NE(f.subject_kind, FrameSubject::kRelative) << text << " " << Describe({f});
  }
}

// A thing named with its purpose or destination after its head is the one named with it before
// ("the flight to Lisbon" is "the Lisbon flight"); an attribute word "for me" is the speaker's.
TEST(FactFrameReaderTest, OneThingNamedTwoWays) {
  ExpectOneFrame("The train to Lyon is at 7:40.", "Lyon train", "when", "7:40");
  ExpectOneFrame("The Lyon train is at 8:10.", "Lyon train", "when", "8:10");
  ExpectOneFrame("The standup for design is on Tuesday.", "design standup", "when", "Tuesday");
  ExpectOneFrame("Home for me is Halifax these days.", "", "lives_in", "Halifax");
  for (const std::string text : {"The one I listen to is great.", "The place we go to is closed.", "What it comes down to is money."}) {
    Read(text);  // a joint that ends the name: no crash (it read past the name's end)
  }
}

// A hedge ("might", "probably", 考虑) is a plan: it changes no current value.
TEST(FactFrameReaderTest, AHedgeIsAPlan) {
  for (const std::string text : {"We might move standup to 11am.", "I might switch to light mode."}) {
    auto f = Read(text);
    ASSERT_EQ(f.size(), 1u) << text << " " << Describe(f);
    EXPECT_EQ(f[0].kind, ClauseKind::kPlan) << text;
  }
}

// 会是 in 周会是 / 例会是 is no plan marker: 周会 is a noun of `marker_noun`.
TEST(FactFrameReaderTest, AMarkerInsideANounIsNoMarker) {
  auto f = Read("更正一下，周会是周三，不是周二。");
  ASSERT_EQ(f.size(), 1u) << Describe(f);
  EXPECT_EQ(f[0].kind, ClauseKind::kChange);
  EXPECT_EQ(f[0].value, "周三");
  for (const FactFrame& plan : Read("明年会是我们最忙的一年。")) EXPECT_NE(plan.kind, ClauseKind::kFact) << Describe({plan});
}

// A time between a familiar name and its verb (小王上个月搬到…) and 去 after a place.
TEST(FactFrameReaderTest, AFamiliarNameThenATime) { ExpectOneFrame("小王上个月搬到苏州去了。", "小王", "lives_in", "苏州"); }

// A birthday keeps its date as the value ("生日" and "birthday" name the attribute), also in a
// correction that says the old date after it.
TEST(FactFrameReaderTest, ABirthdayKeepsItsDate) {
  for (const auto& [text, date] : std::vector<std::pair<std::string, std::string>>{
           {"我的生日是五月三号。", "五月三号"},
           {"My birthday is May 8.", "May 8"},
           {"Actually my birthday is on the 9th of May.", "9th of May"},
           {"不对，我生日是十月五号，不是三号。", "十月五号"},
           {"更正：我的生日是10月5日而不是10月3日。", "10月5日"}}) {
    ExpectOneFrame(text, "", "birthday", date);
  }
}

// "B, not A" of a thing's time: the attribute is when.
TEST(FactFrameReaderTest, ACorrectionOfATimeIsWhen) {
  ExpectOneFrame("Correction, the dentist appointment is at 4pm, not 3.", "dentist appointment", "when", "4pm");
}


// A job said with the employer after it ("a staff engineer at Globex", "the tech lead on the
// billing team"): the job is the words before the preposition, the employer a second frame of
// the capitalised words after at/with/for. A role the speaker's team has ("our team lead") stays
// the role's (AnOwnedRoleAfterANameIsTheRolesValue); "team lead" is a job, not a project.
TEST(FactFrameReaderTest, AJobThenItsEmployer) {
  EXPECT_EQ(Describe(Read("Priya is a staff engineer at Globex in Berlin.")),
            "[fact|Priya|job/|staff engineer][fact|Priya|employer/|Globex]");
  ExpectOneFrame("Ahmed is the tech lead on the billing team.", "Ahmed", "job", "tech lead");
  ExpectOneFrame("I am a teacher at the local school.", "", "job", "teacher");  // no capitalised employer
  ExpectOneFrame("I'm the team lead now.", "", "job", "team lead");
}

// "Raj and his wife moved to Phoenix": said of Raj (it was the speaker's); "Raj and I": the
// speaker's.
TEST(FactFrameReaderTest, ANameAndACompanion) {
  ExpectOneFrame("Raj and his wife packed up and moved to Phoenix over the summer.", "Raj", "lives_in", "Phoenix");
  ExpectOneFrame("Raj and I moved to Phoenix.", "", "lives_in", "Phoenix");
}

// A name whose clause gives no frame is still whom "he" means next ("Ahmed got promoted, he's
// ..."); a thing is not.
TEST(FactFrameReaderTest, APronounAfterANameWithoutAFrame) {
  ExpectOneFrame("Ahmed got promoted, he's engineering manager for billing now.", "Ahmed", "job", "engineering manager");
}


// A verb of thought or report after the speaker takes a clause with its own subject (session 28):
// "I think he lives in Edinburgh" is about him, never the speaker (with no "he" known, nobody's).
TEST(FactFrameReaderTest, AnEmbeddedClauseHasItsOwnSubject) {
  for (const char* text : {"I think he lives in Edinburgh now.", "I guess she works at Google now.",
                           "I'm pretty sure they moved to Leeds."}) {
    for (const FactFrame& f : Read(text)) {
      EXPECT_NE(f.subject_kind, FrameSubject::kSpeaker) << text << "\n" << Describe(Read(text));
    }
  }
  ExpectOneFrame("I heard Sam moved to Leeds.", "Sam", "lives_in", "Leeds");
  for (const char* text : {"honestly I think he lives in Edinburgh now", "but I think he lives in Edinburgh now",
                           "Sam left Glasgow but I think he lives in Edinburgh now"}) {
    for (const FactFrame& f : Read(text)) {
      EXPECT_NE(f.subject_kind, FrameSubject::kSpeaker) << text << "\n" << Describe(Read(text));
    }
  }
  ExpectOneFrame("I think I'll stay in Leeds, I live in Leeds.", "", "lives_in", "Leeds");
}

// "the payments service is healthy" and "payments is down" are one thing's one state: an English
// name drops its last word "service" (a Chinese compound keeps 服务), and a state word of a thing
// with no part named apart is its state. A state word after 运行 is no version.
TEST(FactFrameReaderTest, AServiceIsOneThingWithItsName) {
  ExpectOneFrame("The payments service is healthy.", "payments", "state", "healthy");
  ExpectOneFrame("Heads up: payments is down since 3am.", "payments", "state", "down");
  ExpectOneFrame("订单服务挂了。", "订单服务", "state", "挂了");
  ExpectOneFrame("订单服务目前运行正常。", "订单服务", "state", "正常");
  ExpectOneFrame("component-01 运行 v1.2", "component-01", "version", "v1.2");
}


// What a review of session 21's readings broke, each kept broken no more.
TEST(FactFrameReaderTest, ReviewedReadingsOfSession21) {
  // A hedge is its own clause's, and a denied one is none.
  EXPECT_EQ(Describe(Read("Probably not, I live in Denver.")), "[fact||lives_in/|Denver]");
  EXPECT_EQ(Describe(Read("我不考虑了，我已经搬到上海了")), "[change||lives_in/|上海]");
  // A capitalised first word with no event of a person's life is no one "she" means.
  for (const std::string text : {"Monday was rough. She moved to Denver.", "Google announced layoffs. She moved to Denver."}) {
    for (const FactFrame& f : Read(text)) EXPECT_EQ(f.subject_kind, FrameSubject::kSpeaker) << text << " " << Describe({f});
  }
  // A capitalised service name is a thing when "service" is dropped.
  ExpectOneFrame("Payments service is down.", "Payments", "state", "down");
  // "her moved": no companion.
  ExpectOneFrame("Tom and her moved to Denver", "Tom", "lives_in", "Denver");
  // Reschedules: particles before the object, 把 and 从, no adverb or noun as the thing, and
  // Chinese words with 号 or 点 that are no times.
  ExpectOneFrame("We pushed back the launch to May 1", "launch", "when", "May 1");
  ExpectOneFrame("老板把周会改到周四了", "周会", "when", "周四");
  ExpectOneFrame("周会从周三改到周四", "周会", "when", "周四");
  for (const std::string text : {"Tom moved out for the weekend", "There's a delay until 3pm", "I'm covering the night shift for Friday",
                                 "机房换到五号楼", "小王调到重点项目组了", "The score is 3:1", "The aspect ratio is 16:9"}) {
    for (const FactFrame& f : Read(text)) EXPECT_NE(f.attribute, "when") << text << " " << Describe({f});
  }
  // Capitalised words before a lowercase noun are no employer.
  EXPECT_EQ(Describe(Read("Priya is a consultant with React experience.")), "[fact|Priya|job/|consultant]");
  // "birthday party" is a thing (marker_noun), not the speaker's birthday.
  ExpectOneFrame("My birthday party is on Saturday.", "birthday party", "when", "Saturday");
  ExpectOneFrame("生日会是周六。", "生日会", "when", "周六");
}


// A state bounded by a short span (markers `bounded`: "for a few days", 这几天) is temporary, as
// one said "for a while" or 暂时 is.
// A phrase of time before the subject is no subject ("For now I'm working at…"), and the frame
// stays temporary.
TEST(FactFrameReaderTest, APhraseOfTimeOpeningTheClauseIsNoSubject) {
  for (const std::string text : {"For now I'm working at the York office.", "For a while I'm working at the York office."}) {
    ExpectOneFrame(text, "", "employer", "York office");
    EXPECT_TRUE(Read(text)[0].temporary) << text;
  }
  ExpectOneFrame("At the moment Mei lives in Oslo.", "Mei", "lives_in", "Oslo");
}

// A clause with a word of the usual ("usually", 平时) is said of the usual: its frame says so, and
// its claim is qualified habitual (write/same_thing.h keeps it through a temporary change).
TEST(FactFrameReaderTest, TheUsualIsMarked) {
  for (const std::string text : {"I normally work at the Leeds office.", "我平时在徐汇的办公室上班。"}) {
    auto f = Read(text);
    ASSERT_EQ(f.size(), 1u) << text << " " << Describe(f);
    EXPECT_TRUE(f[0].usual) << text;
  }
  auto plain = Read("I work at the Leeds office.");
  ASSERT_EQ(plain.size(), 1u) << Describe(plain);
  EXPECT_FALSE(plain[0].usual);
}

TEST(FactFrameReaderTest, AStateForAFewDaysIsTemporary) {
  for (const std::string text : {"I'm using Vim for a few days while my laptop is in repair.", "这几天我住在酒店。"}) {
    auto f = Read(text);
    ASSERT_EQ(f.size(), 1u) << text << " " << Describe(f);
    EXPECT_TRUE(f[0].temporary) << text;
  }
}

// A version said of a person named as one is a tool of theirs, not the version of the product the
// speaker runs ("My teammate Raj is on Python 3.13" never replaces "I'm running Python 3.11").
TEST(FactFrameReaderTest, APersonsVersionIsAToolTheyUse) {
  ExpectOneFrame("My sister uses Python 3.13.", "My sister", "uses", "Python 3.13");
  auto raj = Read("My teammate Raj is on Python 3.13 already.");
  bool read = false;
  for (const FactFrame& f : raj) {
    EXPECT_NE(f.attribute, "version") << Describe(raj);
    read = read || (f.subject == "Raj" && f.attribute == "uses" && f.value == "Python 3.13");
  }
  EXPECT_TRUE(read) << Describe(raj);
  ExpectOneFrame("The mobile app is on React Native 0.72.", "React Native", "version", "0.72");  // a thing's
  ExpectOneFrame("I'm on Python 3.11.", "Python", "version", "3.11");                               // the speaker's
}

// A Chinese adverb before a verb of moving is no thing that moved (上个月干脆搬到苏州了: the
// speaker), nor part of one (网关终于迁到北京机房了: 网关; 不过家搬到了…: the household); an aspect
// particle ends a verb, never a name after a relative (我姐换了工作: 我姐, not a person called 换了).
TEST(FactFrameReaderTest, AnAdverbIsNoThingAndAParticleNoName) {
  ExpectOneFrame("上个月干脆搬到苏州了。", "", "lives_in", "苏州");
  ExpectOneFrame("终于搬到苏州了。", "", "lives_in", "苏州");
  ExpectOneFrame("网关终于迁到北京机房了。", "网关", "location", "北京机房");
  ExpectOneFrame("不过家搬到了北京通州。", "", "lives_in", "北京通州");  // a word of discourse opens no thing
  ExpectOneFrame("另外网关迁到北京机房了。", "网关", "location", "北京机房");
  auto f = Read("我姐换了工作，已经搬到武汉去了。");
  bool home = false;
  for (const FactFrame& x : f) home = home || (x.subject == "我姐" && x.attribute == "lives_in" && x.value == "武汉");
  EXPECT_TRUE(home) << Describe(f);
  for (const FactFrame& x : Read("我姐姐用的是iPhone 15。")) EXPECT_EQ(x.subject, "我姐姐") << Describe({x});
}

// Someone else's belief about the speaker is reported, never the speaker's fact.
TEST(FactFrameReaderTest, AnothersBeliefAboutTheSpeakerIsReported) {
  for (const std::string text : {"People keep assuming I use Chrome.", "Everyone thinks I live in Paris.",
                                 "大家都以为我住在北京。", "老有人以为我用 Chrome。"}) {
    auto f = Read(text);
    ASSERT_FALSE(f.empty()) << text;
    for (const FactFrame& x : f) EXPECT_EQ(x.kind, ClauseKind::kQuotation) << text << " " << Describe(f);
  }
}

// A relative's age said as the rest of the clause; "turned" is a change of it.
TEST(FactFrameReaderTest, ARelativesAge) {
  ExpectOneFrame("My daughter is seven.", "My daughter", "age", "seven");
  ExpectOneFrame("My mom is 64 now.", "My mom", "age", "64");
  ExpectOneFrame("我儿子五岁了。", "我儿子", "age", "五");
  ExpectOneFrame("我女儿今年七岁。", "我女儿", "age", "七");
  auto turned = Read("My son just turned 5.");
  ASSERT_EQ(turned.size(), 1u) << Describe(turned);
  EXPECT_EQ(turned[0].attribute, "age");
  EXPECT_EQ(turned[0].kind, ClauseKind::kChange);
  ExpectOneFrame("My sister is a nurse.", "My sister", "job", "nurse");
}

// Chinese: 叫 names a thing or a person ("客户公司叫华信物流", 我妈叫李秀英), never when it acts
// (闹钟叫了三次, 我们叫了外卖) or asks someone (我妈叫我回家吃饭).
TEST(FactFrameReaderTest, JiaoNamesButNeverActs) {
  ExpectOneFrame("客户公司叫华信物流。", "客户公司", "name", "华信物流");
  ExpectOneFrame("我妈叫李秀英。", "我妈", "name", "李秀英");
  for (const std::string text : {"闹钟叫了三次我才起床。", "我们叫了外卖。", "楼下的狗叫了一晚上。", "我妈叫我回家吃饭。"}) {
    for (const FactFrame& f : Read(text)) EXPECT_NE(f.attribute, "name") << text << " " << Describe(Read(text));
  }
  // A place may open with a pronoun (住在我姐家), and a thing may move to one (迁到我们自己的机房).
  auto home = Read("公寓水管爆了，修好之前先住在我姐家。");
  ASSERT_FALSE(home.empty());
  EXPECT_EQ(home.back().attribute, "lives_in") << Describe(home);
  EXPECT_EQ(home.back().value, "我姐家") << Describe(home);
  ExpectOneFrame("网关迁到我们自己的机房了。", "网关", "location", "我们自己的机房");
}

// Chinese things' states said with an adverb between (一切正常, 还在跑着), a time of day after a
// thing's name (推荐系统下午恢复了: 推荐系统), and the verbs of studying (在浙江大学读本科, 转学去了复旦).
TEST(FactFrameReaderTest, ChineseStatesAndSchools) {
  const std::vector<std::array<std::string, 4>> cases = {{"支付接口一切正常。", "支付接口", "state", "正常"},
                                                         {"报表服务还在跑着。", "报表服务", "state", "跑着"},
                                                         {"推荐系统下午恢复了。", "推荐系统", "state", "恢复"},
                                                         {"我弟弟在浙江大学读本科。", "我弟弟", "school", "浙江大学"}};
  for (const auto& [text, subject, attribute, value] : cases) ExpectOneFrame(text, subject, attribute, value);
  auto moved = Read("我弟转学去了复旦。");
  ASSERT_EQ(moved.size(), 1u) << Describe(moved);
  EXPECT_EQ(moved[0].attribute, "school");
  EXPECT_EQ(moved[0].value, "复旦");
  EXPECT_EQ(moved[0].kind, ClauseKind::kChange);
}

// A verb of a gerund subject ends the value before "I" as before a lower-case word ("Tampa", not
// "Tampa means I basically never own a coat").
TEST(FactFrameReaderTest, AGerundSubjectsVerbBeforeIEndsTheValue) {
  for (const std::string text : {"Living in Tampa means I basically never own a coat.", "Living in Tampa and I love it."}) {
    auto f = Read(text);
    ASSERT_EQ(f.size(), 1u) << text << " " << Describe(f);
    EXPECT_EQ(f[0].attribute, "lives_in") << text;
    EXPECT_EQ(f[0].value, "Tampa") << text;
  }
  ExpectOneFrame("Living in Iowa City means long winters.", "", "lives_in", "Iowa City");
}

// A verb right after a classifier, with a 的 and another verb after it, describes the employer
// (一家做医疗器械的外企), and the job is the later verb's; a classifier alone is no employer.
TEST(FactFrameReaderTest, AVerbAfterAClassifierDescribesThePlace) {
  ExpectEmployerAndJob("我在一家做医疗器械的外企当销售经理。", "一家做医疗器械的外企", "销售经理");
  ExpectEmployerAndJob("我在这家做跨境电商的公司做运营。", "这家做跨境电商的公司", "运营");
  // Not after 在: a classifier that counts people (一个做律师的朋友, 两个做设计的朋友) says whose the fact is.
  for (const std::string text : {"我有两个做设计的朋友在腾讯工作。", "我认识一个做律师的朋友住在上海。"}) {
    for (const FactFrame& f : Read(text)) EXPECT_FALSE(f.subject.empty() && !f.attribute.empty()) << text << " " << Describe(Read(text));
  }
}

}  // namespace
}  // namespace engram::extraction
