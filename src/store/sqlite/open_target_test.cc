// store/sqlite/open_target_test.cc — the checks before SQLite touches a file, per open mode.
#include "store/sqlite/open_target.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>

#include "test_util.h"

namespace engram::sqlite {
namespace {

using ::testing::HasSubstr;

Options At(const std::string& path, OpenMode mode, bool create_folders = false) {
  Options o;
  o.db_path = path;
  o.open_mode = mode;
  o.create_folders = create_folders;
  return o;
}

TEST(OpenTargetTest, ZeroByteFileIsRefusedInEveryMode) {
  test::TempDir dir;
  test::WriteFile(dir.File("e.db"), "");
  for (OpenMode mode : {OpenMode::kReadOnly, OpenMode::kReadWrite, OpenMode::kCreate}) {
    auto t = ResolveOpenTarget(At(dir.File("e.db"), mode));
    ASSERT_FALSE(t.has_value());
    EXPECT_EQ(t.error().code(), StatusCode::kCorruption);
    EXPECT_THAT(t.error().message(), HasSubstr("empty (0 bytes)"));
  }
}

TEST(OpenTargetTest, NonSqliteFileIsRefused) {
  test::TempDir dir;
  test::WriteFile(dir.File("t.db"), std::string(200, 'x'));
  test::WriteFile(dir.File("short.db"), "SQLite format 3");
  for (const char* name : {"t.db", "short.db"}) {
    auto t = ResolveOpenTarget(At(dir.File(name), OpenMode::kCreate));
    ASSERT_FALSE(t.has_value());
    EXPECT_THAT(t.error().message(), HasSubstr("not an SQLite database"));
  }
}

TEST(OpenTargetTest, MissingFileIsCreatedOnlyByCreate) {
  test::TempDir dir;
  const std::string path = dir.File("m.db");
  for (OpenMode mode : {OpenMode::kReadOnly, OpenMode::kReadWrite}) {
    auto t = ResolveOpenTarget(At(path, mode));
    ASSERT_FALSE(t.has_value());
    EXPECT_EQ(t.error().code(), StatusCode::kNotFound);
  }
  auto created = ResolveOpenTarget(At(path, OpenMode::kCreate));
  ASSERT_OK(created);
  EXPECT_NE(created->flags & SQLITE_OPEN_CREATE, 0);
  EXPECT_FALSE(created->exists);
  EXPECT_FALSE(std::filesystem::exists(path)) << "resolving creates nothing";
}

TEST(OpenTargetTest, MissingDirectoryIsAnError) {
  test::TempDir dir;
  const std::string path = dir.File("a/b/m.db");
  auto t = ResolveOpenTarget(At(path, OpenMode::kCreate));
  ASSERT_FALSE(t.has_value());
  EXPECT_EQ(t.error().code(), StatusCode::kNotFound);
  EXPECT_THAT(t.error().message(), HasSubstr(dir.File("a/b")));
  EXPECT_FALSE(std::filesystem::exists(dir.File("a")));
  EXPECT_FALSE(ResolveOpenTarget(At(path, OpenMode::kReadWrite, /*create_folders=*/true)).has_value())
      << "only kCreate makes folders";
  ASSERT_OK(ResolveOpenTarget(At(path, OpenMode::kCreate, /*create_folders=*/true)));
  EXPECT_TRUE(std::filesystem::is_directory(dir.File("a/b")));
}

TEST(OpenTargetTest, ReadOnlyModeOpensReadOnly) {
  test::TempDir dir;
  const std::string path = dir.File("m.db");
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "CREATE TABLE t(x)", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  ASSERT_OK_AND_ASSIGN(OpenTarget t, ResolveOpenTarget(At(path, OpenMode::kReadOnly)));
  EXPECT_TRUE(t.read_only);
  EXPECT_TRUE(t.exists);
  EXPECT_EQ(t.flags & (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE), 0);
}

TEST(OpenTargetTest, UriPathEscapesQueryCharacters) {
  EXPECT_EQ(SqliteUriPath("/a/b?c#d%e"), "/a/b%3Fc%23d%25e");
}

}  // namespace
}  // namespace engram::sqlite
