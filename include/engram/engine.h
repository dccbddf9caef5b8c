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

#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engram/options.h"
#include "engram/status.h"
#include "engram/types.h"

namespace engram {

// What this build is: engram's version and the SQLite it runs on. Thread-safe.
struct VersionInfo {
  std::string engram;  // e.g. "0.1.0"
  std::string sqlite;  // e.g. "3.53.2"
  // The SQLite has the WAL-reset bug (it can lose committed writes; Engine::Open refuses it unless
  // Options::allow_affected_sqlite).
  bool sqlite_has_wal_reset_bug = false;
};
VersionInfo GetVersionInfo();

class Engine {
 public:
  // Opens the database at options.db_path as options.open_mode allows (see OpenMode): kCreate
  // creates a missing one (whole, under a temporary name, then linked into place), kReadWrite
  // needs it to exist, kReadOnly never writes a byte of it. Every mode checks at open that the
  // file is an engram database whose schema reads (an empty, non-SQLite or foreign file is
  // refused and left as it is); writing modes then run pending migrations in one transaction.
  // Errors: kInvalidArgument (empty path; Options::rerank or its $ENGRAM_RERANK_* variables out of
  // range or malformed, naming the field), kNotFound (no file for kReadOnly/kReadWrite; a missing
  // folder), kIOError (cannot create or open the file; read-only file or folder for a writing
  // mode), kCorruption (empty, not an SQLite or engram database, a damaged schema, a newer schema
  // than this build, an older one for kReadOnly).
  // A rule distiller that cannot be set up (ValidateDistiller) does not stop Open: only the calls
  // that distil fail (Distill) or report it (the LLM part of EndEpisode, SetEpisodeType and
  // SegmentEpisodes), so reading and writing memory work.
  static Result<std::unique_ptr<Engine>> Open(const Options& options);

  // Checks that the rule distiller options.experience.distiller names ($ENGRAM_DISTILLER wins when
  // set) can be set up: "offline" (or ""), or "llm" with ENGRAM_LLM_BASE_URL and ENGRAM_LLM_MODEL.
  // For a long-running server to refuse to start with it. Errors: kInvalidArgument naming the
  // variable or field and the accepted values. Thread-safe.
  static Status ValidateDistiller(const Options& options);

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
  // Forgotten content (a tombstone of the namespace with the same content hash or idempotency key;
  // see Forget) stores nothing and returns forgotten = true with the tombstone id.
  // Errors: kInvalidArgument, kBusy, kIOError.
  virtual Result<IngestResult> Ingest(const EventInput& input) = 0;

  // Ingests many events in one transaction: all are validated first; if any is invalid nothing is
  // stored and the error names its index ("event 3: field \"role\": ..."). Results are in input order.
  virtual Result<std::vector<IngestResult>> IngestBatch(const std::vector<EventInput>& inputs) = 0;

  // The namespace of the event or claim with this id, or of the object a tombstone (by its id or
  // the forgotten object's id) was written for: what an owner's call by id alone acts in (the CLI's
  // `forget ID`). Errors: kInvalidArgument (empty or malformed id), kNotFound ("no event or claim
  // (nor a tombstone) with id ..."). Thread-safe.
  virtual Result<std::string> NamespaceOf(std::string_view id) = 0;

  // Returns the event with this id. Errors: kNotFound (the message names the tombstone when the
  // event was forgotten; the content is never returned).
  virtual Result<Event> GetEvent(std::string_view id) = 0;

  // Recall: events ranked by the weighted fusion of their channels (Options::recall — BM25 of the
  // event, BM25 of its session neighbourhood, dates and speakers the question names, the claims
  // read from it, and — when Options::embedder is set — the cosine of the event vectors with the
  // query's, the "dense" channel), with a matching claim standing in for the event it was read
  // from (the claim carries the event as evidence). When the dense channel cannot run (vectors of
  // another model in the namespace, a missing model file, an embedder error) the other channels
  // still do and RecallResult::warnings says why. See docs/retrieval.md. The query is literal: quotes,
  // operators (AND, OR, NOT, NEAR), '*', ':' and parentheses are plain characters. A query with no
  // searchable term returns no items (not an error). With Options::rerank configured, the best
  // items are reordered by the reranker within its time budget; a reranker that times out, fails
  // or answers nonsense never fails recall (RecallResult::rerank says "skipped" and why). Errors:
  // kInvalidArgument (empty namespace, limit outside 1–1000, since >= until, query not UTF-8 or
  // over 64 KiB, rerank = true without a configured reranker), kNotFound (unknown namespace or
  // session), kCorruption (a page it read is damaged; no recall hit of this Engine is logged
  // after that). Recall never writes the database: the claims it returns are counted as hits in
  // memory and appended to the hits log beside the file (lifecycle/hits_log.h) for the next
  // Maintain; on a read-write Engine with an embedder, vectors of new events are still stored
  // (a kReadOnly Engine embeds them in memory only).
  virtual Result<RecallResult> Recall(const RecallQuery& query) = 0;

  // Rates one recalled item (its RecallItem::feedback_id) as helpful or not for that question; a
  // later rating for the same item and question replaces the earlier one. The ratings feed the
  // utility prior of recall (RecallWeights::feedback). Returns the item's counts over every
  // question. Errors: kInvalidArgument (malformed id; an empty namespace: FeedbackInput's is
  // required), kNotFound (no such item, or forgotten),
  // kBusy, kIOError.
  virtual Result<FeedbackResult> Feedback(const FeedbackInput& input) = 0;

  // Re-embeds every event of a namespace with the configured embedder (Options::embedder): the
  // namespace's event vectors of every model are deleted, the SIF fit (word frequencies and
  // principal component) is recomputed from its text, and every event is embedded again and
  // stored with the model id and dimension. This is how a namespace whose vectors came from
  // another model gets its dense channel back (B45). Returns the number of events embedded.
  // Errors: kInvalidArgument (no embedder configured, empty namespace), kNotFound (unknown
  // namespace; a missing "glove" file), the embedder's errors, kBusy, kIOError.
  virtual Result<int64_t> Reindex(std::string_view namespace_name) = 0;

  // One page of sessions, newest first by when they were first written, metadata only (see
  // ListSessionsQuery: after_seq pages by keyset, so sessions written or made active between pages
  // neither repeat nor shift them). An unknown namespace has none. Errors: kInvalidArgument (limit;
  // an empty or blank namespace without all_namespaces, or one with it, naming "namespace").
  virtual Result<std::vector<SessionInfo>> ListSessions(const ListSessionsQuery& query) = 0;

  // Searches past sessions (see SessionSearchQuery): hits grouped by lineage root, the current
  // lineage excluded, each with a window of events around the best hit. Errors: kInvalidArgument,
  // kNotFound (unknown namespace).
  virtual Result<SessionSearchResult> SearchSessions(const SessionSearchQuery& query) = 0;

  // ---- Claims (see docs/claims.md) ----------------------------------------------------------

  // Writes an explicit memory now, without the queue: an event (the evidence, session "explicit"
  // unless given) and the claims read from it by the rule extractor — or, when it finds none, one
  // `explicit_memory` claim holding the whole text; or exactly subject/predicate/value when given.
  // Claims go through admission, dedup and conflict resolution like extracted ones. Forgotten
  // content stores nothing (forgotten = true); a forgotten fact is "rejected:forgotten".
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

  // The claim with its evidence. Errors: kNotFound (naming the tombstone when it was forgotten).
  virtual Result<Claim> GetClaim(std::string_view id) = 0;
  // Status, evidence, supersede chain, admission/dedup decisions, history and why it is or is not
  // current. Errors: kNotFound.
  virtual Result<ClaimExplanation> ExplainClaim(std::string_view id) = 0;

  // One page of the jobs that are not done (status "") or of one status, oldest first (keyset on
  // the job id: ListJobsQuery::after_id). A leased job names its owner and says whether the owner
  // is alive and the lease stale. Errors: kInvalidArgument (status, limit).
  virtual Result<std::vector<JobInfo>> ListJobs(const ListJobsQuery& query) = 0;
  // The first page of ListJobs({status, limit}).
  Result<std::vector<JobInfo>> ListJobs(std::string_view status, int limit) {
    return ListJobs(ListJobsQuery{.status = std::string(status), .limit = limit});
  }
  // Puts a failed job (or every failed job, id 0) back in the queue, and releases stale leases
  // (owner dead or lease expired) the same way; returns how many. Errors: kNotFound (an id that is
  // neither), kBusy.
  virtual Result<int64_t> RetryJobs(int64_t id) = 0;

  // Checks this Engine's file, reading only (lifecycle/doctor.h): SQLite's integrity_check (which
  // covers the full-text indexes on SQLite 3.45.1 and later) — and when it cannot finish on a
  // damaged file, quick_check and a check per table naming the damaged tables and indexes — then
  // engram's own invariants (every event indexed, no orphan rows) and the counts; when a problem
  // was found, also what every table still reads and whether an export reads to the end. Never
  // fails for a problem found: problems are reported in DoctorReport (ok = false).
  // Errors: kInternal only. Thread-safe.
  virtual Result<DoctorReport> Doctor() = 0;

  // Doctor for the file at options.db_path without opening an Engine: opens it read-only
  // (options.open_mode is ignored), so it works on the files Engine::Open refuses — an empty or
  // non-database file is a report with ok = false and one problem ("file: ..."), a damaged one a
  // report of what is damaged. Errors: kInvalidArgument (empty path), kNotFound (no file or
  // folder), kIOError. Thread-safe.
  static Result<DoctorReport> DoctorFile(const Options& options);

  // Counts and file sizes (bytes), and what PRAGMA quick_check finds (StoreStats::damage; empty
  // when the file is sound — O(file size)). Errors: kCorruption when a count cannot be read,
  // kIOError. Thread-safe.
  virtual Result<StoreStats> Stats() = 0;

  // ---- Forget (see docs/forget.md) -----------------------------------------------------------

  // Forgets what `request` selects (exactly one selector; see ForgetRequest) and everything that
  // only existed because of it, in one transaction: a claim goes when none of its supporting
  // events is left; an event goes when it is selected, or when every claim it supports is
  // forgotten (private evidence). A claim or event still supported / used elsewhere survives with
  // its remaining evidence (B20). Full-text rows, vectors, feedback, jobs, history and decision
  // records go with their object; a session left empty is deleted. One tombstone per forgotten
  // object (ids and identity hashes, never content) is written first in the same transaction, so a
  // failed ledger write forgets nothing. Later Ingest/IngestBatch/Remember of the same content (by
  // content hash or idempotency key) or the same claim fact in the namespace stores nothing and
  // reports `forgotten` until Unforget. The bytes stay in the files until Compact.
  // A `query` selector (every term must occur; at most query_limit events and claims) and any request
  // with preview = true change nothing: the report lists the items with a short text; a query is
  // applied only with confirm = true. Naming ids that were forgotten before is not an error: they
  // are listed in already_forgotten. Every audit and tombstone row carries request.reason/actor.
  // Errors: kInvalidArgument (no selector or several; a missing, empty or malformed namespace for
  // any selector, ids too — an empty namespace never means "wherever the ids are"; blank id/session/subject/query; query_limit outside 1–1000; reason over 1000
  // characters), kNotFound (unknown namespace or session; an id that is neither stored nor
  // forgotten, or stored in another namespace than the one given — nothing is forgotten then),
  // kBusy, kIOError. Thread-safe.
  virtual Result<ForgetReport> Forget(const ForgetRequest& request) = 0;

  // Removes a tombstone (by tombstone id, or the newest tombstone of an object id) so that the
  // same content may be stored again; the forgotten content itself does not come back. Audited
  // (action "unforget" on the tombstone and the object). Returns the removed tombstone.
  // Errors: kInvalidArgument (empty id), kNotFound (no such tombstone), kBusy, kIOError.
  virtual Result<Tombstone> Unforget(std::string_view id, std::string_view reason) = 0;

  // Makes forgotten bytes leave the files: merges the full-text indexes (FTS5 optimize), VACUUMs
  // and truncates the WAL (see lifecycle/compact.h). Audited. Blocks writers while it runs.
  // Errors: kBusy (another connection holds the lock, or reads and keeps the WAL from being
  // truncated: run again), kIOError.
  virtual Result<CompactReport> Compact() = 0;

  // One page of tombstones, newest first (the order they were written to this file; keyset
  // ListTombstonesQuery::after_seq), of one namespace or — only with all_namespaces — every one,
  // optionally of one object id. Errors: kInvalidArgument (limit outside 1–100000; an empty, blank
  // or malformed namespace without all_namespaces, or one with it), kNotFound (unknown namespace).
  virtual Result<std::vector<Tombstone>> ListTombstones(const ListTombstonesQuery& query) = 0;

  // One page of the audit rows about an object id (event, claim, tombstone or forget operation id),
  // in the order they were written (AuditEntry::seq; keyset AuditQuery::after_seq): for a
  // forgotten claim, its history without content followed by the forget. Empty when there are
  // none. Errors: kInvalidArgument (empty id, limit outside 1–100000).
  virtual Result<std::vector<AuditEntry>> AuditTrail(const AuditQuery& query) = 0;
  // Every audit row of `object_id` (at most 100,000).
  Result<std::vector<AuditEntry>> AuditTrail(std::string_view object_id) {
    return AuditTrail(AuditQuery{.object_id = std::string(object_id), .limit = 100000});
  }

  // ---- API keys (the servers' credentials; see docs/server.md) ------------------------------
  // Creates a key granting input.access on input.namespaces and returns it with its secret, which
  // is not stored (only its SHA-256) and cannot be shown again. Errors: kInvalidArgument (no
  // namespace, a malformed namespace, an unknown access, a label over 200 characters), kBusy,
  // kIOError. Thread-safe.
  virtual Result<CreatedApiKey> CreateApiKey(const ApiKeyInput& input) = 0;
  // Every key, oldest first; revoked ones only with include_revoked. Thread-safe.
  virtual Result<std::vector<ApiKeyInfo>> ListApiKeys(bool include_revoked) = 0;
  // Revokes the key with this id (idempotent: revoking a revoked key returns it unchanged).
  // Errors: kNotFound, kBusy, kIOError. Thread-safe.
  virtual Result<ApiKeyInfo> RevokeApiKey(std::string_view id) = 0;
  // The key whose secret this is. Errors: kUnauthenticated (unknown, malformed or revoked; the
  // message does not say which). Thread-safe.
  virtual Result<ApiKeyInfo> VerifyApiKey(std::string_view secret) = 0;

  // ---- Lifecycle maintenance (see docs/lifecycle.md) ------------------------------------------

  // One maintenance pass over one namespace (every namespace only with request.all_namespaces; an
  // empty namespace_name without it is kInvalidArgument), at request.now (ms UTC; default the wall clock): writes the recall hits waiting in
  // the hits log beside the file (every process's; lifecycle/hits_log.h) and in this Engine,
  // assigns TTLs, expires claims whose TTL or valid_to has passed, recomputes activation
  // (half-life decay, recovered by recall hits and helpful feedback) and archives claims below the
  // threshold for the grace period (vectors dropped, history kept), and folds duplicate current
  // claims with the same claim keys into one. Identity and explicit claims never expire by the TTL
  // table and are never archived. Every transition is in the claim's history and the audit log.
  // Works in short write transactions of LifecycleOptions::maintain_batch claims, so recall (read
  // snapshots, WAL) never waits for it. Idempotent for a given `now`. Errors: kInvalidArgument (the
  // scope, naming "namespace"), kNotFound (unknown namespace), kBusy, kIOError. Thread-safe.
  virtual Result<MaintainReport> Maintain(const MaintainRequest& request) = 0;

  // ---- Export, import, backup, restore (see docs/backup.md) ---------------------------------

  // Writes one namespace (every namespace only for NamespaceScope::All(); an empty name is
  // kInvalidArgument naming "namespace") as JSONL to `out`, one object per line with
  // a "kind": namespace, session, tombstone, event, claim (evidence refs, valid/recorded times,
  // status, supersede links). Sorted keys, insertion order: the same contents give the same bytes,
  // and export → Import into a fresh database → export is byte-identical. Reads one snapshot.
  // Returns the lines written per kind. A damaged database (PRAGMA quick_check finds a problem) is
  // refused before anything is written. Errors: kNotFound (unknown namespace), kCorruption
  // (damaged; see Salvage), kIOError (stream), kInvalidArgument (scope).
  // Thread-safe.
  virtual Result<DumpCounts> Export(const NamespaceScope& scope, std::ostream& out) = 0;

  // Export for a damaged database: writes every line it can read, in Export's format, and says
  // what it could not. Returns the counts only when the database is sound and everything was
  // written. Errors: kCorruption when quick_check finds damage (every exported row was still read
  // and written: the message says how many) or a table cannot be read to the end (the lines
  // before the damaged page were written); kNotFound, kIOError as Export. Thread-safe.
  virtual Result<DumpCounts> Salvage(const NamespaceScope& scope, std::ostream& out) = 0;

  // Imports a dump written by Export: every line is validated first (events exactly as Ingest
  // does; a bad line → kInvalidArgument "line N: field \"x\": ..." and nothing is written), then
  // everything is written in one transaction. Tombstones are honoured — the file's and this
  // database's: forgotten events and claims are skipped (skipped_forgotten), as are rows already
  // stored (skipped_existing). No extraction job is queued. Errors: kInvalidArgument, kBusy,
  // kIOError. Thread-safe.
  virtual Result<ImportReport> Import(std::istream& in) = 0;

  // The working memory of a session (docs/working.md): its goal, the user's constraints word for
  // word (retractions applied), the paths ruled out and the newest turns, rendered under
  // query.budget_tokens — over the session's whole lineage (a compression's child session keeps
  // its ancestors' constraints). With query.summary, the constraints it lacks. Reads at most the
  // newest 10,000 events of the lineage. Errors: kInvalidArgument (namespace, session_id,
  // budget_tokens outside 1–1,000,000, summary over 1,000,000 bytes), kNotFound (unknown namespace
  // or session). Thread-safe.
  virtual Result<WorkingMemory> Working(const WorkingMemoryQuery& query) = 0;

  // ---- Curated memory (docs/curated.md): MEMORY.md and USER.md per namespace ----
  // Files in Options::curated_dir (default "<db_path>.curated") / <namespace>/; not in the
  // database, so these work on a read-only database too (but WriteCurated records events).

  // Both stores of the namespace ("memory" first), live state. A namespace that never wrote any
  // has two empty stores. Errors: kInvalidArgument (namespace), kFailedPrecondition (a file that
  // cannot be read or is not UTF-8). Thread-safe.
  virtual Result<std::vector<CuratedStoreState>> ReadCurated(std::string_view namespace_name) = 0;
  // Applies the operations to one store, all or nothing, under its file lock (several processes
  // may write at once), then records each added or replacing entry as an event (role "system",
  // metadata {"curated": {...}}) so that recall, explain and forget see it. Errors:
  // kInvalidArgument (namespace, target, an operation's field; content that scans as an
  // injection; old_text matching several entries), kNotFound (old_text matching none),
  // kFailedPrecondition (over the budget; the file changed on disk; a batch emptying the store;
  // if_version stale), kBusy, kIOError. The messages say what to do. Thread-safe.
  virtual Result<CuratedWriteResult> WriteCurated(const CuratedWrite& write) = 0;
  // The system-prompt block of both stores; with a session_id, frozen at that session's first
  // call. Errors: as ReadCurated; kIOError. Thread-safe.
  virtual Result<CuratedSnapshot> SnapshotCurated(std::string_view namespace_name, std::string_view session_id) = 0;
  // Points the namespace's curated folder at `folder` (a symlink; e.g. ~/.hermes/memories, which
  // then works as is). Returns the folder's absolute path. Errors: kInvalidArgument, kNotFound
  // (no such folder), kFailedPrecondition (the namespace already has files of its own), kIOError.
  virtual Result<std::string> BindCurated(std::string_view namespace_name, const std::string& folder) = 0;

  // ---- Experience (docs/experience.md): episodes, distilled rules, experience recall ---------
  // Every call validates the namespace (B27) and names the field at fault; the write calls are one
  // transaction each. Thread-safe (serialised on the connection).

  // Starts an episode: one task, with its goal (the full text kept; goal_short shows ≈ 50
  // characters), an optional declared task type, agent and session, and optionally the steps done
  // so far. Returns it (open, outcome "unknown", with its steps). Errors: kInvalidArgument (goal
  // missing or over 10,000 characters, a malformed field, "step N: ..." for a bad step, over 1,000
  // steps), kNotFound (a step's evidence_event_id is not an event of the namespace), kBusy, kIOError.
  virtual Result<Episode> StartEpisode(const EpisodeStartInput& input) = 0;

  // Appends a step to an open episode (ordinal = its step count + 1; changes_state guessed from
  // the tool name when not given). Returns the episode without its steps but the one appended, with
  // tools_used and write_signature updated. Errors: kInvalidArgument, kNotFound (no such episode in
  // the namespace; an evidence event that is not the namespace's), kFailedPrecondition (the episode
  // has ended, or has 10,000 steps), kBusy, kIOError.
  virtual Result<Episode> AddEpisodeStep(const EpisodeStepAppend& input) = 0;

  // Ends an open episode with its outcome (reward, outcome source, feedback). Its task type: the
  // one given now (declared), else a declared one, else its write signature (the sorted
  // state-changing tools it called; "read_only" when its steps changed nothing), else — an
  // episode without steps — the task-type model's guess from the goal at probability ≥ 0.5
  // (source inferred, correctable with SetEpisodeType). A success or failure of a known type is
  // then counted in the rules of its type, and the type is distilled when
  // ExperienceOptions::distill_every such episodes arrived since its last distillation (the
  // report says what changed). Errors: kInvalidArgument (outcome not one of kEpisodeOutcomes, an
  // outcome_source not one of kOutcomeSources, a reward that is not finite, ...), kNotFound,
  // kFailedPrecondition (already ended), kBusy, kIOError.
  virtual Result<EndEpisodeResult> EndEpisode(const EpisodeEndInput& input) = 0;

  // Corrects an episode's task type (source becomes declared; audited as "retyped"): its support
  // moves from the rules of the old type to those of the new one. Errors: kInvalidArgument,
  // kNotFound, kBusy, kIOError.
  virtual Result<EndEpisodeResult> SetEpisodeType(std::string_view namespace_name, std::string_view episode_id,
                                                  std::string_view task_type) = 0;

  // The episode with its steps. Errors: kInvalidArgument, kNotFound (none in this namespace).
  virtual Result<Episode> GetEpisode(std::string_view namespace_name, std::string_view episode_id) = 0;

  // One page of episodes, newest first, without steps (see ListEpisodesQuery). An unknown
  // namespace has none. Errors: kInvalidArgument (limit outside 1–1000, an unknown outcome or
  // status).
  virtual Result<std::vector<Episode>> ListEpisodes(const ListEpisodesQuery& query) = 0;

  // Distils the rules of one task type (or of every type with ended episodes) now, from each
  // type's 50 most recent successes and failures (experience/rule_distiller.h). Idempotent when no
  // episode arrived since. Errors: kInvalidArgument (also a distiller that cannot be set up:
  // ValidateDistiller), kNotFound (unknown namespace), kBusy, kIOError.
  virtual Result<RuleUpdateReport> Distill(const DistillRequest& request) = 0;

  // One page of rules, oldest first, deprecated ones only when asked (see ListRulesQuery). Errors:
  // kInvalidArgument (limit outside 1–1000, an unknown status).
  virtual Result<std::vector<Rule>> ListRules(const ListRulesQuery& query) = 0;

  // The rule with its version chain (oldest first), its history and its last 100 matching
  // episodes. Errors: kInvalidArgument, kNotFound.
  virtual Result<RuleDetail> GetRule(std::string_view namespace_name, std::string_view rule_id) = 0;

  // What engram knows about doing a task: its task type (the given one, or the model's guesses
  // from the text, entity-like words left out), the best rule_limit rules of the likely types
  // (active before pending and disputed; never deprecated), then the best episode_limit
  // *successful* episodes by ExperienceOptions' weighted score of text similarity, type match and
  // recency, each with its key decisions and why it was chosen. Failed episodes are never
  // returned: they are the evidence of "avoid" rules. Reads only. Errors: kInvalidArgument (text
  // empty or over 64 KiB, rule_limit outside 0–20, episode_limit outside 0–50), kNotFound
  // (unknown namespace).
  // With query.agent_id: only the agent's own episodes and rules (a rule is its own when one of its
  // agent's episodes supports it) and the shared area — episode types and rules that passed the
  // sharing gate (ExperienceOptions::share_min_agents, share_min_success_rate; re-read on every
  // call, so a later failure demotes them) — the shared ones × shared_other_type_weight for an agent
  // whose own episodes are all of other types. Cold experience is never returned. The episodes and
  // rules returned count as accesses of their forget score (batched like recall hits, written by
  // Maintain). Errors as above, and kInvalidArgument for a blank agent (field "agent").
  virtual Result<ExperienceResult> RecallExperience(const ExperienceQuery& query) = 0;

  // Forms episodes from the event stream (docs/experience.md, "Episodes from the event stream"):
  // reads each session's events after its last detected episode (user and assistant turns, tool
  // calls — those of `engram mcp-tap` with their outcome), scores each candidate boundary before a
  // user turn from closing signals, a terminal state-changing tool call, a new request and the topic
  // shift (experience/boundary_detector.h), commits each segment that ends at a boundary of
  // confidence ≥ 0.8 as an ended episode (origin detected: goal = its first user request, steps =
  // its tool calls or else its assistant turns, each with its event as evidence; outcome failure
  // when its last tool call failed, success when the user closed it with thanks, else unknown),
  // and keeps a boundary only a topic shift could lift in the buffer until the text after it
  // arrives or the session is over (request.close, or idle for ExperienceOptions::segment_idle_ms).
  // A session with explicit episodes is skipped. Idempotent: a segment is written once (unique
  // per session and first event) and a call resumes after the last one. Errors: kInvalidArgument
  // (namespace, session_id), kNotFound (unknown namespace or session), kBusy, kIOError.
  // Thread-safe.
  virtual Result<SegmentReport> SegmentEpisodes(const SegmentRequest& request) = 0;
  // The namespace's cold episodes and rules (forget score below ExperienceOptions::forget_cold_below,
  // found by Maintain), oldest cold first, at most `limit` (1–1000). A later Maintain deletes those
  // whose score fell below forget_delete_below, with tombstones. Errors: kInvalidArgument,
  // kNotFound (unknown namespace).
  virtual Result<std::vector<ColdExperience>> ListColdExperience(std::string_view namespace_name, int limit) = 0;

  // Writes a consistent online snapshot of the database to `path` (VACUUM INTO; writers are not
  // blocked) and its manifest to `path + ".manifest.json"` (schema version, time, engram version,
  // size in bytes, XXH3-128 of the file, tombstone count, highest tombstone id, hash of the
  // ledger). Returns the manifest. Errors: kInvalidArgument (empty path), kAlreadyExists (path or
  // manifest exists), kBusy, kIOError. Thread-safe.
  virtual Result<BackupManifest> Backup(const std::string& path) = 0;

  // Restores the backup at `backup_path` over options.db_path: verifies the manifest, refuses
  // stray -wal/-shm/-journal files next to the backup, copies it next to the live database, runs
  // integrity_check, migrates an older schema, replays every tombstone of the live database's
  // ledger (content forgotten after the backup stays forgotten, B21), compacts, then renames it
  // over the live file. On any error the live database is unchanged. No Engine of this process
  // may have the live database open; another process that has it open is detected through its
  // SQLite file locks (kBusy). Errors: kInvalidArgument (stray sidecar, empty path), kNotFound
  // (backup or manifest missing), kCorruption (manifest mismatch, integrity check, newer schema),
  // kBusy, kIOError.
  static Result<RestoreReport> Restore(const Options& options, const std::string& backup_path);

  // Checks a backup against its manifest (size and XXH3-128; a file whose only change is the
  // header SQLite rewrites when it opens a file in WAL mode still matches, see docs/backup.md),
  // then opens it read-only and immutable — no byte of it is written, no sidecar created — and runs
  // integrity_check. Never opens options.db_path. Errors: kNotFound, kCorruption (mismatch,
  // integrity_check, a newer schema). Thread-safe.
  static Result<BackupManifest> VerifyBackup(const std::string& backup_path);
};

}  // namespace engram

#endif  // ENGRAM_INCLUDE_ENGINE_H_
