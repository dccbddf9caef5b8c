#include "store/sqlite/experience_access_store.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "store/sqlite/episode_store.h"
#include "test_database.h"
#include "test_util.h"

namespace engram::sqlite {
namespace {

class ExperienceAccessStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    t_ = test::OpenTestDatabase(dir_.File("a.db"));
    ASSERT_NE(t_.db, nullptr);
    db_ = std::move(t_.db);
    ns_ = t_.ns;
    ASSERT_OK(db_->WriteTransaction([&]() -> Status {
      EpisodeStore store(*db_);
      auto ended = store.Insert(ns_, {.id = "01ENDED", .goal = "refund the blender", .started_at = 100});
      if (!ended) return ended.error();
      ENGRAM_RETURN_IF_ERROR(store.End(*ended, {.outcome = "failure", .ended_at = 300}, 300));
      auto open = store.Insert(ns_, {.id = "01OPEN", .goal = "still going", .started_at = 100});
      return open ? Status::Ok() : open.error();
    }));
  }

  test::TempDir dir_;
  test::TestDatabase t_;
  std::unique_ptr<Database> db_;
  int64_t ns_ = 0;
};

TEST_F(ExperienceAccessStoreTest, HitsAddUpAndUnknownIdsChangeNothing) {
  ExperienceAccessStore store(*db_);
  ASSERT_OK(db_->WriteTransaction([&]() -> Status {
    EXPECT_EQ(store.AddHits("01ENDED", 2, 500).value_or(false), true);
    EXPECT_EQ(store.AddHits("01ENDED", 1, 400).value_or(false), true);
    EXPECT_EQ(store.AddHits("01NOPE", 1, 400).value_or(true), false);
    return Status::Ok();
  }));
  ASSERT_OK_AND_ASSIGN(auto rows, store.Rows(ns_));
  ASSERT_EQ(rows.size(), 1u) << "open episodes are not scored";
  EXPECT_EQ(rows[0].object_type, "episode");
  EXPECT_EQ(rows[0].access_count, 3);
  EXPECT_EQ(rows[0].last_accessed_at, 500) << "the latest hit wins";
  EXPECT_EQ(rows[0].made_at, 300);
  EXPECT_EQ(rows[0].outcome, "failure");
}

TEST_F(ExperienceAccessStoreTest, ColdIsSetListedAndCleared) {
  ExperienceAccessStore store(*db_);
  ASSERT_OK(db_->WriteTransaction([&] { return store.SetCold(ns_, "episode", "01ENDED", 700); }));
  ASSERT_OK_AND_ASSIGN(auto ids, store.ColdIds(ns_));
  EXPECT_TRUE(ids.contains("01ENDED"));
  ASSERT_OK_AND_ASSIGN(auto listed, store.ListCold(ns_, 10));
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0].cold_at, 700);
  EXPECT_EQ(listed[0].text, "refund the blender");
  EXPECT_FALSE(listed[0].last_accessed_at.has_value());
  ASSERT_OK(db_->WriteTransaction([&] { return store.SetCold(ns_, "episode", "01ENDED", std::nullopt); }));
  ASSERT_OK_AND_ASSIGN(auto none, store.ColdIds(ns_));
  EXPECT_TRUE(none.empty());
}

}  // namespace
}  // namespace engram::sqlite
