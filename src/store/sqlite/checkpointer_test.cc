// The single-checkpointer policy (store/sqlite/checkpointer.h, issue 18): SQLite's automatic
// checkpoint is off in every engram connection, and only the holder of the file's checkpointer role
// checkpoints, once the WAL is over its threshold.
#include "store/sqlite/checkpointer.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <unistd.h>

#include <string>

#include "store/sqlite/database.h"
#include "test_util.h"

namespace engram::sqlite {
namespace {

// Holds the checkpointer role of `db_path` the way another process would (flock locks of two open
// file descriptions conflict even within one process).
class RoleHolder {
 public:
  explicit RoleHolder(const std::string& db_path)
      : fd_(::open((db_path + "-checkpointer").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    locked_ = fd_ >= 0 && ::flock(fd_, LOCK_EX | LOCK_NB) == 0;
  }
  ~RoleHolder() {
    if (fd_ >= 0) ::close(fd_);
  }
  bool locked() const { return locked_; }

 private:
  int fd_;
  bool locked_ = false;
};

std::unique_ptr<Database> OpenDb(const std::string& path, int threshold_frames) {
  Options options;
  options.db_path = path;
  options.checkpoint_wal_frames = threshold_frames;
  auto db = Database::Open(options);
  EXPECT_TRUE(db.has_value()) << db.error().ToString();
  return db ? std::move(*db) : nullptr;
}

// Commits `n` transactions of one 2 KB row each (a frame or more per commit).
void Write(Database& db, int n) {
  ASSERT_TRUE(db.Exec("CREATE TABLE IF NOT EXISTS t (x BLOB)").ok());
  for (int i = 0; i < n; ++i) {
    Status st = db.WriteTransaction([&] { return db.Exec("INSERT INTO t VALUES (randomblob(2000))"); });
    ASSERT_TRUE(st.ok()) << st.ToString();
  }
}

// Frames in the WAL not yet copied back: a checkpoint that copies nothing new (PASSIVE) reports
// the log size; when an earlier checkpoint reset the log it is small.
int WalFrames(Database& db) {
  int log = -1, done = -1;
  sqlite3_wal_checkpoint_v2(db.handle(), nullptr, SQLITE_CHECKPOINT_PASSIVE, &log, &done);
  return log;
}

TEST(CheckpointerTest, NoAutomaticCheckpointWithoutTheRole) {
  test::TempDir dir;
  const std::string path = dir.File("a.db");
  RoleHolder other(path);
  ASSERT_TRUE(other.locked());
  auto db = OpenDb(path, /*threshold_frames=*/1000);
  ASSERT_NE(db, nullptr);
  // SQLite's own automatic checkpoint (1000 frames) would have reset the WAL before 1500 commits;
  // the engram connection without the role does not checkpoint (below the safety valve).
  Write(*db, 1500);
  EXPECT_GE(WalFrames(*db), 1500);
}

// A holder that stopped committing must not let the WAL grow without bound.
TEST(CheckpointerTest, SafetyValveBoundsTheWalOfAnIdleHolder) {
  test::TempDir dir;
  const std::string path = dir.File("v.db");
  RoleHolder idle(path);
  ASSERT_TRUE(idle.locked());
  auto db = OpenDb(path, /*threshold_frames=*/50);
  ASSERT_NE(db, nullptr);
  Write(*db, 1500);  // the valve opens at 50 × kSafetyValveFactor frames
  EXPECT_LT(WalFrames(*db), 50 * Checkpointer::kSafetyValveFactor + 50);
}

TEST(CheckpointerTest, TheRoleHolderCheckpointsOverTheThreshold) {
  test::TempDir dir;
  const std::string path = dir.File("b.db");
  auto db = OpenDb(path, /*threshold_frames=*/200);
  ASSERT_NE(db, nullptr);
  Write(*db, 1500);
  // Checkpoints ran (the role was free) and the WAL was reset: never far over the threshold.
  EXPECT_LT(WalFrames(*db), 400);
  RoleHolder other(path);
  EXPECT_FALSE(other.locked()) << "the writing process keeps the role until it closes";
  db.reset();
  RoleHolder after(path);
  EXPECT_TRUE(after.locked()) << "closing releases the role";
}

TEST(CheckpointerTest, BelowTheThresholdNothingRuns) {
  test::TempDir dir;
  const std::string path = dir.File("c.db");
  auto db = OpenDb(path, /*threshold_frames=*/100000);
  ASSERT_NE(db, nullptr);
  Write(*db, 300);
  EXPECT_GE(WalFrames(*db), 300);
  RoleHolder other(path);
  EXPECT_TRUE(other.locked()) << "no checkpoint was wanted, so the role was never taken";
}

TEST(CheckpointerTest, OneHolderAtATime) {
  test::TempDir dir;
  const std::string path = dir.File("d.db");
  auto first = OpenDb(path, /*threshold_frames=*/100);
  auto second = OpenDb(path, /*threshold_frames=*/100);
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  Write(*first, 300);  // takes the role
  // Over the threshold, but the role is taken; 300 commits of one row are 1–2 frames each, below
  // the valve (1000 frames here).
  Write(*second, 300);
  EXPECT_GE(WalFrames(*second), 300);
}

}  // namespace
}  // namespace engram::sqlite
