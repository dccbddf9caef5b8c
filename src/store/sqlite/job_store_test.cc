#include "store/sqlite/job_store.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <memory>
#include <string>
#include <vector>

#include "store/sqlite/event_store.h"
#include "store/sqlite/fts5_tokenizer.h"
#include "store/sqlite/schema.h"
#include "test_util.h"

namespace engram::sqlite {
namespace {

constexpr TimestampMs kNow = 1'700'000'000'000;
constexpr int64_t kLeaseMs = 60000;

// A process that ran on this machine and is gone: a forked child, exited and reaped.
ProcessIdentity ExitedProcess() {
  std::fflush(nullptr);
  pid_t pid = fork();
  if (pid == 0) _exit(0);
  int status = 0;
  waitpid(pid, &status, 0);
  ProcessIdentity gone = SelfIdentity();
  gone.pid = pid;
  return gone;
}

class JobStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Options options;
    options.db_path = dir_.File("jobs.db");
    auto db = Database::Open(options);
    ASSERT_TRUE(db.has_value()) << db.error().ToString();
    db_ = std::move(*db);
    ASSERT_OK(RegisterFts5Extensions(db_->handle()));
    ASSERT_OK(Migrate(*db_, TextAnalysis::kFull));
    jobs_ = std::make_unique<JobStore>(*db_);
  }

  // Appends `count` events to `session` (occurred_at = first_second, +1 s each) and enqueues their
  // extraction; returns the job ids in order.
  std::vector<int64_t> Append(const std::string& session, int count, int first_second = -1) {
    EventStore store(*db_);
    std::vector<int64_t> ids;
    Status st = db_->WriteTransaction([&]() -> Status {
      auto ns = store.EnsureNamespace("n", 0);
      if (!ns) return ns.error();
      for (int i = 0; i < count; ++i) {
        const int n = next_event_++;
        EventRow row;
        row.event.id = "e" + std::to_string(n);
        row.event.session_id = session;
        row.event.role = "user";
        row.event.content = "turn " + std::to_string(n);
        row.event.occurred_at = 1000 * ((first_second >= 0 ? first_second + i : n) + 1);
        row.event.recorded_at = kNow - 1000;
        row.event.origin_class = "direct_user";
        row.event.content_hash = "h" + std::to_string(n);
        row.event.idempotency_key = "k" + std::to_string(n);
        row.session_kind = "interactive";
        row.indexed_text = row.event.content;
        auto s = store.EnsureSession(*ns, row, 0);
        if (!s) return s.error();
        auto seq = store.Insert(*ns, *s, row);
        if (!seq) return seq.error();
        ENGRAM_RETURN_IF_ERROR(jobs_->EnqueueExtraction(*ns, *s, *seq, kNow - 1000));
        ids.push_back(sqlite3_last_insert_rowid(db_->handle()));
      }
      return Status::Ok();
    });
    EXPECT_OK(st);
    return ids;
  }

  // One LeaseBatch in its own transaction; the ids it leased.
  std::vector<int64_t> Lease(const std::string& token, TimestampMs now = kNow, std::string owner = "",
                             bool drain = true) {
    std::vector<int64_t> ids;
    LeaseRequest r;
    r.now = now;
    r.max_events = 5;
    r.ignore_wait = drain;
    r.lease_ms = kLeaseMs;
    r.token = token;
    r.owner = std::move(owner);
    EXPECT_OK(db_->WriteTransaction([&]() -> Status {
      auto leased = jobs_->LeaseBatch(r);
      if (!leased) return leased.error();
      ids.clear();
      for (const LeasedJob& j : *leased) ids.push_back(j.id);
      last_ = *leased;
      return Status::Ok();
    }));
    return ids;
  }

  std::vector<int64_t> Ids(const std::vector<int64_t>& all, size_t from, size_t to) {
    return std::vector<int64_t>(all.begin() + static_cast<std::ptrdiff_t>(from),
                                all.begin() + static_cast<std::ptrdiff_t>(to));
  }

  int64_t Count(const std::string& where) {
    auto n = db_->QueryInt("SELECT count(*) FROM jobs WHERE " + where);
    EXPECT_OK(n);
    return n.value_or(-1);
  }

  test::TempDir dir_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<JobStore> jobs_;
  std::vector<LeasedJob> last_;
  int next_event_ = 0;
};

// ---- ownership and liveness ----------------------------------------------------------------------

TEST_F(JobStoreTest, KilledProcessLeaseIsTakenOverAtOnce) {
  if (SelfIdentity().boot.empty()) GTEST_SKIP() << "no /proc: liveness unknown";
  auto a = Append("a", 5);
  ASSERT_EQ(Lease("dead", kNow, FormatProcessIdentity(ExitedProcess())), a);
  // Well within the lease: the owner is gone, so the jobs are taken over now, attempts kept.
  EXPECT_EQ(Lease("next", kNow + 1), a);
  EXPECT_EQ(last_.front().attempts, 2);
  EXPECT_EQ(Count("status = 'leased' AND lease_token = 'next'"), 5);
}

TEST_F(JobStoreTest, ReusedPidDoesNotKeepALease) {
  if (SelfIdentity().boot.empty()) GTEST_SKIP() << "no /proc: liveness unknown";
  auto a = Append("a", 5);
  ProcessIdentity earlier = SelfIdentity();  // this pid, but another process's start time
  earlier.start_ticks -= 1;
  ASSERT_EQ(Lease("old", kNow, FormatProcessIdentity(earlier)), a);
  EXPECT_EQ(Lease("next", kNow + 1), a);
}

TEST_F(JobStoreTest, LiveOwnerKeepsItsLeaseUntilExpiry) {
  auto a = Append("a", 5);
  ASSERT_EQ(Lease("live"), a);  // owned by this process, which is alive
  EXPECT_TRUE(Lease("other", kNow + kLeaseMs - 1).empty());
  EXPECT_EQ(Lease("other", kNow + kLeaseMs), a);
}

TEST_F(JobStoreTest, LeaseOfAnotherMachineOrAnUnnamedOwnerWaitsForExpiry) {
  auto a = Append("a", 5);
  ProcessIdentity far = ExitedProcess();
  far.boot = "another-machine";  // its pid means nothing here
  ASSERT_EQ(Lease("far", kNow, FormatProcessIdentity(far)), a);
  EXPECT_TRUE(Lease("other", kNow + 1).empty());
  EXPECT_EQ(Lease("other", kNow + kLeaseMs), a);

  auto b = Append("b", 5);
  ASSERT_EQ(Lease("old"), b);
  ASSERT_OK(db_->Exec("UPDATE jobs SET lease_owner = NULL WHERE lease_token = 'old'"));  // before schema 9
  EXPECT_TRUE(Lease("other", kNow + 1).empty());
  EXPECT_EQ(Lease("other", kNow + kLeaseMs), b);
}

TEST_F(JobStoreTest, RenewKeepsALeaseAlive) {
  auto a = Append("a", 5);
  ASSERT_EQ(Lease("mine"), a);
  ASSERT_OK(jobs_->Renew("mine", kNow + kLeaseMs - 1, kLeaseMs));
  EXPECT_TRUE(Lease("other", kNow + kLeaseMs).empty());
  EXPECT_EQ(Lease("other", kNow + 2 * kLeaseMs - 1), a);
}

// ---- the in-order rule -------------------------------------------------------------------------

TEST_F(JobStoreTest, SessionWhoseFirstJobIsLeasedByLiveOwnerIsSkipped) {
  auto a = Append("a", 10);
  auto b = Append("b", 5);
  ASSERT_EQ(Lease("w1"), Ids(a, 0, 5));
  // Another worker: a's later events must wait for w1; b is free.
  EXPECT_EQ(Lease("w2"), b);
  EXPECT_TRUE(Lease("w3").empty());
  // The same holds for a worker waiting for full batches.
  EXPECT_TRUE(Lease("w4", kNow, "", /*drain=*/false).empty());
}

TEST_F(JobStoreTest, OneBatchContinuesTheSessionItHolds) {
  auto a = Append("a", 12);
  std::vector<std::vector<int64_t>> windows;
  LeaseRequest r;
  r.now = kNow;
  r.max_events = 5;
  r.ignore_wait = true;
  r.token = "one";
  ASSERT_OK(db_->WriteTransaction([&]() -> Status {
    windows.clear();
    for (int w = 0; w < 4; ++w) {
      auto leased = jobs_->LeaseBatch(r);
      if (!leased) return leased.error();
      std::vector<int64_t> ids;
      for (const LeasedJob& j : *leased) ids.push_back(j.id);
      windows.push_back(ids);
    }
    return Status::Ok();
  }));
  EXPECT_THAT(windows, ::testing::ElementsAre(Ids(a, 0, 5), Ids(a, 5, 10), Ids(a, 10, 12), std::vector<int64_t>{}));
}

TEST_F(JobStoreTest, LaterJobIsNeverLeasedBeforeAnEarlierOneInBackoff) {
  auto a = Append("a", 10);
  ASSERT_EQ(Lease("w1"), Ids(a, 0, 5));
  const std::vector<LeasedJob> first = last_;
  ASSERT_OK(db_->WriteTransaction([&] { return jobs_->Fail(first, "w1", kNow, "provider down", 5, 1000); }));
  EXPECT_TRUE(Lease("w2", kNow + 999).empty()) << "a[5..10) leased before a[0..5)";
  EXPECT_EQ(Lease("w2", kNow + 1000), Ids(a, 0, 5));
}

TEST_F(JobStoreTest, WindowFollowsEventTimeNotArrival) {
  auto late = Append("a", 3, /*first_second=*/100);
  auto early = Append("a", 3, /*first_second=*/10);  // arrives later, happened earlier
  EXPECT_EQ(Lease("w1"), (std::vector<int64_t>{early[0], early[1], early[2], late[0], late[1]}));
}

TEST_F(JobStoreTest, JobFailedForGoodDoesNotBlockItsSession) {
  auto a = Append("a", 7);
  ASSERT_EQ(Lease("w1"), Ids(a, 0, 5));
  const std::vector<LeasedJob> first = last_;
  ASSERT_OK(db_->WriteTransaction([&] { return jobs_->Fail(first, "w1", kNow, "bad output", 1, 1000); }));
  EXPECT_EQ(Count("status = 'failed'"), 5);
  EXPECT_EQ(Lease("w2"), Ids(a, 5, 7));
}

TEST_F(JobStoreTest, ReleaseGivesJobsBackWithoutCountingTheAttempt) {
  auto a = Append("a", 5);
  ASSERT_EQ(Lease("w1"), a);
  const std::vector<LeasedJob> leased = last_;
  ASSERT_OK(db_->WriteTransaction([&] { return jobs_->Release(leased, "w1", kNow); }));
  EXPECT_EQ(Count("status = 'pending' AND attempts = 0 AND lease_owner IS NULL"), 5);
  EXPECT_EQ(Lease("w2"), a);
  EXPECT_EQ(last_.front().attempts, 1);
}

// ---- reporting and retry -----------------------------------------------------------------------

TEST_F(JobStoreTest, CountsListAndRetryTellStaleLeasesFromLiveOnes) {
  if (SelfIdentity().boot.empty()) GTEST_SKIP() << "no /proc: liveness unknown";
  auto dead = Append("dead", 2);
  auto live = Append("live", 3);
  auto expired = Append("expired", 4);
  // Leased in one transaction so that the dead lease is not taken over by the later leases.
  const std::string gone = FormatProcessIdentity(ExitedProcess());
  ASSERT_OK(db_->Exec(
      "UPDATE jobs SET status = 'leased', lease_token = 't-' || session_id, lease_expires_at = " +
      std::to_string(kNow + kLeaseMs) + ", lease_owner = '" + FormatProcessIdentity(SelfIdentity()) + "'"));
  ASSERT_OK(db_->Exec("UPDATE jobs SET lease_owner = '" + gone + "' WHERE id IN (" + std::to_string(dead[0]) + "," +
                      std::to_string(dead[1]) + ")"));
  ASSERT_OK(db_->Exec("UPDATE jobs SET lease_expires_at = " + std::to_string(kNow - 1) + " WHERE id >= " +
                      std::to_string(expired[0])));

  auto counts = jobs_->Counts(kNow);
  ASSERT_OK(counts);
  EXPECT_EQ(counts->pending, 0);
  EXPECT_EQ(counts->leased, 9);
  EXPECT_EQ(counts->stale_leases, 6);

  auto list = jobs_->List("leased", 100, kNow);
  ASSERT_OK(list);
  ASSERT_EQ(list->size(), 9u);
  EXPECT_EQ((*list)[0].lease_owner_alive, "dead");
  EXPECT_TRUE((*list)[0].lease_stale);
  EXPECT_THAT((*list)[0].lease_owner, ::testing::HasSubstr(" pid "));
  EXPECT_EQ((*list)[2].lease_owner_alive, "alive");
  EXPECT_FALSE((*list)[2].lease_stale);
  EXPECT_EQ((*list)[8].lease_owner_alive, "alive");
  EXPECT_TRUE((*list)[8].lease_stale);
  EXPECT_EQ((*list)[2].lease_expires_at, kNow + kLeaseMs);

  int64_t retried = 0;
  ASSERT_OK(db_->WriteTransaction([&]() -> Status {
    auto n = jobs_->Retry(0, kNow);
    if (!n) return n.error();
    retried = *n;
    return Status::Ok();
  }));
  EXPECT_EQ(retried, 6);
  EXPECT_EQ(Count("status = 'leased'"), 3);
  EXPECT_EQ(Count("status = 'pending' AND last_error LIKE '%no longer running%'"), 2);
  EXPECT_EQ(Count("status = 'pending' AND last_error = 'the lease expired'"), 4);
  (void)live;
}

TEST_F(JobStoreTest, Schema8DatabaseGainsTheLeaseOwner) {
  Append("a", 1);
  ASSERT_OK(db_->Exec("ALTER TABLE jobs DROP COLUMN lease_owner; PRAGMA user_version = 8"));
  ASSERT_OK(Migrate(*db_, TextAnalysis::kFull));
  EXPECT_EQ(db_->QueryInt("PRAGMA user_version").value_or(-1), kSchemaVersion);
  EXPECT_EQ(db_->QueryInt("SELECT count(*) FROM pragma_table_info('jobs') WHERE name = 'lease_owner'").value_or(-1), 1);
  JobStore fresh(*db_);  // statements prepared before the migration are not reused
  auto counts = fresh.Counts(kNow);
  ASSERT_OK(counts);
  EXPECT_EQ(counts->pending, 1);
}

}  // namespace
}  // namespace engram::sqlite
