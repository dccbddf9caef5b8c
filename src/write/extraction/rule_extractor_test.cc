#include "write/extraction/rule_extractor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "util/time.h"

namespace engram::extraction {
namespace {

// 2026-03-10T09:00:00Z, a Tuesday (bug_scenarios.md B35).
constexpr TimestampMs kT = 1773133200000;
constexpr TimestampMs kDay = 86'400'000;

Event MakeEvent(std::string content, std::string role = "user", std::string speaker = "Lin",
                TimestampMs at = kT) {
  Event e;
  e.id = "01TESTEVENT0000000000000000";
  e.namespace_name = "test";
  e.session_id = "s1";
  e.role = std::move(role);
  e.speaker = std::move(speaker);
  e.content = std::move(content);
  e.occurred_at = at;
  return e;
}

std::vector<CandidateClaim> Extract(const std::vector<Event>& batch) {
  RuleExtractor extractor;
  Result<std::vector<CandidateClaim>> result = extractor.Extract(batch);
  EXPECT_TRUE(result.has_value());
  return result.has_value() ? *result : std::vector<CandidateClaim>{};
}

std::vector<CandidateClaim> Extract(const std::string& content) {
  return Extract(std::vector<Event>{MakeEvent(content)});
}

bool HasQualifier(const CandidateClaim& c, const std::string& q) {
  return std::find(c.qualifiers.begin(), c.qualifiers.end(), q) != c.qualifiers.end();
}

// The first claim with this predicate (and value, when given); nullptr when none.
const CandidateClaim* Find(const std::vector<CandidateClaim>& claims, const std::string& predicate,
                           const std::string& value = "") {
  for (const CandidateClaim& c : claims) {
    if (c.predicate == predicate && (value.empty() || c.value == value)) return &c;
  }
  return nullptr;
}

std::string Dump(const std::vector<CandidateClaim>& claims) {
  std::string out;
  for (const CandidateClaim& c : claims) {
    out += "[" + c.subject + "|" + c.predicate + "|" + c.slot + "|" + c.value + "]";
    for (const std::string& q : c.qualifiers) out += " " + q;
    out += "\n";
  }
  return out.empty() ? "(no claims)" : out;
}

// Expects a claim with `predicate` and `value`, about `subject`, and returns a copy of it (an empty
// claim when there is none).
CandidateClaim Expect(const std::vector<CandidateClaim>& claims, const std::string& subject,
                      const std::string& predicate, const std::string& value,
                      const std::string& slot = "") {
  const CandidateClaim* c = Find(claims, predicate, value);
  EXPECT_NE(c, nullptr) << "no " << predicate << " " << value << " in\n" << Dump(claims);
  if (c == nullptr) return CandidateClaim{};
  EXPECT_EQ(c->subject, subject) << Dump(claims);
  EXPECT_EQ(c->slot, slot) << Dump(claims);
  return *c;
}

TEST(RuleExtractorTest, Name) { EXPECT_EQ(RuleExtractor().Name(), "rules/1"); }

// ---- B35: relative dates resolve against the event time, never now ----------------------------

TEST(RuleExtractorTest, B35YesterdayResolvesAgainstOccurredAt) {
  auto claims = Extract("I visited City-A yesterday.");
  CandidateClaim c = Expect(claims, "Lin", "went_to", "City-A");
  ASSERT_TRUE(c.valid_from.has_value());
  EXPECT_EQ(FormatTimestamp(*c.valid_from), "2026-03-09T00:00:00.000Z");
  EXPECT_EQ(c.time_phrase, "yesterday");
  EXPECT_NE(c.text.find("2026-03-09"), std::string::npos) << c.text;
}

TEST(RuleExtractorTest, B35LastTuesday) {
  auto claims = Extract("I visited City-A last Tuesday.");
  CandidateClaim c = Expect(claims, "Lin", "went_to", "City-A");
  ASSERT_TRUE(c.valid_from.has_value());
  EXPECT_EQ(FormatTimestamp(*c.valid_from), "2026-03-03T00:00:00.000Z");
  EXPECT_EQ(c.time_phrase, "last Tuesday");
}

TEST(RuleExtractorTest, B35TwoWeeksAgo) {
  auto claims = Extract("I visited City-A two weeks ago.");
  CandidateClaim c = Expect(claims, "Lin", "went_to", "City-A");
  ASSERT_TRUE(c.valid_from.has_value());
  EXPECT_EQ(FormatTimestamp(*c.valid_from), "2026-02-24T00:00:00.000Z");
  EXPECT_EQ(c.time_phrase, "two weeks ago");
}

// Breaker D3: a date without a year that is still ahead of the event, told in the past tense, is
// the one just past ("I visited City-A on May 4th", said in March), not a plan for May.
TEST(RuleExtractorTest, YearlessDateAheadInThePastTenseIsTheOneJustPast) {
  auto past = Extract("I visited City-A on May 4th.");
  CandidateClaim c = Expect(past, "Lin", "went_to", "City-A");
  ASSERT_TRUE(c.valid_from.has_value());
  EXPECT_EQ(FormatTimestamp(*c.valid_from), "2025-05-04T00:00:00.000Z");
  EXPECT_FALSE(HasQualifier(c, "planned")) << Dump(past);
  EXPECT_NE(c.text.find("2025-05-04"), std::string::npos) << c.text;

  auto did = Extract("I did visit City-A on May 4th.");
  c = Expect(did, "Lin", "went_to", "City-A");
  ASSERT_TRUE(c.valid_from.has_value());
  EXPECT_EQ(FormatTimestamp(*c.valid_from), "2025-05-04T00:00:00.000Z");

  // Not past: the coming May 4th, a plan.
  auto plan = Extract("I'm going to visit City-A on May 4th.");
  ASSERT_FALSE(plan.empty());
  ASSERT_TRUE(plan[0].valid_from.has_value()) << Dump(plan);
  EXPECT_EQ(FormatTimestamp(*plan[0].valid_from), "2026-05-04T00:00:00.000Z");
  EXPECT_TRUE(HasQualifier(plan[0], "planned")) << Dump(plan);

  // A state a past change began: "moved to", "switched to", "started at" with the month just past.
  for (const auto& [said, predicate, value] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"I moved to Leeds in May.", "lives_in", "Leeds"},
           {"We relocated to Porto in May.", "lives_in", "Porto"},
           {"I switched to Vim in May.", "uses", "Vim"}}) {
    auto moved = Extract(said);
    bool found = false;
    for (const CandidateClaim& claim : moved) {
      if (claim.predicate != predicate || claim.value != value) continue;
      found = true;
      ASSERT_TRUE(claim.valid_from.has_value()) << said;
      EXPECT_EQ(FormatTimestamp(*claim.valid_from), "2025-05-01T00:00:00.000Z") << said << "\n" << Dump(moved);
      EXPECT_FALSE(HasQualifier(claim, "planned")) << said << "\n" << Dump(moved);
    }
    EXPECT_TRUE(found) << said << "\n" << Dump(moved);
  }
  // ...but a coming move stays a plan.
  auto moving = Extract("I'm moving to Leeds in May.");
  ASSERT_FALSE(moving.empty());
  for (const CandidateClaim& claim : moving) {
    if (claim.predicate != "lives_in") continue;
    ASSERT_TRUE(claim.valid_from.has_value()) << Dump(moving);
    EXPECT_EQ(FormatTimestamp(*claim.valid_from), "2026-05-01T00:00:00.000Z") << Dump(moving);
    EXPECT_TRUE(HasQualifier(claim, "planned")) << Dump(moving);
  }

  // A date already past this year keeps this year.
  auto earlier = Extract("I visited City-A on Feb 4th.");
  c = Expect(earlier, "Lin", "went_to", "City-A");
  ASSERT_TRUE(c.valid_from.has_value());
  EXPECT_EQ(FormatTimestamp(*c.valid_from), "2026-02-04T00:00:00.000Z");

  // Chinese: 了 marks the done action.
  auto zh_past = Extract("我5月4日去了苏州。");
  c = Expect(zh_past, "Lin", "went_to", "苏州");
  ASSERT_TRUE(c.valid_from.has_value());
  EXPECT_EQ(FormatTimestamp(*c.valid_from), "2025-05-04T00:00:00.000Z");
  EXPECT_FALSE(HasQualifier(c, "planned")) << Dump(zh_past);
  auto zh_final = Extract("我5月4日去苏州了。");
  c = Expect(zh_final, "Lin", "went_to", "苏州");
  ASSERT_TRUE(c.valid_from.has_value());
  EXPECT_EQ(FormatTimestamp(*c.valid_from), "2025-05-04T00:00:00.000Z") << Dump(zh_final);

  // Arranged in the past for a coming date: the date stays the coming one (review of D3).
  for (const char* arranged : {"I booked a trip to Bern for May 4th.", "I booked a flight to Bern on May 4th.",
                               "I already registered for the marathon on May 4th.",
                               "I signed up for the marathon on May 4th.",
                               "I bought tickets for the concert on May 4th.", "我们约好了5月4日去苏州。",
                               "为了看花我5月4日去苏州。", "我买了5月4日去苏州的票。"}) {
    for (const CandidateClaim& claim : Extract(arranged)) {
      if (!claim.valid_from) continue;
      EXPECT_EQ(FormatTimestamp(*claim.valid_from), "2026-05-04T00:00:00.000Z")
          << arranged << "\n" << Dump(Extract(arranged));
    }
  }

  auto zh_plan = Extract("我打算5月4日去苏州。");
  ASSERT_FALSE(zh_plan.empty());
  ASSERT_TRUE(zh_plan[0].valid_from.has_value()) << Dump(zh_plan);
  EXPECT_EQ(FormatTimestamp(*zh_plan[0].valid_from), "2026-05-04T00:00:00.000Z");
  EXPECT_TRUE(HasQualifier(zh_plan[0], "planned")) << Dump(zh_plan);
}

// Two actions with their own dates in one sentence: each takes the date attached after its value,
// not the sentence's first (review of session 7).
TEST(RuleExtractorTest, EachClaimTakesTheDateAttachedToIt) {
  auto both = Extract("I visited Bern on Feb 4th and I will visit Paris on June 1st.");
  CandidateClaim bern = Expect(both, "Lin", "went_to", "Bern");
  ASSERT_TRUE(bern.valid_from.has_value());
  EXPECT_EQ(FormatTimestamp(*bern.valid_from), "2026-02-04T00:00:00.000Z");
  const CandidateClaim* paris = nullptr;
  for (const CandidateClaim& c : both) {
    if (c.value.find("Paris") != std::string::npos) paris = &c;
  }
  ASSERT_NE(paris, nullptr) << Dump(both);
  ASSERT_TRUE(paris->valid_from.has_value());
  EXPECT_EQ(FormatTimestamp(*paris->valid_from), "2026-06-01T00:00:00.000Z") << Dump(both);
  // A date opening the sentence still dates the first action; "and tomorrow" belongs to the next.
  auto lead = Extract("Yesterday I visited Bern and tomorrow I will visit Paris.");
  bern = Expect(lead, "Lin", "went_to", "Bern");
  ASSERT_TRUE(bern.valid_from.has_value());
  EXPECT_EQ(FormatTimestamp(*bern.valid_from), "2026-03-09T00:00:00.000Z");
}

TEST(RuleExtractorTest, NoTimeMentionMeansOccurredAt) {
  auto claims = Extract("I live in Beijing.");
  CandidateClaim c = Expect(claims, "Lin", "lives_in", "Beijing");
  EXPECT_EQ(c.valid_from, kT);
  EXPECT_EQ(c.time_phrase, "");
}

// ---- B48 and which events count
// ------------------------------------------------------------------

TEST(RuleExtractorTest, B48AssistantAnswerIsNeverAboutTheUser) {
  std::vector<Event> batch = {
      MakeEvent("Explain algorithm-K.", "user", ""),
      MakeEvent("Algorithm-K uses a recursive approach. I implemented the recursive solution "
                "first, then switched to an iterative version for O(1) space. You should use "
                "the iterative one; I love how simple it is.",
                "assistant", ""),
  };
  auto claims = Extract(batch);
  for (const CandidateClaim& c : claims) {
    EXPECT_NE(c.subject, "user") << Dump(claims);
    EXPECT_EQ(c.source_events, std::vector<size_t>{0}) << Dump(claims);
  }
  EXPECT_TRUE(claims.empty()) << Dump(claims);
}

TEST(RuleExtractorTest, NamedAssistantOfAMultiPartyChatSpeaksForItself) {
  std::vector<Event> batch = {
      MakeEvent("I moved to Hangzhou last month.", "user", "Lin"),
      MakeEvent("I live in Paris.", "assistant", "Mei"),
  };
  auto claims = Extract(batch);
  CandidateClaim lin = Expect(claims, "Lin", "lives_in", "Hangzhou");
  EXPECT_EQ(lin.source_events, std::vector<size_t>{0});
  CandidateClaim mei = Expect(claims, "Mei", "lives_in", "Paris");
  EXPECT_EQ(mei.source_events, std::vector<size_t>{1});
}

TEST(RuleExtractorTest, ToolSystemAndUnnamedAssistantEventsProduceNothing) {
  std::vector<Event> batch = {
      MakeEvent("I live in Paris.", "tool", ""), MakeEvent("I live in Paris.", "system", ""),
      MakeEvent("I live in Paris.", "assistant", ""),
      MakeEvent("I live in Paris.", "assistant", "Bot"),  // the only named speaker
  };
  EXPECT_TRUE(Extract(batch).empty());
}

TEST(RuleExtractorTest, UnnamedUserIsTheRole) {
  auto claims = Extract(std::vector<Event>{MakeEvent("I live in Beijing", "user", "")});
  Expect(claims, "user", "lives_in", "Beijing");
}

// ---- Contradictions and changes (B01, B02, B08)
// --------------------------------------------------

TEST(RuleExtractorTest, B01LoveThenHateIsTheSameFactNegated) {
  auto love = Extract("I love cuisine-A.");
  auto hate = Extract("I hate cuisine-A.");
  CandidateClaim a = Expect(love, "Lin", "likes", "cuisine-A");
  CandidateClaim b = Expect(hate, "Lin", "likes", "cuisine-A");
  EXPECT_FALSE(HasQualifier(a, kQualNegated));
  EXPECT_TRUE(HasQualifier(b, kQualNegated));
  EXPECT_EQ(a.scope, "preference");
}

TEST(RuleExtractorTest, B08OwnThenSold) {
  auto own = Extract("I own Item-X.");
  auto sold = Extract("I sold Item-X yesterday.");
  CandidateClaim a = Expect(own, "Lin", "owns", "Item-X");
  CandidateClaim b = Expect(sold, "Lin", "owns", "Item-X");
  EXPECT_FALSE(HasQualifier(a, kQualNegated));
  EXPECT_TRUE(HasQualifier(b, kQualNegated));
  EXPECT_EQ(b.time_phrase, "yesterday");
  EXPECT_EQ(b.valid_from, kT - kT % kDay - kDay);
}

TEST(RuleExtractorTest, B02HabitStopsAndAnotherStarts) {
  auto before = Extract("I drink beverage-X every morning.");
  CandidateClaim x = Expect(before, "Lin", "habit", "beverage-X", "drink");
  EXPECT_TRUE(HasQualifier(x, kQualHabitual));
  EXPECT_FALSE(HasQualifier(x, kQualNegated));
  EXPECT_EQ(x.scope, "habit");

  auto after = Extract("I stopped drinking beverage-X; I drink beverage-Y now.");
  CandidateClaim stopped = Expect(after, "Lin", "habit", "beverage-X", "drink");
  EXPECT_TRUE(HasQualifier(stopped, kQualNegated));
  CandidateClaim y = Expect(after, "Lin", "habit", "beverage-Y", "drink");
  EXPECT_FALSE(HasQualifier(y, kQualNegated));
  // Text order: the stopped habit comes first.
  EXPECT_LT(std::find_if(after.begin(), after.end(),
                         [](const CandidateClaim& c) { return c.value == "beverage-X"; }) -
                after.begin(),
            std::find_if(after.begin(), after.end(), [](const CandidateClaim& c) {
              return c.value == "beverage-Y";
            }) - after.begin());
}

TEST(RuleExtractorTest, ChineseHabitStops) {
  auto daily = Extract("我每天喝咖啡");
  CandidateClaim a = Expect(daily, "Lin", "habit", "咖啡", "喝");
  EXPECT_TRUE(HasQualifier(a, kQualHabitual));
  auto stopped = Extract("我不再喝咖啡了");
  CandidateClaim b = Expect(stopped, "Lin", "habit", "咖啡", "喝");
  EXPECT_TRUE(HasQualifier(b, kQualNegated));
}

// ---- State: uses with a lexicon slot
// --------------------------------------------------------------

TEST(RuleExtractorTest, UiThemeSwitchIsTemporary) {
  auto dark = Extract("I mainly use dark mode");
  CandidateClaim a = Expect(dark, "Lin", "uses", "dark mode", "ui_theme");
  EXPECT_FALSE(HasQualifier(a, kQualTemporary));
  EXPECT_EQ(a.scope, "state");

  auto light = Extract("my eyes hurt, switching to light mode for now");
  CandidateClaim b = Expect(light, "Lin", "uses", "light mode", "ui_theme");
  EXPECT_TRUE(HasQualifier(b, kQualTemporary));
  EXPECT_EQ(b.evidence_span, "my eyes hurt, switching to light mode for now");
}

TEST(RuleExtractorTest, ChineseUiThemeSwitchIsTemporary) {
  auto claims = Extract("我最近眼睛不舒服，暂时换成浅色模式");
  CandidateClaim c = Expect(claims, "Lin", "uses", "浅色模式", "ui_theme");
  EXPECT_TRUE(HasQualifier(c, kQualTemporary));
  EXPECT_EQ(claims.size(), 1u) << Dump(claims);
}

TEST(RuleExtractorTest, UsesEditorAndStatus) {
  Expect(Extract("I switched to Neovim last year."), "Lin", "uses", "Neovim", "editor");
  Expect(Extract("我改用Vim了。"), "Lin", "uses", "Vim", "editor");
  Expect(Extract("I'm vegetarian."), "Lin", "status", "vegetarian");
  Expect(Extract("我已经结婚了。"), "Lin", "status", "结婚");
}

// ---- Identity
// -------------------------------------------------------------------------------------

TEST(RuleExtractorTest, LivesInAndMovedTo) {
  CandidateClaim live = Expect(Extract("I live in Beijing"), "Lin", "lives_in", "Beijing");
  EXPECT_EQ(live.scope, "identity");
  EXPECT_DOUBLE_EQ(live.importance, 0.8);
  EXPECT_EQ(live.text, "Lin lives in Beijing");
  auto moved = Extract("I moved to Hangzhou last month");
  CandidateClaim c = Expect(moved, "Lin", "lives_in", "Hangzhou");
  EXPECT_EQ(c.time_phrase, "last month");
  EXPECT_EQ(FormatTimestamp(*c.valid_from), "2026-02-01T00:00:00.000Z");
}

TEST(RuleExtractorTest, EnglishIdentity) {
  auto claims = Extract("Hi, I'm Lin. I'm 30 years old and I work as a nurse.");
  Expect(claims, "Lin", "name", "Lin");
  Expect(claims, "Lin", "age", "30");
  Expect(claims, "Lin", "job", "nurse");
  Expect(Extract("I'm from Chengdu."), "Lin", "hometown", "Chengdu");
  Expect(Extract("I work at Google."), "Lin", "employer", "Google");
  Expect(Extract("I study at MIT."), "Lin", "school", "MIT");
  Expect(Extract("My birthday is May 8."), "Lin", "birthday", "May 8");
  auto past = Extract("I used to live in Paris.");
  EXPECT_TRUE(HasQualifier(Expect(past, "Lin", "lives_in", "Paris"), kQualPast));
}

TEST(RuleExtractorTest, ChineseIdentity) {
  auto claims = Extract("我叫林小明，今年28岁。");
  Expect(claims, "Lin", "name", "林小明");
  Expect(claims, "Lin", "age", "28");
  auto work = Extract("我是一名软件工程师，在阿里巴巴工作。");
  Expect(work, "Lin", "job", "软件工程师");
  Expect(work, "Lin", "employer", "阿里巴巴");
  auto home = Extract("我老家是成都，现在住在杭州。");
  Expect(home, "Lin", "hometown", "成都");
  CandidateClaim live = Expect(home, "Lin", "lives_in", "杭州");
  EXPECT_EQ(live.text, "Lin 住在杭州");
  Expect(Extract("我在北京大学读书。"), "Lin", "school", "北京大学");
  auto moved = Extract("我上个月搬到了上海。");
  EXPECT_EQ(Expect(moved, "Lin", "lives_in", "上海").time_phrase, "上个月");
}

// B06: a named third person is the subject, and additive facts stay additive.
TEST(RuleExtractorTest, B06NamedThirdPerson) {
  auto claims = Extract("Person-P works at Org-O as role-R.");
  Expect(claims, "Person-P", "employer", "Org-O");
  Expect(claims, "Person-P", "job", "role-R");
  auto later = Extract("Person-P introduced an audit requirement.");
  const CandidateClaim* employer = Find(later, "employer");
  EXPECT_EQ(employer, nullptr) << Dump(later);
}

// ---- Relations, third persons and reported speech
// -------------------------------------------------

TEST(RuleExtractorTest, SisterWithANameIsARelationAndASubject) {
  auto claims = Extract("my sister Mei lives in Hangzhou");
  CandidateClaim rel = Expect(claims, "Lin", "has_relation", "Mei", "sister");
  EXPECT_EQ(rel.scope, "relationship");
  EXPECT_DOUBLE_EQ(rel.importance, 0.7);
  CandidateClaim live = Expect(claims, "Mei", "lives_in", "Hangzhou");
  EXPECT_EQ(live.text, "Mei lives in Hangzhou");
}

TEST(RuleExtractorTest, ChineseSisterWithAName) {
  auto claims = Extract("我妹妹小梅住在杭州");
  Expect(claims, "Lin", "has_relation", "小梅", "妹妹");
  Expect(claims, "小梅", "lives_in", "杭州");
}

TEST(RuleExtractorTest, ReportedSpeech) {
  auto claims = Extract("my friend said he moved to Paris");
  CandidateClaim c = Expect(claims, "my friend", "lives_in", "Paris");
  EXPECT_TRUE(HasQualifier(c, kQualReported));
  EXPECT_EQ(claims.size(), 1u) << Dump(claims);
  auto named = Extract("My friend Tom told me he moved to Paris.");
  Expect(named, "Lin", "has_relation", "Tom", "friend");
  EXPECT_TRUE(HasQualifier(Expect(named, "Tom", "lives_in", "Paris"), kQualReported));
}

TEST(RuleExtractorTest, ChineseReportedSpeech) {
  auto claims = Extract("我朋友说他搬到了巴黎");
  CandidateClaim c = Expect(claims, "我朋友", "lives_in", "巴黎");
  EXPECT_TRUE(HasQualifier(c, kQualReported));
  for (const CandidateClaim& other : claims) EXPECT_NE(other.subject, "Lin") << Dump(claims);
}

TEST(RuleExtractorTest, RelationsAndPets) {
  Expect(Extract("I have a dog named Max."), "Lin", "has_relation", "Max", "dog");
  Expect(Extract("My sister's name is Mei."), "Lin", "has_relation", "Mei", "sister");
  auto kids = Extract("My kids love the beach");
  EXPECT_EQ(Expect(kids, "My kids", "likes", "beach").text, "Lin's kids likes beach");
}

// B29: Chinese stays Chinese, names byte for byte.
TEST(RuleExtractorTest, B29ChineseTripKeepsNamesAndIsPlanned) {
  const std::string content = "我下周和同事李雷一起去巴黎出差。";
  auto claims = Extract(content);
  CandidateClaim rel = Expect(claims, "Lin", "has_relation", "李雷", "同事");
  EXPECT_EQ(rel.evidence_span, content);
  const CandidateClaim* trip = nullptr;
  for (const CandidateClaim& c : claims) {
    if (c.value.find("巴黎") != std::string::npos) trip = &c;
  }
  ASSERT_NE(trip, nullptr) << Dump(claims);
  EXPECT_TRUE(HasQualifier(*trip, kQualPlanned)) << Dump(claims);
  EXPECT_EQ(trip->time_phrase, "下周");
  EXPECT_NE(content.find(trip->value), std::string::npos);
  EXPECT_NE(trip->text.find("巴黎"), std::string::npos) << trip->text;
  EXPECT_NE(trip->text.find("下周"), std::string::npos) << trip->text;
  EXPECT_EQ(trip->text.find("week"), std::string::npos) << trip->text;
  // The relation holds already: the trip's time does not move it.
  EXPECT_EQ(rel.valid_from, kT);
  EXPECT_FALSE(HasQualifier(rel, kQualPlanned));
  EXPECT_EQ(trip->text.find("Paris"), std::string::npos) << trip->text;
}

// ---- Preferences and possessions
// ------------------------------------------------------------------

TEST(RuleExtractorTest, EnglishPreferences) {
  EXPECT_TRUE(
      HasQualifier(Expect(Extract("I don't like horror movies."), "Lin", "likes", "horror movies"),
                   kQualNegated));
  Expect(Extract("I'm really into rock climbing."), "Lin", "likes", "rock climbing");
  Expect(Extract("I prefer tea to coffee."), "Lin", "prefers", "tea");
  Expect(Extract("My favorite color is blue."), "Lin", "favorite", "blue", "color");
  EXPECT_TRUE(
      HasQualifier(Expect(Extract("I can't stand jazz."), "Lin", "likes", "jazz"), kQualNegated));
}

TEST(RuleExtractorTest, ChinesePreferences) {
  Expect(Extract("我喜欢猫"), "Lin", "likes", "猫");
  EXPECT_TRUE(
      HasQualifier(Expect(Extract("我不喜欢下雨天"), "Lin", "likes", "下雨天"), kQualNegated));
  EXPECT_TRUE(HasQualifier(Expect(Extract("我讨厌香菜。"), "Lin", "likes", "香菜"), kQualNegated));
  Expect(Extract("我更喜欢喝茶。"), "Lin", "prefers", "喝茶");
  Expect(Extract("我最喜欢的颜色是蓝色。"), "Lin", "favorite", "蓝色", "颜色");
}

TEST(RuleExtractorTest, Possessions) {
  Expect(Extract("I bought a new car."), "Lin", "owns", "new car");
  Expect(Extract("I have two cats."), "Lin", "owns", "two cats");
  EXPECT_TRUE(Find(Extract("I have no idea."), "owns") == nullptr);
  Expect(Extract("我养了一只狗。"), "Lin", "owns", "狗");
  EXPECT_TRUE(HasQualifier(Expect(Extract("我把车卖了。"), "Lin", "owns", "车"), kQualNegated));
}

// ---- Activities
// -----------------------------------------------------------------------------------

TEST(RuleExtractorTest, EnglishActivities) {
  Expect(Extract("I joined a book club."), "Lin", "joined", "book club");
  Expect(Extract("I attended a concert last night."), "Lin", "attended", "concert");
  Expect(Extract("I started a blog."), "Lin", "started", "blog");
  Expect(Extract("I finished my thesis."), "Lin", "finished", "my thesis");
  Expect(Extract("Joined a travel club."), "Lin", "joined", "travel club");
  EXPECT_TRUE(HasQualifier(
      Expect(Extract("I'm planning to visit Japan."), "Lin", "plans_to", "visit Japan"),
      kQualPlanned));
  CandidateClaim going =
      Expect(Extract("I'm going to Paris next week."), "Lin", "went_to", "Paris");
  EXPECT_TRUE(HasQualifier(going, kQualPlanned));
  CandidateClaim painted =
      Expect(Extract("We painted a sunset last weekend!"), "Lin", "did", "painted a sunset");
  EXPECT_EQ(painted.time_phrase, "last weekend");
  EXPECT_EQ(painted.text, "Lin painted a sunset last weekend (2026-03-07)");
  Expect(Extract("I'm learning the guitar"), "Lin", "doing", "learning the guitar");
  Expect(Extract("I've been writing articles"), "Lin", "doing", "writing articles");
  Expect(Extract("I go running every morning."), "Lin", "habit", "running", "go");
}

TEST(RuleExtractorTest, ChineseActivities) {
  EXPECT_EQ(Expect(Extract("我去年去了日本。"), "Lin", "went_to", "日本").time_phrase, "去年");
  Expect(Extract("我参加了一个读书会。"), "Lin", "attended", "读书会");
  Expect(Extract("我加入了一个跑步俱乐部。"), "Lin", "joined", "跑步俱乐部");
  Expect(Extract("我开始学日语了。"), "Lin", "started", "学日语");
  Expect(Extract("我刚完成了我的论文。"), "Lin", "finished", "我的论文");
  EXPECT_TRUE(HasQualifier(Expect(Extract("我计划明年学法语。"), "Lin", "plans_to", "学法语"),
                           kQualPlanned));
  Expect(Extract("我在学吉他。"), "Lin", "doing", "学吉他");
  EXPECT_EQ(Expect(Extract("我昨天画了一幅画"), "Lin", "did", "画了一幅画").time_phrase, "昨天");
  Expect(Extract("我每周去健身房三次。"), "Lin", "habit", "健身房", "去");
}

// LoCoMo-style casual chat: both speakers are role "user" with a speaker name.
TEST(RuleExtractorTest, CasualChatYieldsClaims) {
  const char* kTurns[] = {
      "I went to a LGBTQ support group yesterday and it was so powerful.",
      "I'm thinking of working in counseling or mental health.",
      "We painted a sunset last weekend!",
      "I've been running a lot lately",
      "My kids love the beach",
      "Thanks, Caroline! I just got back from a camping trip with my family.",
      "Yeah, I made it in pottery class yesterday. I love it!",
      "Been busy volunteering at the homeless shelter and keeping fit.",
      "Just started doing aerial yoga, it's great.",
      "Last night I joined a fantasy literature forum and had a great talk about my fave books.",
      "Hey Nate, I'm working on a new project - a suspenseful thriller set in a small town.",
      "I'm hoping to attend a book conference next month.",
  };
  for (const char* turn : kTurns) {
    auto claims = Extract(std::vector<Event>{MakeEvent(turn, "user", "Caroline")});
    EXPECT_FALSE(claims.empty()) << turn;
    for (const CandidateClaim& c : claims) {
      // The speaker, or a relative of hers ("My kids").
      EXPECT_TRUE(c.subject == "Caroline" || c.subject == "My kids") << turn << Dump(claims);
    }
  }
  auto group = Extract(std::vector<Event>{MakeEvent(kTurns[0], "user", "Caroline")});
  CandidateClaim c = Expect(group, "Caroline", "went_to", "LGBTQ support group");
  EXPECT_EQ(c.time_phrase, "yesterday");
  auto trip = Extract(std::vector<Event>{MakeEvent(kTurns[5], "user", "Melanie")});
  Expect(trip, "Melanie", "went_to", "camping trip with my family");
}

TEST(RuleExtractorTest, QuestionsProduceNothing) {
  const char* kQuestions[] = {
      "Do you like X?",
      "What do you think of this?",
      "Have you ever been to Paris",
      "Did you go to the concert yesterday?",
      "I wonder, do you live in Paris?",
      "你喜欢什么？",
      "你去过北京吗",
      "我下周去哪里？",
      "How are you doing, Mel?",
  };
  for (const char* q : kQuestions) EXPECT_TRUE(Extract(q).empty()) << q << Dump(Extract(q));
}

TEST(RuleExtractorTest, OtherPeoplesStatementsAreNotTheSpeakers) {
  EXPECT_TRUE(Extract("He lives in Paris.").empty());
  EXPECT_TRUE(Extract("You should move to Berlin.").empty());
  EXPECT_TRUE(Extract("他住在上海。").empty());
  // A bare relation word opens the clause: someone else's fact (found by the cjk_channels scenario:
  // "同事住在上海" superseded the speaker's own home and hid its evidence from recall).
  EXPECT_TRUE(Extract("同事住在上海，每天通勤。").empty()) << Dump(Extract("同事住在上海，每天通勤。"));
  EXPECT_TRUE(Extract("邻居上个月搬到北京了。").empty()) << Dump(Extract("邻居上个月搬到北京了。"));
  EXPECT_TRUE(Extract("If I move to Paris, I will learn French.").empty());
}

// ---- Invariants and robustness
// -------------------------------------------------------------------

// Every value and evidence span is a verbatim substring; qualifiers are sorted and known.
void CheckInvariants(const std::vector<Event>& batch, const std::vector<CandidateClaim>& claims) {
  static const std::vector<std::string> kKnown = {kQualHabitual, kQualNegated,  kQualPast,     kQualPlanned,
                                                  kQualReported, kQualTemporary, kQualHypothetical};
  for (const CandidateClaim& c : claims) {
    ASSERT_EQ(c.source_events.size(), 1u);
    ASSERT_LT(c.source_events[0], batch.size());
    const std::string& content = batch[c.source_events[0]].content;
    EXPECT_FALSE(c.subject.empty());
    EXPECT_FALSE(c.value.empty());
    EXPECT_FALSE(c.text.empty());
    EXPECT_NE(content.find(c.evidence_span), std::string::npos);
    EXPECT_NE(c.evidence_span.find(c.value), std::string::npos) << c.value;
    EXPECT_TRUE(std::is_sorted(c.qualifiers.begin(), c.qualifiers.end()));
    for (const std::string& q : c.qualifiers) {
      EXPECT_NE(std::find(kKnown.begin(), kKnown.end(), q), kKnown.end()) << q;
    }
    EXPECT_GE(c.confidence, 0.55);
    EXPECT_LE(c.confidence, 0.9);
    EXPECT_TRUE(c.valid_from.has_value());
  }
}

TEST(RuleExtractorTest, ClaimsAreInEventThenTextOrder) {
  std::vector<Event> batch = {MakeEvent("I live in Beijing. I love tea."),
                              MakeEvent("I own a bike.", "user", "Lin", kT + 1000)};
  auto claims = Extract(batch);
  ASSERT_EQ(claims.size(), 3u) << Dump(claims);
  EXPECT_EQ(claims[0].predicate, "lives_in");
  EXPECT_EQ(claims[1].predicate, "likes");
  EXPECT_EQ(claims[2].predicate, "owns");
  EXPECT_EQ(claims[2].source_events, std::vector<size_t>{1});
  CheckInvariants(batch, claims);
}

TEST(RuleExtractorTest, GarbageInvalidUtf8AndHugeInputNeverCrash) {
  std::vector<std::string> inputs = {
      "",
      "   ",
      "\xff\xfe\xfd I live in \xc0\xaf Paris \xe2\x80",
      "I live in Paris\xff and I love tea.",
      std::string("I love \0 tea", 12),
      "我喜欢\xe4\xbd",
      "...!!!???;;;,,,",
      "'\"'\"()()-- — … 。。！",
      "I I I I I my my my and and and",
      "Person-P Person-Q Person-R works works at at",
  };
  std::string big;
  while (big.size() < 100 * 1024) big += "I went to Paris yesterday and I love it. 我下周去北京。 ";
  inputs.push_back(big);
  std::string no_spaces(100 * 1024, 'a');
  inputs.push_back(no_spaces);
  std::string han;
  while (han.size() < 100 * 1024) han += "我喜欢住在";
  inputs.push_back(han);
  std::string noise;
  uint32_t seed = 12345;
  for (int i = 0; i < 100 * 1024; ++i) {
    seed = seed * 1103515245 + 12345;
    noise.push_back(static_cast<char>(seed >> 16));
  }
  inputs.push_back(noise);
  for (const std::string& input : inputs) {
    std::vector<Event> batch = {MakeEvent(input)};
    auto claims = Extract(batch);
    CheckInvariants(batch, claims);
  }
  // Invalid bytes never reach a value.
  auto claims = Extract("I live in Paris\xff and I love tea.");
  Expect(claims, "Lin", "lives_in", "Paris");
}

TEST(RuleExtractorTest, OnlyTheFirst64KiBAreRead) {
  std::string content(70 * 1024, ' ');
  content += "I live in Paris.";
  EXPECT_TRUE(Extract(content).empty());
}

}  // namespace
}  // namespace engram::extraction

namespace engram::extraction {
namespace {

// Issue 16, "subjects are resolved, never defaulted to the user".
TEST(RuleExtractorSubjectTest, ANamedSubjectAfterAndIsItsOwnClause) {
  std::vector<CandidateClaim> claims = Extract("Tom stepped down last week and Maria took over as tech lead.");
  Expect(claims, "Maria", "job", "tech lead");
  // A company named with "and" stays one value; the city said after it is no part of it.
  Expect(Extract("I work at Ernst and Young in London."), "Lin", "employer", "Ernst and Young");  // the place is not the name
}

TEST(RuleExtractorSubjectTest, ANameIsTheSubjectThoughAWordOrTwoStandBeforeItsVerb) {
  Expect(Extract("Kenji got a new job at Sony."), "Kenji", "employer", "Sony");
  // Not when the words name the speaker as the object.
  for (const CandidateClaim& c : Extract("Sony hired me last week.")) EXPECT_NE(c.subject, "Sony") << Dump({c});
}

TEST(RuleExtractorSubjectTest, AClauseGoingOnAboutSomeoneUnresolvedIsNotTheSpeakers) {
  // Whose colleague is not said: neither clause is the speaker's.
  for (const CandidateClaim& c : Extract("同事住在上海，去了一家券商。")) EXPECT_NE(c.subject, "user") << Dump({c});
  // Someone named goes on being the subject of the clauses that name none.
  Expect(Extract("我妹妹小梅住在杭州，上个月去了北京出差。"), "小梅", "went_to", "北京出差");
}


// A time that is the value ("the deadline is March 3", "my birthday is May 8") is not the claim's
// valid time: the claim holds from when it was said, and is no plan (issue 16, session 21).
TEST(RuleExtractorTest, ATimeThatIsTheValueIsNotTheValidTime) {
  for (const std::string text : {"The deadline is March 3.", "My birthday is May 8.", "截止日期推迟到4月10日。"}) {
    auto claims = Extract(text);
    const CandidateClaim* c = nullptr;
    for (const CandidateClaim& claim : claims) {
      if (claim.predicate == "when" || claim.predicate == "birthday") c = &claim;
    }
    ASSERT_NE(c, nullptr) << text << "\n" << Dump(claims);
    EXPECT_FALSE(HasQualifier(*c, kQualPlanned)) << text << "\n" << Dump(claims);
    EXPECT_EQ(c->valid_from, MakeEvent(text).occurred_at) << text;
  }
}

}  // namespace
}  // namespace engram::extraction

namespace engram::extraction {
namespace {

// The correction kept whole from a turn that opens with one (UnreadCorrection), or nullptr.
const CandidateClaim* KeptCorrection(const std::vector<CandidateClaim>& got) {
  for (const CandidateClaim& c : got) {
    if (c.correction && c.successor_only) return &c;
  }
  return nullptr;
}

TEST(RuleExtractorTest, ATurnOpeningWithACorrectionIsKeptAsOne) {
  // A correction that sets its value against the one it replaces is read by the fact frame
  // (ContrastCorrection), not kept whole.
  std::vector<CandidateClaim> got = Extract("sorry, I meant gate C7, not B12");
  EXPECT_EQ(KeptCorrection(got), nullptr);
  auto read = std::find_if(got.begin(), got.end(), [](const CandidateClaim& c) { return c.correction; });
  ASSERT_NE(read, got.end());
  EXPECT_EQ(read->predicate, "corrects");
  EXPECT_EQ(read->value, "gate C7");
  EXPECT_EQ(read->replaces_value, "B12");
  got = Extract("我记错了…是 3 月 21 号");
  const CandidateClaim* c = KeptCorrection(got);
  ASSERT_NE(c, nullptr);
  EXPECT_NE(c->value.find("3 月 21 号"), std::string::npos) << c->value;
  // Emphasis, and a long new thought after "actually", are no correction.
  EXPECT_EQ(KeptCorrection(Extract("the weather is actually pretty good")), nullptr);
  EXPECT_EQ(KeptCorrection(Extract("Actually I loved the new Batman film, go see it")), nullptr);
  // Someone else's, a question and a supposition are not the speaker's correction.
  EXPECT_EQ(KeptCorrection(Extract("Mom texted: my bad, gate C7.")), nullptr);
  EXPECT_EQ(KeptCorrection(Extract("Typo, or was it 1989?")), nullptr);
  EXPECT_EQ(KeptCorrection(Extract("My bad knee, since 2019.")), nullptr);
  EXPECT_NE(KeptCorrection(Extract("刚才工号记错了，应该是A1032。")), nullptr);
}

// The value set against another ends at a stop that ends the sentence, not at one of a title or a
// number ("Dr. Okafor", "3.12"); the "not Y" part is no denial of its own.
TEST(RuleExtractorTest, AContrastKeepsTitlesAndDecimals) {
  auto contrast = [](const std::string& text) -> const CandidateClaim* {
    static std::vector<CandidateClaim> got;
    got = Extract(text);
    for (const CandidateClaim& c : got) {
      const bool denied = std::find(c.qualifiers.begin(), c.qualifiers.end(), kQualNegated) != c.qualifiers.end();
      if (denied) ADD_FAILURE() << text << ": a denial " << c.value;
    }
    auto read = std::find_if(got.begin(), got.end(), [](const CandidateClaim& c) { return !c.replaces_value.empty(); });
    return read == got.end() ? nullptr : &*read;
  };
  const CandidateClaim* c = contrast("Sorry, my dentist is Dr. Okonkwo, not Dr. Okafor.");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->value, "Dr. Okonkwo");
  EXPECT_EQ(c->replaces_value, "Dr. Okafor");
  c = contrast("Oops, it's 3.12, not 3.9.");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->value, "3.12");
  EXPECT_EQ(c->replaces_value, "3.9");
  c = contrast("Sorry, our storage unit is B214, not B241.");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->replaces_value, "B241");
}

// An act saying the speaker erred is no deed ("gave you the wrong one"); the value follows it.
TEST(RuleExtractorTest, AnErrorIsNoDeedAndItsValueFollowsTheWrongThing) {
  std::vector<CandidateClaim> got = Extract("Oops, I gave you the wrong one. It's 12D.");
  for (const CandidateClaim& c : got) EXPECT_EQ(c.value.find("wrong"), std::string::npos) << c.predicate << " " << c.value;
  auto read = std::find_if(got.begin(), got.end(), [](const CandidateClaim& c) { return c.correction; });
  ASSERT_NE(read, got.end());
  EXPECT_EQ(read->value, "12D");
  EXPECT_TRUE(read->subject.empty() || read->subject == "Lin" || read->subject == "user") << read->subject;
}

}  // namespace
}  // namespace engram::extraction
