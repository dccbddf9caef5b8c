// write/extraction_worker.h — drains the extraction queue: leases a bounded window of one session's
// events, runs the extractor outside any transaction, then admits and writes the candidates and
// completes the jobs in one transaction per window or per few windows (never longer than about
// max_transaction_ms, the write lock given up between two: bug_scenarios B43). A lost lease writes nothing and never reports success; an
// extractor failure leaves the events stored and the jobs retried with backoff (bug_scenarios B42).
// A session's windows are written in event order: when one cannot be written (lost lease,
// extractor failure), the later windows of its session in the same group are given back
// unwritten (JobStore::Release), so that they run after it (issue 18). Leases name this process
// as their owner, so that a worker killed mid-batch has its jobs taken over at once by the next
// one, and are renewed while a long extraction runs.
#ifndef ENGRAM_WRITE_EXTRACTION_WORKER_H_
#define ENGRAM_WRITE_EXTRACTION_WORKER_H_

#include <mutex>
#include <set>

#include "engram/types.h"
#include "store/sqlite/claim_store.h"
#include "store/sqlite/event_store.h"
#include "store/sqlite/job_store.h"
#include "store/sqlite/tombstone_store.h"
#include "write/admission.h"
#include "write/claim_identity.h"
#include "write/extraction/extractor.h"
#include "write/kin_change.h"

namespace engram {

struct ExtractionWorkerOptions {
  size_t batch_events = 5;         // at most this many events of one session per extraction
  int64_t batch_wait_ms = 120000;  // a smaller batch waits this long for more events (worker mode)
  int64_t lease_ms = 60000;        // after this, another worker may take the batch over; renewed
                                   // every lease_ms / 2 while the group is being extracted
  int max_attempts = 5;            // then the job is `failed` until `engram jobs retry`
  int64_t backoff_ms = 1000;       // first retry delay; doubles each attempt
  size_t windows_per_transaction = 32;  // windows leased together (one transaction), then
                                        // extracted, then written in as few transactions as
                                        // max_transaction_ms allows
  // A write transaction of the worker ends after the window in progress once it has been open
  // this long (ms), and the worker gives the write lock up (sqlite::YieldWriteLock) before the
  // next one, so that another writer waits for about one such transaction at most, however
  // large the backlog (bug_scenarios B43). 0 = one window per transaction.
  int64_t max_transaction_ms = 25;
  // Kin words for the claim writer (ClaimWriteInput::kin), called while `db_mutex` is held; null =
  // none. Not owned.
  const KinLookup* kin = nullptr;
};

class ExtractionWorker {
 public:
  // `db_mutex` serialises use of the connection with the Engine's other calls; it is held while
  // reading and writing the database and released while the extractor runs.
  ExtractionWorker(sqlite::Database& db, std::mutex& db_mutex, extraction::Extractor& extractor,
                   const PredicateRegistry& registry, ExtractionWorkerOptions options);

  // Processes batches until none qualifies. drain = true takes every job that is ready when the
  // call starts (ignoring batch_wait_ms; jobs enqueued meanwhile wait for the next call, so a drain
  // ends while writers go on): `engram process`. max_batches 0 = no limit. Errors: kBusy/kIOError from the
  // store; extractor failures are counted in the report, not returned. Not thread-safe (one Run at
  // a time per worker; several workers may share the database).
  Result<ProcessReport> Run(bool drain, int64_t max_batches);

 private:
  // One window: up to batch_events events of one session, extracted together.
  struct Window {
    std::vector<sqlite::LeasedJob> jobs;
    std::vector<Event> events;
    std::vector<int64_t> seqs;
    SessionInfo session;
    Result<std::vector<extraction::CandidateClaim>> candidates = std::vector<extraction::CandidateClaim>{};
    // One per candidate, decided with the extraction, before the write lock is taken (admission
    // reads no table; its regular expressions would otherwise run inside the transaction, B43).
    std::vector<AdmissionDecision> admissions;
  };

  // The leases of one batch: when they were last renewed (ms UTC).
  struct LeaseClock {
    std::string token;
    TimestampMs renewed_at = 0;
  };

  Status ProcessBatch(bool drain, bool* found, ProcessReport* report);
  // Phase 1: leases up to windows_per_transaction windows under `token` and reads their events.
  Status LeaseWindows(bool drain, const std::string& token, std::vector<Window>* windows);
  // Renews the batch's leases when lease_ms / 2 has passed since the last renewal (a heartbeat;
  // inside the caller's transaction). Errors: from SQLite.
  Status RenewIfDue(LeaseClock* clock, TimestampMs now);
  // Phase 2: runs the extractor on each window, renewing the leases every lease_ms / 2.
  void ExtractWindows(LeaseClock* clock, std::vector<Window>* windows, ProcessReport* report);
  // Phase 3: writes windows[*next...] in one transaction, as many as max_transaction_ms allows
  // (at least one), and advances *next past them. Adds what was written to `report`.
  // `held_back` (sessions whose window was not written) carries over between calls. Errors:
  // from the store; nothing of the transaction is written then.
  Status CommitSome(LeaseClock* clock, const std::vector<Window>& windows, size_t* next,
                    std::set<int64_t>* held_back, ProcessReport* report);
  // One window (inside the caller's transaction): written when its lease is held and its
  // extraction worked; else its failure is recorded and its session's later windows are given
  // back (held_back).
  Status CommitWindow(const std::string& token, TimestampMs now, const Window& w, std::set<int64_t>* held_back,
                      ProcessReport* delta, std::vector<std::string>* errors);
  // After a store error: records it on the windows not written (backoff, then failed).
  void FailWindows(const std::string& token, const std::vector<Window>& windows, size_t from, const Status& error,
                   ProcessReport* report);
  // Writes one window's candidates as their admissions (one each) decided (inside the caller's
  // transaction).
  Status WriteWindow(int64_t namespace_id, const std::vector<Event>& batch, const std::vector<int64_t>& seqs,
                     const SessionInfo& session, const std::vector<extraction::CandidateClaim>& candidates,
                     const std::vector<AdmissionDecision>& admissions, TimestampMs now, ProcessReport* delta);
  // Writes one candidate of `batch` (or records its rejection) and counts it in `delta`.
  Status WriteCandidate(int64_t namespace_id, const std::vector<Event>& batch, const std::vector<int64_t>& seqs,
                        const extraction::CandidateClaim& c, const AdmissionDecision& admission, TimestampMs now,
                        ProcessReport* delta);

  sqlite::Database& db_;
  std::mutex& db_mutex_;
  sqlite::EventStore events_;
  sqlite::ClaimStore claims_;
  sqlite::JobStore jobs_;
  sqlite::TombstoneStore tombstones_;
  extraction::Extractor& extractor_;
  const PredicateRegistry& registry_;
  ExtractionWorkerOptions options_;
  int64_t drain_horizon_ = 0;  // during a drain: the last job id enqueued before it started
};

}  // namespace engram

#endif  // ENGRAM_WRITE_EXTRACTION_WORKER_H_
