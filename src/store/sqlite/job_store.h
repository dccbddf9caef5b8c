// store/sqlite/job_store.h — the durable job queue: leases with tokens, owners and expiry,
// attempts and backoff, and the in-order rule of a session's extraction. Callers own transactions.
//
// Leases. A lease records a token (one worker batch), an owner (the process:
// util/process_identity.h) and an expiry time. A lease is taken over when it has expired, or at
// once when its owner is known to be dead (same machine, boot and pid namespace, and the process
// is gone or its pid reused): a `process` killed with -9 does not keep its jobs for the lease
// time. A worker that extracts for long renews its leases (Renew), so that expiry only ever frees
// the jobs of a hung worker or of one that cannot be judged (another machine or container).
//
// In-order rule. The events of one session are extracted in event order (occurred_at, then seq):
// a session is leased only from its earliest open job (pending or leased) that this batch does not
// already hold, and only when every open job of the session outside this batch is ready — pending
// and due, or leased under a lease that has expired or whose owner is dead. A session with a job
// leased by a live owner, or waiting out a retry backoff, waits as a whole. A job that failed for
// good (status failed, after max_attempts) does not block its session: the later events go on, and
// a `jobs retry` of it later extracts it after them.
#ifndef ENGRAM_STORE_SQLITE_JOB_STORE_H_
#define ENGRAM_STORE_SQLITE_JOB_STORE_H_

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engram/status.h"
#include "engram/types.h"
#include "store/sqlite/database.h"
#include "util/process_identity.h"

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
  int64_t max_job_id = 0;       // drain: only sessions with a ready job of id <= this (0 = any),
                                // so that a drain ends even while writers keep adding events
  int64_t lease_ms = 60000;     // the lease expires after this; then another worker may take over
  std::string token;            // the lease token written on the jobs (one per batch, never "")
  std::string owner;            // FormatProcessIdentity of the holder; "" = this process
};

// Jobs by state (stats). stale_leases ⊆ leased: the owner is dead or the lease has expired.
struct JobCounts {
  int64_t pending = 0;
  int64_t leased = 0;
  int64_t stale_leases = 0;
  int64_t failed = 0;
};

class JobStore {
 public:
  explicit JobStore(Database& db) : db_(db) {}

  Status EnqueueExtraction(int64_t namespace_id, int64_t session_rowid, int64_t event_seq,
                           TimestampMs now);

  // Leases the next batch: up to max_events open jobs of one ready session (see the in-order rule
  // above), in event order, under request.token and request.owner. First releases the leases of
  // dead owners (ReleaseDeadLeases). Empty when no session is ready. Calls with the same token in
  // one transaction continue a session past the jobs they already hold. A drain (ignore_wait) picks
  // the session of the oldest ready job (by id) in two index walks; waiting for full batches groups
  // the ready jobs by session (linear in the backlog). Errors: from SQLite.
  Result<std::vector<LeasedJob>> LeaseBatch(const LeaseRequest& request);

  // Puts every leased job whose owner is dead (CheckLiveness) back to pending, due at `now`, its
  // attempts kept and last_error saying whose lease it was. Returns how many. Errors: from SQLite.
  Result<int64_t> ReleaseDeadLeases(TimestampMs now);

  // The highest job id ever enqueued (0 for none): a drain's horizon. Errors: from SQLite.
  Result<int64_t> LastId();

  // Extends the leases still held under `token` to now + lease_ms (a heartbeat). Errors: SQLite.
  Status Renew(std::string_view token, TimestampMs now, int64_t lease_ms);

  // True when every job still carries `token` and is leased (no other worker took it over).
  Result<bool> StillLeased(const std::vector<LeasedJob>& jobs, std::string_view token);
  // Marks the jobs done. Errors: kBusy("lease lost") when the lease is no longer held.
  Status Complete(const std::vector<LeasedJob>& jobs, std::string_view token, TimestampMs now);
  // Records an error: back to pending after an exponential backoff (base_backoff_ms × 2^(attempts-1)),
  // or failed once attempts reach max_attempts. Jobs whose lease was lost are left alone.
  Status Fail(const std::vector<LeasedJob>& jobs, std::string_view token, TimestampMs now,
              std::string_view error, int max_attempts, int64_t base_backoff_ms);
  // Gives jobs back unprocessed: pending and due at `now`, this lease's attempt not counted
  // (a later window of a session whose earlier window could not be written). Jobs whose lease was
  // lost are left alone. Errors: from SQLite.
  Status Release(const std::vector<LeasedJob>& jobs, std::string_view token, TimestampMs now);

  // Jobs in `status` ("" = every job not done), oldest first, at most `limit`, with an id above
  // `after_id` (keyset paging; 0 = from the first); leased ones say who holds them and whether the
  // lease is stale at `now`. Errors: from SQLite.
  Result<std::vector<JobInfo>> List(std::string_view status, int limit, TimestampMs now, int64_t after_id = 0);
  // Counts by state at `now`. Errors: from SQLite.
  Result<JobCounts> Counts(TimestampMs now);
  // Puts failed jobs back to pending with their attempts reset, and releases stale leases (owner
  // dead or lease expired at `now`): one id, or every such job when id is 0. Returns how many.
  // Errors: from SQLite.
  Result<int64_t> Retry(int64_t id, TimestampMs now);

 private:
  // Sessions that must wait: they hold an open job outside `token` that is not ready (leased and
  // neither expired nor released, or pending in backoff). A JSON array of session row ids.
  Result<std::string> BlockedSessions(TimestampMs now, std::string_view token);
  Result<std::optional<int64_t>> OldestReadySession(const LeaseRequest& request,
                                                    const std::string& blocked);
  Result<std::optional<int64_t>> PickWaitedSession(const LeaseRequest& request,
                                                   const std::string& blocked);
  Result<std::vector<LeasedJob>> LeaseFromSession(const LeaseRequest& request, int64_t session);
  // The distinct owners of leased jobs ("" for rows without one) and their liveness.
  Result<std::map<std::string, Liveness>> LeaseOwners();
  // Leased jobs matching `condition` (SQL; ?1 = now, ?3 = `arg`) and id (0 = any) back to pending.
  Result<int64_t> ReleaseLeases(std::string_view condition, TimestampMs now, int64_t id,
                                std::string_view arg, std::string_view why);
  Result<int64_t> ReleaseDeadLeases(TimestampMs now, int64_t id);

  Database& db_;
};

}  // namespace engram::sqlite

#endif  // ENGRAM_STORE_SQLITE_JOB_STORE_H_
