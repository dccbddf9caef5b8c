// store/sqlite/job_store.h — the durable job queue: leases with tokens and expiry, attempts and
// backoff. Callers own transactions.
#ifndef ENGRAM_STORE_SQLITE_JOB_STORE_H_
#define ENGRAM_STORE_SQLITE_JOB_STORE_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engram/status.h"
#include "engram/types.h"
#include "store/sqlite/database.h"

namespace engram::sqlite {

struct LeasedJob {
  int64_t id = 0;
  int64_t namespace_id = 0;
  int64_t session_rowid = 0;
  int64_t event_seq = 0;
  int attempts = 0;  // including this lease
};

struct LeaseRequest {
  TimestampMs now = 0;
  size_t max_events = 5;        // a batch holds at most this many events of one session
  int64_t max_wait_ms = 120000; // a session with fewer pending events waits this long for more
  bool ignore_wait = false;     // drain: take whatever is ready (engram process)
  int64_t lease_ms = 60000;     // the lease expires after this; then another worker may take over
  std::string token;            // the lease token written on the jobs
};

class JobStore {
 public:
  explicit JobStore(Database& db) : db_(db) {}

  Status EnqueueExtraction(int64_t namespace_id, int64_t session_rowid, int64_t event_seq, TimestampMs now);

  // Leases the next batch: ready jobs (pending and due, or leased with an expired lease) of the one
  // session that qualifies first (oldest job first). Empty when nothing qualifies. A drain
  // (ignore_wait) finds that session in two index seeks; waiting for full batches groups the ready
  // jobs by session (linear in the backlog).
  Result<std::vector<LeasedJob>> LeaseBatch(const LeaseRequest& request);

  // True when every job still carries `token` and is leased (no other worker took it over).
  Result<bool> StillLeased(const std::vector<LeasedJob>& jobs, std::string_view token);
  // Marks the jobs done. Errors: kBusy("lease lost") when the lease is no longer held.
  Status Complete(const std::vector<LeasedJob>& jobs, std::string_view token, TimestampMs now);
  // Records an error: back to pending after an exponential backoff (base_backoff_ms × 2^(attempts-1)),
  // or failed once attempts reach max_attempts. Jobs whose lease was lost are left alone.
  Status Fail(const std::vector<LeasedJob>& jobs, std::string_view token, TimestampMs now,
              std::string_view error, int max_attempts, int64_t base_backoff_ms);

  Result<std::vector<JobInfo>> List(std::string_view status, int limit);
  // Puts failed jobs back to pending (one id, or every failed job when id is 0); returns how many.
  Result<int64_t> Retry(int64_t id, TimestampMs now);

 private:
  Result<std::optional<int64_t>> OldestReadySession(TimestampMs now);
  Result<std::optional<int64_t>> PickWaitedSession(const LeaseRequest& request);
  Result<std::vector<LeasedJob>> LeaseFromSession(const LeaseRequest& request, int64_t session);

  Database& db_;
};

}  // namespace engram::sqlite

#endif  // ENGRAM_STORE_SQLITE_JOB_STORE_H_
