// MergeFtsSegments (store/sqlite/fts_merge.h): merges a FTS5 index's segments step by step, and
// stops at its step bound and at its deadline (a drain's tail merge under concurrent writers, B43).
#include "store/sqlite/fts_merge.h"

#include <gtest/gtest.h>

#include <chrono>
#include <algorithm>
#include <cstdint>
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
int64_t Segments(Database& db, const std::string& table = "t") {
  auto n = db.QueryInt("SELECT count(DISTINCT id >> 37) FROM " + table + "_data WHERE id >> 37 > 0");
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

// `rows` rows of 20 words from a vocabulary of 20,000 ("w0".."w19999", a fixed linear congruential
// sequence), in commits of `per_commit` rows: an index of many pages, its levels made by FTS5's
// automerge as a long-lived namespace's are.
void WriteRows(Database& db, int rows, int per_commit, uint32_t* seed) {
  for (int done = 0; done < rows; done += per_commit) {
    Status st = db.WriteTransaction([&]() -> Status {
      for (int r = 0; r < per_commit; ++r) {
        std::string text;
        for (int w = 0; w < 20; ++w) {
          *seed = *seed * 1664525u + 1013904223u;
          text += " w" + std::to_string((*seed >> 8) % 20000);
        }
        ENGRAM_RETURN_IF_ERROR(db.Exec("INSERT INTO big(x) VALUES ('" + text + "')"));
      }
      return Status::Ok();
    });
    ASSERT_TRUE(st.ok()) << st.ToString();
  }
}

int64_t Pages(Database& db) {
  auto n = db.QueryInt("SELECT count(*) FROM big_data WHERE id >> 37 > 0");
  EXPECT_TRUE(n.has_value());
  return n ? *n : -1;
}

TEST(FtsMergeTest, ADrainsMergeCostsWhatTheDrainWroteNotTheIndexSize) {
  // B43: a merge of every segment into one ('merge' with a negative page count) rewrites the whole
  // index after every drain; MergeFtsSegments merges the drain's new segments level by level.
  test::TempDir dir;
  auto db = OpenDb(dir.File("a.db"));
  ASSERT_NE(db, nullptr);
  ASSERT_OK(db->Exec("CREATE VIRTUAL TABLE big USING fts5(x)"));
  uint32_t seed = 7;
  for (int drain = 0; drain < 10; ++drain) {  // a namespace's history: drains, each merged after
    WriteRows(*db, 5000, 100, &seed);
    ASSERT_TRUE(MergeFtsSegments(*db, "big", 1000).has_value());
  }
  const int64_t index_pages = Pages(*db);
  ASSERT_GT(index_pages, 10 * kFtsMergePagesPerStep);
  // What merging every segment into one costs now (measured, then rolled back): a lower bound of
  // what it would cost after each of the drains below.
  ASSERT_OK(db->Exec("SAVEPOINT full"));
  int64_t full_steps = 0;
  for (int64_t changed = 2; changed >= 2 && full_steps < 10000; ++full_steps) {  // < 2: nothing was left
    const int64_t before = sqlite3_total_changes64(db->handle());
    ASSERT_OK(db->Exec("INSERT INTO big(big, rank) VALUES ('merge', -" + std::to_string(kFtsMergePagesPerStep) + ")"));
    changed = sqlite3_total_changes64(db->handle()) - before;
  }
  ASSERT_OK(db->Exec("ROLLBACK TO full; RELEASE full"));
  constexpr int kSmallDrains = 32;
  int64_t steps = 0;
  int64_t max_segments = 0;
  for (int drain = 0; drain < kSmallDrains; ++drain) {
    WriteRows(*db, 100, 20, &seed);  // a small drain: 5 commits
    auto merged = MergeFtsSegments(*db, "big", 1000);
    ASSERT_TRUE(merged.has_value()) << merged.error().ToString();
    max_segments = std::max(max_segments, Segments(*db, "big"));
    steps += *merged;
  }
  EXPECT_LT(steps * 4, kSmallDrains * full_steps)
      << steps << " steps after " << kSmallDrains << " small drains; merging all once: " << full_steps
      << " steps of " << index_pages << " pages";
  // And queries still visit few segments: about one per level (FTS5's automerge alone keeps up to
  // 3 per level).
  EXPECT_LE(max_segments, 8);
  auto hits = db->QueryInt("SELECT count(*) FROM big WHERE big MATCH 'w17'");
  ASSERT_TRUE(hits.has_value());
  EXPECT_GT(*hits, 0);
  auto usermerge = db->QueryInt("SELECT v FROM big_config WHERE k = 'usermerge'");
  ASSERT_TRUE(usermerge.has_value());
  EXPECT_EQ(*usermerge, kFtsUserMerge);
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
