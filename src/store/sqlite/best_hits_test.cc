#include "store/sqlite/best_hits.h"

#include <gtest/gtest.h>

#include <memory>

#include "test_util.h"

namespace engram::sqlite {
namespace {

class BestHitsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Options options;
    options.db_path = dir_.path() + "/h.db";
    auto db = Database::Open(options);
    ASSERT_TRUE(db.has_value()) << db.error().ToString();
    db_ = std::move(*db);
    ASSERT_OK(db_->Exec("CREATE TABLE h(seq INTEGER, score REAL);"
                        "INSERT INTO h VALUES (5, 1.0), (3, 2.5), (9, 2.5), (1, 0.5), (7, 3.0);"));
  }

  std::vector<SearchHit> Best(int limit) {
    auto st = db_->Cached("SELECT seq, score FROM h");
    EXPECT_TRUE(st.has_value());
    auto hits = BestHits(**st, limit);
    EXPECT_TRUE(hits.has_value());
    return *hits;
  }

  test::TempDir dir_;
  std::unique_ptr<Database> db_;
};

TEST_F(BestHitsTest, HighestScoreFirstTiesByTheOlderRow) {
  std::vector<SearchHit> all = Best(10);
  ASSERT_EQ(all.size(), 5u);
  const int64_t order[] = {7, 3, 9, 5, 1};
  for (size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i].seq, order[i]) << i;
  EXPECT_DOUBLE_EQ(all[0].score, 3.0);
}

TEST_F(BestHitsTest, AtMostLimit) {
  std::vector<SearchHit> two = Best(2);
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[1].seq, 3);
  EXPECT_TRUE(Best(0).empty());
  EXPECT_TRUE(Best(-1).empty());
}

}  // namespace
}  // namespace engram::sqlite
