#include "store/sqlite/sharing_store.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "store/sqlite/episode_store.h"
#include "store/sqlite/rule_store.h"
#include "test_database.h"
#include "test_util.h"

namespace engram::sqlite {
namespace {

using ::testing::ElementsAre;
using ::testing::FieldsAre;

class SharingStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    t_ = test::OpenTestDatabase(dir_.File("s.db"));
    ASSERT_NE(t_.db, nullptr);
    db_ = std::move(t_.db);
    ns_ = t_.ns;
  }

  // An ended episode of `agent` and `type` with `outcome`; returns its seq.
  int64_t Add(const std::string& id, const std::string& agent, const std::string& type, const std::string& outcome) {
    int64_t seq = 0;
    EXPECT_OK(db_->WriteTransaction([&]() -> Status {
      EpisodeStore store(*db_);
      auto s = store.Insert(ns_, {.id = id, .agent_id = agent, .goal = "g", .task_type = type,
                                  .task_type_source = "declared", .task_type_confidence = 1, .started_at = 100});
      if (!s) return s.error();
      seq = *s;
      return store.End(seq, {.outcome = outcome, .ended_at = 300}, 300);
    }));
    return seq;
  }

  test::TempDir dir_;
  test::TestDatabase t_;
  std::unique_ptr<Database> db_;
  int64_t ns_ = 0;
};

TEST_F(SharingStoreTest, TalliesPerAgentOfATypeAndOfARulesSupport) {
  const int64_t a1 = Add("01A", "a", "refund", "success");
  const int64_t a2 = Add("01B", "a", "refund", "failure");
  const int64_t b = Add("01C", "b", "refund", "success");
  Add("01D", "", "refund", "success");   // no agent: nobody's
  Add("01E", "c", "refund", "partial");  // not decided
  Add("01F", "c", "cancel", "success");  // another type
  SharingStore store(*db_);
  ASSERT_OK_AND_ASSIGN(auto type, store.TypeTallies(ns_, "refund"));
  EXPECT_THAT(type, ElementsAre(FieldsAre("a", 2, 1), FieldsAre("b", 1, 1)));
  ASSERT_OK_AND_ASSIGN(auto types, store.AgentTaskTypes(ns_, "c"));
  EXPECT_THAT(types, ElementsAre("cancel", "refund"));

  int64_t rule = 0;
  ASSERT_OK(db_->WriteTransaction([&]() -> Status {
    RuleStore rules(*db_);
    StoredRule r{.key = "refund|do|tool|x",
                 .rule = {.id = "01R", .task_type = "refund", .polarity = "do", .kind = "tool", .tools = {"x"},
                          .text = "t", .status = "pending", .created_at = 1, .updated_at = 1}};
    auto seq = rules.Insert(ns_, r);
    if (!seq) return seq.error();
    rule = *seq;
    for (auto [episode, outcome] : {std::pair{a1, "success"}, std::pair{a2, "failure"}, std::pair{b, "success"}}) {
      auto added = rules.AddSupport(rule, episode, outcome, std::string_view(outcome) == "success");
      if (!added) return added.error();
    }
    return Status::Ok();
  }));
  ASSERT_OK_AND_ASSIGN(auto support, store.RuleTallies(rule));
  EXPECT_THAT(support, ElementsAre(FieldsAre("a", 2, 1), FieldsAre("b", 1, 1)));
}

}  // namespace
}  // namespace engram::sqlite
