#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <sqlite3.h>

#include <cmath>
#include <string>
#include <vector>

#include "store/sqlite/fts5_tokenizer.h"

namespace engram::sqlite {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::UnorderedElementsAre;

// Quotes one query unit for MATCH the way recall does: "..." with every " doubled.
std::string Quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

class Fts5Test : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(sqlite3_open(":memory:", &db_), SQLITE_OK);
    Status status = RegisterFts5Extensions(db_);
    ASSERT_TRUE(status.ok()) << status.ToString();
  }
  void TearDown() override { sqlite3_close(db_); }

  // Runs SQL; returns the SQLite result code (SQLITE_OK on success).
  int Exec(const std::string& sql) {
    char* error = nullptr;
    int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error);
    if (error != nullptr) last_error_ = error;
    sqlite3_free(error);
    return rc;
  }

  void Insert(const std::string& table, const std::string& body) {
    sqlite3_stmt* stmt = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(db_, ("INSERT INTO " + table + "(body) VALUES (?1)").c_str(), -1,
                                 &stmt, nullptr),
              SQLITE_OK);
    sqlite3_bind_text(stmt, 1, body.data(), static_cast<int>(body.size()), SQLITE_TRANSIENT);
    EXPECT_EQ(sqlite3_step(stmt), SQLITE_DONE) << sqlite3_errmsg(db_);
    sqlite3_finalize(stmt);
  }

  // Bodies of the rows matching `match`, best engram_bm25 first.
  std::vector<std::string> Search(const std::string& table, const std::string& match,
                                  const std::string& bm25_args = "0.9, 0.4") {
    std::vector<std::string> out;
    for (auto& [body, score] : Scored(table, match, bm25_args)) out.push_back(body);
    return out;
  }

  std::vector<std::pair<std::string, double>> Scored(const std::string& table,
                                                     const std::string& match,
                                                     const std::string& bm25_args = "0.9, 0.4") {
    std::vector<std::pair<std::string, double>> out;
    const std::string sql = "SELECT body, engram_bm25(" + table + (bm25_args.empty() ? "" : ", ") +
                            bm25_args + ") AS score FROM " + table + " WHERE " + table +
                            " MATCH ?1 ORDER BY score DESC, rowid";
    sqlite3_stmt* stmt = nullptr;
    int rc = sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr);
    EXPECT_EQ(rc, SQLITE_OK) << sqlite3_errmsg(db_);
    if (rc != SQLITE_OK) return out;
    sqlite3_bind_text(stmt, 1, match.data(), static_cast<int>(match.size()), SQLITE_TRANSIENT);
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
      out.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)),
                       sqlite3_column_double(stmt, 1));
    }
    EXPECT_EQ(rc, SQLITE_DONE) << sqlite3_errmsg(db_) << " for " << match;
    sqlite3_finalize(stmt);
    return out;
  }

  sqlite3* db_ = nullptr;
  std::string last_error_;
};

TEST_F(Fts5Test, NullConnectionIsInvalidArgument) {
  EXPECT_EQ(RegisterFts5Extensions(nullptr).code(), StatusCode::kInvalidArgument);
}

TEST_F(Fts5Test, B30CjkLexicalSearch) {
  ASSERT_EQ(Exec("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='engram full')"), SQLITE_OK)
      << last_error_;
  const std::string idiom = "今天玩成语接龙游戏";
  const std::string devices = "设备清单(devices) NAS cdm-xxc";
  const std::string korean = "오늘 끝말잇기 게임을 했다";
  const std::string japanese = "今日は成語しりとりをした";
  for (const auto& body : {idiom, devices, korean, japanese}) Insert("t", body);

  EXPECT_THAT(Search("t", Quote("成语接龙")), ElementsAre(idiom));
  EXPECT_THAT(Search("t", Quote("接龙")), ElementsAre(idiom));
  EXPECT_THAT(Search("t", Quote("设备")), ElementsAre(devices));
  EXPECT_THAT(Search("t", Quote("끝말잇기")), ElementsAre(korean));
  EXPECT_THAT(Search("t", Quote("게임")), ElementsAre(korean));
  EXPECT_THAT(Search("t", Quote("しりとり")), ElementsAre(japanese));
  EXPECT_THAT(Search("t", Quote("cdm-xxc")), ElementsAre(devices));
  EXPECT_THAT(Search("t", Quote("cdm") + " " + Quote("xxc")), ElementsAre(devices));
  EXPECT_THAT(Search("t", Quote("DEVICES")), ElementsAre(devices));
  // Bigrams at consecutive positions keep phrase order: a reordered phrase does not match.
  EXPECT_THAT(Search("t", Quote("接龙成语")), IsEmpty());
}

TEST_F(Fts5Test, B31TwoCharacterCjkAndShortTerms) {
  ASSERT_EQ(Exec("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='engram full')"), SQLITE_OK);
  for (const char* body :
       {"早报配置已更新", "午报发送失败", "quick brown fox ok", "quick brown fox"}) {
    Insert("t", body);
  }
  EXPECT_THAT(Search("t", Quote("早报")), ElementsAre("早报配置已更新"));
  EXPECT_THAT(Search("t", Quote("报")), UnorderedElementsAre("早报配置已更新", "午报发送失败"));
  EXPECT_THAT(Search("t", Quote("quick") + " " + Quote("ok")), ElementsAre("quick brown fox ok"));
}

TEST_F(Fts5Test, QuotedUserTextIsNeverSyntax) {
  ASSERT_EQ(Exec("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='engram')"), SQLITE_OK);
  Insert("t", "he said \"hello\" AND NOT (x OR y*) near: col:value");
  EXPECT_THAT(Search("t", Quote("\"hello\" AND NOT")), ElementsAre(testing::_));
  EXPECT_THAT(Search("t", Quote("col:value")), ElementsAre(testing::_));
  EXPECT_THAT(Search("t", Quote("(x OR y*)")), ElementsAre(testing::_));
  EXPECT_THAT(Search("t", Quote("?!")), IsEmpty());  // no tokens: an empty phrase matches nothing
}

TEST_F(Fts5Test, StemsMatchAcrossInflections) {
  ASSERT_EQ(Exec("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='engram full')"), SQLITE_OK);
  Insert("t", "I was running");
  EXPECT_THAT(Search("t", Quote("runs")), ElementsAre("I was running"));
  EXPECT_THAT(Search("t", Quote("run")), ElementsAre("I was running"));
  EXPECT_THAT(Search("t", Quote("RUNNING")), ElementsAre("I was running"));
  EXPECT_THAT(Search("t", Quote("was running")), ElementsAre("I was running"));
  EXPECT_THAT(Search("t", "runn*"), ElementsAre("I was running"));
}

TEST_F(Fts5Test, PlainDoesNotStem) {
  ASSERT_EQ(Exec("CREATE VIRTUAL TABLE p USING fts5(body, tokenize='engram plain')"), SQLITE_OK);
  Insert("p", "I was running");
  Insert("p", "我更喜欢浅色主题");
  EXPECT_THAT(Search("p", Quote("runs")), IsEmpty());
  EXPECT_THAT(Search("p", Quote("Running")), ElementsAre("I was running"));
  EXPECT_THAT(Search("p", Quote("喜欢")), ElementsAre("我更喜欢浅色主题"));
  EXPECT_THAT(Search("p", Quote("欢浅")), IsEmpty());  // no bigrams
}

TEST_F(Fts5Test, UnknownArgumentFailsToCreate) {
  EXPECT_NE(Exec("CREATE VIRTUAL TABLE b USING fts5(body, tokenize='engram bogus')"), SQLITE_OK);
  EXPECT_NE(Exec("CREATE VIRTUAL TABLE c USING fts5(body, tokenize='engram full plain')"),
            SQLITE_OK);
}

TEST_F(Fts5Test, UnregisteredConnectionCannotCreateTheTable) {
  sqlite3* other = nullptr;
  ASSERT_EQ(sqlite3_open(":memory:", &other), SQLITE_OK);
  EXPECT_NE(sqlite3_exec(other, "CREATE VIRTUAL TABLE t USING fts5(body, tokenize='engram')",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(other);
}

TEST_F(Fts5Test, Bm25IsPositiveAndPrefersMoreRareTermHits) {
  ASSERT_EQ(Exec("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='engram full')"), SQLITE_OK);
  Insert("t", "zebra zebra zebra common words here");
  Insert("t", "zebra common words here too");
  for (int i = 0; i < 8; ++i) Insert("t", "common words " + std::to_string(i));
  auto scored = Scored("t", Quote("zebra") + " OR " + Quote("common"));
  ASSERT_EQ(scored.size(), 10u);
  EXPECT_EQ(scored[0].first, "zebra zebra zebra common words here");
  EXPECT_EQ(scored[1].first, "zebra common words here too");
  for (const auto& [body, score] : scored) EXPECT_GT(score, 0.0) << body;
  EXPECT_GT(scored[0].second, scored[1].second);
  EXPECT_GT(scored[1].second, scored[2].second);
}

TEST_F(Fts5Test, Bm25MatchesTheFormula) {
  ASSERT_EQ(Exec("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='engram full')"), SQLITE_OK);
  Insert("t", "alpha beta");         // 2 positions
  Insert("t", "alpha alpha gamma");  // 3 positions
  Insert("t", "delta");              // 1 position
  // N = 3, avgdl = 2, n(alpha) = 2 → idf = ln(1 + 1.5 / 2.5).
  const double idf = std::log(1.0 + 1.5 / 2.5);
  const double k1 = 1.2, b = 0.75;
  auto scored = Scored("t", Quote("alpha"), "");
  ASSERT_EQ(scored.size(), 2u);
  auto bm25 = [&](double tf, double dl) {
    return idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / 2.0));
  };
  EXPECT_EQ(scored[0].first, "alpha alpha gamma");
  EXPECT_NEAR(scored[0].second, bm25(2, 3), 1e-12);
  EXPECT_NEAR(scored[1].second, bm25(1, 2), 1e-12);
}

TEST_F(Fts5Test, Bm25WithBZeroIgnoresLength) {
  ASSERT_EQ(Exec("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='engram full')"), SQLITE_OK);
  Insert("t", "zebra");
  Insert("t", "zebra and many many other words that make this row much longer than the first");
  Insert("t", "filler");
  auto flat = Scored("t", Quote("zebra"), "1.2, 0");
  ASSERT_EQ(flat.size(), 2u);
  EXPECT_DOUBLE_EQ(flat[0].second, flat[1].second);
  auto normed = Scored("t", Quote("zebra"), "1.2, 0.75");
  ASSERT_EQ(normed.size(), 2u);
  EXPECT_EQ(normed[0].first, "zebra");
  EXPECT_GT(normed[0].second, normed[1].second);
}

TEST_F(Fts5Test, Bm25RejectsBadParameters) {
  ASSERT_EQ(Exec("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='engram full')"), SQLITE_OK);
  Insert("t", "zebra");
  for (const char* sql : {"SELECT engram_bm25(t, -1, 0.5) FROM t WHERE t MATCH 'zebra'",
                          "SELECT engram_bm25(t, 1.2, 1.5) FROM t WHERE t MATCH 'zebra'",
                          "SELECT engram_bm25(t, 1.2, 0.5, 3) FROM t WHERE t MATCH 'zebra'"}) {
    EXPECT_NE(Exec(sql), SQLITE_OK) << sql;
  }
  EXPECT_EQ(Exec("SELECT engram_bm25(t, NULL, NULL) FROM t WHERE t MATCH 'zebra'"), SQLITE_OK);
}

// engram_bm25_shares: one share a phrase (0 where the row lacks it), adding up to engram_bm25
// bit for bit, each the same whichever other phrases the query has.
TEST_F(Fts5Test, Bm25SharesAddUpToBm25) {
  ASSERT_EQ(Exec("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='engram full')"), SQLITE_OK);
  Insert("t", "alpha beta");
  Insert("t", "alpha alpha gamma beta beta");
  Insert("t", "delta gamma");
  auto shares_of = [&](const std::string& match) {
    std::vector<std::pair<double, std::vector<double>>> rows;  // engram_bm25, shares
    sqlite3_stmt* stmt = nullptr;
    const std::string sql =
        "SELECT engram_bm25(t, 0.9, 0.4), engram_bm25_shares(t, 0.9, 0.4) FROM t WHERE t MATCH ?1 ORDER BY rowid";
    EXPECT_EQ(sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr), SQLITE_OK) << sqlite3_errmsg(db_);
    sqlite3_bind_text(stmt, 1, match.data(), static_cast<int>(match.size()), SQLITE_TRANSIENT);
    while (sqlite3_step(stmt) == SQLITE_ROW) {
      std::vector<double> shares(static_cast<size_t>(sqlite3_column_bytes(stmt, 1)) / sizeof(double));
      std::memcpy(shares.data(), sqlite3_column_blob(stmt, 1), shares.size() * sizeof(double));
      rows.emplace_back(sqlite3_column_double(stmt, 0), shares);
    }
    sqlite3_finalize(stmt);
    return rows;
  };
  auto all = shares_of("\"alpha\" OR \"gamma\" OR \"beta\"");
  ASSERT_EQ(all.size(), 3u);
  for (const auto& [score, shares] : all) {
    ASSERT_EQ(shares.size(), 3u);
    double sum = 0.0;
    for (double share : shares) sum += share;
    EXPECT_EQ(sum, score);
  }
  EXPECT_EQ(all[2].second[0], 0.0);  // "delta gamma" lacks alpha
  EXPECT_GT(all[2].second[1], 0.0);
  auto gamma = shares_of("\"gamma\"");
  ASSERT_EQ(gamma.size(), 2u);
  EXPECT_EQ(gamma[0].second[0], all[1].second[1]);
  EXPECT_EQ(gamma[1].second[0], all[2].second[1]);
  EXPECT_NE(Exec("SELECT engram_bm25_shares(t, 1.2, 1.5) FROM t WHERE t MATCH 'alpha'"), SQLITE_OK);
  EXPECT_NE(Exec("SELECT engram_bm25_shares(t, 1.2, 0.5, 3) FROM t WHERE t MATCH 'alpha'"), SQLITE_OK);
}

TEST_F(Fts5Test, HighlightUsesByteOffsets) {
  ASSERT_EQ(Exec("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='engram full')"), SQLITE_OK);
  Insert("t", "我最近眼睛不舒服，Running late");
  sqlite3_stmt* stmt = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db_,
                               "SELECT highlight(t, 0, '[', ']') FROM t WHERE t MATCH "
                               "'\"眼睛\" OR \"runs\"'",
                               -1, &stmt, nullptr),
            SQLITE_OK);
  ASSERT_EQ(sqlite3_step(stmt), SQLITE_ROW);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0))),
            "我最近[眼睛]不舒服，[Running] late");
  sqlite3_finalize(stmt);
  // A phrase of bigrams is highlighted whole (the bigram is the first token at its position).
  Insert("t", "今天玩成语接龙游戏");
  ASSERT_EQ(sqlite3_prepare_v2(db_,
                               "SELECT highlight(t, 0, '[', ']') FROM t WHERE t MATCH "
                               "'\"成语接龙\"'",
                               -1, &stmt, nullptr),
            SQLITE_OK);
  ASSERT_EQ(sqlite3_step(stmt), SQLITE_ROW);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0))),
            "今天玩[成语接龙]游戏");
  sqlite3_finalize(stmt);
}

}  // namespace
}  // namespace engram::sqlite
