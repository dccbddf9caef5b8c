#include "store/sqlite/event_store.h"

#include <gtest/gtest.h>

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

  // Appends an event to session "s" of namespace "n"; returns the session's row id.
  int64_t Append(Database& db, int n) {
    EventStore store(db);
    int64_t session = 0;
    Status st = db.WriteTransaction([&]() -> Status {
      auto ns = store.EnsureNamespace("n", 0);
      if (!ns) return ns.error();
      EventRow row;
      row.event.id = "e" + std::to_string(n);
      row.event.session_id = "s";
      row.event.role = "user";
      row.event.content = "turn " + std::to_string(n);
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

  test::TempDir dir_;
};

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

}  // namespace
}  // namespace engram::sqlite
