#include "store/sqlite/sqlite_version.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdlib>
#include <string>

namespace engram::sqlite {
namespace {

TEST(SqliteVersionTest, WalResetBugRanges) {
  EXPECT_FALSE(HasWalResetBug(3006023));  // before WAL
  EXPECT_TRUE(HasWalResetBug(3007000));
  EXPECT_TRUE(HasWalResetBug(3040001));   // Debian 12
  EXPECT_TRUE(HasWalResetBug(3044005));
  EXPECT_FALSE(HasWalResetBug(3044006));  // backport
  EXPECT_TRUE(HasWalResetBug(3045000));
  EXPECT_TRUE(HasWalResetBug(3050006));
  EXPECT_FALSE(HasWalResetBug(3050007));  // backport
  EXPECT_TRUE(HasWalResetBug(3051002));
  EXPECT_FALSE(HasWalResetBug(3051003));  // the fix
  EXPECT_FALSE(HasWalResetBug(3054001));
}

// Issue 18, defect 1 (lost acknowledged writes and corrupt indexes under contention): the build
// links a SQLite without the WAL-reset bug (scripts/fetch_sqlite.sh); on 6fc5781 it linked Debian's
// 3.40.1. The check passes without an override.
TEST(SqliteVersionTest, LostWritesUnderContentionLinkedSqliteHasNoWalResetBug) {
  EXPECT_FALSE(HasWalResetBug(sqlite3_libversion_number())) << RunningSqliteVersion();
  EXPECT_TRUE(CheckSqliteVersion(/*allow_affected=*/false).ok());
  EXPECT_EQ(RunningSqliteVersion(), SQLITE_VERSION);  // header and library agree
}

// Engine::Open on Debian 12's SQLite (3.40.1) is refused with a message that says why and what to
// do; the override lets experiments run it.
TEST(SqliteVersionTest, AffectedVersionIsRefusedUnlessAllowed) {
  unsetenv("ENGRAM_ALLOW_AFFECTED_SQLITE");
  Status refused = CheckSqliteVersion(/*allow_affected=*/false, 3040001);
  EXPECT_EQ(refused.code(), StatusCode::kIOError);
  EXPECT_NE(refused.message().find("3.40.1"), std::string::npos) << refused.message();
  EXPECT_NE(refused.message().find("walresetbug"), std::string::npos) << refused.message();
  EXPECT_TRUE(CheckSqliteVersion(/*allow_affected=*/true, 3040001).ok());
  setenv("ENGRAM_ALLOW_AFFECTED_SQLITE", "1", 1);
  EXPECT_TRUE(CheckSqliteVersion(/*allow_affected=*/false, 3040001).ok());
  setenv("ENGRAM_ALLOW_AFFECTED_SQLITE", "yes", 1);  // only "1" counts
  EXPECT_FALSE(CheckSqliteVersion(/*allow_affected=*/false, 3040001).ok());
  unsetenv("ENGRAM_ALLOW_AFFECTED_SQLITE");
  EXPECT_TRUE(CheckSqliteVersion(/*allow_affected=*/false, 3051003).ok());
}

}  // namespace
}  // namespace engram::sqlite
