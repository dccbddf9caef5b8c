// recall/claim_filters_test.cc — filters apply on every path (B39): since/until bound the claims
// recall returns by their valid time (the validity interval must overlap [since, until)), with
// or without events, as they bound events by occurred_at.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engram/engine.h"
#include "test_util.h"
#include "util/time.h"

namespace engram {
namespace {

using test::TempDir;

class ClaimFiltersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto e = Engine::Open({.db_path = dir_.File("m.db"), .open_mode = OpenMode::kCreate});
    ASSERT_TRUE(e) << e.error().ToString();
    engine_ = std::move(*e);
    for (auto [text, at] : {std::pair{"I live in Lisbon.", "2020-01-01"}, std::pair{"I moved to Porto.", "2023-01-01"}}) {
      auto r = engine_->Remember({.namespace_name = "u", .text = text, .at = at});
      ASSERT_TRUE(r) << r.error().ToString();
    }
  }
  std::vector<std::string> ClaimValues(const char* since, const char* until, bool history, bool events) {
    RecallQuery q{.text = "where do I live", .namespace_name = "u"};
    q.since = *ParseTimestamp(since);
    q.until = *ParseTimestamp(until);
    q.include_history = history;
    q.include_events = events;
    auto r = engine_->Recall(q);
    EXPECT_TRUE(r) << r.error().ToString();
    std::vector<std::string> out;
    if (!r) return out;
    for (const RecallItem& it : r->items) {
      if (it.type == "claim") out.push_back(it.text);
    }
    return out;
  }
  TempDir dir_;
  std::unique_ptr<Engine> engine_;
};

TEST_F(ClaimFiltersTest, ClaimsOnlyRecallHonoursSinceAndUntil) {
  auto in_2021 = ClaimValues("2021-01-01", "2022-01-01", /*history=*/true, /*events=*/false);
  ASSERT_EQ(in_2021.size(), 1u);
  EXPECT_THAT(in_2021[0], ::testing::HasSubstr("Lisbon"));
  auto in_2024 = ClaimValues("2024-01-01", "2025-01-01", true, false);
  ASSERT_EQ(in_2024.size(), 1u);
  EXPECT_THAT(in_2024[0], ::testing::HasSubstr("Porto"));
  // Current claims only: Porto is current but was not yet valid in 2021.
  EXPECT_TRUE(ClaimValues("2021-01-01", "2022-01-01", false, false).empty());
}

TEST_F(ClaimFiltersTest, TheSameBoundsApplyWithEvents) {
  for (const std::string& text : ClaimValues("2021-01-01", "2022-01-01", true, true)) {
    EXPECT_THAT(text, ::testing::Not(::testing::HasSubstr("Porto")));
  }
}

}  // namespace
}  // namespace engram
