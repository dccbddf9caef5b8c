// tests/raw_db.h — a second, raw SQLite connection for tests that look at or change what the
// engine API does not expose (backdating rows, counting rows per table, planting a v5 file).
//
//   test::RawDb raw(db_path);
//   raw.Exec("UPDATE claims SET recorded_from = 0");
//   EXPECT_EQ(raw.Int("SELECT count(*) FROM events"), 3);
//
// Header-only, like test_util.h. The connection registers engram's FTS5 tokenizer and functions,
// so statements may touch the full-text tables. Failures are gtest EXPECT failures with the SQL.
#ifndef ENGRAM_TESTS_RAW_DB_H_
#define ENGRAM_TESTS_RAW_DB_H_

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdint>
#include <string>

#include "store/sqlite/fts5_tokenizer.h"
#include "test_util.h"

namespace engram::test {

class RawDb {
 public:
  explicit RawDb(const std::string& path) {
    EXPECT_EQ(sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE, nullptr), SQLITE_OK);
    sqlite3_busy_timeout(db_, 5000);
    EXPECT_OK(sqlite::RegisterFts5Extensions(db_));  // the full-text tables use engram's tokenizer
  }
  RawDb(const RawDb&) = delete;
  RawDb& operator=(const RawDb&) = delete;
  ~RawDb() { sqlite3_close_v2(db_); }

  // The first column of the first row of `sql`, or -1 when it returns no row.
  int64_t Int(const std::string& sql) {
    sqlite3_stmt* st = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr), SQLITE_OK) << sql << ": " << sqlite3_errmsg(db_);
    int64_t v = -1;
    if (st != nullptr && sqlite3_step(st) == SQLITE_ROW) v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
  }
  // The first column of the first row of `sql` as text, or "" when it returns no row or NULL.
  std::string Text(const std::string& sql) {
    sqlite3_stmt* st = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr), SQLITE_OK) << sql << ": " << sqlite3_errmsg(db_);
    std::string v;
    if (st != nullptr && sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0) != nullptr) {
      v = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
    }
    sqlite3_finalize(st);
    return v;
  }
  void Exec(const std::string& sql) {
    char* err = nullptr;
    EXPECT_EQ(sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err), SQLITE_OK) << sql << ": " << (err ? err : "");
    sqlite3_free(err);
  }

 protected:
  sqlite3* db_ = nullptr;
};

}  // namespace engram::test

#endif  // ENGRAM_TESTS_RAW_DB_H_
