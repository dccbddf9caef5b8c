#include "write/extraction_worker.h"

#include <gtest/gtest.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "store/sqlite/event_store.h"
#include "store/sqlite/fts5_tokenizer.h"
#include "store/sqlite/schema.h"
#include "test_util.h"

namespace engram {
namespace {

constexpr int kSessions = 6;
constexpr int kEventsPerSession = 5;  // one window each

// One "Lin lives in <content>" claim per event.
class OneClaimPerEvent : public extraction::Extractor {
 public:
  std::string Name() const override { return "test/1"; }
  Result<std::vector<extraction::CandidateClaim>> Extract(const std::vector<Event>& batch) override {
    std::vector<extraction::CandidateClaim> out;
    for (size_t i = 0; i < batch.size(); ++i) {
      extraction::CandidateClaim c;
      c.subject = "Lin";
      c.predicate = "lives_in";
      c.value = batch[i].content;
      c.text = "Lin lives in " + batch[i].content;
      c.scope = "identity";
      c.source_events = {i};
      c.evidence_span = batch[i].content;
      out.push_back(std::move(c));
    }
    return out;
  }
};

int CountCommit(void* commits) {
  ++*static_cast<int*>(commits);
  return 0;  // 0: the commit goes on
}

class ExtractionWorkerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Options options;
    options.db_path = dir_.File("worker.db");
    auto db = sqlite::Database::Open(options);
    ASSERT_TRUE(db.has_value()) << db.error().ToString();
    db_ = std::move(*db);
    ASSERT_OK(sqlite::RegisterFts5Extensions(db_->handle()));
    ASSERT_OK(sqlite::Migrate(*db_, TextAnalysis::kFull));
    for (int n = 0; n < kSessions * kEventsPerSession; ++n) {
      ASSERT_OK(AddEvent(n, "s" + std::to_string(n / kEventsPerSession)));
    }
  }


 public:
  // Stores event number n in `session` of namespace "n" and enqueues its extraction.
  Status AddEvent(int n, const std::string& session_id) {
    sqlite::EventStore events(*db_);
    sqlite::JobStore jobs(*db_);
    return db_->WriteTransaction([&]() -> Status {
      auto ns = events.EnsureNamespace("n", 0);
      if (!ns) return ns.error();
      sqlite::EventRow row;
      row.event.id = "e" + std::to_string(n);
      row.event.session_id = session_id;
      row.event.role = "user";
      row.event.content = "City" + std::to_string(n);
      row.event.occurred_at = 1000 * (n + 1);
      row.event.recorded_at = 1000 * (n + 1);
      row.event.origin_class = "direct_user";
      row.event.content_hash = "h" + std::to_string(n);
      row.event.idempotency_key = "k" + std::to_string(n);
      row.session_kind = "interactive";
      row.indexed_text = row.event.content;
      auto session = events.EnsureSession(*ns, row, 0);
      if (!session) return session.error();
      auto seq = events.Insert(*ns, *session, row);
      if (!seq) return seq.error();
      return jobs.EnqueueExtraction(*ns, *session, *seq, 0);
    });
  }

 protected:
  test::TempDir dir_;
  std::unique_ptr<sqlite::Database> db_;
  std::mutex mu_;
  OneClaimPerEvent extractor_;
  PredicateRegistry registry_;
};

// B43 (33 of 300 `engram remember` calls failed with "database is locked" while a drain ran): the
// worker wrote every window of a group in one transaction, so another writer waited for all of
// them. Now each transaction ends after the window in progress once max_transaction_ms has
// passed (0 here: one window each) and the write lock is given up in between. Counted with a
// commit hook, not timed: 1 lease transaction + one per window.
TEST_F(ExtractionWorkerTest, B43_ADrainCommitsWindowByWindow) {
  ExtractionWorkerOptions options;
  options.max_transaction_ms = 0;
  ExtractionWorker worker(*db_, mu_, extractor_, registry_, options);
  int commits = 0;
  sqlite3_commit_hook(db_->handle(), &CountCommit, &commits);
  auto report = worker.Run(/*drain=*/true, /*max_batches=*/1);
  sqlite3_commit_hook(db_->handle(), nullptr, nullptr);
  ASSERT_TRUE(report.has_value()) << report.error().ToString();
  EXPECT_EQ(report->batches, kSessions);
  EXPECT_EQ(report->claims_created, kSessions * kEventsPerSession);
  EXPECT_TRUE(report->errors.empty());
  EXPECT_EQ(commits, 1 + kSessions);
  EXPECT_EQ(db_->QueryInt("SELECT count(*) FROM jobs WHERE status = 'done'").value_or(-1),
            kSessions * kEventsPerSession);
}

// The default budget writes the same claims and completes the same jobs as one window per
// transaction: splitting the write phase changes when the lock is held, not what is written.
TEST_F(ExtractionWorkerTest, ADrainWritesTheSameWhateverItsTransactionBudget) {
  ExtractionWorkerOptions options;
  ExtractionWorker worker(*db_, mu_, extractor_, registry_, options);
  auto report = worker.Run(/*drain=*/true, 0);
  ASSERT_TRUE(report.has_value()) << report.error().ToString();
  EXPECT_EQ(report->events, kSessions * kEventsPerSession);
  EXPECT_EQ(report->claims_created, kSessions * kEventsPerSession);
  // Each session's window superseded Lin's previous city: one current value at the end.
  EXPECT_EQ(db_->QueryInt("SELECT count(*) FROM claims WHERE status = 'active'").value_or(-1), 1);
  EXPECT_EQ(db_->QueryInt("SELECT count(*) FROM jobs WHERE status <> 'done'").value_or(-1), 0);
}

// A writer that never stops (a concurrent `engram remember` loop) cannot keep a drain going: the
// drain takes the jobs enqueued before it started and ends; the rest wait for the next call. Here
// every extraction adds an event in a session of its own, as writers in other processes would.
// Before, the drain went on as long as the writers did (the CI run that never finished).
TEST_F(ExtractionWorkerTest, ADrainEndsWhileWritersKeepAddingEvents) {
  class AddsAnEventEachCall : public extraction::Extractor {
   public:
    explicit AddsAnEventEachCall(ExtractionWorkerTest* test) : test_(test) {}
    std::string Name() const override { return "test/adds"; }
    Result<std::vector<extraction::CandidateClaim>> Extract(const std::vector<Event>&) override {
      // Bounded, so that the old behaviour fails the expectations below instead of hanging.
      if (added_ < 200) {
        const int n = 1000 + added_++;
        ENGRAM_RETURN_IF_ERROR(test_->AddEvent(n, "w" + std::to_string(n)));
      }
      return std::vector<extraction::CandidateClaim>{};
    }
    int added_ = 0;

   private:
    ExtractionWorkerTest* test_;
  } extractor(this);
  ExtractionWorkerOptions options;
  options.windows_per_transaction = 1;
  ExtractionWorker worker(*db_, mu_, extractor, registry_, options);
  auto report = worker.Run(/*drain=*/true, 0);
  ASSERT_TRUE(report.has_value()) << report.error().ToString();
  EXPECT_EQ(report->events, kSessions * kEventsPerSession);
  EXPECT_EQ(extractor.added_, kSessions);
  EXPECT_EQ(db_->QueryInt("SELECT count(*) FROM jobs WHERE status = 'pending'").value_or(-1), kSessions);
  // The next drain takes those, and ends again.
  auto next = worker.Run(/*drain=*/true, 0);
  ASSERT_TRUE(next.has_value()) << next.error().ToString();
  EXPECT_EQ(next->events, kSessions);
}

}  // namespace
}  // namespace engram
