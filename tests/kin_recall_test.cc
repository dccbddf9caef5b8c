// tests/kin_recall_test.cc — kin words (providers/word_kin.h) end to end through the Engine, on a
// word-vector file the test writes (the real one comes from `engram models install glove`; tests
// never fetch it): in recall (recall/newer_change.h, recall/current_first.h), a newer change that
// names another thing of the older statement's kind comes first for a question about now; in the
// write path (write/same_thing.h, write/kin_change.h), it closes the older claim. Someone else's
// change, a wish, a stay and another speaker's do neither. A newer turn no rule read takes the older
// claim's slot with a kin value (write/kin_slot.h).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "engram/engine.h"
#include "providers/word_vectors.h"
#include "test_util.h"

namespace engram {
namespace {

constexpr char kT0[] = "2024-01-01T09:00:00Z";
constexpr char kT1[] = "2024-06-01T09:00:00Z";

class KinRecallTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ::unsetenv("ENGRAM_WORD_KIN");  // the options below, not the environment, say which file
    // Browsers point one way, cities another; everything else is far from both. Ranks above
    // WordKin::kMinRank: rare enough to be kin.
    std::vector<providers::WordVectorEntry> words = {
        {"chrome", 5000, {1, 0.1f, 0, 0}},  {"firefox", 6000, {0.9f, 0.2f, 0, 0}},
        {"leeds", 7000, {0, 0, 1, 0.1f}},   {"bristol", 7100, {0, 0.1f, 0.9f, 0}},
        {"adblock", 9000, {0, 1, 0, 0}},    {"mess", 9100, {0, 0, 0, 1}},
        {"deloitte", 9200, {0.1f, 0, 0, 1}}, {"kpmg", 9300, {0, 0.1f, 0, 0.9f}},
        {"conference", 9400, {0, 1, 0.1f, 0}},
        // Databases, macOS releases and more cities, for the kin slot (write/kin_slot.h).
        {"mysql", 9500, {0.7f, 0, 0, 0.7f}},   {"postgresql", 9600, {0.7f, 0.1f, 0, 0.7f}},
        {"monterey", 9700, {0, 0.7f, 0.7f, 0}}, {"sonoma", 9800, {0.1f, 0.7f, 0.7f, 0}},
        {"toronto", 9900, {0, 0, 0.95f, 0.2f}}, {"vancouver", 9950, {0, 0.1f, 0.95f, 0.2f}},
    };
    ASSERT_OK(providers::WriteWordVectors(vectors_, "kin-fixture", 4, providers::WordVectorType::kFloat32, words));
  }

  std::unique_ptr<Engine> Open(const std::string& word_kin) {
    Options options;
    options.db_path = dir_.File(word_kin == "none" ? "none.db" : "kin.db");
    options.word_kin = word_kin;
    auto engine = Engine::Open(options);
    EXPECT_OK(engine);
    return engine ? std::move(*engine) : nullptr;
  }

  static void Say(Engine& engine, const std::string& ns, const std::string& text, const char* at,
                  const std::string& speaker = "") {
    EXPECT_OK(engine.Remember({.namespace_name = ns, .text = text, .at = at, .speaker = speaker}));
  }

  // The first item's words (a claim: its first supporting statement), or "" for none.
  static std::string First(Engine& engine, const std::string& ns, const std::string& question) {
    auto result = engine.Recall({.text = question, .namespace_name = ns, .limit = 5});
    EXPECT_OK(result);
    if (!result || result->items.empty()) return "";
    const RecallItem& item = result->items.front();
    for (const EvidenceRef& e : item.evidence) {
      if (e.relation == "supports" && !e.content.empty()) return e.content;
    }
    return item.text;
  }

  // Each case's two turns (its `older` at kT0, its `newer` at kT1) said in its own namespace `ns`,
  // in an engine with word vectors and in one without; then `check(engine, case, with_vectors)`.
  template <typename Case, typename Check>
  void SayEach(const std::vector<Case>& cases, Check check) {
    for (const std::string& word_kin : {vectors_, std::string("none")}) {
      std::unique_ptr<Engine> engine = Open(word_kin);
      ASSERT_NE(engine, nullptr);
      for (const Case& c : cases) {
        Say(*engine, c.ns, c.older, kT0);
        Say(*engine, c.ns, c.newer, kT1);
        check(*engine, c, word_kin != "none");
      }
    }
  }

  // The status of the first claim whose value holds `value` ("" when none).
  static std::string StatusOf(Engine& engine, const std::string& ns, const std::string& value) {
    auto claims = engine.ListClaims({.namespace_name = ns, .include_history = true});
    EXPECT_OK(claims);
    if (!claims) return "";
    for (const Claim& c : *claims) {
      if (c.value.find(value) != std::string::npos) return c.status;
    }
    return "";
  }

  test::TempDir dir_;
  const std::string vectors_ = dir_.File("kin.ewv");
};

TEST_F(KinRecallTest, ANewerChangeToAKinThingComesFirst) {
  for (const std::string& word_kin : {vectors_, std::string("none")}) {
    std::unique_ptr<Engine> engine = Open(word_kin);
    ASSERT_NE(engine, nullptr);
    Say(*engine, "browser", "Chrome is my main browser for basically everything", kT0);
    Say(*engine, "browser", "moved over to Firefox after the adblock mess, not going back", kT1);
    // Firefox is a browser by the lexicon (values.tsv), with or without word vectors.
    EXPECT_NE(First(*engine, "browser", "Which browser do I use?").find("Firefox"), std::string::npos) << word_kin;
  }
}

TEST_F(KinRecallTest, APlainStatementOfAKinThingAfterAFactComesFirst) {
  // No word of change: the kin value, said of whom the fact is, is the change (recall/current_first.h).
  struct Case {
    std::string ns, older, newer;
    bool moves;
  };
  const std::vector<Case> cases = {
      {"plain", "My sister Priya lives in Toronto.", "Priya called last night. She's loving Vancouver so far.", true},
      {"asks", "My sister Priya lives in Toronto.", "Would Priya like Vancouver, do you think?", false},
      {"nobodys", "My sister Priya lives in Toronto.", "Vancouver is lovely in May.", false},
  };
  SayEach(cases, [&](Engine& engine, const Case& c, bool with_vectors) {
    const std::string first = First(engine, c.ns, "Where does Priya live?");
    const bool moved = first.find("Vancouver") != std::string::npos;
    EXPECT_EQ(moved, c.moves && with_vectors) << c.ns << " with_vectors=" << with_vectors << ": " << first;
  });
}

TEST_F(KinRecallTest, SomeoneElsesChangeAWishOrAnotherSpeakerLeaveTheAnswer) {
  std::unique_ptr<Engine> engine = Open(vectors_);
  ASSERT_NE(engine, nullptr);
  const std::vector<std::pair<std::string, std::string>> later = {
      {"sister", "My sister moved to Bristol last month"},
      {"wish", "I'd love to move to Bristol someday"},
      {"question", "should I move to Bristol?"},
  };
  for (const auto& [ns, text] : later) {
    Say(*engine, ns, "I live in Leeds, about ten minutes from the station.", kT0);
    Say(*engine, ns, text, kT1);
    const std::string first = First(*engine, ns, "Where do I live?");
    EXPECT_NE(first.find("Leeds"), std::string::npos) << ns << ": " << first;
  }
  // What may be, a try that did not take, and a client's change (a review of the rule found them).
  const std::vector<std::pair<std::string, std::string>> browsers = {
      {"never", "I'd never switch to Firefox, no way."},
      {"tried", "Tried Firefox for an hour, hated it."},
  };
  for (const auto& [ns, text] : browsers) {
    Say(*engine, ns, "Chrome is my main browser for basically everything", kT0);
    Say(*engine, ns, text, kT1);
    const std::string first = First(*engine, ns, "Which browser do I use?");
    EXPECT_NE(first.find("Chrome"), std::string::npos) << ns << ": " << first;
  }
  Say(*engine, "client", "My employer is Deloitte, I do audit work for mid-size clients.", kT0);
  Say(*engine, "client", "My client just moved their audit to KPMG.", kT1);
  EXPECT_NE(First(*engine, "client", "Which firm do I work for now?").find("Deloitte"), std::string::npos);
  Say(*engine, "sarah", "I live in Leeds with my two cats.", kT0);
  Say(*engine, "sarah", "Sarah moved to Bristol last month.", kT1);
  EXPECT_NE(First(*engine, "sarah", "Which city do I live in?").find("Leeds"), std::string::npos);
  Say(*engine, "speaker", "Chrome is my main browser for basically everything", kT0);
  Say(*engine, "speaker", "switched over to Firefox after the adblock mess", kT1, "Ana");
  const std::string first = First(*engine, "speaker", "Which browser do I use?");
  EXPECT_NE(first.find("Chrome"), std::string::npos) << first;
}

TEST_F(KinRecallTest, AChangeOfEmployerWithoutAWordOfTheQuestion) {
  std::unique_ptr<Engine> engine = Open(vectors_);
  ASSERT_NE(engine, nullptr);
  Say(*engine, "job", "My employer is Deloitte, I do audit work for mid-size clients.", kT0);
  Say(*engine, "job", "I moved over to KPMG last month, better pay.", kT1);
  const std::string first = First(*engine, "job", "Which firm do I work for now?");
  EXPECT_NE(first.find("KPMG"), std::string::npos) << first;
  // (Without kin words "user works at Deloitte" stays first: the change shares no word with it or
  // with the question.)
}

TEST_F(KinRecallTest, AChangeToAKinThingClosesTheOlderClaim) {
  for (const std::string& word_kin : {vectors_, std::string("none")}) {
    std::unique_ptr<Engine> engine = Open(word_kin);
    ASSERT_NE(engine, nullptr);
    Say(*engine, "browser", "Chrome is my main browser", kT0);
    Say(*engine, "browser", "switched to Firefox last week after the adblock mess, not going back", kT1);
    Say(*engine, "job", "My employer is Deloitte.", kT0);
    Say(*engine, "job", "I switched over to KPMG in March.", kT1);
    // Firefox is a browser by the lexicon (values.tsv); without word vectors nothing says KPMG is
    // a firm: the test can fail.
    const std::string closed = word_kin == "none" ? "active" : "superseded";
    EXPECT_EQ(StatusOf(*engine, "browser", "Chrome"), "superseded") << word_kin;
    EXPECT_EQ(StatusOf(*engine, "job", "Deloitte"), closed) << word_kin;
  }
}

TEST_F(KinRecallTest, TheSuccessorSaysTheNewValue) {
  std::unique_ptr<Engine> engine = Open(vectors_);
  ASSERT_NE(engine, nullptr);
  Say(*engine, "job", "My employer is Deloitte.", kT0);
  // Two sentences, two candidates: the claim that closes Deloitte is the one that says KPMG.
  Say(*engine, "job", "Big news: my commute is actually better. I switched over to KPMG last month.", kT1);
  auto claims = engine->ListClaims({.namespace_name = "job", .include_history = true});
  ASSERT_OK(claims);
  std::string successor;
  for (const Claim& c : *claims) {
    if (c.value.find("Deloitte") != std::string::npos) successor = c.superseded_by_id;
  }
  ASSERT_FALSE(successor.empty());
  auto next = engine->GetClaim(successor);
  ASSERT_OK(next);
  EXPECT_NE(next->value.find("KPMG"), std::string::npos) << next->value;
}

TEST_F(KinRecallTest, AStayAWishOrSomeoneElsesChangeLeavesTheOlderClaim) {
  std::unique_ptr<Engine> engine = Open(vectors_);
  ASSERT_NE(engine, nullptr);
  const std::vector<std::pair<std::string, std::string>> later = {
      {"stay", "I'm in Bristol now for a conference."},  // where one is, not where one lives
      {"now", "We're in Bristol now."},  // no word of moving home: as often a trip
      {"sister", "My sister moved to Bristol last month."},
      {"wish", "I'd move to Bristol now if I could."},
      {"lovely", "Bristol is lovely now that the sun is out."},  // no speaker as its subject
  };
  for (const auto& [ns, text] : later) {
    Say(*engine, ns, "I live in Leeds.", kT0);
    Say(*engine, ns, text, kT1);
    EXPECT_EQ(StatusOf(*engine, ns, "Leeds"), "active") << ns;
  }
  Say(*engine, "client", "My employer is Deloitte.", kT0);
  Say(*engine, "client", "My client just moved their audit to KPMG.", kT1);
  EXPECT_EQ(StatusOf(*engine, "client", "Deloitte"), "active");
}

// The older claim's slot, the kin value: no rule reads "running Sonoma" as an operating system,
// "she's living in Vancouver" after "Priya took a job out west and", nor "runs on PostgreSQL".
TEST_F(KinRecallTest, AKinValueNoRuleReadTakesTheOlderSlot) {
  struct Case {
    std::string ns, older, newer, old_value, new_value;
    bool grammar_reads = false;  // the grammar alone reads the newer's value (no vectors needed)
  };
  const std::vector<Case> cases = {
      {"os", "My laptop is on macOS Monterey and Homebrew keeps complaining about it.",
       "I took the plunge and the laptop is running Sonoma now. Anything to reinstall?", "Monterey", "Sonoma"},
      // Since session 37 "she" of the sentence that named Priya is Priya: the grammar reads it too.
      {"priya", "My sister Priya lives in Toronto and I'm visiting her next month.",
       "Priya took a job out west and she's living in Vancouver now, so my trip plans changed.", "Toronto",
       "Vancouver", true},
      {"db", "We use MySQL for the orders service.",
       "Now that the orders service runs on PostgreSQL, what's the equivalent of ON DUPLICATE KEY?", "MySQL",
       "PostgreSQL"},
      // Session 43: the speaker's own thing ("my laptop") takes what the speaker switched to, though
      // the clause does not name it and the grammar read the switch as the speaker's use.
      {"own-thing", "My laptop is still on macOS Monterey.", "Finally switched to Sonoma, no regrets.", "Monterey",
       "Sonoma"},
  };
  SayEach(cases, [](Engine& engine, const Case& c, bool with_vectors) {
    // Without word vectors nothing says Sonoma is an operating system: the test can fail.
    EXPECT_EQ(StatusOf(engine, c.ns, c.old_value), !with_vectors && !c.grammar_reads ? "active" : "superseded") << c.ns;
    if (!with_vectors) return;
    auto claims = engine.ListClaims({.namespace_name = c.ns});
    ASSERT_OK(claims);
    std::string successor;
    for (const Claim& claim : *claims) {
      if (claim.value == c.new_value) successor = claim.predicate;
    }
    EXPECT_FALSE(successor.empty()) << c.ns << ": no claim of " << c.new_value;
    EXPECT_NE(successor, "explicit_memory") << c.ns;
  });
}

// A message that speaks of moving home names the new home, kin to the older one, where no verb of
// living does: after "in" in a clause of the movers or unpacking ("the movers dropped the last
// boxes off in Vancouver"), after the speaker's move and "to" ("the move to Bristol"). A stay, a
// move ahead or long past, someone else's move, a move of a meeting and a city opening a sentence
// leave the older home.
TEST_F(KinRecallTest, AMessageOfMovingHomeNamesTheNewHome) {
  struct Case {
    std::string ns, older, newer, old_value;
    bool moves;
  };
  const std::vector<Case> cases = {
      {"movers", "I live in Toronto, near the lake.", "The movers dropped the last boxes off in Vancouver yesterday.", "Toronto", true},
      {"nominal", "I'm based in Leeds and work fully remote.", "Sorry for the slow reply, the move to Bristol has eaten my whole week.", "Leeds", true},
      // A city opening a sentence is as often a trip's or a team's ("Unpacked after the trip.
      // Vancouver was amazing.", "Denver is playing tonight"): no home (an adversarial review).
      {"subject", "I live in Toronto, near the lake.", "Finally done unpacking! Vancouver is so much greener than I expected.", "Toronto", false},
      {"team", "I live in Toronto, near the lake.", "Got the TV set up at the new place. Vancouver is playing tonight!", "Toronto", false},
      {"someone", "I'm based in Leeds and work fully remote.", "Jake's move to Bristol was rough.", "Leeds", false},
      {"long-past", "I'm based in Leeds and work fully remote.", "The move to Bristol in 2019 was rough, but I love it here.", "Leeds", false},
      {"ahead", "I'm based in Leeds and work fully remote.", "The move to Bristol is next month, so much to pack.", "Leeds", false},
      {"sister", "I'm based in Leeds and work fully remote.", "Helped my sister with the move to Bristol, so many boxes.", "Leeds", false},
      {"meeting", "I'm based in Leeds and work fully remote.", "We moved the offsite to Bristol.", "Leeds", false},
      {"stay", "I live in Toronto, near the lake.", "Unpacking at the hotel in Vancouver for the conference week.", "Toronto", false},
      // Session 43: the grammar reads the unpacking as a deed; in a message of moving home the deed
      // names the home all the same.
      {"deed", "I've been in Toronto for about three years now.", "Finally unpacked the last box in Vancouver.", "Toronto", true},
      // An adversarial review: someone else's move, another deed, the older home named again, a stay
      // a verb of a lasting state tells without its span.
      {"helped", "I live in Toronto, near the lake.", "Helped my sister unpack; the movers left and we unpacked the last box in Vancouver.", "Toronto", false},
      {"tacos", "I live in Toronto, near the lake.", "Unpacked all the boxes, then grabbed tacos in Vancouver with the movers.", "Toronto", false},
      {"commute", "I've been in Toronto for about three years now.", "Unpacked my office in Vancouver, the commute from Toronto is rough.", "Toronto", false},
      {"since-yesterday", "I live in Toronto, near the lake.", "I've been in Vancouver since yesterday.", "Toronto", false},
  };
  SayEach(cases, [](Engine& engine, const Case& c, bool with_vectors) {
    // Without word vectors nothing says the new name is a place like the older home.
    EXPECT_EQ(StatusOf(engine, c.ns, c.old_value), c.moves && with_vectors ? "superseded" : "active")
        << c.ns << (with_vectors ? " (vectors)" : " (none)");
  });
}

// The claim that replaced what the question matches stands for its turn, though the turn gave
// another claim too ("laptop state running"): recall/successor_hits.h.
TEST_F(KinRecallTest, TheKinSuccessorAnswersAQuestionAboutTheOlderValue) {
  std::unique_ptr<Engine> engine = Open(vectors_);
  ASSERT_NE(engine, nullptr);
  Say(*engine, "os", "My laptop is on macOS Monterey and Homebrew keeps complaining about it.", kT0);
  Say(*engine, "os", "I took the plunge and the laptop is running Sonoma now.", kT1);
  auto result = engine->Recall({.text = "Which macOS is my laptop on?", .namespace_name = "os", .limit = 5});
  ASSERT_OK(result);
  ASSERT_FALSE(result->items.empty());
  // The item itself, not its evidence: "laptop state running" was read from the same turn.
  EXPECT_NE(result->items.front().text.find("Sonoma"), std::string::npos) << result->items.front().text;
}

// What the speaker switched to takes no slot of their thing when it was done on another thing or
// for someone else, or only planned (session 43).
TEST_F(KinRecallTest, ASwitchOnAnotherThingLeavesTheSpeakersThing) {
  struct Case {
    std::string ns, older, newer, old_value;
  };
  const std::vector<Case> cases = {
      {"office", "My laptop is still on macOS Monterey.", "I switched to Sonoma on the office iMac.", "Monterey"},
      {"her", "My laptop is still on macOS Monterey.", "I switched her laptop to Sonoma.", "Monterey"},
      {"sister", "My laptop is still on macOS Monterey.", "My sister switched to Sonoma.", "Monterey"},
      {"plan", "My laptop is still on macOS Monterey.", "I'm thinking of switching to Sonoma.", "Monterey"},
      {"dad", "My dad's laptop is still on macOS Monterey.", "Finally switched to Sonoma, no regrets.", "Monterey"},
      // An adversarial review: another of its kind, someone else's, a VM, a joke taken back.
      {"work", "My personal laptop is still on macOS Monterey.", "Switched my work laptop to Sonoma.", "Monterey"},
      {"hers", "My laptop is still on macOS Monterey.", "Switched to Sonoma on hers.", "Monterey"},
      {"vm", "My laptop is still on macOS Monterey.", "Finally switched to Sonoma in a VM.", "Monterey"},
      {"joke", "My laptop is still on macOS Monterey.", "Finally switched to Sonoma and now nothing works. Just kidding.", "Monterey"},
  };
  SayEach(cases, [](Engine& engine, const Case& c, bool with_vectors) {
    EXPECT_EQ(StatusOf(engine, c.ns, c.old_value), "active") << c.ns << (with_vectors ? " (vectors)" : " (none)");
  });
}

// A name the grammar gave another role, a comparison, someone else's state or a question take no
// older slot.
TEST_F(KinRecallTest, AKinNameInAnotherRoleTakesNoSlot) {
  std::unique_ptr<Engine> engine = Open(vectors_);
  ASSERT_NE(engine, nullptr);
  // Each later turn in a namespace of its own, after `older`: the older value stays current.
  auto stays = [&](const std::string& older, const std::string& value,
                   const std::vector<std::pair<std::string, std::string>>& later) {
    for (const auto& [ns, text] : later) {
      Say(*engine, ns, older, kT0);
      Say(*engine, ns, text, kT1);
      EXPECT_EQ(StatusOf(*engine, ns, value), "active") << ns << ": " << text;
    }
  };
  stays("We use MySQL for the orders service.", "MySQL",
        {{"reading", "I'm reading about PostgreSQL now."},
         {"testing", "Now I'm testing PostgreSQL for a client."},
         {"compare", "PostgreSQL is faster than MySQL now."},
         {"friend", "My friend's team is on PostgreSQL now."},
         {"question", "Is PostgreSQL worth it now?"},
         {"boss", "My boss says we should all be on PostgreSQL now."},
         // A review of the rule found these (session 36): a name of another phrase, a denial, a trial.
         {"replica", "The orders service now syncs to a PostgreSQL replica."},
         {"denied", "We're not on PostgreSQL now, we reverted."},
         {"trying", "I'm trying PostgreSQL now."},
         {"contributor", "I'm a PostgreSQL contributor now!"}});
  stays("My laptop is on macOS Monterey.", "Monterey",
        {{"nagging", "Now my laptop keeps nagging me to install Sonoma."},
         {"wife", "My wife's laptop is on Sonoma now."},
         {"almost", "We almost moved the laptop to Sonoma but it fell through."}});
  stays("I live in Toronto.", "Toronto", {{"trip", "I'm in Vancouver now for a conference, any food tips?"}});
}

TEST_F(KinRecallTest, AMissingFileIsAWarningNotAFailure) {
  std::unique_ptr<Engine> engine = Open(dir_.File("missing.ewv"));
  ASSERT_NE(engine, nullptr);
  Say(*engine, "browser", "Chrome is my main browser", kT0);
  auto result = engine->Recall({.text = "Which browser do I use?", .namespace_name = "browser"});
  ASSERT_OK(result);
  ASSERT_FALSE(result->items.empty());
  ASSERT_EQ(result->warnings.size(), 1u);
  EXPECT_NE(result->warnings[0].find("kin words disabled"), std::string::npos) << result->warnings[0];
}

}  // namespace
}  // namespace engram
