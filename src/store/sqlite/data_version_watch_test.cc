// DataVersionWatch: every commit (this connection's, another's) and every write transaction is
// seen.
#include "store/sqlite/data_version_watch.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace engram::sqlite {
namespace {

using Verdict = DataVersionWatch::Verdict;

std::unique_ptr<Database> OpenAt(const std::string& path) {
  Options options;
  options.db_path = path;
  auto db = Database::Open(options);
  EXPECT_TRUE(db.has_value()) << db.error().ToString();
  return db ? std::move(*db) : nullptr;
}

Verdict CheckIn(Database& db, DataVersionWatch& watch) {
  Verdict v = Verdict::kUnusable;
  EXPECT_TRUE(db.ReadTransaction([&]() -> Status {
                  v = watch.Check(db);
                  return Status::Ok();
                }).ok());
  return v;
}

TEST(DataVersionWatchTest, SeesCommitsOfEveryConnectionAndWriteTransactions) {
  test::TempDir dir;
  auto db = OpenAt(dir.File("w.db"));
  auto other = OpenAt(dir.File("w.db"));
  ASSERT_NE(db, nullptr);
  ASSERT_NE(other, nullptr);
  ASSERT_TRUE(db->Exec("CREATE TABLE t(x)").ok());
  DataVersionWatch watch;
  EXPECT_EQ(CheckIn(*db, watch), Verdict::kChanged);  // the first check
  EXPECT_EQ(CheckIn(*db, watch), Verdict::kUnchanged);
  ASSERT_TRUE(other->Exec("INSERT INTO t VALUES (1)").ok());
  EXPECT_EQ(CheckIn(*db, watch), Verdict::kChanged);
  ASSERT_TRUE(db->Exec("INSERT INTO t VALUES (2)").ok());
  EXPECT_EQ(CheckIn(*db, watch), Verdict::kChanged);
  EXPECT_EQ(CheckIn(*db, watch), Verdict::kUnchanged);
  Status st = db->WriteTransaction([&]() -> Status {
    EXPECT_EQ(watch.Check(*db), Verdict::kUnusable);
    return Status::FailedPrecondition("roll back");
  });
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(CheckIn(*db, watch), Verdict::kChanged);  // after a write transaction, always
  EXPECT_EQ(CheckIn(*db, watch), Verdict::kUnchanged);
  // Outside a transaction each statement reads the newest commit: never usable, and the next
  // check in a transaction starts again.
  EXPECT_EQ(watch.Check(*db), Verdict::kUnusable);
  EXPECT_EQ(CheckIn(*db, watch), Verdict::kChanged);
}

}  // namespace
}  // namespace engram::sqlite
