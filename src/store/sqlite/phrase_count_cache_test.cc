// The memo of phrase row counts (PhraseCountCache) through engram_bm25 and engram_term_counts: a
// memoised score is always the score counted afresh, whoever wrote in between.
#include "store/sqlite/phrase_count_cache.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <string>

#include "store/sqlite/fts5_tokenizer.h"
#include "test_util.h"

namespace engram::sqlite {
namespace {

class PhraseCountCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = dir_.File("phrases.db");
    reader_ = Open();
    writer_ = Open();
    Exec(writer_, "PRAGMA journal_mode=WAL");
    for (const char* table : {"t", "u"}) {
      Exec(writer_, std::string("CREATE VIRTUAL TABLE ") + table +
                        " USING fts5(body, tokenize='engram full')");
      Exec(writer_, std::string("INSERT INTO ") + table +
                        "(body) VALUES ('apple pie'), ('banana bread'), ('cherry tart')");
    }
  }
  void TearDown() override {
    sqlite3_close(reader_);
    sqlite3_close(writer_);
  }

  sqlite3* Open() {
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
    Status status = RegisterFts5Extensions(db);
    EXPECT_TRUE(status.ok()) << status.ToString();
    return db;
  }

  static void Exec(sqlite3* db, const std::string& sql) {
    char* error = nullptr;
    EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK)
        << (error != nullptr ? error : "") << " in " << sql;
    sqlite3_free(error);
  }

  // engram_bm25 of the first row (by rowid) of `table` matching `match`, memoised or not.
  static double Score(sqlite3* db, const std::string& table, const std::string& match,
                      bool memo) {
    const std::string sql = "SELECT engram_bm25(" + table + ", 1.2, 0.75, d.sz" +
                            (memo ? ", '" + table + "', ?1" : std::string()) + ") FROM " + table +
                            " JOIN " + table + "_docsize d ON d.id = " + table + ".rowid WHERE " +
                            table + " MATCH ?1 ORDER BY " + table + ".rowid LIMIT 1";
    sqlite3_stmt* stmt = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr), SQLITE_OK)
        << sqlite3_errmsg(db);
    sqlite3_bind_text(stmt, 1, match.data(), static_cast<int>(match.size()), SQLITE_TRANSIENT);
    double score = -1;
    if (sqlite3_step(stmt) == SQLITE_ROW) score = sqlite3_column_double(stmt, 0);
    sqlite3_finalize(stmt);
    return score;
  }

  // Checks that the memoised score equals the fresh one on `db`, and returns it.
  static double Checked(sqlite3* db, const std::string& table, const std::string& match) {
    const double memo = Score(db, table, match, true);
    EXPECT_EQ(memo, Score(db, table, match, false)) << table << " " << match;
    return memo;
  }

  // One per test: ctest runs this file's tests as parallel processes.
  test::TempDir dir_;
  std::string path_;
  sqlite3* reader_ = nullptr;
  sqlite3* writer_ = nullptr;
};

TEST_F(PhraseCountCacheTest, AWriteByAnotherConnectionChangesTheStatistics) {
  const double before = Checked(reader_, "t", R"("apple" OR "pie")");
  EXPECT_EQ(Checked(reader_, "t", R"("apple" OR "pie")"), before);  // memoised
  Exec(writer_, "INSERT INTO t(body) VALUES ('apple juice')");
  const double after = Checked(reader_, "t", R"("apple" OR "pie")");
  EXPECT_LT(after, before);  // "apple" is in two rows of four now: a smaller idf
}

TEST_F(PhraseCountCacheTest, AWriteByTheSameConnectionChangesTheStatistics) {
  const double before = Checked(reader_, "t", R"("apple")");
  Exec(reader_, "INSERT INTO t(body) VALUES ('apple juice')");
  EXPECT_LT(Checked(reader_, "t", R"("apple")"), before);
}

TEST_F(PhraseCountCacheTest, InsideAWriteTransactionAndAfterItsRollback) {
  const double before = Checked(reader_, "t", R"("apple")");
  Exec(reader_, "BEGIN");
  Exec(reader_, "INSERT INTO t(body) VALUES ('apple juice')");
  const double inside = Checked(reader_, "t", R"("apple")");
  EXPECT_LT(inside, before);
  Exec(reader_, "ROLLBACK");
  EXPECT_EQ(Checked(reader_, "t", R"("apple")"), before);
}

TEST_F(PhraseCountCacheTest, AReadTransactionKeepsItsSnapshot) {
  Exec(reader_, "BEGIN");
  const double before = Checked(reader_, "t", R"("apple")");
  Exec(writer_, "INSERT INTO t(body) VALUES ('apple juice')");
  EXPECT_EQ(Checked(reader_, "t", R"("apple")"), before);  // the snapshot has not changed
  Exec(reader_, "COMMIT");
  EXPECT_LT(Checked(reader_, "t", R"("apple")"), before);
}

TEST_F(PhraseCountCacheTest, TablesAndPhrasesDoNotShareEntries) {
  Exec(writer_, "INSERT INTO u(body) VALUES ('apple juice'), ('apple cake')");
  const double t = Checked(reader_, "t", R"("apple")");
  const double u = Checked(reader_, "u", R"("apple")");
  EXPECT_GT(t, u);  // apple is rarer in t
  // The same words in another phrase form are another key: "apple pie" as one phrase.
  Checked(reader_, "t", R"("apple pie")");
  Checked(reader_, "t", R"("pie" OR "apple")");
}

TEST_F(PhraseCountCacheTest, ExpressionsOtherThanQuotedListsAreCountedEachTime) {
  Checked(reader_, "t", R"(apple OR pie)");
  Checked(reader_, "t", R"("app" *)");
  Exec(writer_, "INSERT INTO t(body) VALUES ('apple juice')");
  Checked(reader_, "t", R"("app" *)");
}

TEST_F(PhraseCountCacheTest, MemoArgumentsMustBeText) {
  sqlite3_stmt* stmt = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(reader_,
                               "SELECT engram_bm25(t, 1.2, 0.75, d.sz, 7, ?1) FROM t JOIN t_docsize "
                               "d ON d.id = t.rowid WHERE t MATCH ?1",
                               -1, &stmt, nullptr),
            SQLITE_OK);
  sqlite3_bind_text(stmt, 1, "\"apple\"", -1, SQLITE_STATIC);
  EXPECT_EQ(sqlite3_step(stmt), SQLITE_ERROR);
  sqlite3_finalize(stmt);
}

}  // namespace
}  // namespace engram::sqlite
