// ClaimMatchCache and ClaimStore::Search through it: the memo gives ScanSearch's hits (the same
// seqs, scores bit for bit, order) for every visibility it answers, and never shows a claim that
// changed since it was filled, whoever changed it; the same of SupportingEvents' memo.
#include "store/sqlite/claim_match_cache.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "store/sqlite/claim_store.h"
#include "store/sqlite/event_store.h"
#include "store/sqlite/fts5_tokenizer.h"
#include "store/sqlite/schema.h"
#include "test_util.h"

namespace engram::sqlite {
namespace {

constexpr TimestampMs kT0 = 1'700'000'000'000;
constexpr TimestampMs kHour = 3'600'000;

TEST(ClaimStandingTest, VisibilityReadsStatusValidTimeAndExpiry) {
  using S = ClaimStanding::Status;
  const ClaimStanding open{S::kActive, kT0, std::nullopt, std::nullopt};
  const ClaimStanding closed{S::kSuperseded, kT0, kT0 + 10 * kHour, std::nullopt};
  const ClaimStanding expiring{S::kActive, kT0, std::nullopt, kT0 + 5 * kHour};
  const ClaimStanding archived{S::kArchived, kT0, std::nullopt, std::nullopt};
  ClaimVisibility current;
  EXPECT_TRUE(VisibleAt(open, current, kT0 + kHour));
  EXPECT_FALSE(VisibleAt(closed, current, kT0 + kHour));
  EXPECT_TRUE(VisibleAt(expiring, current, kT0 + 4 * kHour));
  EXPECT_FALSE(VisibleAt(expiring, current, kT0 + 5 * kHour));  // past its TTL before maintenance marks it
  EXPECT_FALSE(VisibleAt(archived, current, kT0 + kHour));
  ClaimVisibility history;
  history.include_history = true;
  EXPECT_TRUE(VisibleAt(closed, history, kT0));
  EXPECT_FALSE(VisibleAt(archived, history, kT0));
  ClaimVisibility as_of;
  as_of.as_of = kT0 + 9 * kHour;
  EXPECT_TRUE(VisibleAt(closed, as_of, kT0));
  as_of.as_of = kT0 + 10 * kHour;  // valid_to is exclusive
  EXPECT_FALSE(VisibleAt(closed, as_of, kT0));
  as_of.as_of = kT0 - 1;
  EXPECT_FALSE(VisibleAt(open, as_of, kT0));
  ClaimVisibility range = history;
  range.valid_until = kT0;  // valid_from < until
  EXPECT_FALSE(VisibleAt(open, range, kT0));
  range.valid_until.reset();
  range.valid_since = kT0 + 10 * kHour;  // open or valid_to > since
  EXPECT_FALSE(VisibleAt(closed, range, kT0));
  EXPECT_TRUE(VisibleAt(open, range, kT0));
  ClaimVisibility recorded;
  recorded.known_as_of = kT0;
  EXPECT_FALSE(ClaimMatchCache::Answers(recorded));
  EXPECT_FALSE(ClaimMatchCache::Answers(ClaimVisibility{.archived_only = true}));
  EXPECT_FALSE(ClaimMatchCache::Answers(ClaimVisibility{.any_status = true}));
  EXPECT_TRUE(ClaimMatchCache::Answers(history));
}

TEST(ClaimMatchCacheTest, AddsSharesInPhraseOrderAndKeepsTheBestVisible) {
  using S = ClaimStanding::Status;
  ClaimMatchCache cache;
  cache.UseParameters(0.9, 0.4);
  const ClaimStanding active{S::kActive, kT0, std::nullopt, std::nullopt};
  const ClaimStanding superseded{S::kSuperseded, kT0, kT0 + kHour, std::nullopt};
  EXPECT_EQ(cache.Missing(3, {"a", "b", "a"}), (std::vector<std::string_view>{"a", "b"}));
  EXPECT_FALSE(cache.Search(3, {"a"}, {}, kT0, 10).has_value());
  cache.Remember(3, {"a", "b", "c"},
                 {{{1, 0.5, active}, {2, 1.5, superseded}, {4, 0.25, active}},
                  {{1, 0.75, active}, {5, 1.25, active}},
                  {}});  // no claim holds "c"
  auto hits = cache.Search(3, {"a", "b", "c"}, {}, kT0 + 2 * kHour, 10);
  ASSERT_TRUE(hits.has_value());
  ASSERT_EQ(hits->size(), 3u);  // 2 is superseded
  EXPECT_EQ((*hits)[0].seq, 1);
  EXPECT_EQ((*hits)[0].score, 0.0 + 0.5 + 0.75);
  EXPECT_EQ((*hits)[1].seq, 5);
  EXPECT_EQ((*hits)[2].seq, 4);
  auto best = cache.Search(3, {"a", "b"}, ClaimVisibility{.include_history = true}, kT0, 1);
  ASSERT_TRUE(best.has_value());
  ASSERT_EQ(best->size(), 1u);
  EXPECT_EQ((*best)[0].seq, 2);  // history shows it: 1.5 beats 1.25
  EXPECT_FALSE(cache.Search(4, {"a"}, {}, kT0, 10).has_value());  // another namespace
  EXPECT_FALSE(cache.Search(3, {"a"}, ClaimVisibility{.any_status = true}, kT0, 10).has_value());
  cache.UseParameters(0.9, 0.4);
  EXPECT_TRUE(cache.Search(3, {"a"}, {}, kT0, 10).has_value());
  cache.UseParameters(1.2, 0.75);  // other shares
  EXPECT_FALSE(cache.Search(3, {"a"}, {}, kT0, 10).has_value());
}

class ClaimSearchMemoTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = Open();
    ASSERT_NE(db_, nullptr);
    EventStore events(*db_);
    ASSERT_OK(db_->WriteTransaction([&]() -> Status {
      for (const char* name : {"n", "other"}) {
        auto ns = events.EnsureNamespace(name, 0);
        if (!ns) return ns.error();
        (std::string(name) == "n" ? ns_ : other_ns_) = *ns;
      }
      return Status::Ok();
    }));
  }

  std::unique_ptr<Database> Open() {
    Options options;
    options.db_path = dir_.File("claims.db");
    auto db = Database::Open(options);
    if (!db) return nullptr;
    if (!RegisterFts5Extensions((*db)->handle()).ok() || !Migrate(**db, TextAnalysis::kFull).ok()) return nullptr;
    return std::move(*db);
  }

  // A claim "text" of namespace `ns`, valid from kT0 + `hour` h.
  int64_t Add(Database& db, int64_t ns, const std::string& id, const std::string& text, int hour = 0) {
    ClaimStore claims(db);
    StoredClaim s;
    Claim& c = s.claim;
    c.id = id;
    c.subject = "Lin";
    c.predicate = "says";
    c.value = text;
    c.text = text;
    c.valid_from = kT0 + hour * kHour;
    c.recorded_from = c.valid_from;
    c.status = "active";
    c.scope = "identity";
    c.authority = "high";
    c.assertion = "fact";
    c.fact_hash = id;
    c.extractor = "explicit";
    int64_t seq = 0;
    EXPECT_OK(db.WriteTransaction([&]() -> Status {
      auto inserted = claims.Insert(ns, s);
      if (!inserted) return inserted.error();
      seq = *inserted;
      return Status::Ok();
    }));
    return seq;
  }

  // Search (memo) and ScanSearch (SQLite) of `match` by `store`, in one read transaction, agree
  // seq for seq and score for score; returns the seqs.
  std::vector<int64_t> ExpectMemoIsScan(ClaimStore& store, const std::string& match, const ClaimVisibility& v,
                                        TimestampMs now, int limit = 10) {
    std::vector<int64_t> seqs;
    EXPECT_OK(db_->ReadTransaction([&]() -> Status {
      auto memo = store.Search(match, ns_, v, now, limit, 0.9, 0.4);
      if (!memo) return memo.error();
      auto scan = store.ScanSearch(match, ns_, v, now, limit, 0.9, 0.4);
      if (!scan) return scan.error();
      SCOPED_TRACE(match);
      EXPECT_EQ(memo->size(), scan->size());
      for (size_t i = 0; i < std::min(memo->size(), scan->size()); ++i) {
        EXPECT_EQ((*memo)[i].seq, (*scan)[i].seq) << i;
        EXPECT_EQ((*memo)[i].score, (*scan)[i].score) << i;  // bit for bit
        seqs.push_back((*memo)[i].seq);
      }
      return Status::Ok();
    }));
    return seqs;
  }

  test::TempDir dir_;
  std::unique_ptr<Database> db_;
  int64_t ns_ = 0;
  int64_t other_ns_ = 0;
};

// A fill larger than the memo is never memoised, and its phrases are not read again until the
// memo is cleared; a fill that fits only in an empty memo empties it first, never halfway.
TEST(ClaimMatchCacheTest, TooLargeFillsAreMarkedAndFittingOnesWhole) {
  using S = ClaimStanding::Status;
  const ClaimStanding active{S::kActive, kT0, std::nullopt, std::nullopt};
  ClaimMatchCache cache;
  cache.UseParameters(0.9, 0.4);
  auto rows_of = [&](size_t n, int64_t first) {
    std::vector<ClaimMatchCache::Row> rows;
    for (size_t i = 0; i < n; ++i) rows.push_back({first + static_cast<int64_t>(i), 1.0, active});
    return rows;
  };
  const size_t half = ClaimMatchCache::kMaxRows / 2;
  cache.Remember(1, {"big", "bigger"}, {rows_of(half, 1), rows_of(half, 1)});  // together too large
  EXPECT_TRUE(cache.TooLarge(1, {"small", "bigger"}));
  EXPECT_FALSE(cache.TooLarge(1, {"small"}));
  EXPECT_FALSE(cache.TooLarge(2, {"big"}));  // another namespace
  EXPECT_EQ(cache.rows(), 0u);
  cache.Remember(1, {"a"}, {rows_of(half, 1)});
  cache.Remember(1, {"b", "c"}, {rows_of(half / 2, 1), rows_of(half / 2, 1)});  // fits only alone
  EXPECT_TRUE(cache.Search(1, {"b", "c"}, {}, kT0, 10).has_value());
  EXPECT_FALSE(cache.Search(1, {"a"}, {}, kT0, 10).has_value());
  EXPECT_LE(cache.rows(), ClaimMatchCache::kMaxRows);
  cache.Clear();
  EXPECT_FALSE(cache.TooLarge(1, {"big"}));
}

TEST_F(ClaimSearchMemoTest, MemoGivesTheScansHitsForEveryVisibility) {
  Add(*db_, ns_, "c1", "Lin drinks green tea every morning");
  Add(*db_, other_ns_, "x1", "Lin drinks green tea and black tea");
  Add(*db_, ns_, "c2", "Lin switched from coffee to tea tea tea", 2);
  Add(*db_, ns_, "c3", "Lin owns a \"quoted\" green bike", 3);
  Add(*db_, ns_, "c4", "Lin lives in Porto near the sea", 4);
  ASSERT_OK(db_->Exec("UPDATE claims SET status = 'superseded', valid_to = " + std::to_string(kT0 + 5 * kHour) +
                      " WHERE id = 'c1'"));
  ASSERT_OK(db_->Exec("UPDATE claims SET expires_at = " + std::to_string(kT0 + 6 * kHour) + " WHERE id = 'c4'"));
  ClaimStore store(*db_);
  const TimestampMs now = kT0 + 5 * kHour;
  std::vector<ClaimVisibility> visibilities(4);
  visibilities[1].include_history = true;
  visibilities[2].as_of = kT0 + 2 * kHour;
  visibilities[3].include_history = true;
  visibilities[3].valid_since = kT0 + 6 * kHour;
  // Cold (the first search after a change is SQLite's alone), then filled, then warm; repeated
  // phrases, a phrase no claim of the namespace holds, quotes, AND (never memoised).
  for (int pass = 0; pass < 3; ++pass) {
    for (const ClaimVisibility& v : visibilities) {
      ExpectMemoIsScan(store, "\"tea\" OR \"green\"", v, now);
      ExpectMemoIsScan(store, "\"green\" OR \"tea\" OR \"green\"", v, now);
      ExpectMemoIsScan(store, "\"black\" OR \"porto\"", v, now);
      ExpectMemoIsScan(store, "\"nowhere\"", v, now);
      ExpectMemoIsScan(store, "\"green tea\" OR \"\"\"quoted\"\"\"", v, now);
      ExpectMemoIsScan(store, "\"tea\" AND \"green\"", v, now);
      ExpectMemoIsScan(store, "\"tea\" OR \"lin\"", v, now, 2);
    }
  }
  EXPECT_GT(store.MemoAnswers(), 20u);  // the warm passes were answered from the memo
  // Past c4's expires_at it is no longer current, from the memo as from SQLite.
  EXPECT_EQ(ExpectMemoIsScan(store, "\"porto\"", {}, kT0 + 5 * kHour).size(), 1u);
  EXPECT_TRUE(ExpectMemoIsScan(store, "\"porto\"", {}, kT0 + 6 * kHour).empty());
}

// B-cache: a memoised search never shows a claim that was closed or misses one that was added,
// whoever wrote: this connection or another one.
TEST_F(ClaimSearchMemoTest, MemoSeesWritesOfThisAndOtherConnections) {
  const int64_t c1 = Add(*db_, ns_, "c1", "Lin drinks green tea");
  ClaimStore store(*db_);
  for (int pass = 0; pass < 2; ++pass) {
    EXPECT_EQ(ExpectMemoIsScan(store, "\"tea\"", {}, kT0), (std::vector<int64_t>{c1}));
  }
  EXPECT_EQ(store.MemoAnswers(), 1u);  // the first search after a change is SQLite's alone
  const int64_t c2 = Add(*db_, ns_, "c2", "Lin drinks black tea");  // this connection
  for (int pass = 0; pass < 2; ++pass) {
    EXPECT_EQ(ExpectMemoIsScan(store, "\"tea\"", {}, kT0).size(), 2u);
  }
  auto other = Open();
  ASSERT_NE(other, nullptr);
  ASSERT_OK(other->Exec("UPDATE claims SET status = 'retracted' WHERE id = 'c1'"));  // another connection
  for (int pass = 0; pass < 2; ++pass) {
    EXPECT_EQ(ExpectMemoIsScan(store, "\"tea\"", {}, kT0), (std::vector<int64_t>{c2}));
  }
  // Inside a write transaction (rows that may be rolled back) the memo is not used.
  const Status rolled_back = db_->WriteTransaction([&]() -> Status {
    EXPECT_OK(db_->Exec("UPDATE claims SET status = 'retracted' WHERE id = 'c2'"));
    auto hits = store.Search("\"tea\"", ns_, {}, kT0, 10, 0.9, 0.4);
    if (!hits) return hits.error();
    EXPECT_TRUE(hits->empty());
    return Status::Internal("rolled back");
  });
  EXPECT_EQ(rolled_back.code(), StatusCode::kInternal);
  for (int pass = 0; pass < 2; ++pass) {
    EXPECT_EQ(ExpectMemoIsScan(store, "\"tea\"", {}, kT0), (std::vector<int64_t>{c2}));
  }
}

// SupportingEvents' memo: each claim's "supports" events in the order asked, a claim asked twice
// twice, and never stale after a write by this connection or another one.
TEST_F(ClaimSearchMemoTest, SupportingEventsMemoSeesNewEvidence) {
  const int64_t c1 = Add(*db_, ns_, "c1", "Lin drinks green tea");
  const int64_t c2 = Add(*db_, ns_, "c2", "Lin drinks black tea");
  // Evidence rows alone (no events: this connection's foreign keys are off for the test).
  auto evidence = [](Database& db, int64_t claim, int64_t event, const char* relation) {
    return db.Exec("PRAGMA foreign_keys=OFF; INSERT INTO claim_evidence(claim_seq, event_seq, relation, created_at) "
                   "VALUES (" + std::to_string(claim) + ", " + std::to_string(event) + ", '" + relation + "', 0)");
  };
  ASSERT_OK(evidence(*db_, c1, 12, "supports"));
  ASSERT_OK(evidence(*db_, c1, 11, "supports"));
  ASSERT_OK(evidence(*db_, c2, 13, "contradicts"));
  ClaimStore store(*db_);
  auto supports = [&](const std::vector<int64_t>& seqs) {
    std::vector<std::pair<int64_t, int64_t>> out;
    EXPECT_OK(db_->ReadTransaction([&]() -> Status {
      auto read = store.SupportingEvents(seqs);
      if (!read) return read.error();
      for (const ClaimStore::Support& s : *read) out.emplace_back(s.claim_seq, s.event_seq);
      return Status::Ok();
    }));
    return out;
  };
  using Pairs = std::vector<std::pair<int64_t, int64_t>>;
  for (int pass = 0; pass < 3; ++pass) {
    EXPECT_EQ(supports({c2, c1, c2}), (Pairs{{c1, 11}, {c1, 12}}));
  }
  ASSERT_OK(evidence(*db_, c2, 14, "supports"));  // this connection
  for (int pass = 0; pass < 3; ++pass) {
    EXPECT_EQ(supports({c2, c1, c2}), (Pairs{{c2, 14}, {c1, 11}, {c1, 12}, {c2, 14}}));
  }
  auto other = Open();
  ASSERT_NE(other, nullptr);
  ASSERT_OK(other->Exec("DELETE FROM claim_evidence WHERE event_seq = 11"));  // another connection
  for (int pass = 0; pass < 3; ++pass) {
    EXPECT_EQ(supports({c1}), (Pairs{{c1, 12}}));
  }
  // Past its bound the memo starts again, and every claim asked is still answered (one memoised
  // before the bound was passed, one asked more than once, one never seen).
  store.SetSupportsMemoLimit(2);
  EXPECT_EQ(supports({c1, c2}), (Pairs{{c1, 12}, {c2, 14}}));
  EXPECT_EQ(supports({c2, 999, c1, c2}), (Pairs{{c2, 14}, {c1, 12}, {c2, 14}}));
  EXPECT_EQ(supports({c1}), (Pairs{{c1, 12}}));
}

}  // namespace
}  // namespace engram::sqlite
