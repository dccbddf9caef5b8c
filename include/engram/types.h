// engram/types.h — the values that cross the public API: events, sessions, recall results.
//
// Conventions: every time is UTC; `TimestampMs` counts milliseconds since the Unix epoch, and text
// forms are ISO-8601 with a `Z` suffix ("2023-05-08T13:56:00.000Z"). Strings are UTF-8. Enumerated
// fields (role, session kind, origin class) travel as their lowercase names so that every entry
// point (library, CLI, REST, MCP, import) validates them with the same code: Engine::Ingest.
#ifndef ENGRAM_INCLUDE_TYPES_H_
#define ENGRAM_INCLUDE_TYPES_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace engram {

using TimestampMs = int64_t;  // milliseconds since 1970-01-01T00:00:00Z

// Accepted values of EventInput::role.
inline constexpr const char* kRoles[] = {"user", "assistant", "tool", "system"};
// Accepted values of EventInput::session_kind (default "interactive").
inline constexpr const char* kSessionKinds[] = {"interactive", "cron", "heartbeat", "subagent"};
// Accepted values of EventInput::origin_class (default derived from the role: user → direct_user,
// assistant → agent, tool → external, system → system).
inline constexpr const char* kOriginClasses[] = {"direct_user", "agent", "external", "system",
                                                 "unknown"};

// What a caller writes: one thing that happened. Validated by Engine::Ingest; see its contract.
struct EventInput {
  std::string namespace_name;     // required: 1–200 characters, no control characters
  std::string session_id;         // required: 1–200 characters, no control characters
  std::string role;               // required: one of kRoles
  std::string content;            // required: valid UTF-8, not blank, no NUL, at most 1,000,000 bytes
  std::string occurred_at;        // ISO-8601; empty = now; no offset = UTC
  std::string speaker;            // optional display name of who spoke ("Caroline")
  std::string idempotency_key;    // optional; unique per namespace; a replay returns the original
  std::string metadata_json;      // optional JSON object text; "image_caption" is indexed for search
  std::string parent_session_id;  // optional lineage parent (same namespace)
  std::string session_kind;       // optional: one of kSessionKinds
  std::string session_source;     // optional: where the session came from ("cli", "locomo", ...)
  std::string session_title;      // optional
  std::string origin_class;       // optional: one of kOriginClasses
  std::string tool_name;          // optional, for role "tool"
  std::string tool_call_id;       // optional, for role "tool"
};

// A stored event. Events are immutable: the database refuses UPDATE on them.
struct Event {
  std::string id;  // ULID, 26 characters, sortable by recorded time
  std::string namespace_name;
  std::string session_id;
  std::string role;
  std::string speaker;
  std::string content;
  TimestampMs occurred_at = 0;  // valid time of the event (when it happened)
  // The UTC offset occurred_at was written with (minutes east of UTC; 0 for "Z" or none): the
  // speaker's calendar, in which the event's own "yesterday" or "last week" is resolved.
  int utc_offset_minutes = 0;
  TimestampMs recorded_at = 0;  // when engram stored it
  std::string origin_class;
  std::string content_hash;     // 32 hex digits: XXH3-128 of the content bytes
  std::string idempotency_key;  // as given, or "auto:<hash>" derived from session, role, time, content
  std::string metadata_json;    // "" or a JSON object
  std::string tool_name;
  std::string tool_call_id;
};

struct IngestResult {
  Event event;
  bool duplicate = false;  // true when the idempotency key was seen before: `event` is the original
  // true when the event matches a tombstone of its namespace (same content hash or idempotency
  // key as a forgotten event): nothing was stored, `event.id` is empty and `tombstone_id` names
  // the tombstone. `engram unforget TOMBSTONE_ID` lifts it (docs/forget.md).
  bool forgotten = false;
  std::string tombstone_id;
};

// Which query terms a recalled item must contain.
enum class MatchMode {
  kAny,  // ranked: an item matching any term may come back, best BM25 first (default)
  kAll,  // every term of the query must occur in the item (keyword search)
};

struct RecallQuery {
  std::string text;            // the question, taken literally: no search operators
  std::string namespace_name;  // required
  int limit = 10;              // 1–1000
  std::string session_id;      // optional: only this session
  std::optional<TimestampMs> since;  // optional: events with occurred_at >= since; claims valid after it
  std::optional<TimestampMs> until;  // optional: events with occurred_at < until; claims valid before it
  MatchMode match = MatchMode::kAny;
  // Bitemporal questions about claims (events are immutable and always visible):
  std::optional<TimestampMs> as_of;        // valid time: what was true at T (as known now)
  std::optional<TimestampMs> known_as_of;  // recorded time: what engram believed at K
  bool include_history = false;  // also superseded/expired claims, each with its validity interval
  bool include_claims = true;    // claims channel
  bool include_events = true;    // events channel
  // Token budget of the context packet: items are packed best first while their tokens fit
  // (see docs/retrieval.md for how tokens are counted); 0 = no budget, `limit` items.
  int budget_tokens = 0;
  // The moment the question is asked: relative time expressions in `text` ("yesterday", "last
  // week", "上周") resolve against it. Default: now.
  std::optional<TimestampMs> now;
  // The asker's UTC offset, minutes east of UTC (−720…+840): calendar words in `text` mean the
  // asker's local days ("yesterday" asked at 01:00 +08:00 is the previous day in UTC+8). 0 = UTC.
  // `engram recall --now` takes it from the offset written in the time, or --utc-offset.
  int utc_offset_minutes = 0;
  // The reranker (Options::rerank): unset = used when configured; false = not for this query;
  // true = required (kInvalidArgument when no reranker is configured).
  std::optional<bool> rerank;
  // Leave out the items RecallItem::flags would mark "instruction_like" (their text reads like a
  // prompt injection), instead of returning them flagged; the next items take their places. The
  // evidence quotes of the claims returned that read like one are left out too. See
  // docs/retrieval.md "Stored instructions".
  bool exclude_instruction_like = false;
};

// An event cited as evidence of a claim.
struct EvidenceRef {
  std::string event_id;
  std::string relation;  // supports, contradicts, supersedes
  std::string role;
  std::string speaker;
  std::string origin_class;
  std::string session_id;
  TimestampMs occurred_at = 0;
  std::string content;
  std::string metadata_json;
};

struct ChannelScore {
  std::string channel;  // turn, window, dense, date, speaker, claims, feedback, rerank
  int rank = 0;         // 1-based rank within the channel's candidates
  double score = 0;
};

struct RecallItem {
  std::string type = "event";  // what the item is; claims join in later versions
  std::string id;
  std::string text;  // the event content
  double score = 0;  // fused score, higher is better; comparable within one result only
  TimestampMs occurred_at = 0;
  TimestampMs recorded_at = 0;  // events: when engram stored it; claims: recorded_from
  std::string session_id;
  std::string speaker;
  std::string role;
  std::string metadata_json;
  // Claims only (type "claim"):
  std::string status;  // active, superseded, disputed, expired, ...
  std::string subject, predicate, slot, value;
  std::vector<std::string> qualifiers;
  TimestampMs valid_from = 0;
  std::optional<TimestampMs> valid_to;
  std::vector<EvidenceRef> evidence;
  // Per channel that found the item: its rank there (1 = best) and its raw score (BM25, cosine,
  // 0/1 for date and speaker matches) — see docs/retrieval.md.
  std::vector<ChannelScore> channels;
  int tokens = 0;           // estimated tokens of the item in a prompt (text; claims: + evidence)
  std::string feedback_id;  // pass to Engine::Feedback / `engram feedback` to rate this item
  // Warnings about the content, which is always data, never instructions: "instruction_like" when
  // it reads like a prompt injection (bug_scenarios.md B50; the threat scanner's context scope,
  // docs/retrieval.md "Stored instructions"). RecallQuery::exclude_instruction_like leaves such
  // items out.
  std::vector<std::string> flags;
};

// How many candidates one stage of recall saw (RecallResult::stages, `engram recall --explain`).
struct RecallStage {
  std::string name;   // claims, matched, window, day_filter, read (pruned matching), fused, kept, rerank, packed
  int64_t count = 0;  // candidates after the stage
};

// What the optional rerank stage did (RecallResult::rerank).
struct RerankReport {
  // "" = no reranker configured, or turned off for this query (the JSON packet then has no
  // "rerank" field); "applied" = the pool was reordered by the reranker's scores; "skipped" =
  // the reranker failed (timeout, error, malformed reply) and the fused order was kept.
  std::string status;
  std::string reason;  // skipped only: "timeout after 300 ms", the provider's error, ...
  std::string model;   // Options::rerank.model (may be empty)
  int pool = 0;        // items sent to the reranker
  double took_ms = 0;  // wall time of the stage, ms
};

// The context packet: what one question recalls, ready for a prompt.
inline constexpr int kContextPacketVersion = 1;

struct RecallResult {
  int version = kContextPacketVersion;
  std::vector<RecallItem> items;     // best first, at most RecallQuery::limit
  std::vector<std::string> terms;    // the normalised terms the query was searched with
  int used_tokens = 0;               // Σ item tokens
  bool truncated = false;            // a ranked item was left out to stay under budget_tokens
  // "ok"; "low_confidence" when the best item holds less than half of the question's idf mass
  // (evidence_strength < 0.5); "no_evidence" when nothing was found.
  std::string answerability = "no_evidence";
  double evidence_strength = 0;      // 0..1: share of the question's idf mass in the best item's
                                     // text or session window (1 for a claims-only hit)
  // "current" (claims valid now, stale evidence hidden), "history" (replaced and expired claims
  // too: --include-history, or a question about the past such as "where did I live before?",
  // text/query_intent.h) or "as_of" (--as-of / --known-as-of: the view at that time).
  std::string intent = "current";
  std::vector<RecallStage> stages;   // candidates per stage, in order
  double took_ms = 0;                // wall time spent inside Recall, in milliseconds
  // Why a channel was off for this query, for the user ("dense channel disabled: ..."); the
  // other channels still ran. Empty normally.
  std::vector<std::string> warnings;
  // The rerank stage (empty status when no reranker ran). When skipped, warnings also says why.
  RerankReport rerank;
};

// `engram feedback`: a rating of one recalled item.
struct FeedbackInput {
  std::string feedback_id;  // RecallItem::feedback_id
  bool helpful = true;
  // Required: the item must belong to this namespace (else kNotFound and nothing is recorded), so
  // that every caller names the namespace it acts in; "" is kInvalidArgument.
  std::string namespace_name;
};

struct FeedbackResult {
  std::string item_type;  // event or claim
  std::string item_id;
  std::string namespace_name;
  int64_t helpful = 0;    // ratings of the item so far (every query)
  int64_t unhelpful = 0;
};

// ---- API keys (servers: `engram serve`, `engram keys`) -----------------------------------------

// Access levels a key grants on its namespaces: read < write < admin. An admin key on "*" may also
// call whole-file operations (doctor, backup, maintain).
inline constexpr const char* kKeyAccessLevels[] = {"read", "write", "admin"};

struct ApiKeyInput {
  std::vector<std::string> namespaces;  // names, or "*" for every namespace; at least one
  std::string access = "read";          // one of kKeyAccessLevels
  std::string label;                    // free text for `keys list`, at most 200 characters
};

// A stored key: never its secret (only its SHA-256 is stored).
struct ApiKeyInfo {
  std::string id;  // public id "ek_" + 16 hex digits
  std::vector<std::string> namespaces;
  std::string access;
  std::string label;
  TimestampMs created_at = 0;
  std::optional<TimestampMs> revoked_at;  // set once revoked; a revoked key never verifies
};

struct CreatedApiKey {
  ApiKeyInfo key;
  std::string secret;  // "<id>.<64 hex digits>"; shown once, not recoverable
};

// ---- Claims ---------------------------------------------------------------------------------

// Accepted claim statuses.
inline constexpr const char* kClaimStatuses[] = {"active",   "superseded", "disputed",
                                                 "archived", "retracted",  "expired"};

// An atomic fact read from events, with evidence. Never edited in place: a change is a new claim
// that supersedes this one; the old one stays queryable by valid time (as_of) and recorded time
// (known_as_of).
struct Claim {
  std::string id;  // ULID
  int64_t seq = 0;  // insertion order within the file (ListClaimsQuery::after_seq pages by it)
  std::string namespace_name;
  std::string subject;    // who it is about ("Lin", "Mei", "user")
  std::string predicate;  // canonical snake_case predicate (see write/extraction/extractor.h)
  std::string slot;       // sub-key (favorite "color", relation "sister", uses "ui_theme"), or ""
  std::string value;      // source language, byte for byte
  std::string text;       // readable statement
  std::vector<std::string> qualifiers;  // negated, temporary, habitual, planned, past, reported
  TimestampMs valid_from = 0;             // valid time: true from
  std::optional<TimestampMs> valid_to;    // valid time: true until (exclusive), if known
  TimestampMs recorded_from = 0;          // recorded time: engram believed it from
  std::optional<TimestampMs> recorded_to; // recorded time: until (set when superseded)
  std::string status;  // one of kClaimStatuses
  std::string scope;
  std::string authority;  // high, medium, low (provenance)
  std::string assertion;  // fact, observation
  double confidence = 0;
  double importance = 0;
  std::string supersedes_id;
  std::string superseded_by_id;
  std::string conflict_key;  // subject|predicate|slot for single-valued predicates, else ""
  std::string fact_hash;
  std::string time_phrase;   // "yesterday", "上周" as written
  std::string extractor;     // "rules/1", "llm/<model>", "explicit"
  std::vector<EvidenceRef> evidence;
  // Lifecycle (docs/lifecycle.md). expires_at: the TTL deadline, ms UTC (an explicit valid_to, or
  // valid_from + the TTL of a temporary claim); unset = no TTL, or not assigned yet.
  std::optional<TimestampMs> expires_at;
  double activation = 1.0;     // 0–1, as of the last maintenance pass (half-life decay)
  int64_t access_count = 0;    // recall hits, as of the last flush of the access counts
  std::optional<TimestampMs> last_accessed_at;  // last recall hit, ms UTC
};

struct ListClaimsQuery {
  std::string namespace_name;    // required
  std::string subject;           // optional: only claims about this subject (exact)
  bool include_history = false;  // also superseded, expired, archived and retracted claims
  int limit = 100;               // 1–100000
  int offset = 0;
  // Keyset pagination: only claims inserted after the one with this Claim::seq (0 = from the
  // start). Unlike offset, a page boundary does not move when claims are written or superseded
  // between pages, so paging never repeats or skips a claim that stays listed.
  int64_t after_seq = 0;
};

// `engram remember`: an explicit claim, written with an event as its evidence.
struct RememberInput {
  std::string namespace_name;   // required
  std::string text;             // the statement; or subject+predicate+value
  std::string subject, predicate, value;
  std::string at;               // ISO-8601 valid-from time; default now
  std::string idempotency_key;  // optional
  std::string session_id;       // optional; default "explicit"
  std::string speaker;          // optional; the subject of TEXT defaults to it, else "user"
};

struct RememberResult {
  Event event;                     // the evidence event
  std::vector<Claim> claims;       // claims created, or existing claims the statement confirmed
  std::vector<std::string> decisions;  // per claim: created, superseded, duplicate, merged, disputed,
                                       // backfill, or rejected:<reason>
  bool duplicate = false;          // the idempotency key was seen before: nothing changed
  bool forgotten = false;          // the statement matches a tombstone: nothing was stored, the
  std::string tombstone_id;        // event's id is empty; see IngestResult::forgotten
};

// One admission, dedup or conflict decision about a candidate claim (explain shows them).
struct ClaimDecision {
  TimestampMs at = 0;
  std::string decision;  // admitted, rejected, duplicate, merged, superseded, disputed
  std::string reason;    // reason code, e.g. not_notable, secret, exact_duplicate
  std::string detail;
  std::string event_id;  // the event the candidate came from
};

// One change of a claim (B22): time, actor, before/after.
struct ClaimChange {
  TimestampMs at = 0;
  std::string actor;   // "worker:rules/1", "cli", ...
  std::string action;  // created, evidence_added, superseded, disputed, status_changed
  std::string reason;
  std::string before_json;  // state before ({} when created)
  std::string after_json;
};

struct ClaimExplanation {
  Claim claim;
  std::vector<Claim> chain;  // the supersede chain, oldest first (includes this claim)
  std::vector<ClaimDecision> decisions;
  std::vector<ClaimChange> history;
  bool current = false;
  std::string why;  // why it is or is not current, in one sentence
};

// Background work (extraction) waiting or failed.
struct JobInfo {
  int64_t id = 0;
  std::string kind;    // extract
  std::string status;  // pending, leased, done, failed
  std::string namespace_name;
  std::string session_id;
  std::string event_id;
  int attempts = 0;
  std::string last_error;
  TimestampMs updated_at = 0;
  // Leased jobs only (status "leased"); empty / 0 / false otherwise.
  std::string lease_owner;           // "host pid N"; "" when the lease names no owner (older rows)
  std::string lease_owner_alive;     // alive, dead, or unknown (another machine, boot or container,
                                     // or no owner recorded: only the expiry time can tell)
  TimestampMs lease_expires_at = 0;  // ms UTC
  bool lease_stale = false;          // owner dead or lease expired: the next `process` takes it over
};

struct ProcessReport {
  int64_t batches = 0;
  int64_t events = 0;
  int64_t claims_created = 0;
  int64_t claims_confirmed = 0;  // duplicates that only added evidence
  int64_t claims_superseded = 0;
  int64_t claims_disputed = 0;
  int64_t candidates_rejected = 0;
  int64_t jobs_failed = 0;  // jobs that hit an error this run (retried later or failed for good)
  std::vector<std::string> errors;
};

struct SessionInfo {
  int64_t seq = 0;  // insertion order in this file (the keyset of ListSessionsQuery::after_seq)
  std::string id;
  std::string namespace_name;
  std::string parent_session_id;  // "" for a root
  std::string kind;
  std::string source;
  std::string title;
  TimestampMs started_at = 0;      // occurred_at of its first event
  TimestampMs last_active_at = 0;  // occurred_at of its last event
  int64_t event_count = 0;
  std::string preview;  // the first 80 characters of the first user event (or first event)
};

// Sessions newest first by when they were first written (a session's place never moves, so paging
// is stable while others are written). An empty namespace is an error, never "every namespace":
// that is all_namespaces = true, with namespace_name empty.
struct ListSessionsQuery {
  std::string namespace_name;   // required unless all_namespaces
  int limit = 20;               // 1–1000
  bool all_namespaces = false;  // every namespace (explicit; the servers keep it to admin keys)
  int64_t after_seq = 0;        // keyset: the SessionInfo::seq of the previous page's last item
};

// Hermes-style session search: full text over past sessions, one hit per lineage.
struct SessionSearchQuery {
  std::string text;                // required, literal
  std::string namespace_name;      // required
  std::string current_session_id;  // optional: its whole lineage is excluded
  int limit = 3;                   // distinct lineages, clamped to 1–10
  int window = 5;                  // events either side of the hit, clamped to 1–20
};

struct SessionSearchHit {
  SessionInfo session;           // the session that owns the matching event
  std::string lineage_root_id;   // root of its parent_session_id chain
  std::string match_event_id;
  double score = 0;
  std::vector<Event> window;     // the hit and up to `window` events either side, in order
  int64_t events_before = 0;     // events of the session before the window
  int64_t events_after = 0;      // events of the session after the window
  std::optional<Event> first_event;  // the session's first event, when outside the window
  std::optional<Event> last_event;   // the session's last event, when outside the window
};

struct SessionSearchResult {
  std::vector<SessionSearchHit> hits;
  std::vector<std::string> terms;
};

struct NamespaceStats {
  std::string name;
  int64_t sessions = 0;
  int64_t events = 0;
  int64_t claims = 0;         // all statuses
  int64_t active_claims = 0;
};

struct StoreStats {
  std::string path;
  int64_t file_bytes = 0;  // main database file
  int64_t wal_bytes = 0;   // write-ahead log, 0 when absent
  int64_t namespaces = 0;
  int64_t sessions = 0;
  int64_t events = 0;
  int64_t claims = 0;
  int64_t active_claims = 0;
  int64_t pending_jobs = 0;       // waiting to be leased (due now or in a retry backoff)
  int64_t leased_jobs = 0;        // held by a worker
  int64_t stale_leased_jobs = 0;  // of leased_jobs: owner dead or lease expired (taken over next)
  int64_t failed_jobs = 0;        // failed for good until `engram jobs retry`
  std::vector<NamespaceStats> per_namespace;
  // Engine::Stats: what PRAGMA quick_check found (at most 20 lines; empty = the file is sound).
  // The counts above are then only what could be read.
  std::vector<std::string> damage;
};

// What one table of a damaged database still gives (DoctorReport::tables).
struct TableHealth {
  std::string name;
  int64_t rows = 0;   // rows read to the end of every column, in rowid order
  std::string error;  // why reading stopped there; empty when every row was read
};

struct DoctorReport {
  bool ok = false;  // true when every check passed
  int schema_version = 0;
  std::string journal_mode;
  std::string sqlite_version;  // of the library engram runs on, e.g. "3.53.2"
  std::vector<std::string> checks;    // "name: ok" or "name: <problem>", one per check run
  std::vector<std::string> problems;  // the failing subset of checks
  StoreStats stats;
  // The lines of PRAGMA integrity_check — or, when it cannot finish on a damaged file, of
  // quick_check and a per-table integrity_check — other than "ok" (at most 200 of each).
  std::vector<std::string> integrity;
  // The tables and indexes those lines name or whose check could not finish: "table events",
  // "index claims_polarity (table claims)".
  std::vector<std::string> damaged;
  // Only when a problem was found: what each table still reads, and whether `engram export
  // --salvage` reads every exported row ("ok: 5000 events, 120 claims") or where it stops.
  std::vector<TableHealth> tables;
  std::string export_check;
};

// ---- Forget (docs/forget.md) -----------------------------------------------------------------

// What to forget: exactly one selector — `ids`, `all`, `session_id`, `subject`, `before` or
// `query`. Every selector but `ids` needs `namespace_name`; with `ids` a namespace is optional and,
// when given, every id must belong to it.
struct ForgetRequest {
  std::vector<std::string> ids;  // event or claim ids (any id a write returned); forgotten ids are
                                 // reported in ForgetReport::already_forgotten, not as errors
  std::string namespace_name;
  bool all = false;              // every event and claim of the namespace (B15: only that one)
  std::string session_id;        // every event of this session (external id) of the namespace
  std::string subject;           // every claim (any status) whose subject is exactly this
  std::optional<TimestampMs> before;  // every event with occurred_at < before
  // Every event and every claim (any status: superseded, expired and archived ones too) whose
  // text holds every term of `query`, as full-text search reads it (not recall's ranked packet).
  std::string query;
  int query_limit = 20;          // 1–1000: at most this many events and this many claims
  // Compute and report what would be forgotten (with a short text of each item) and change
  // nothing. A `query` selector is always a preview unless `confirm` is set.
  bool preview = false;
  bool confirm = false;          // apply a `query` selector (`engram forget --query TEXT --yes`)
  std::string reason;            // free text kept in tombstones and the audit log (not content!)
  std::string actor = "api";     // who asks: "cli", "api", ...
};

// One object a forget removed (or would remove).
struct ForgetItem {
  std::string type;  // "event", "claim", "episode" or "rule"
  std::string id;
  // selected: named by the selector; private_evidence: an event that supported only forgotten
  // claims; no_evidence_left: a claim whose every supporting event is forgotten; id: an episode or
  // rule named by id; forget_score: cold experience deleted by maintenance.
  std::string why;
  std::string text;  // previews only: the first 120 characters of the content or claim text
};

struct ForgetReport {
  bool preview = false;        // true: nothing was changed
  std::string operation_id;    // ULID shared by the tombstones and audit rows of this call ("" in
                               // a preview)
  int64_t events = 0;          // events forgotten (or that would be)
  int64_t claims = 0;          // claims forgotten (or that would be)
  int64_t sessions = 0;        // sessions removed because no event was left in them
  int64_t vectors = 0;         // vector rows deleted
  int64_t feedback = 0;        // feedback rows deleted
  int64_t jobs = 0;            // job rows deleted
  std::vector<ForgetItem> items;              // events first, then claims, by id
  std::vector<std::string> tombstone_ids;     // one per forgotten object, same order as items
  std::vector<std::string> already_forgotten; // named ids that had been forgotten before
  // Curated entries (MEMORY.md / USER.md, docs/curated.md) taken out of their files because the
  // event that recorded them was forgotten, and why one could not be ("" entries never).
  int64_t curated_entries = 0;
  std::vector<std::string> warnings;
};

// Proof that an object was forgotten. Never holds content: ids and identity hashes only.
struct Tombstone {
  std::string id;  // ULID
  std::string namespace_name;
  std::string object_type;       // "event" or "claim"; "episode" or "rule" when experience
                                 // forgetting deleted it (no hash then: docs/experience.md)
  std::string object_id;
  std::string content_hash;      // events: XXH3-128 of the content (32 hex digits)
  std::string idempotency_hash;  // events: XXH3-128 of the idempotency key
  std::string fact_hash;         // claims
  std::string reason;
  std::string selector_json;     // how it was selected, e.g. {"kind":"session","session":"s1"};
                                 // query and subject text are stored as hashes
  std::string operation_id;
  std::string actor;
  TimestampMs created_at = 0;
  int64_t seq = 0;  // the order it was written to this file (the keyset of ListTombstonesQuery)
};

// Tombstones newest first (the order they were written to this file). An empty namespace is an
// error, never "every namespace": that is all_namespaces = true, with namespace_name empty.
struct ListTombstonesQuery {
  std::string namespace_name;   // required unless all_namespaces
  std::string object_id;        // optional: only the tombstones of this object id
  int limit = 100;              // 1–100000
  bool all_namespaces = false;  // every namespace (explicit)
  int64_t after_seq = 0;        // keyset: the Tombstone::seq of the previous page's last item
};

// Extraction jobs, oldest first (by id), every namespace (a whole-file, admin list).
struct ListJobsQuery {
  std::string status;     // "" = every job not done; pending, leased, done, failed
  int limit = 100;        // 1–10000
  int64_t after_id = 0;   // keyset: the JobInfo::id of the previous page's last item
};

// The audit rows about one object id, in the order they were written.
struct AuditQuery {
  std::string object_id;  // required
  int limit = 1000;       // 1–100000
  int64_t after_seq = 0;  // keyset: the AuditEntry::seq of the previous page's last item
};

// One row of the audit log: a lifecycle transition (forget, unforget, compact) or, for a forgotten
// claim, a change from its history kept without content.
struct AuditEntry {
  int64_t seq = 0;  // insertion order; ties in `at` are ordered by seq
  TimestampMs at = 0;
  std::string actor;
  std::string action;       // forget, unforget, compact, created, superseded, ...
  std::string object_type;  // event, claim, tombstone, operation, database
  std::string object_id;
  std::string namespace_name;  // "" when not about one namespace
  std::string reason;
  std::string detail_json;  // ids, counts and statuses; never content
};

// ---- Lifecycle maintenance (docs/lifecycle.md) -----------------------------------------------

// `engram maintain`: one maintenance pass.
struct MaintainRequest {
  std::string namespace_name;        // required unless all_namespaces ("" is an error)
  std::optional<TimestampMs> now;    // the pass's clock, ms UTC; default: the wall clock
  std::string actor = "maintain";    // kept in claim history and the audit log
  bool all_namespaces = false;       // every namespace (explicit; namespace_name must be empty)
};

// What Export and Salvage write: one namespace, or every one — said explicitly, so that an empty
// name (a shell variable left unset) is an error rather than the whole file.
struct NamespaceScope {
  NamespaceScope(std::string_view name) : namespace_name(name) {}   // NOLINT: one namespace
  NamespaceScope(const std::string& name) : namespace_name(name) {}  // NOLINT
  NamespaceScope(const char* name) : namespace_name(name) {}         // NOLINT
  static NamespaceScope All() {
    NamespaceScope s("");
    s.all_namespaces = true;
    return s;
  }
  std::string namespace_name;
  bool all_namespaces = false;
};

// What one pass did in one namespace (counts of claims unless said otherwise).
struct MaintainNamespaceReport {
  std::string namespace_name;
  int64_t access_flushed = 0;   // claims whose batched recall hits were written
  int64_t ttl_assigned = 0;     // claims whose expires_at was (re)computed
  int64_t expired = 0;          // active/disputed → expired (TTL or valid_to passed)
  int64_t decayed = 0;          // claims whose stored activation changed
  int64_t archived = 0;         // active/disputed → archived (activation below threshold + grace)
  int64_t vectors_dropped = 0;  // vector rows of archived claims deleted
  int64_t converged = 0;        // duplicate current claims folded into one (same claim keys)
  // Experience (docs/experience.md, "Forgetting cold experience"): episodes and rules whose forget
  // score fell below the cold threshold, that rose back above it, and that were deleted (tombstoned).
  int64_t experience_cold = 0;
  int64_t experience_warmed = 0;
  int64_t experience_forgotten = 0;
};

struct MaintainReport {
  TimestampMs now = 0;  // the clock the pass used, ms UTC
  std::vector<MaintainNamespaceReport> namespaces;
  MaintainNamespaceReport total;  // sums (namespace_name "")
  double took_ms = 0;
};

struct CompactReport {
  int64_t file_bytes_before = 0;  // main file + WAL, bytes
  int64_t file_bytes_after = 0;
  bool wal_truncated = false;     // the WAL was checkpointed and truncated to 0 bytes
  double took_ms = 0;
};


// ---- Export, import, backup, restore (see docs/backup.md) --------------------------------------

// Counts of one export or import, by line kind.
struct DumpCounts {
  int64_t namespaces = 0;
  int64_t sessions = 0;
  int64_t events = 0;
  int64_t claims = 0;
  int64_t tombstones = 0;
};

struct ImportReport {
  DumpCounts imported;           // rows written
  int64_t skipped_forgotten = 0; // events/claims matching a tombstone (the file's or the database's)
  int64_t skipped_existing = 0;  // events/claims whose id (or idempotency key) is already stored
};

// The manifest written next to a backup (PATH.manifest.json).
struct BackupManifest {
  int format = 1;
  int schema_version = 0;
  TimestampMs created_at = 0;
  std::string engram_version;
  int64_t file_bytes = 0;
  std::string file_xxh3;          // XXH3-128 of the backup file, 32 hex digits
  int64_t tombstone_count = 0;    // tombstones in the backup's ledger
  std::string max_tombstone_id;   // the highest (newest) tombstone ULID, "" when none
  std::string ledger_xxh3;        // XXH3-128 over the sorted tombstone ids, one per line
};

struct RestoreReport {
  BackupManifest manifest;
  int64_t tombstones_replayed = 0;  // live tombstones absent from the backup, copied in
  int64_t events_forgotten = 0;     // backup rows removed by the replay
  int64_t claims_forgotten = 0;
  bool migrated = false;            // the backup had an older schema
};

// ---- Curated memory (docs/curated.md): two small files per namespace, Hermes-compatible ----
//
// `memory` (MEMORY.md: environment facts, conventions, tool quirks) and `user` (USER.md: the
// person's preferences and habits) hold entries separated by "\n§\n", each store under a budget
// in characters (Unicode code points, the delimiters counted). Layout, matching and messages follow
// Hermes Agent's built-in memory tool (../shared/reference/hermes.md §1), so a Hermes home's
// `memories/` folder works as is.

// One change to a curated store. action "add" needs content; "replace" needs old_text and content
// (the whole matched entry is replaced); "remove" needs old_text. old_text picks an entry: the
// entry equal to it, else the one entry containing it.
struct CuratedOp {
  std::string action;
  std::string content;
  std::string old_text;
  bool exact = false;  // old_text must equal the entry (no part-of-an-entry match)
};

struct CuratedWrite {
  std::string namespace_name;
  std::string target;               // "memory" or "user"
  std::vector<CuratedOp> operations;  // applied in order, all or nothing; the budget is checked on
                                      // the final state only (a batch may free room, then add)
  std::string session_id;           // the session the events are recorded in ("" = "curated")
  std::string origin_class = "agent";  // of the recorded events: "direct_user" from a person
  // When not empty, the write is refused (kFailedPrecondition) unless the file still has this
  // version (CuratedStoreState::version): optimistic concurrency for a caller that read it first.
  std::string if_version;
};

struct CuratedStoreState {
  std::string target;                // "memory" or "user"
  std::string file;                  // its path
  std::vector<std::string> entries;  // live state, in file order
  int64_t chars = 0;                 // code points of the entries joined by the delimiter
  int64_t limit = 0;                 // the budget, code points
  std::string usage;                 // "56% — 1,234/2,200 chars"
  std::string version;               // a hash of the file's bytes ("" when there is no file)
};

struct CuratedWriteResult {
  CuratedStoreState state;           // after the write
  std::string message;               // "Entry added.", "Applied 3 operation(s).", ...
  int applied = 0;                   // operations that changed the store
  // 1-based operation index → the whole entry it overwrote or removed (the text is gone from the
  // file: here it is visible to the caller, Hermes #117952).
  std::map<int, std::string> replaced_entries;
  std::map<int, std::string> removed_entries;
  // Entries already stored that read like a new one (same words, other case or punctuation).
  std::vector<std::string> near_duplicates;
  std::vector<std::string> event_ids;  // events recording the added and replacing entries
};

// The system-prompt block of a namespace's curated memory (Hermes layout: a rule, a header with
// the usage, a rule, the entries). Entries that scan as an injection are replaced by a [BLOCKED: ...]
// line. Frozen per session: the first call for a session renders it, later calls return the same.
struct CuratedSnapshot {
  std::string block;   // both stores, "" when both are empty
  std::string memory;  // the MEMORY block alone
  std::string user;    // the USER PROFILE block alone
  std::string session_id;  // the session it is frozen for ("" = not frozen: the current state)
  TimestampMs taken_at = 0;
};

// ---- Working memory (docs/working.md): a session's working state for an agent's context ----

// A sentence a person said that constrains the work ("don't use red"), kept word for word with
// where it was said.
struct WorkingConstraint {
  std::string text;        // the sentence, verbatim
  std::string event_id;    // the event it was said in
  std::string session_id;  // that event's session (an ancestor's, after a compression)
  TimestampMs at = 0;      // when it was said (the event's occurred_at)
  // For a retracted constraint: the event that took it back, and that sentence.
  std::string retracted_by;
  std::string retraction;
};

struct WorkingMemoryQuery {
  std::string namespace_name;
  std::string session_id;
  // The summary's budget in tokens (recall/context_packet.h counts them): the goal, every current
  // constraint and the paths ruled out always; then the newest turns verbatim while they fit.
  int budget_tokens = 1000;
  // When not empty: a summary made elsewhere (by the agent's own compaction) to check — every
  // current constraint must appear in it verbatim (WorkingMemory::missing lists those that do not).
  std::string summary;
};

struct WorkingMemory {
  std::string namespace_name;
  std::string session_id;
  std::vector<std::string> lineage;  // the session's ancestors, root first, then the session
  std::string goal;                  // the first thing the user asked, one line
  std::vector<WorkingConstraint> constraints;  // current, oldest first: pinned, never summarised
  std::vector<WorkingConstraint> retracted;    // taken back by a later turn (history)
  std::vector<WorkingConstraint> ruled_out;    // paths tried and given up, newest last
  std::vector<Event> recent;                   // the newest turns that fit, oldest first
  std::string text;        // the rendered summary
  int used_tokens = 0;     // tokens of `text`
  int total_tokens = 0;    // tokens of every turn of the lineage (what the summary compacts)
  bool over_budget = false;  // the pinned part alone is larger than the budget (it is kept whole)
  std::vector<std::string> missing;  // current constraints absent from the query's summary
};

// ---- Experience (docs/experience.md): episodes, distilled rules, experience recall ----------
//
// An episode is one task an agent did: its goal, task type, ordered steps, outcome and feedback.
// Rules are if-then advice distilled from the episodes of one task type with no model (successes
// give "do" rules, failures "avoid" rules), each with support, counts, a confidence and a status.
// Experience recall answers "what do I know about doing this task?": rules first, then similar
// successful episodes, each with why it was chosen. Failed episodes are never offered as examples.

// Accepted values of the episode fields.
inline constexpr const char* kEpisodeOutcomes[] = {"success", "partial", "failure", "unknown"};
// Where an episode's task type came from: the caller said it (declared, also a correction), the
// set of state-changing tools its steps called (write_signature), or the task-type model read it
// from the goal (inferred; correctable with Engine::SetEpisodeType).
inline constexpr const char* kTaskTypeSources[] = {"declared", "write_signature", "inferred"};
// Who judged the outcome (experience_memory.md §1.2): the environment (a test, a reward), the
// user's feedback, the agent itself, or a heuristic.
inline constexpr const char* kOutcomeSources[] = {"env", "user_feedback", "self_judge", "heuristic"};
inline constexpr const char* kRuleStatuses[] = {"pending", "active", "deprecated", "disputed"};

// One step of an episode as a caller writes it.
struct EpisodeStepInput {
  std::string action;      // required: what was done, ≤ 10,000 characters ("cancel order #W123")
  std::string reason;      // optional: why, ≤ 10,000 characters
  std::string result;      // optional: what came back, ≤ 10,000 characters (summarise big results)
  std::string tool_name;   // optional: the tool called, ≤ 200 characters
  // Whether the step changed the world (a write). Unset: a step with a tool whose name starts
  // with a read verb (get, find, list, search, ..., experience/write_signature.h) is a read, any
  // other tool step a write, a step without a tool a read.
  std::optional<bool> changes_state;
  std::string evidence_event_id;  // optional: the event it was read from (an id of the namespace)
  std::string at;          // ISO-8601; empty = now
};

struct EpisodeStep {
  int ordinal = 0;  // 1-based position in the episode
  std::string action;
  std::string reason;
  std::string result;
  std::string tool_name;
  bool changes_state = false;
  std::string evidence_event_id;
  TimestampMs at = 0;
};

// Engine::StartEpisode: a task begins (optionally with its steps so far).
struct EpisodeStartInput {
  std::string namespace_name;  // required
  std::string goal;            // required: the task in a sentence, ≤ 10,000 characters
  std::string task_type;       // optional: declared ("refund", or tools joined by "+")
  std::string agent_id;        // optional, ≤ 200 characters
  std::string session_id;      // optional: the session it happened in, ≤ 200 characters
  std::string started_at;      // ISO-8601; empty = now
  double boundary_confidence = 1.0;  // 0–1: 1 for an explicit start (a detected boundary: less)
  std::vector<EpisodeStepInput> steps;  // optional: steps already done, in order (≤ 1,000)
};

// Engine::EndEpisode: a task is over.
struct EpisodeEndInput {
  std::string namespace_name;  // required
  std::string episode_id;      // required: an open episode of the namespace
  std::string outcome;         // required: one of kEpisodeOutcomes
  std::optional<double> reward;  // optional: the environment's reward (any finite number)
  std::string outcome_source;  // optional: one of kOutcomeSources ("" = not said)
  std::string feedback;        // optional: the user's words about it, ≤ 10,000 characters
  std::string task_type;       // optional: declares (or corrects) the type now
  std::string ended_at;        // ISO-8601; empty = now
};

struct Episode {
  std::string id;  // ULID
  int64_t seq = 0;  // insertion order in this file (the keyset of ListEpisodesQuery::after_seq)
  std::string namespace_name;
  std::string agent_id;
  std::string session_id;
  std::string goal;        // the full text
  std::string goal_short;  // the first ≈ 50 characters, cut at a word (what lists show)
  std::string task_type;   // "" until known
  std::string task_type_source;     // one of kTaskTypeSources, "" when there is no type
  double task_type_confidence = 0;  // 1 for declared and write_signature; the model's for inferred
  // The sorted names of the tools its state-changing steps called, and every tool it called in
  // first-use order.
  std::vector<std::string> write_signature;
  std::vector<std::string> tools_used;
  std::vector<EpisodeStep> steps;  // in order (ListEpisodes leaves it empty)
  int64_t step_count = 0;
  std::string status;   // open, ended
  std::string outcome;  // one of kEpisodeOutcomes ("unknown" while open)
  std::optional<double> reward;
  std::string outcome_source;
  std::string feedback;
  TimestampMs started_at = 0;
  std::optional<TimestampMs> ended_at;
  // For an explicit episode, how sure its start is a task boundary (1 unless the caller said
  // less); for a detected one, the confidence of the boundary that ended it (1: its session
  // closed), docs/experience.md.
  double boundary_confidence = 1.0;
  std::string origin = "explicit";  // explicit (the episode calls) or detected (SegmentEpisodes)
  std::string first_event_id;       // detected: the first and last events of its segment ("" else)
  std::string last_event_id;
};

// Engine::AddEpisodeStep.
struct EpisodeStepAppend {
  std::string namespace_name;  // required
  std::string episode_id;      // required: an open episode
  EpisodeStepInput step;
};

// Episodes newest first (by when they were started in this file).
struct ListEpisodesQuery {
  std::string namespace_name;  // required
  std::string task_type;       // optional: only this type
  std::string outcome;         // optional: one of kEpisodeOutcomes
  std::string status;          // optional: open or ended
  std::string agent_id;        // optional
  int limit = 20;              // 1–1000
  int64_t after_seq = 0;       // keyset: the Episode::seq of the previous page's last item
};

// What one call did to the rules (EndEpisode, SetEpisodeType, Distill).
struct RuleUpdateReport {
  std::vector<std::string> task_types_distilled;  // types whose episodes were distilled
  int64_t episodes_read = 0;       // episodes the distiller read (its window per type)
  int64_t rules_created = 0;       // new rules: first versions and new versions
  int64_t rules_superseded = 0;    // rules replaced by a new version
  int64_t rules_updated = 0;       // rules whose counts changed
  int64_t rules_activated = 0;     // → active
  int64_t rules_deprecated = 0;    // → deprecated (support kept failing, or superseded)
  int64_t rules_disputed = 0;      // → disputed (an active rule prescribes the opposite)
  // The LLM path (ExperienceOptions::distiller "llm"; docs/experience.md, "The LLM distiller"):
  // empty / 0 when it did not run. Rules it made are counted in rules_created too.
  std::string llm_model;                               // the model asked
  int64_t llm_types_asked = 0;                         // task types sent to the model
  int64_t llm_rules_proposed = 0;                      // rules in its answers
  int64_t llm_rules_dropped = 0;                       // failed a check: never stored
  std::map<std::string, int64_t> llm_dropped_by_reason;  // experience/rule_proposal.h kRuleDrop* → count
  int64_t llm_rules_known = 0;                         // passed, but a live rule already prescribes it
  int64_t llm_rules_created = 0;                       // new rules of the LLM path
  // One line per task type whose model call failed ("refund: llm distiller: ... timed out"): its
  // offline rules stand, nothing of the call is stored, and the next distillation asks again.
  std::vector<std::string> llm_errors;
};

struct EndEpisodeResult {
  Episode episode;
  RuleUpdateReport rules;
};

// Engine::SegmentEpisodes: form episodes from the event stream of one session or of every session
// of a namespace (docs/experience.md, "Episodes from the event stream").
struct SegmentRequest {
  std::string namespace_name;  // required
  std::string session_id;      // optional: only this session ("" = every session of the namespace)
  // The sessions are over: decide the boundaries that wait in the buffer on the text there is and
  // commit each open segment as the session's last episode. A session idle for
  // ExperienceOptions::segment_idle_ms is over too.
  bool close = false;
  std::optional<TimestampMs> now;  // the clock of idleness, ms UTC (default the wall clock)
};

// What one segmentation did. The boundary counts are the decisions of this call over the events
// after each session's last detected episode: a candidate dropped inside a still open segment is
// looked at again by the next call.
struct SegmentReport {
  int64_t sessions_read = 0;
  int64_t sessions_skipped = 0;  // sessions with explicit episodes: never segmented over them
  int64_t events_read = 0;
  std::vector<Episode> episodes;   // detected now, in order, without their steps
  int64_t committed_at_once = 0;   // boundaries whose signals reached the threshold without waiting
  int64_t waited_committed = 0;    // boundaries that waited for the text after them, then committed
  int64_t waited_dropped = 0;      // ... then fell short (their turns stay in one episode)
  int64_t decided_at_close = 0;    // of the waited ones: decided because the session was over
  int64_t waiting = 0;             // still in the buffer (a session that is not over)
  int64_t dropped = 0;             // candidates below the threshold even with a full topic shift
  int64_t closed_segments = 0;     // last episodes of sessions that were over
};

// Engine::Distill: distil rules now (also done per type once enough new episodes exist).
struct DistillRequest {
  std::string namespace_name;  // required
  std::string task_type;       // optional: only this type ("" = every type with episodes)
};

// A procedural rule: "for tasks of TYPE, do / avoid ACTION", distilled from episodes.
struct Rule {
  std::string id;  // ULID
  int64_t seq = 0;
  std::string namespace_name;
  std::string task_type;
  std::string polarity;  // do, avoid
  // tool (use / avoid one tool), omission (avoid finishing without one tool), sequence (call these
  // tools in this order)
  std::string kind;
  std::vector<std::string> tools;  // the tool (kind tool) or the tools in order (sequence)
  std::string text;      // "For cancel_order tasks: call find_order, then cancel_order."
  // Episodes that matched it (used the tool; called the sequence in order) and how they ended.
  int64_t support = 0;
  int64_t success_count = 0;
  int64_t failure_count = 0;
  // Wilson lower bound (95%) of the share of matching episodes whose outcome the rule predicts
  // (success for do, failure for avoid); status pending below 0.6 (experience/rule_confidence.h).
  double confidence = 0;
  std::string status;         // one of kRuleStatuses
  std::string status_reason;  // why it has its status ("4 of its last 5 episodes failed: ...")
  int version = 1;
  std::string supersedes_id;
  std::string superseded_by_id;
  std::vector<std::string> conflicts_with;  // ids of the rules it is disputed with
  std::vector<std::string> support_episode_ids;  // the matching episodes, oldest first (≤ 100)
  // Where it comes from: "offline" (the counting distiller) or "llm" (proposed by a model, checked
  // and counted by engram); source_model names the model ("" for offline rules).
  std::string source = "offline";
  std::string source_model;
  TimestampMs created_at = 0;
  TimestampMs updated_at = 0;
};

// One change of a rule (Engine::GetRule): created, counted, activated, deprecated, ...
struct RuleChange {
  TimestampMs at = 0;
  std::string action;
  std::string reason;
  std::string episode_id;  // the episode that caused it, when one did
};

struct RuleDetail {
  Rule rule;
  std::vector<Rule> chain;  // the version chain, oldest first (includes this rule)
  std::vector<RuleChange> history;
};

struct ListRulesQuery {
  std::string namespace_name;  // required
  std::string task_type;       // optional
  std::string status;          // optional: one of kRuleStatuses ("" = every status but deprecated)
  bool include_deprecated = false;
  int limit = 50;              // 1–1000
  int64_t after_seq = 0;       // keyset (oldest first)
};

// Engine::RecallExperience: what to remember before doing a task.
struct ExperienceQuery {
  std::string namespace_name;  // required
  std::string text;            // required: the task, as the agent sees it (≤ 64 KiB)
  std::string task_type;       // optional: when known; otherwise inferred from text
  int rule_limit = 3;          // 0–20 rules
  int episode_limit = 5;       // 0–50 episodes
  // Episodes never returned nor learnt from by the type model for this query (the current
  // episode; a benchmark's held-out query). Rules already distilled from them stay.
  std::vector<std::string> exclude_episode_ids;
  std::optional<TimestampMs> now;  // the clock of the recency term; default now
  // The agent asking (docs/experience.md, "Sharing between agents"): it sees its own episodes and
  // rules plus the namespace's shared area, never another agent's private experience. Absent: the
  // whole namespace, as before sharing existed. Given but blank: kInvalidArgument (field "agent").
  std::optional<std::string> agent_id;
};

// A task type the model read from the text, with its probability (over the types it knows).
struct TaskTypeGuess {
  std::string task_type;
  double probability = 0;
};

struct ExperienceRule {
  Rule rule;
  double score = 0;  // confidence × type probability (× 0.5 when pending or disputed) × share_weight
  std::string why;
  // With ExperienceQuery::agent_id: "own" (the agent's episodes are among its support) or "shared"
  // (it passed the sharing gate); "" without an agent.
  std::string area;
  std::vector<std::string> source_agents;  // shared: the agents whose episodes passed the gate
  double share_weight = 1;  // ExperienceOptions::shared_other_type_weight when down-weighted, else 1
};

struct ExperienceEpisode {
  Episode episode;  // steps: its decisions (state-changing steps, or every step when none)
  double score = 0;       // weights.similarity × similarity + weights.type_match × type_match
                          // + weights.recency × recency
  double similarity = 0;  // BM25 of goal and steps, divided by the best candidate's (0–1)
  double type_match = 0;  // the probability that the episode's type is the task's (0–1)
  double recency = 0;     // exp(−days since it ended / 30)
  std::string why;
  // As ExperienceRule: "own" (the agent's episode), "shared" (its type passed the sharing gate) or
  // "" without an agent; the source agents of the shared type; the down-weight applied to score.
  std::string area;
  std::vector<std::string> source_agents;
  double share_weight = 1;
};

// An episode or rule whose forget score fell below ExperienceOptions::forget_cold_below: out of
// experience recall, kept until a later maintenance pass deletes it (Engine::ListColdExperience).
struct ColdExperience {
  std::string object_type;  // episode or rule
  std::string id;
  std::string task_type;
  std::string text;         // an episode's goal_short, a rule's text
  TimestampMs cold_at = 0;  // ms UTC: the maintenance pass that made it cold
  int64_t access_count = 0;
  std::optional<TimestampMs> last_accessed_at;
};

struct ExperienceResult {
  std::string task_type;          // the type used: the given one, or the most probable inferred
  std::string task_type_source;   // given, inferred, none (no typed episodes to learn from)
  std::vector<TaskTypeGuess> task_type_guesses;  // the model's best 3, when inferred
  std::string type_model;  // inferred: what the model is ("logistic regression over 519 typed episodes, L2 0.001")
  std::vector<ExperienceRule> rules;             // best first
  std::vector<ExperienceEpisode> episodes;       // successful ones only, best first
  std::vector<std::string> terms;                // the terms searched (entity-like ones dropped)
  double took_ms = 0;
};
}  // namespace engram

#endif  // ENGRAM_INCLUDE_TYPES_H_
