#include "store/sqlite/event_store.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <memory>
#include <string>
#include <vector>

#include "store/sqlite/fts5_tokenizer.h"
#include "store/sqlite/schema.h"
#include "test_util.h"

namespace engram::sqlite {
namespace {

// One database file, opened by one or two connections (another process's writes look the same).
class EventStoreTest : public ::testing::Test {
 protected:
  std::unique_ptr<Database> Open() {
    Options options;
    options.db_path = dir_.path() + "/e.db";
    auto db = Database::Open(options);
    EXPECT_TRUE(db.has_value()) << db.error().ToString();
    if (!db) return nullptr;
    Status fts = RegisterFts5Extensions((*db)->handle());
    EXPECT_TRUE(fts.ok()) << fts.ToString();
    Status st = Migrate(**db, TextAnalysis::kFull);
    EXPECT_TRUE(st.ok()) << st.ToString();
    return std::move(*db);
  }

  // Appends an event to session "s" of namespace `ns_name`; returns the session's row id.
  int64_t Append(Database& db, int n, const std::string& content = "", const std::string& speaker = "",
                 const std::string& ns_name = "n", const std::string& session_id = "s") {
    EventStore store(db);
    int64_t session = 0;
    Status st = db.WriteTransaction([&]() -> Status {
      auto ns = store.EnsureNamespace(ns_name, 0);
      if (!ns) return ns.error();
      EventRow row;
      row.event.id = "e" + std::to_string(n);
      row.event.session_id = session_id;
      row.event.role = "user";
      row.event.speaker = speaker;
      row.event.content = content.empty() ? "turn " + std::to_string(n) : content;
      row.event.occurred_at = 1000 + n;
      row.event.recorded_at = 1000 + n;
      row.event.origin_class = "direct_user";
      row.event.content_hash = "h" + std::to_string(n);
      row.event.idempotency_key = "k" + std::to_string(n);
      row.session_kind = "interactive";
      row.indexed_text = row.event.content;
      auto s = store.EnsureSession(*ns, row, 0);
      if (!s) return s.error();
      session = *s;
      auto seq = store.Insert(*ns, *s, row);
      return seq ? Status::Ok() : seq.error();
    });
    EXPECT_TRUE(st.ok()) << st.ToString();
    return session;
  }

  // Five events of namespace "n" (sessions "s" and "t") and, written between them as seq 4, one of
  // namespace "other".
  void AppendFruits(Database& db) {
    Append(db, 1, "Mia: apple pie and apple tart", "Mia");
    Append(db, 2, "Noah: banana bread", "Noah", "n", "t");
    Append(db, 3, "Mia: cherry pie, apple jam", "Mia");
    Append(db, 4, "Zed: apple cider and durian", "Zed", "other");
    Append(db, 5, "Noah: pie pie pie", "Noah", "n", "t");
    Append(db, 6, "Mia: \"quoted\" apple", "Mia");
  }

  // The memoised layout's event count, read by `store` in a read transaction (-1: too large).
  int64_t LayoutSize(Database& db, EventStore& store, int64_t session, int max_events = 200) {
    int64_t size = -2;
    Status st = db.ReadTransaction([&]() -> Status {
      auto layout = store.MemoSessionLayout(session, max_events);
      if (!layout) return layout.error();
      size = *layout ? static_cast<int64_t>((*layout)->size()) : -1;
      return Status::Ok();
    });
    EXPECT_TRUE(st.ok()) << st.ToString();
    return size;
  }

  // NamespaceSpeakers of namespace "n" read by `store` in a read transaction ({"null"}: too many).
  std::vector<std::string> Speakers(Database& db, EventStore& store, size_t max_speakers = 100) {
    std::vector<std::string> out;
    Status st = db.ReadTransaction([&]() -> Status {
      auto ns = store.FindNamespace("n");
      if (!ns) return ns.error();
      auto speakers = store.NamespaceSpeakers(**ns, max_speakers);
      if (!speakers) return speakers.error();
      out = *speakers ? **speakers : std::vector<std::string>{"null"};
      return Status::Ok();
    });
    EXPECT_TRUE(st.ok()) << st.ToString();
    return out;
  }

  // MatchTermCounts (through the memo) and ScanTermCounts (SQLite alone) of `match` in namespace
  // "n", read by `store` in one read transaction: the two must agree field by field.
  void ExpectMemoMatchesScan(Database& db, EventStore& store, const std::string& match, SearchFilter filter = {},
                             size_t max_rows = 100) {
    Status st = db.ReadTransaction([&]() -> Status {
      auto ns = store.FindNamespace("n");
      if (!ns) return ns.error();
      filter.namespace_id = **ns;
      auto range = store.NamespaceSeqRange(**ns);
      if (!range) return range.error();
      auto memo = store.MatchTermCounts(match, filter, max_rows);
      if (!memo) return memo.error();
      auto scan = store.ScanTermCounts(match, filter, **range, max_rows);
      if (!scan) return scan.error();
      SCOPED_TRACE(match);
      EXPECT_EQ(memo->idf, scan->idf);
      EXPECT_EQ(memo->avg_length, scan->avg_length);
      EXPECT_EQ(memo->tf, scan->tf);
      EXPECT_EQ(memo->stopped_at_max, scan->stopped_at_max);
      EXPECT_EQ(Describe(*memo), Describe(*scan));
      return Status::Ok();
    });
    EXPECT_TRUE(st.ok()) << st.ToString();
  }

  // "seq/session/time/speaker/length" of every row.
  static std::vector<std::string> Describe(const TermMatchSet& set) {
    std::vector<std::string> out;
    for (const TermMatchRow& r : set.rows) {
      out.push_back(std::to_string(r.seq) + "/" + std::to_string(r.session_rowid) + "/" +
                    std::to_string(r.occurred_at) + "/" + r.speaker + "/" + std::to_string(r.doc_length));
    }
    return out;
  }

  // MatchTermCounts of `match` in namespace "n" finds `seqs`, read three times: the first read
  // after a change goes to SQLite, the next fill the memo and read from it.
  void ExpectMatched(Database& db, EventStore& store, const std::string& match, const std::vector<int64_t>& seqs) {
    for (int read = 0; read < 3; ++read) EXPECT_EQ(MatchedSeqs(db, store, match), seqs) << "read " << read;
  }

  // The seqs MatchTermCounts finds for `match` in namespace "n".
  std::vector<int64_t> MatchedSeqs(Database& db, EventStore& store, const std::string& match) {
    std::vector<int64_t> seqs;
    auto read = [&]() -> Status {
      auto ns = store.FindNamespace("n");
      if (!ns) return ns.error();
      SearchFilter filter;
      filter.namespace_id = **ns;
      auto set = store.MatchTermCounts(match, filter, 100);
      if (!set) return set.error();
      for (const TermMatchRow& r : set->rows) seqs.push_back(r.seq);
      return Status::Ok();
    };
    Status st = db.ReadTransaction(read);
    EXPECT_TRUE(st.ok()) << st.ToString();
    return seqs;
  }

  test::TempDir dir_;
};

TEST_F(EventStoreTest, NamespaceSpeakersSeesNewEventsAndAReusedSeq) {
  auto db = Open();
  ASSERT_NE(db, nullptr);
  EventStore store(*db);
  Append(*db, 1, "", "Mia");
  Append(*db, 2, "", "Noah");
  Append(*db, 3);  // no speaker
  Append(*db, 4, "", "Zed", "other");
  EXPECT_EQ(Speakers(*db, store), (std::vector<std::string>{"", "Mia", "Noah"}));
  EXPECT_EQ(Speakers(*db, store, 2), std::vector<std::string>{"null"});
  // Events stored since (by another connection): read on the next call.
  auto other = Open();
  ASSERT_NE(other, nullptr);
  Append(*other, 5, "", "Ava");
  Append(*other, 6, "", "Zoe", "other");
  EXPECT_EQ(Speakers(*db, store), (std::vector<std::string>{"", "Ava", "Mia", "Noah"}));
  // The newest event forgotten and its seq given to a new event: read again.
  ASSERT_TRUE(other->Exec("DELETE FROM event_fts WHERE rowid = (SELECT max(seq) FROM events)").ok());
  ASSERT_TRUE(other->Exec("DELETE FROM events WHERE seq = (SELECT max(seq) FROM events)").ok());
  Append(*other, 7, "", "Lea");
  EXPECT_EQ(Speakers(*db, store), (std::vector<std::string>{"", "Ava", "Lea", "Mia", "Noah"}));
  // Forgotten speakers may stay listed (a superset).
  ASSERT_TRUE(other->Exec("DELETE FROM event_fts WHERE rowid = 1").ok());
  ASSERT_TRUE(other->Exec("DELETE FROM events WHERE seq = 1").ok());
  EXPECT_EQ(Speakers(*db, store), (std::vector<std::string>{"", "Ava", "Lea", "Mia", "Noah"}));
}

TEST_F(EventStoreTest, MemoSessionLayoutSeesWritesOfThisAndOtherConnections) {
  auto db = Open();
  ASSERT_NE(db, nullptr);
  EventStore store(*db);
  const int64_t session = Append(*db, 1);
  EXPECT_EQ(LayoutSize(*db, store, session), 1);
  EXPECT_EQ(LayoutSize(*db, store, session), 1);  // from the memo

  Append(*db, 2);  // same connection
  EXPECT_EQ(LayoutSize(*db, store, session), 2);

  auto other = Open();
  ASSERT_NE(other, nullptr);
  Append(*other, 3);  // another connection commits
  EXPECT_EQ(LayoutSize(*db, store, session), 3);
}

TEST_F(EventStoreTest, MemoSessionLayoutIsNullForALargerSessionThanAsked) {
  auto db = Open();
  ASSERT_NE(db, nullptr);
  EventStore store(*db);
  int64_t session = 0;
  for (int i = 1; i <= 3; ++i) session = Append(*db, i);
  EXPECT_EQ(LayoutSize(*db, store, session, 2), -1);
  EXPECT_EQ(LayoutSize(*db, store, session, 3), 3);
}

TEST_F(EventStoreTest, SessionStretchAroundReadsTheEventItsNeighboursAndQuestionMarks) {
  auto db = Open();
  ASSERT_NE(db, nullptr);
  EventStore store(*db);
  const std::vector<std::string> texts = {"hello", "What colour is it?", "Blue.", "你喜欢什么颜色？", "蓝色。",
                                          "done"};
  int64_t session = 0;
  for (size_t i = 0; i < texts.size(); ++i) session = Append(*db, static_cast<int>(i), texts[i]);
  auto stretch_at = [&](int n, int before, int after) {
    EventStore::SessionStretch out;
    Status st = db->ReadTransaction([&]() -> Status {
      auto r = store.SessionStretchAround(session, 1000 + n, n + 1, before, after);  // seq = n + 1
      if (!r) return r.error();
      out = std::move(*r);
      return Status::Ok();
    });
    EXPECT_TRUE(st.ok()) << st.ToString();
    return out;
  };
  EventStore::SessionStretch middle = stretch_at(2, 1, 2);
  ASSERT_TRUE(middle.centre.has_value());
  EXPECT_EQ(*middle.centre, 1u);
  ASSERT_EQ(middle.rows.size(), 4u);
  std::vector<int64_t> seqs;
  std::vector<bool> asks;
  for (const NeighbourRow& r : middle.rows) {
    seqs.push_back(r.seq);
    asks.push_back(r.asks_question);
  }
  EXPECT_EQ(seqs, (std::vector<int64_t>{2, 3, 4, 5}));
  EXPECT_EQ(asks, (std::vector<bool>{true, false, true, false}));  // '?' and the fullwidth '？'

  EventStore::SessionStretch first = stretch_at(0, 2, 1);  // nothing before the first event
  ASSERT_TRUE(first.centre.has_value());
  EXPECT_EQ(*first.centre, 0u);
  EXPECT_EQ(first.rows.size(), 2u);

  // An event that is not stored: only its neighbours, no centre, at most `before` before it.
  EventStore::SessionStretch missing;
  Status st = db->ReadTransaction([&]() -> Status {
    auto r = store.SessionStretchAround(session, 1002, 99, 1, 1);  // between seq 3 and seq 4
    if (!r) return r.error();
    missing = std::move(*r);
    return Status::Ok();
  });
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_FALSE(missing.centre.has_value());
  ASSERT_EQ(missing.rows.size(), 2u);
  EXPECT_EQ(missing.rows[0].seq, 3);
  EXPECT_EQ(missing.rows[1].seq, 4);
}

// Schema 8 stores the UTC offset each event was written with; a schema-7 file (no such column) is
// migrated, its events read as UTC (offset 0), and new events keep their offset.
TEST_F(EventStoreTest, SchemaSevenEventsMigrateAsUtcAndKeepNewOffsets) {
  {
    auto db = Open();
    ASSERT_NE(db, nullptr);
    Append(*db, 1);
    ASSERT_TRUE(db->Exec("ALTER TABLE events DROP COLUMN utc_offset_minutes; PRAGMA user_version = 7").ok());
  }
  auto db = Open();
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(db->QueryInt("PRAGMA user_version").value_or(-1), kSchemaVersion);
  EventStore store(*db);
  auto old = store.Get("e1");
  ASSERT_TRUE(old.has_value());
  EXPECT_EQ(old->utc_offset_minutes, 0);
  Status st = db->WriteTransaction([&]() -> Status {
    EventRow row;
    row.event.id = "e2";
    row.event.session_id = "s";
    row.event.role = "user";
    row.event.content = "later";
    row.event.occurred_at = 2000;
    row.event.utc_offset_minutes = -330;
    row.event.recorded_at = 2000;
    row.event.origin_class = "direct_user";
    row.event.content_hash = "h2";
    row.event.idempotency_key = "k2";
    row.session_kind = "interactive";
    row.indexed_text = row.event.content;
    auto ns = store.EnsureNamespace("n", 0);
    if (!ns) return ns.error();
    auto s = store.EnsureSession(*ns, row, 0);
    if (!s) return s.error();
    auto seq = store.Insert(*ns, *s, row);
    return seq ? Status::Ok() : seq.error();
  });
  ASSERT_TRUE(st.ok()) << st.ToString();
  auto later = store.Get("e2");
  ASSERT_TRUE(later.has_value());
  EXPECT_EQ(later->utc_offset_minutes, -330);
}

TEST_F(EventStoreTest, MatchTermCountsFromTheMemoIsTheScan) {
  auto db = Open();
  ASSERT_NE(db, nullptr);
  EventStore store(*db);
  AppendFruits(*db);
  // Cold (every phrase read), warm (from the memo), partly memoised, repeated phrases, a phrase
  // of another namespace only, of no event at all, quotes, AND (never memoised).
  for (int pass = 0; pass < 2; ++pass) {
    ExpectMemoMatchesScan(*db, store, "\"apple\" OR \"pie\"");
    ExpectMemoMatchesScan(*db, store, "\"pie\" OR \"banana\" OR \"pie\"");
    ExpectMemoMatchesScan(*db, store, "\"durian\" OR \"mia\"");
    ExpectMemoMatchesScan(*db, store, "\"durian\"");
    ExpectMemoMatchesScan(*db, store, "\"nowhere\" OR \"cherry\"");
    ExpectMemoMatchesScan(*db, store, "\"nowhere\"");
    ExpectMemoMatchesScan(*db, store, "\"apple pie\" OR \"\"\"quoted\"\"\"");
    ExpectMemoMatchesScan(*db, store, "\"apple\" AND \"pie\"");
  }
  // Filters and the row limit apply to the memoised rows as to the scan.
  SearchFilter since;
  since.since = 1003;
  ExpectMemoMatchesScan(*db, store, "\"apple\" OR \"pie\"", since);
  SearchFilter until;
  until.until = 1003;
  ExpectMemoMatchesScan(*db, store, "\"apple\" OR \"pie\"", until);
  ExpectMemoMatchesScan(*db, store, "\"apple\" OR \"pie\"", {}, 2);
  ExpectMemoMatchesScan(*db, store, "\"apple\" OR \"pie\"", {}, 4);
  int64_t session_t = 0;
  ASSERT_TRUE(db->ReadTransaction([&]() -> Status {
                  auto ns = store.FindNamespace("n");
                  if (!ns) return ns.error();
                  auto t = store.FindSession(**ns, "t");
                  if (!t) return t.error();
                  session_t = **t;
                  return Status::Ok();
                }).ok());
  SearchFilter session;
  session.session_rowid = session_t;
  ExpectMemoMatchesScan(*db, store, "\"apple\" OR \"pie\"", session);
}

// MatchPostings from the memo (its phrases memoised by MatchTermCounts) gives SQLite's rows field
// by field, for every start, row limit and expression. The memo answers only where the namespace
// owns its seq range: with another namespace's event written between its events (seq 4 of
// "other"), SQLite's rows hold that event too, and SQLite answers.
TEST_F(EventStoreTest, MatchPostingsFromTheMemoIsSqlites) {
  auto db = Open();
  ASSERT_NE(db, nullptr);
  EventStore store(*db);   // fills its memo
  EventStore sqlite(*db);  // never fills one: MatchPostings reads SQLite
  AppendFruits(*db);
  auto compare = [&](const std::string& ns_name, int64_t last_seq) {
    for (const std::string match : {"\"apple\" OR \"pie\"", "\"pie\" OR \"banana\" OR \"pie\"", "\"durian\"",
                                    "\"nowhere\" OR \"cherry\"", "\"apple pie\" OR \"\"\"quoted\"\"\""}) {
      SCOPED_TRACE(ns_name + ": " + match);
      Status st = db->ReadTransaction([&]() -> Status {
        auto ns = store.FindNamespace(ns_name);
        if (!ns) return ns.error();
        SearchFilter filter;
        filter.namespace_id = **ns;
        for (int read = 0; read < 2; ++read) {  // the first read after a change fills nothing
          auto filled = store.MatchTermCounts(match, filter, 100);
          if (!filled) return filled.error();
        }
        for (int64_t after : {0, 1, 2, 3, 5, 8}) {
          for (size_t max_rows : {size_t{1}, size_t{2}, size_t{100}}) {
            SCOPED_TRACE("after " + std::to_string(after) + ", at most " + std::to_string(max_rows));
            auto memo = store.MatchPostings(match, **ns, after, last_seq, max_rows);
            if (!memo) return memo.error();
            auto plain = sqlite.MatchPostings(match, **ns, after, last_seq, max_rows);
            if (!plain) return plain.error();
            EXPECT_EQ(memo->seqs, plain->seqs);
            EXPECT_EQ(memo->doc_lengths, plain->doc_lengths);
            EXPECT_EQ(memo->tf, plain->tf);
            EXPECT_EQ(memo->phrases, plain->phrases);
            EXPECT_EQ(memo->idf, plain->idf);
            EXPECT_EQ(memo->avg_length, plain->avg_length);
          }
        }
        return Status::Ok();
      });
      ASSERT_TRUE(st.ok()) << st.ToString();
    }
  };
  compare("n", 6);  // "other" wrote seq 4 inside n's range: SQLite answers
  EXPECT_EQ(store.PostingsMemoAnswers(), 0u);
  EXPECT_EQ(sqlite.PostingsMemoAnswers(), 0u);
  Append(*db, 7, "Ann: apple strudel and pie", "Ann", "later");  // a namespace of its own range
  Append(*db, 8, "Ann: cherry pie", "Ann", "later");
  Append(*db, 9, "Ann: banana", "Ann", "later");
  compare("later", 9);
  EXPECT_GT(store.PostingsMemoAnswers(), 0u);  // the memo answered where the range is its own
  EXPECT_EQ(sqlite.PostingsMemoAnswers(), 0u);
}

// B-cache: a memoised match never shows an event that was forgotten or misses one that was stored,
// whoever wrote: this connection, another one, another process, or a transaction rolled back.
TEST_F(EventStoreTest, MatchTermCountsMemoSeesRememberForgetAndOtherWriters) {
  auto db = Open();
  ASSERT_NE(db, nullptr);
  EventStore store(*db);
  Append(*db, 1, "Mia: apple pie", "Mia");
  Append(*db, 2, "Noah: banana bread", "Noah");
  const std::string apple = "\"apple\" OR \"bread\"";
  ExpectMatched(*db, store, apple, (std::vector<int64_t>{1, 2}));
    Append(*db, 3, "Mia: apple tart", "Mia");  // this connection
  ExpectMatched(*db, store, apple, (std::vector<int64_t>{1, 2, 3}));
  auto other = Open();
  ASSERT_NE(other, nullptr);
  Append(*other, 4, "Noah: apple bread", "Noah");  // another connection
  ExpectMatched(*db, store, apple, (std::vector<int64_t>{1, 2, 3, 4}));
  // Forgotten by another connection (as lifecycle/forget.cc deletes), then by this one.
  ASSERT_TRUE(other->Exec("DELETE FROM event_fts WHERE rowid = 1").ok());
  ASSERT_TRUE(other->Exec("DELETE FROM events WHERE seq = 1").ok());
  ExpectMatched(*db, store, apple, (std::vector<int64_t>{2, 3, 4}));
  ASSERT_TRUE(db->Exec("DELETE FROM event_fts WHERE rowid = 4").ok());
  ASSERT_TRUE(db->Exec("DELETE FROM events WHERE seq = 4").ok());
  ExpectMatched(*db, store, apple, (std::vector<int64_t>{2, 3}));
  // The newest event forgotten and its seq given to an event that does not match.
  ASSERT_TRUE(other->Exec("DELETE FROM event_fts WHERE rowid = 3").ok());
  ASSERT_TRUE(other->Exec("DELETE FROM events WHERE seq = 3").ok());
  Append(*other, 5, "Noah: cherry", "Noah");
  ExpectMatched(*db, store, apple, (std::vector<int64_t>{2}));
  // Another process.
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto own = Open();
    if (own != nullptr) Append(*own, 6, "Ava: apple", "Ava");
    _exit(own != nullptr && !::testing::Test::HasFailure() ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  ExpectMatched(*db, store, apple, (std::vector<int64_t>{2, 4}));
  // Inside this connection's write transaction the memo is not used: its uncommitted event is
  // seen, and after the rollback it is gone.
  Status st = db->WriteTransaction([&]() -> Status {
    EventStore writer(*db);
    auto ns = writer.FindNamespace("n");
    if (!ns) return ns.error();
    EventRow row;
    row.event.id = "e7";
    row.event.session_id = "s";
    row.event.role = "user";
    row.event.content = "apple crumble";
    row.event.occurred_at = 1007;
    row.event.recorded_at = 1007;
    row.event.origin_class = "direct_user";
    row.event.content_hash = "h7";
    row.event.idempotency_key = "k7";
    row.session_kind = "interactive";
    row.indexed_text = row.event.content;
    auto s = writer.EnsureSession(**ns, row, 0);
    if (!s) return s.error();
    auto seq = writer.Insert(**ns, *s, row);
    if (!seq) return seq.error();
    SearchFilter filter;
    filter.namespace_id = **ns;
    auto set = store.MatchTermCounts(apple, filter, 100);
    if (!set) return set.error();
    EXPECT_EQ(set->rows.size(), 3u);
    return Status::FailedPrecondition("roll back");
  });
  EXPECT_EQ(st.code(), StatusCode::kFailedPrecondition);
  ExpectMatched(*db, store, apple, (std::vector<int64_t>{2, 4}));
}

}  // namespace
}  // namespace engram::sqlite
