// engram/types.h — the values that cross the public API: events, sessions, recall results.
//
// Conventions: every time is UTC; `TimestampMs` counts milliseconds since the Unix epoch, and text
// forms are ISO-8601 with a `Z` suffix ("2023-05-08T13:56:00.000Z"). Strings are UTF-8. Enumerated
// fields (role, session kind, origin class) travel as their lowercase names so that every entry
// point (library, CLI, REST, MCP, import) validates them with the same code: Engine::Ingest.
#ifndef ENGRAM_INCLUDE_TYPES_H_
#define ENGRAM_INCLUDE_TYPES_H_

#include <cstdint>
#include <optional>
#include <string>
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
  std::optional<TimestampMs> since;  // optional: occurred_at >= since
  std::optional<TimestampMs> until;  // optional: occurred_at < until
  MatchMode match = MatchMode::kAny;
};

struct RecallItem {
  std::string type = "event";  // what the item is; claims join in later versions
  std::string id;
  std::string text;  // the event content
  double score = 0;  // BM25, higher is better; comparable within one result only
  TimestampMs occurred_at = 0;
  std::string session_id;
  std::string speaker;
  std::string role;
  std::string metadata_json;
};

struct RecallResult {
  std::vector<RecallItem> items;     // best first, at most RecallQuery::limit
  std::vector<std::string> terms;    // the normalised terms the query was searched with
  double took_ms = 0;                // wall time spent inside Recall, in milliseconds
};

struct SessionInfo {
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

struct ListSessionsQuery {
  std::string namespace_name;  // optional: "" lists every namespace
  int limit = 20;              // 1–1000, most recently active first
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
};

struct StoreStats {
  std::string path;
  int64_t file_bytes = 0;  // main database file
  int64_t wal_bytes = 0;   // write-ahead log, 0 when absent
  int64_t namespaces = 0;
  int64_t sessions = 0;
  int64_t events = 0;
  std::vector<NamespaceStats> per_namespace;
};

struct DoctorReport {
  bool ok = false;  // true when every check passed
  int schema_version = 0;
  std::string journal_mode;
  std::vector<std::string> checks;    // "name: ok" or "name: <problem>", one per check run
  std::vector<std::string> problems;  // the failing subset of checks
  StoreStats stats;
};

}  // namespace engram

#endif  // ENGRAM_INCLUDE_TYPES_H_
