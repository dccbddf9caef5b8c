// tests/change_successor_test.cc — later turns about an older claim's thing, end to end through the
// Engine without word vectors (issue 16, session 37): starting the thing leaves its own value; a
// model number written onto its name is ended by the name
// ("sold the mazda" ends "a 2015 Mazda3": write/ended_thing.h NameOfModel); and "she" of the
// sentence that named Ines is Ines, whose home then answers where she lives.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "engram/engine.h"
#include "test_util.h"

namespace engram {
namespace {

// The older turn in January, the newer in June.
class ChangeSuccessorTest : public ::testing::Test {
 protected:
  static constexpr char kT0[] = "2024-01-01T09:00:00Z";
  static constexpr char kT1[] = "2024-06-01T09:00:00Z";

  void SetUp() override {
    Options options;
    options.db_path = dir_.File("successor.db");
    options.word_kin = "none";
    auto engine = Engine::Open(options);
    ASSERT_OK(engine);
    engine_ = std::move(*engine);
  }

  void Say(const std::string& ns, const std::string& text, const char* at) {
    EXPECT_OK(engine_->Remember({.namespace_name = ns, .text = text, .at = at}));
  }

  // The value of the claim that superseded the claim whose value holds `older` ("" when it stands).
  std::string SuccessorOf(const std::string& ns, const std::string& older) {
    auto claims = engine_->ListClaims({.namespace_name = ns, .include_history = true});
    EXPECT_OK(claims);
    if (!claims) return "";
    for (const Claim& c : *claims) {
      if (c.value.find(older) == std::string::npos || c.superseded_by_id.empty()) continue;
      auto next = engine_->GetClaim(c.superseded_by_id);
      EXPECT_OK(next);
      return next ? next->value : "";
    }
    return "";
  }

  std::string FirstText(const std::string& ns, const std::string& question) {
    auto result = engine_->Recall({.text = question, .namespace_name = ns, .limit = 5});
    EXPECT_OK(result);
    return result && !result->items.empty() ? result->items.front().text : "";
  }

  test::TempDir dir_;
  std::unique_ptr<Engine> engine_;
};

TEST_F(ChangeSuccessorTest, StartingTheThingLeavesItsOwnValue) {
  // "I started my own bakery" is the speaker's act; the bakery's own value stands.
  Say("shop", "My pottery studio has been a wild ride but worth it.", kT0);
  Say("shop", "Oh and btw, I started my own pottery studio, pretty cool huh?", kT1);
  auto claims = engine_->ListClaims({.namespace_name = "shop", .include_history = true});
  ASSERT_OK(claims);
  for (const Claim& c : *claims) EXPECT_EQ(c.status, "active") << c.subject << " " << c.predicate << " " << c.value;
}

TEST_F(ChangeSuccessorTest, TheNameEndsAModelNumberWrittenOntoIt) {
  Say("car", "I drive a 2016 Corolla5 and it still runs fine.", kT0);  // (a made-up model number)
  Say("car", "Sold the corolla and picked up a used Nissan Leaf.", kT1);
  EXPECT_NE(SuccessorOf("car", "Corolla5"), "");
  // A name that only begins another's letters names nothing of it.
  Say("car2", "I drive a Corollas2 for work.", kT0);
  Say("car2", "Sold the coroll and picked up a used Nissan Leaf.", kT1);
  EXPECT_EQ(SuccessorOf("car2", "Corollas2"), "");
}

TEST_F(ChangeSuccessorTest, AQuestionOfWhereSomeoneLivesFindsTheirHome) {
  Say("home", "my cousin Ines is in Porto and wants to visit, cheapest days to fly?", kT0);
  // "she" of the same sentence is Ines (fact_frame_reader.h FrameContext::sentence_person).
  Say("home", "Ines took a job up north and she's already settled in Braga. what's fun to do there?", kT1);
  auto claims = engine_->ListClaims({.namespace_name = "home"});
  ASSERT_OK(claims);
  bool braga = false;
  for (const Claim& c : *claims) braga = braga || (c.subject == "Ines" && c.predicate == "lives_in" && c.value == "Braga");
  EXPECT_TRUE(braga);
  EXPECT_NE(FirstText("home", "Where does Ines live these days?").find("Braga"), std::string::npos);
}

}  // namespace
}  // namespace engram
