#include "store/sqlite/episode_store.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "store/sqlite/fts5_tokenizer.h"
#include "store/sqlite/schema.h"
#include "test_util.h"

namespace engram::sqlite {
namespace {

using ::testing::ElementsAre;

class EpisodeStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Options options;
    options.db_path = dir_.path() + "/e.db";
    auto db = Database::Open(options);
    ASSERT_TRUE(db.has_value()) << db.error().ToString();
    db_ = std::move(*db);
    ASSERT_OK(RegisterFts5Extensions(db_->handle()));
    ASSERT_OK(Migrate(*db_, TextAnalysis::kFull));
    ASSERT_OK(db_->WriteTransaction([&]() -> Status {
      auto ns = EventStore(*db_).EnsureNamespace("n", 0);
      if (!ns) return ns.error();
      ns_ = *ns;
      return Status::Ok();
    }));
  }

  // Inserts an episode with these steps (tool, changes_state) and ends it with `outcome` ("" = open).
  int64_t Add(const std::string& id, const std::string& goal, const std::vector<std::pair<std::string, bool>>& steps,
              const std::string& outcome, const std::string& type = "", const std::string& source = "") {
    int64_t seq = 0;
    EXPECT_OK(db_->WriteTransaction([&]() -> Status {
      EpisodeStore store(*db_);
      auto s = store.Insert(ns_, {.id = id, .goal = goal, .task_type = type, .task_type_source = source,
                                  .task_type_confidence = type.empty() ? 0.0 : 1.0, .started_at = 100});
      if (!s) return s.error();
      seq = *s;
      int ordinal = 0;
      for (const auto& [tool, writes] : steps) {
        ENGRAM_RETURN_IF_ERROR(store.AppendStep(
            seq, {.ordinal = ++ordinal, .action = "call " + tool, .tool_name = tool, .changes_state = writes, .at = 200},
            200));
      }
      if (outcome.empty()) return Status::Ok();
      return store.End(seq, {.outcome = outcome, .reward = 1.0, .ended_at = 300}, 300);
    }));
    return seq;
  }

  test::TempDir dir_;
  std::unique_ptr<Database> db_;
  int64_t ns_ = 0;
};

TEST_F(EpisodeStoreTest, StepsKeepOrderToolsAndTheWriteSignature) {
  int64_t seq = Add("E1", "Cancel order W1 because it was ordered by mistake yesterday",
                    {{"find_order", false}, {"cancel_order", true}, {"find_order", false}, {"add_note", true}},
                    "success");
  EpisodeStore store(*db_);
  ASSERT_OK_AND_ASSIGN(auto got, store.Get("E1", /*with_steps=*/true));
  ASSERT_TRUE(got.has_value());
  const Episode& e = got->episode;
  EXPECT_EQ(e.seq, seq);
  EXPECT_EQ(e.namespace_name, "n");
  EXPECT_EQ(e.status, "ended");
  EXPECT_EQ(e.outcome, "success");
  EXPECT_EQ(e.reward, 1.0);
  EXPECT_EQ(e.ended_at, 300);
  EXPECT_EQ(e.step_count, 4);
  EXPECT_THAT(e.tools_used, ElementsAre("find_order", "cancel_order", "add_note"));
  EXPECT_THAT(e.write_signature, ElementsAre("add_note", "cancel_order"));
  ASSERT_EQ(e.steps.size(), 4u);
  EXPECT_EQ(e.steps[1].ordinal, 2);
  EXPECT_EQ(e.steps[1].tool_name, "cancel_order");
  EXPECT_TRUE(e.steps[1].changes_state);
  EXPECT_EQ(e.goal_short, "Cancel order W1 because it was ordered by mistake…") << "50 characters, cut at a word";
  ASSERT_OK_AND_ASSIGN(auto none, store.Get("E9", true));
  EXPECT_FALSE(none.has_value());
}

TEST_F(EpisodeStoreTest, AStepOrdinalCannotRepeat) {
  int64_t seq = Add("E1", "goal", {{"a", false}}, "");
  Status st = db_->WriteTransaction([&]() -> Status {
    return EpisodeStore(*db_).AppendStep(seq, {.ordinal = 1, .action = "again", .at = 1}, 1);
  });
  EXPECT_EQ(st.code(), StatusCode::kAlreadyExists);
}

TEST_F(EpisodeStoreTest, ListsNewestFirstWithFiltersAndAKeyset) {
  Add("E1", "one", {}, "success", "t1", "declared");
  Add("E2", "two", {}, "failure", "t1", "declared");
  Add("E3", "three", {}, "", "t2", "declared");
  EpisodeStore store(*db_);
  ASSERT_OK_AND_ASSIGN(auto all, store.List(ns_, {}, 10, 0));
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].id, "E3");
  ASSERT_OK_AND_ASSIGN(auto page2, store.List(ns_, {}, 10, all[1].seq));
  ASSERT_EQ(page2.size(), 1u);
  EXPECT_EQ(page2[0].id, "E1");
  ASSERT_OK_AND_ASSIGN(auto failed, store.List(ns_, {.outcome = "failure"}, 10, 0));
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_EQ(failed[0].id, "E2");
  ASSERT_OK_AND_ASSIGN(auto open, store.List(ns_, {.task_type = "t2", .status = "open"}, 10, 0));
  ASSERT_EQ(open.size(), 1u);
  EXPECT_EQ(open[0].outcome, "unknown");
}

// The model learns from what was done and worked: successes and partials whose type was declared
// or read from their tools, never failures or its own guesses.
TEST_F(EpisodeStoreTest, TypedGoalsAreSuccessesOfKnownType) {
  Add("E1", "declared success", {}, "success", "t1", "declared");
  Add("E2", "signature partial", {}, "partial", "t2", "write_signature");
  Add("E3", "a declared failure", {}, "failure", "t1", "declared");
  Add("E4", "a guess", {}, "success", "t1", "inferred");
  Add("E5", "no type", {}, "success");
  Add("E6", "still open", {}, "", "t1", "declared");
  Add("E7", "a failure's signature", {}, "failure", "t3", "write_signature");
  EpisodeStore store(*db_);
  ASSERT_OK_AND_ASSIGN(auto goals, store.TypedGoals(ns_, 100));
  ASSERT_EQ(goals.size(), 2u);
  EXPECT_EQ(goals[0].id, "E1");
  EXPECT_EQ(goals[1].task_type, "t2");
  ASSERT_OK_AND_ASSIGN(auto last, store.TypedGoals(ns_, 1));
  ASSERT_EQ(last.size(), 1u);
  EXPECT_EQ(last[0].id, "E2");
  ASSERT_OK_AND_ASSIGN(auto decided, store.DecidedOfType(ns_, "t1", 10));
  ASSERT_EQ(decided.size(), 3u) << "success, failure and the inferred success; not the open one";
  EXPECT_EQ(decided[0].episode.id, "E1");
  ASSERT_OK_AND_ASSIGN(auto types, store.TaskTypes(ns_));
  EXPECT_THAT(types, ElementsAre("t1", "t2", "t3")) << "a type with failures only still has avoid rules to distil";
}

TEST_F(EpisodeStoreTest, SearchWeighsGoalAndSteps) {
  Add("E1", "refund a broken kettle", {{"lookup_order", false}}, "success");
  Add("E2", "change the delivery address", {{"refund_payment", true}}, "success");
  EpisodeStore store(*db_);
  ASSERT_OK_AND_ASSIGN(auto both, store.Search("\"refund\" OR \"refund_payment\"", ns_, 1.0, 1.0, 10));
  ASSERT_EQ(both.size(), 2u);
  ASSERT_OK_AND_ASSIGN(auto goal_only, store.Search("\"refund\" OR \"refund_payment\"", ns_, 1.0, 0.0, 10));
  ASSERT_EQ(goal_only.size(), 2u) << "a match in the steps alone still matches, scoring 0";
  ASSERT_OK_AND_ASSIGN(auto first, store.Get("E1", false));
  EXPECT_EQ(goal_only[0].seq, first->episode.seq);
  EXPECT_GT(goal_only[0].score, 0);
  EXPECT_EQ(goal_only[1].score, 0);
}

TEST_F(EpisodeStoreTest, FingerprintChangesWithEveryWrite) {
  EpisodeStore store(*db_);
  ASSERT_OK_AND_ASSIGN(std::string empty, store.Fingerprint(ns_));
  int64_t seq = Add("E1", "goal", {}, "");
  ASSERT_OK_AND_ASSIGN(std::string one, store.Fingerprint(ns_));
  EXPECT_NE(empty, one);
  ASSERT_OK(db_->WriteTransaction([&]() -> Status { return store.SetTaskType(seq, "t", "declared", 1, 500); }));
  ASSERT_OK_AND_ASSIGN(std::string retyped, store.Fingerprint(ns_));
  EXPECT_NE(one, retyped);
}

TEST(ShortGoalTest, CutsAtAWordNearTheLimit) {
  EXPECT_EQ(ShortGoal("Return the kettle"), "Return the kettle");
  EXPECT_EQ(ShortGoal("Your name is Omar Anderson and your zip code is 19031. Return #W6067464"),
            "Your name is Omar Anderson and your zip code is…");
  EXPECT_EQ(ShortGoal(std::string(60, 'x')), std::string(50, 'x') + "…");
  EXPECT_EQ(ShortGoal("退货退款，订单号一二三四五六七八九十，原因是商品损坏了，希望尽快处理。谢谢你的帮助和耐心等待！再次感谢。"),
            "退货退款，订单号一二三四五六七八九十，原因是商品损坏了，希望尽快处理。谢谢你的帮助和耐心等待！再次感…")
      << "52 characters without a space: cut at 50";
}

// What the segmenter asks of a session: explicit episodes, the end of the last detected segment,
// the open explicit episode a captured call goes to, and whether a step of an event exists; a
// detected segment is stored once per session and first event.
TEST_F(EpisodeStoreTest, SessionQueriesOfTheSegmenter) {
  EpisodeStore store(*db_);
  ASSERT_OK(db_->WriteTransaction([&]() -> Status {
    auto detected = store.Insert(ns_, {.id = "D1", .session_id = "s", .goal = "g", .ended_at = 500,
                                       .origin = "detected", .first_event_id = "EV1", .last_event_id = "EV5"});
    if (!detected) return detected.error();
    auto twice = store.Insert(ns_, {.id = "D2", .session_id = "s", .goal = "g", .origin = "detected",
                                    .first_event_id = "EV1", .last_event_id = "EV9"});
    EXPECT_FALSE(twice.has_value());  // the same segment again
    return Status::Ok();
  }));
  ASSERT_OK_AND_ASSIGN(auto end, store.LastSegmentEnd(ns_, "s"));
  ASSERT_TRUE(end.has_value());
  EXPECT_EQ(end->last_event_id, "EV5");
  ASSERT_OK_AND_ASSIGN(auto none, store.LastSegmentEnd(ns_, "other"));
  EXPECT_FALSE(none.has_value());
  ASSERT_OK_AND_ASSIGN(bool has_explicit, store.HasExplicitEpisode(ns_, "s"));
  EXPECT_FALSE(has_explicit);
  ASSERT_OK_AND_ASSIGN(auto no_open, store.OpenExplicitEpisode(ns_, "s"));
  EXPECT_FALSE(no_open.has_value());

  int64_t seq = 0;
  ASSERT_OK(db_->WriteTransaction([&]() -> Status {
    auto e = store.Insert(ns_, {.id = "X1", .session_id = "s", .goal = "g", .started_at = 100});
    if (!e) return e.error();
    seq = *e;
    return store.AppendStep(seq, {.ordinal = 1, .action = "a", .evidence_event_id = "EV7", .at = 100}, 100);
  }));
  ASSERT_OK_AND_ASSIGN(has_explicit, store.HasExplicitEpisode(ns_, "s"));
  EXPECT_TRUE(has_explicit);
  ASSERT_OK_AND_ASSIGN(auto open, store.OpenExplicitEpisode(ns_, "s"));
  EXPECT_EQ(open, seq);
  ASSERT_OK_AND_ASSIGN(bool from, store.HasStepFrom(seq, "EV7"));
  EXPECT_TRUE(from);
  ASSERT_OK_AND_ASSIGN(from, store.HasStepFrom(seq, "EV8"));
  EXPECT_FALSE(from);
}

}  // namespace
}  // namespace engram::sqlite
