// engram/engine.h — the embedded memory engine.
//
//   auto engine = engram::Engine::Open({.db_path = "/tmp/m.db"});
//   if (!engine) { /* engine.error().ToString() */ }
//   (*engine)->Ingest({.namespace_name = "u1", .session_id = "s1", .role = "user",
//                      .content = "I moved to Hangzhou"});
//   auto found = (*engine)->Recall({.text = "where do I live", .namespace_name = "u1"});
//
// Thread safety: an Engine may be used from many threads at once; calls are serialised on its one
// SQLite connection. Several processes may open the same file at once: readers never block writers
// (WAL), and writers retry with jitter, so callers never see "database is locked" unless the lock is
// held longer than max_write_attempts × (busy_timeout_ms + jitter), when kBusy is returned.
#ifndef ENGRAM_INCLUDE_ENGINE_H_
#define ENGRAM_INCLUDE_ENGINE_H_

#include <memory>
#include <string_view>
#include <vector>

#include "engram/options.h"
#include "engram/status.h"
#include "engram/types.h"

namespace engram {

class Engine {
 public:
  // Opens (creating when missing) the database at options.db_path and runs pending schema
  // migrations in one transaction. Errors: kInvalidArgument (empty path), kIOError (cannot create
  // or open the file), kCorruption (not an engram database, or a newer schema than this build).
  static Result<std::unique_ptr<Engine>> Open(const Options& options);

  virtual ~Engine() = default;

  // Checks `input` exactly as Ingest would, without storing anything (for dry runs and importers
  // that report bad lines before writing). Errors: kInvalidArgument naming the field.
  static Status ValidateEvent(const EventInput& input);

  // Stores one event durably, indexes it for full-text search and enqueues its claim extraction,
  // all in one transaction.
  // Validation (the same for every entry point), each error naming the field:
  //   namespace_name, session_id: 1–200 characters, valid UTF-8, no control characters;
  //   role: one of kRoles; content: valid UTF-8, not blank, no NUL byte, ≤ 1,000,000 bytes;
  //   occurred_at: ISO-8601 ("2023-05-08", "2023-05-08T13:56:00", "...Z", "...+08:00");
  //   metadata_json: a JSON object; session_kind / origin_class: one of their lists.
  // A session is created on first use; later events never change its kind, source or title.
  // Idempotency: the key (given, or derived from session, role, speaker, time and content) is unique
  // per namespace; a replay stores nothing and returns the original with duplicate = true.
  // Errors: kInvalidArgument, kBusy, kIOError.
  virtual Result<IngestResult> Ingest(const EventInput& input) = 0;

  // Ingests many events in one transaction: all are validated first; if any is invalid nothing is
  // stored and the error names its index ("event 3: field \"role\": ..."). Results are in input order.
  virtual Result<std::vector<IngestResult>> IngestBatch(const std::vector<EventInput>& inputs) = 0;

  // Returns the event with this id. Errors: kNotFound.
  virtual Result<Event> GetEvent(std::string_view id) = 0;

  // Recall: events ranked by the weighted fusion of their channels (Options::recall — BM25 of the
  // event, BM25 of its session neighbourhood, dates and speakers the question names, the claims
  // read from it), with a matching claim standing in for the event it was read from (the claim
  // carries the event as evidence). See docs/retrieval.md. The query is literal: quotes,
  // operators (AND, OR, NOT, NEAR), '*', ':' and parentheses are plain characters. A query with no
  // searchable term returns no items (not an error). Errors: kInvalidArgument (empty namespace,
  // limit outside 1–1000, since >= until, query not UTF-8 or over 64 KiB), kNotFound (unknown
  // namespace or session).
  virtual Result<RecallResult> Recall(const RecallQuery& query) = 0;

  // Recently active sessions, newest first, metadata only. Errors: kInvalidArgument (limit).
  virtual Result<std::vector<SessionInfo>> ListSessions(const ListSessionsQuery& query) = 0;

  // Searches past sessions (see SessionSearchQuery): hits grouped by lineage root, the current
  // lineage excluded, each with a window of events around the best hit. Errors: kInvalidArgument,
  // kNotFound (unknown namespace).
  virtual Result<SessionSearchResult> SearchSessions(const SessionSearchQuery& query) = 0;

  // ---- Claims (see docs/claims.md) ----------------------------------------------------------

  // Writes an explicit memory now, without the queue: an event (the evidence, session "explicit"
  // unless given) and the claims read from it by the rule extractor — or, when it finds none, one
  // `explicit_memory` claim holding the whole text; or exactly subject/predicate/value when given.
  // Claims go through admission, dedup and conflict resolution like extracted ones.
  // Errors: kInvalidArgument (no namespace; neither text nor subject+predicate+value; bad `at`),
  // kBusy, kIOError.
  virtual Result<RememberResult> Remember(const RememberInput& input) = 0;

  // Runs extraction over pending events once and returns what it did (`engram process`).
  // drain = true takes every pending event now; false waits for full batches (the worker).
  // Extractor failures are counted and recorded on the jobs (retried with backoff), not returned.
  // Errors: kBusy, kIOError.
  virtual Result<ProcessReport> Process(bool drain) = 0;

  // Claims of a namespace, current ones only unless include_history, oldest first, each with its
  // evidence. An unknown namespace has no claims. Errors: kInvalidArgument (limit, offset).
  virtual Result<std::vector<Claim>> ListClaims(const ListClaimsQuery& query) = 0;

  // The claim with its evidence. Errors: kNotFound.
  virtual Result<Claim> GetClaim(std::string_view id) = 0;
  // Status, evidence, supersede chain, admission/dedup decisions, history and why it is or is not
  // current. Errors: kNotFound.
  virtual Result<ClaimExplanation> ExplainClaim(std::string_view id) = 0;

  // Jobs that are not done (status "") or of one status; newest last. Errors: kInvalidArgument.
  virtual Result<std::vector<JobInfo>> ListJobs(std::string_view status, int limit) = 0;
  // Puts a failed job (or every failed job, id 0) back in the queue; returns how many.
  virtual Result<int64_t> RetryJobs(int64_t id) = 0;

  // Runs SQLite's integrity_check, the full-text index's integrity check and engram's own
  // invariants (every event indexed, no orphan rows). Never fails for a problem found: problems
  // are reported in DoctorReport. Errors: kIOError when the checks cannot run.
  virtual Result<DoctorReport> Doctor() = 0;

  // Counts and file sizes (bytes). Errors: kIOError.
  virtual Result<StoreStats> Stats() = 0;
};

}  // namespace engram

#endif  // ENGRAM_INCLUDE_ENGINE_H_
