#include "experience/experience_forgetting.h"

#include <gtest/gtest.h>

#include "store/sqlite/audit_log.h"
#include "store/sqlite/episode_store.h"
#include "store/sqlite/tombstone_store.h"
#include "test_database.h"
#include "test_util.h"

namespace engram::experience {
namespace {

constexpr TimestampMs kDay = 86400000;

// One never recalled failure (success rate 0), ended at time 0: cold after 55 days
// (0.5 e^(−d/60) < 0.2), deletable after 138 (< 0.05).
class ExperienceForgettingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    t_ = test::OpenTestDatabase(dir_.File("f.db"));
    ASSERT_NE(t_.db, nullptr);
    ASSERT_OK(t_.db->WriteTransaction([&]() -> Status {
      sqlite::EpisodeStore store(*t_.db);
      auto seq = store.Insert(t_.ns, {.id = "01FAIL", .goal = "refund the kettle", .started_at = 0});
      if (!seq) return seq.error();
      ENGRAM_RETURN_IF_ERROR(store.AppendStep(*seq, {.ordinal = 1, .action = "refunded", .tool_name = "refund"}, 0));
      return store.End(*seq, {.outcome = "failure", .ended_at = 0}, 0);
    }));
  }

  // One maintenance step at `days`.
  ForgettingReport Pass(int days) {
    sqlite::TombstoneStore tombstones(*t_.db);
    sqlite::AuditLog audit(*t_.db);
    lifecycle::ForgetStores stores{*t_.db, tombstones, audit};
    ForgettingReport r;
    EXPECT_OK(t_.db->WriteTransaction([&]() -> Status {
      auto one = ForgetColdExperience(stores, t_.ns, days * kDay, ExperienceOptions{}, "test");
      if (!one) return one.error();
      r = *one;
      return Status::Ok();
    }));
    return r;
  }

  int64_t Count(const char* sql) { return t_.db->QueryInt(sql).value_or(-1); }

  test::TempDir dir_;
  test::TestDatabase t_;
};

TEST_F(ExperienceForgettingTest, AFailureGoesColdThenIsDeletedWithItsRowsAndATombstone) {
  EXPECT_EQ(Pass(54).cold, 0);
  EXPECT_EQ(Pass(56).cold, 1);
  EXPECT_EQ(Pass(100).cold, 0) << "already cold";
  EXPECT_EQ(Pass(200).forgotten, 1);
  EXPECT_EQ(Count("SELECT count(*) FROM episodes"), 0);
  EXPECT_EQ(Count("SELECT count(*) FROM episode_steps"), 0);
  EXPECT_EQ(Count("SELECT count(*) FROM episode_fts"), 0);
  EXPECT_EQ(Count("SELECT count(*) FROM tombstones WHERE object_type = 'episode' AND object_id = '01FAIL'"), 1);
  EXPECT_EQ(Count("SELECT count(*) FROM audit_log WHERE action = 'forget' AND object_id = '01FAIL'"), 1);
}

// The first pass past 138 days only cools it: deletion needs an earlier pass to have made it cold.
TEST_F(ExperienceForgettingTest, NothingIsDeletedWithoutHavingBeenCold) {
  ForgettingReport r = Pass(300);
  EXPECT_EQ(r.cold, 1);
  EXPECT_EQ(r.forgotten, 0);
  EXPECT_EQ(Pass(301).forgotten, 1);
}

}  // namespace
}  // namespace engram::experience
