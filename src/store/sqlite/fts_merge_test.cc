// MergeFtsSegments (store/sqlite/fts_merge.h): merges a FTS5 index's segments step by step, and
// stops at its step bound and at its deadline (a drain's tail merge under concurrent writers, B43).
#include "store/sqlite/fts_merge.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "store/sqlite/database.h"
#include "test_util.h"

namespace engram::sqlite {
namespace {

std::unique_ptr<Database> OpenDb(const std::string& path) {
  Options options;
  options.db_path = path;
  auto db = Database::Open(options);
  EXPECT_TRUE(db.has_value()) << db.error().ToString();
  return db ? std::move(*db) : nullptr;
}

// An FTS5 table written in `commits` transactions, automerge off: one segment per commit (below
// 16, FTS5's crisismerge default, which merges a level of that many even without automerge).
void WriteSegments(Database& db, int commits) {
  ASSERT_TRUE(db.Exec("CREATE VIRTUAL TABLE t USING fts5(x);"
                      "INSERT INTO t(t, rank) VALUES ('automerge', 0);")
                  .ok());
  for (int i = 0; i < commits; ++i) {
    Status st = db.WriteTransaction([&] {
      return db.Exec("INSERT INTO t(x) VALUES ('alpha beta gamma " + std::to_string(i) + "')");
    });
    ASSERT_TRUE(st.ok()) << st.ToString();
  }
}

// Segments of the index: the distinct segment ids of the pages in its %_data table (a page's
// rowid is its segment id shifted left by 37 bits, FTS5_SEGMENT_ROWID in fts5Int.h; rowids below
// that are the index's structure and averages records).
int64_t Segments(Database& db) {
  auto n = db.QueryInt("SELECT count(DISTINCT id >> 37) FROM t_data WHERE id >> 37 > 0");
  EXPECT_TRUE(n.has_value());
  return n ? *n : -1;
}

TEST(FtsMergeTest, MergesUntilNothingIsLeft) {
  test::TempDir dir;
  auto db = OpenDb(dir.File("a.db"));
  ASSERT_NE(db, nullptr);
  WriteSegments(*db, 12);
  ASSERT_EQ(Segments(*db), 12);
  auto steps = MergeFtsSegments(*db, "t", 1000);
  ASSERT_TRUE(steps.has_value()) << steps.error().ToString();
  EXPECT_GE(*steps, 1);
  EXPECT_EQ(Segments(*db), 1);
  auto hits = db->QueryInt("SELECT count(*) FROM t WHERE t MATCH 'beta'");
  ASSERT_TRUE(hits.has_value());
  EXPECT_EQ(*hits, 12);
}

TEST(FtsMergeTest, APassedDeadlineMergesNothing) {
  test::TempDir dir;
  auto db = OpenDb(dir.File("a.db"));
  ASSERT_NE(db, nullptr);
  WriteSegments(*db, 12);
  auto steps = MergeFtsSegments(*db, "t", 1000, std::chrono::steady_clock::now() - std::chrono::seconds(1));
  ASSERT_TRUE(steps.has_value());
  EXPECT_EQ(*steps, 0);
  EXPECT_EQ(Segments(*db), 12);
}

}  // namespace
}  // namespace engram::sqlite
