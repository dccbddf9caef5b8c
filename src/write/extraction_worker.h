// write/extraction_worker.h — drains the extraction queue: leases a bounded window of one session's
// events, runs the extractor outside any transaction, then admits and writes the candidates and
// completes the jobs in one transaction. A lost lease writes nothing and never reports success; an
// extractor failure leaves the events stored and the jobs retried with backoff (bug_scenarios B42).
#ifndef ENGRAM_WRITE_EXTRACTION_WORKER_H_
#define ENGRAM_WRITE_EXTRACTION_WORKER_H_

#include <mutex>

#include "engram/types.h"
#include "store/sqlite/claim_store.h"
#include "store/sqlite/event_store.h"
#include "store/sqlite/job_store.h"
#include "store/sqlite/tombstone_store.h"
#include "write/claim_identity.h"
#include "write/extraction/extractor.h"

namespace engram {

struct ExtractionWorkerOptions {
  size_t batch_events = 5;         // at most this many events of one session per extraction
  int64_t batch_wait_ms = 120000;  // a smaller batch waits this long for more events (worker mode)
  int64_t lease_ms = 60000;        // after this, another worker may take the batch over
  int max_attempts = 5;            // then the job is `failed` until `engram jobs retry`
  int64_t backoff_ms = 1000;       // first retry delay; doubles each attempt
  size_t windows_per_transaction = 32;  // windows leased and committed together
};

class ExtractionWorker {
 public:
  // `db_mutex` serialises use of the connection with the Engine's other calls; it is held while
  // reading and writing the database and released while the extractor runs.
  ExtractionWorker(sqlite::Database& db, std::mutex& db_mutex, extraction::Extractor& extractor,
                   const PredicateRegistry& registry, ExtractionWorkerOptions options);

  // Processes batches until none qualifies. drain = true takes every ready job at once (ignoring
  // batch_wait_ms): `engram process`. max_batches 0 = no limit. Errors: kBusy/kIOError from the
  // store; extractor failures are counted in the report, not returned.
  Result<ProcessReport> Run(bool drain, int64_t max_batches);

 private:
  Status ProcessBatch(bool drain, bool* found, ProcessReport* report);
  // Admits and writes one window's candidates (inside the caller's transaction).
  Status WriteWindow(int64_t namespace_id, const std::vector<Event>& batch, const std::vector<int64_t>& seqs,
                     const SessionInfo& session, const std::vector<extraction::CandidateClaim>& candidates,
                     TimestampMs now, ProcessReport* delta);

  sqlite::Database& db_;
  std::mutex& db_mutex_;
  sqlite::EventStore events_;
  sqlite::ClaimStore claims_;
  sqlite::JobStore jobs_;
  sqlite::TombstoneStore tombstones_;
  extraction::Extractor& extractor_;
  const PredicateRegistry& registry_;
  ExtractionWorkerOptions options_;
};

}  // namespace engram

#endif  // ENGRAM_WRITE_EXTRACTION_WORKER_H_
