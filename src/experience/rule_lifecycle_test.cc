#include "experience/rule_lifecycle.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "experience/rule_distiller.h"
#include "store/sqlite/event_store.h"
#include "store/sqlite/fts5_tokenizer.h"
#include "store/sqlite/schema.h"
#include "test_util.h"

namespace engram::experience {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Rules written straight into the store and episodes counted by RuleLifecycle::ApplyEpisode, so
// that statuses a distillation would rarely produce (two confident opposite rules) can be driven.
class RuleLifecycleUnitTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Options options;
    options.db_path = dir_.path() + "/r.db";
    auto db = sqlite::Database::Open(options);
    ASSERT_TRUE(db.has_value()) << db.error().ToString();
    db_ = std::move(*db);
    ASSERT_OK(sqlite::RegisterFts5Extensions(db_->handle()));
    ASSERT_OK(sqlite::Migrate(*db_, TextAnalysis::kFull));
    ASSERT_OK(db_->WriteTransaction([&]() -> Status {
      auto ns = sqlite::EventStore(*db_).EnsureNamespace("n", 0);
      if (!ns) return ns.error();
      ns_ = *ns;
      return Status::Ok();
    }));
  }

  // Inserts a pending rule of type "t" for the pattern; returns its id.
  std::string AddRule(const RulePattern& p) {
    sqlite::StoredRule r{.key = PatternKey("t", p)};
    r.rule = {.id = "R" + std::to_string(++rules_), .task_type = "t", .polarity = p.polarity, .kind = p.kind,
              .tools = p.tools, .text = PatternText("t", p), .status = "pending"};
    EXPECT_OK(db_->WriteTransaction([&]() -> Status {
      auto seq = sqlite::RuleStore(*db_).Insert(ns_, r);
      return seq ? Status::Ok() : seq.error();
    }));
    return r.rule.id;
  }

  // An ended episode of type "t" that called `tools`, counted by the lifecycle.
  void RunEpisode(const std::vector<std::string>& tools, bool success) {
    ASSERT_OK(db_->WriteTransaction([&]() -> Status {
      sqlite::EpisodeStore episodes(*db_);
      sqlite::RuleStore rules(*db_);
      const std::string id = "E" + std::to_string(++episodes_);
      auto seq = episodes.Insert(ns_, {.id = id, .goal = "g", .task_type = "t", .task_type_source = "declared",
                                       .task_type_confidence = 1, .started_at = episodes_});
      if (!seq) return seq.error();
      int ordinal = 0;
      for (const std::string& t : tools) {
        ENGRAM_RETURN_IF_ERROR(episodes.AppendStep(
            *seq, {.ordinal = ++ordinal, .action = t, .tool_name = t, .changes_state = true, .at = episodes_},
            episodes_));
      }
      ENGRAM_RETURN_IF_ERROR(episodes.End(*seq, {.outcome = success ? "success" : "failure", .ended_at = episodes_},
                                          episodes_));
      auto stored = episodes.Get(id, /*with_steps=*/true);
      if (!stored) return stored.error();
      RuleLifecycle lifecycle(episodes, rules, ns_, episodes_, nullptr);
      return lifecycle.ApplyEpisode((*stored)->episode);
    }));
  }

  Rule Get(const std::string& id) {
    auto r = sqlite::RuleStore(*db_).Get(id);
    EXPECT_TRUE(r.has_value() && r->has_value());
    return (*r)->rule;
  }

  test::TempDir dir_;
  std::unique_ptr<sqlite::Database> db_;
  int64_t ns_ = 0;
  int rules_ = 0;
  int64_t episodes_ = 0;
};

// "Avoid finishing without calling y" and "avoid calling y" match disjoint episodes, so both can
// be confident: when every episode fails, both reach 0.6 (6 of 6: Wilson 0.61) and are disputed,
// both kept. Successes that call y bring "avoid calling y" below 0.6: the other is active again.
TEST_F(RuleLifecycleUnitTest, OppositeConfidentRulesAreDisputedUntilOneFalls) {
  const std::string omission = AddRule({"avoid", "omission", {"y"}});
  const std::string forbid = AddRule({"avoid", "tool", {"y"}});
  for (int i = 0; i < 6; ++i) RunEpisode({"a"}, false);
  EXPECT_EQ(Get(omission).status, "active");
  EXPECT_EQ(Get(forbid).status, "pending");
  for (int i = 0; i < 5; ++i) RunEpisode({"a", "y"}, false);
  EXPECT_EQ(Get(forbid).status, "pending") << "5 of 5: Wilson 0.57";
  RunEpisode({"y"}, false);
  Rule a = Get(omission), b = Get(forbid);
  EXPECT_EQ(a.status, "disputed");
  EXPECT_EQ(b.status, "disputed");
  EXPECT_THAT(a.conflicts_with, ElementsAre(forbid));
  EXPECT_THAT(b.conflicts_with, ElementsAre(omission));
  EXPECT_THAT(a.status_reason, HasSubstr("prescribes the opposite of " + forbid));
  RunEpisode({"a", "y"}, true);  // 6 of 7 for "avoid calling y": Wilson 0.49
  EXPECT_EQ(Get(omission).status, "active");
  EXPECT_TRUE(Get(omission).conflicts_with.empty());
  EXPECT_EQ(Get(forbid).status, "pending");
}

// A do rule's counts follow every matching episode; one that does not match is not counted.
TEST_F(RuleLifecycleUnitTest, OnlyMatchingEpisodesAreCounted) {
  const std::string seq = AddRule({"do", "sequence", {"a", "b"}});
  RunEpisode({"a", "b"}, true);
  RunEpisode({"b", "a"}, true);  // out of order: no match
  RunEpisode({"a", "x", "b"}, false);
  Rule r = Get(seq);
  EXPECT_EQ(r.support, 2);
  EXPECT_EQ(r.success_count, 1);
  EXPECT_EQ(r.failure_count, 1);
}

}  // namespace
}  // namespace engram::experience
