// store/sqlite/event_store.h — SQL over namespaces, sessions and events (the event log) and the
// full-text index over events. Callers own transactions (Database::WriteTransaction /
// ReadTransaction); every method here runs inside the caller's transaction.
#ifndef ENGRAM_STORE_SQLITE_EVENT_STORE_H_
#define ENGRAM_STORE_SQLITE_EVENT_STORE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engram/status.h"
#include "engram/types.h"
#include "store/sqlite/data_version_watch.h"
#include "store/sqlite/database.h"
#include "store/sqlite/term_match.h"
#include "store/sqlite/term_match_cache.h"

namespace engram::sqlite {

// What the write path hands to the store: a validated event plus the text to index.
struct EventRow {
  Event event;
  std::string session_kind;
  std::string session_source;
  std::string session_title;
  std::string parent_session_id;  // external id, "" for none
  std::string indexed_text;       // what full-text search sees ("speaker: content [image: caption]")
};

// One full-text hit.
struct SearchHit {
  int64_t seq = 0;
  double score = 0;  // BM25, higher is better
};

// An event next to another in its session's order (occurred_at, seq).
struct NeighbourRow {
  int64_t seq = 0;
  int64_t session_rowid = 0;
  TimestampMs occurred_at = 0;
  std::string speaker;
  int32_t doc_length = 0;  // tokens in the indexed text
  // The text asks a question (text::AsksQuestion): the event after it, by someone else, is
  // likely the answer. Read by SmallSessionLayout and SessionStretchAround only (Locate and
  // LocateOne leave it false: they do not read the content).
  bool asks_question = false;
  std::string role;  // user, assistant, tool, ... (who spoke, when there is no speaker name)
};

// An event's namespace and place (LocateOne).
struct LocatedEvent {
  int64_t namespace_id = 0;
  NeighbourRow row;
};

class EventStore {
 public:
  explicit EventStore(Database& db) : db_(db) {}

  // Id of the namespace, creating it when missing.
  Result<int64_t> EnsureNamespace(std::string_view name, TimestampMs now);
  // Id of the namespace, or nullopt when it does not exist.
  Result<std::optional<int64_t>> FindNamespace(std::string_view name);

  // Row id of the session (namespace-scoped external id), creating it — and a placeholder parent
  // when the parent does not exist yet — when missing. An existing session keeps its metadata
  // (first write wins), except that a missing parent, source or title is filled in.
  Result<int64_t> EnsureSession(int64_t namespace_id, const EventRow& row, TimestampMs now);
  Result<std::optional<int64_t>> FindSession(int64_t namespace_id, std::string_view external_id);

  // The event stored under this idempotency key in the namespace, if any.
  Result<std::optional<Event>> FindByIdempotencyKey(int64_t namespace_id, std::string_view key);

  // Inserts the event and its full-text row; returns the event's seq. Errors: kAlreadyExists on a
  // key collision.
  Result<int64_t> Insert(int64_t namespace_id, int64_t session_rowid, const EventRow& row);

  Result<Event> Get(std::string_view id);
  Result<Event> GetBySeq(int64_t seq);
  // The events at these seqs, in the order given (one query). Errors: kNotFound if one is missing.
  Result<std::vector<Event>> GetBySeqs(const std::vector<int64_t>& seqs);

  // Full-text search: `match` is an FTS5 MATCH expression built by recall (never raw user text).
  // Hits restricted by `filter`, best `limit` by BM25(k1, b).
  Result<std::vector<SearchHit>> Search(std::string_view match, const SearchFilter& filter,
                                        int limit, double k1, double b);
  // Every event matching `match` under `filter`, with its per-phrase hit counts (the phrases of
  // `match` in order of appearance), session, time, speaker and length — for scorers that combine
  // rows (recall's window channel). Stops after `max_rows` rows (callers bound the cost; rows come
  // in FTS5's order, not by score). An expression of quoted phrases joined by OR is answered from
  // the connection's TermMatchCache when each phrase is memoised for the namespace (inside a read
  // transaction, while the database is unchanged since the connection's previous read of a memo:
  // DataVersionWatch; the first read after a change goes to SQLite alone); the phrases missing are read
  // first, over the whole namespace, in one scan of their OR (at most kMaxMemoScanRows rows; past
  // it the namespace is not memoised) and memoised. The rows are those ScanTermCounts returns.
  // Not thread-safe (as the connection). Errors: from SQLite.
  Result<TermMatchSet> MatchTermCounts(std::string_view match, const SearchFilter& filter,
                                       size_t max_rows);
  // MatchTermCounts read from SQLite without the memo: one FTS5 query joined to events and
  // event_fts_docsize, bounded to the namespace's `seq_range` (NamespaceSeqRange).
  Result<TermMatchSet> ScanTermCounts(std::string_view match, const SearchFilter& filter,
                                      std::pair<int64_t, int64_t> seq_range, size_t max_rows);
  // Every full-text row matching `match` with after_seq < seq <= last_seq, in ascending seq, with
  // its length and per-phrase counts but nothing of its event (no session or time filter: the
  // caller checks the rows it keeps with LocateOne; `last_seq` is the namespace's last, from
  // NamespaceSeqRange). Stops after `max_rows` rows. One FTS5 query joined to the (small,
  // seq-ordered) docsize table only: the cheap first pass of recall's pruned matching. The rows
  // come from the match memo when it holds every phrase of `match` for `namespace_id`
  // (MatchTermCounts filled it) and no other namespace has an event in the namespace's seq range
  // (the same rows then; otherwise SQLite's hold another namespace's too, which recall finds
  // outside its namespace when it reads them).
  Result<TermPostings> MatchPostings(std::string_view match, int64_t namespace_id, int64_t after_seq,
                                     int64_t last_seq, size_t max_rows);
  // The lowest and highest seq of the namespace's events, nullopt when it has none. Two seeks of
  // events_namespace_seq (schema version 11). The full-text queries of one namespace are bounded
  // by it: FTS5 then skips the parts of each posting list outside it (a rowid range constraint)
  // instead of walking, and joining, the rows of every other namespace.
  Result<std::optional<std::pair<int64_t, int64_t>>> NamespaceSeqRange(int64_t namespace_id);
  // True when every event with after_seq < seq <= last_seq is the namespace's: the range lies
  // within the namespace's first and last seq, and no other namespace has an event between those
  // (memoised until the database changes; read by MatchPostings). Errors: from SQLite.
  Result<bool> OwnsSeqRange(int64_t namespace_id, int64_t after_seq, int64_t last_seq);
  // For tests: how many MatchPostings calls the memo answered.
  size_t PostingsMemoAnswers() const { return postings_memo_answers_; }
  // Namespace, session, time, speaker and length of the event at `seq`; nullopt when there is
  // none. One indexed lookup.
  Result<std::optional<LocatedEvent>> LocateOne(int64_t seq);
  // A stretch of the session's order (occurred_at, seq) around the event (seq, occurred_at): up to
  // `before` events preceding it, the event itself, up to `after` events following it, in session
  // order. `centre` is the event's index in `rows`; nullopt when the event is not stored (then
  // `rows` holds only its neighbours). Two index range scans (events_session_time).
  struct SessionStretch {
    std::vector<NeighbourRow> rows;
    std::optional<size_t> centre;
  };
  Result<SessionStretch> SessionStretchAround(int64_t session_rowid, TimestampMs occurred_at, int64_t seq,
                                              int before, int after);
  // Every event of the session in order (occurred_at, seq), when it holds at most `max_events`;
  // nullopt for a larger session (at most max_events + 1 rows are read).
  Result<std::optional<std::vector<NeighbourRow>>> SmallSessionLayout(int64_t session_rowid,
                                                                      int max_events);
  // SmallSessionLayout through a per-connection memo: the layout of a session read by an earlier
  // call is returned again while the database is unchanged (no commit by any connection, no change
  // by this one: DataVersionWatch). Null for a session of more than `max_events` events. Call
  // inside a read transaction (the snapshot decides the data version); inside a write transaction
  // the memo is not used. The memo holds at most kMaxMemoLayoutRows rows and is emptied when it
  // would exceed that. Not thread-safe (as the connection).
  Result<std::shared_ptr<const std::vector<NeighbourRow>>> MemoSessionLayout(int64_t session_rowid,
                                                                             int max_events);
  // Session, time, speaker and length of the events at these seqs (missing seqs are skipped), in
  // no particular order. One query.
  Result<std::vector<NeighbourRow>> Locate(const std::vector<int64_t>& seqs);
  // Seqs of the namespace's events with start <= occurred_at < end (ms UTC), in time order, at most
  // `max_events` + 1 of them (more than max_events = the range is too broad to list). One index
  // range scan (events_namespace_time).
  Result<std::vector<int64_t>> SeqsInTimeRange(int64_t namespace_id, TimestampMs start, TimestampMs end,
                                               int max_events);
  // Seqs of the namespace's latest events with start <= occurred_at < end (ms UTC), newest first,
  // at most `limit`. One index range scan (events_namespace_time), backwards.
  Result<std::vector<int64_t>> LatestSeqsInTimeRange(int64_t namespace_id, TimestampMs start, TimestampMs end,
                                                     int limit);
  // True when every stored event (or none) belongs to the namespace.
  Result<bool> NamespaceHoldsAllEvents(int64_t namespace_id);
  // The distinct speaker names of the namespace's events, sorted ("" stands for events without
  // one): what recall's pruned path needs to bound the speaker score of a row whose event it has
  // not read. A superset once events were forgotten (their speakers may stay listed). Null when
  // the namespace has more than `max_speakers`. Memoised across calls (at most kMaxMemoSpeakerNamespaces
  // namespaces): the first call for a namespace reads all its events (an index range scan and a
  // row lookup per event: about 1 s at 1M events), a later one only the events stored since (seq
  // above the newest event it saw), or all again when that newest event was forgotten (its seq
  // may have been given to a new event). Call inside a read transaction. Not thread-safe (as the
  // connection). Errors: from SQLite.
  Result<std::shared_ptr<const std::vector<std::string>>> NamespaceSpeakers(int64_t namespace_id,
                                                                            size_t max_speakers);

  // Events of one session in order (occurred_at, seq), positions [offset, offset+count).
  Result<std::vector<Event>> SessionEvents(int64_t session_rowid, int64_t offset, int64_t count);
  // The seq of the event with this id; nullopt when none is stored.
  Result<std::optional<int64_t>> SeqOf(std::string_view id);
  // Position of the event within its session's order, and the session's event count.
  Result<std::pair<int64_t, int64_t>> PositionInSession(int64_t seq);

  Result<SessionInfo> GetSession(int64_t session_rowid);
  Result<int64_t> SessionRowidOfEvent(int64_t seq);
  // The parent chain's top (cycle-safe, at most 100 hops).
  Result<int64_t> LineageRoot(int64_t session_rowid);
  // The parent chain, root first, ending with session_rowid (cycle-safe, at most 100 hops).
  Result<std::vector<int64_t>> Lineage(int64_t session_rowid);
  // Sessions newest first by creation (rowid), of one namespace or (nullopt) every one, at most
  // `limit`, after the one whose SessionInfo::seq is after_seq (0: from the newest).
  Result<std::vector<SessionInfo>> ListSessions(std::optional<int64_t> namespace_id, int limit,
                                                int64_t after_seq = 0);

  // Counts and sizes: per namespace, and the jobs by state (JobStore::Counts at the current time).
  Result<StoreStats> Stats();
  // Problems found by engram's own invariants ("N events missing from the full-text index").
  Result<std::vector<std::string>> CheckInvariants();

 private:
  static constexpr size_t kMaxMemoLayoutRows = 200000;
  static constexpr size_t kMaxMemoSpeakerNamespaces = 8;
  // The most rows MatchTermCounts reads of a namespace to memoise its matches: past it the
  // namespace is read without the memo until the database changes.
  static constexpr size_t kMaxMemoScanRows = 5000;

  // Memoises in match_memo_ the phrases of `phrases` (OrPhrases of `match`) it lacks for the
  // namespace: one scan of the OR of the missing ones over the namespace (`seq_range`), and when
  // none of them has a row, their idf from PhraseIdfs(match). Some may stay missing (too many
  // rows: the namespace is then marked TooLarge; no row anywhere; the memo full). Call after
  // RefreshMemos said the memo is usable. Errors: from SQLite.
  Status MemoisePhrases(std::string_view match, const std::vector<std::string_view>& phrases,
                        int64_t namespace_id, std::pair<int64_t, int64_t> seq_range);
  // The idf of each phrase of `match` (engram_term_counts' order and values) from the first row
  // of the whole table that matches it; nullopt when no row matches. Errors: from SQLite.
  Result<std::optional<std::vector<double>>> PhraseIdfs(std::string_view match);
  // Empties the layout memo and the match memo when the database changed since they were filled
  // (or they must not be used now: a write transaction, or the version cannot be read); returns
  // the watch's verdict.
  DataVersionWatch::Verdict RefreshMemos();

  Database& db_;
  // MemoSessionLayout's memo: session rowid → its layout (null: larger than the max_events asked).
  DataVersionWatch memo_watch_;  // of layout_memo_ and match_memo_
  struct LayoutMemo {
    size_t rows = 0;
    std::unordered_map<int64_t, std::pair<int, std::shared_ptr<const std::vector<NeighbourRow>>>>
        layouts;  // session rowid → (max_events asked, layout)
  };
  LayoutMemo layout_memo_;
  TermMatchCache match_memo_;  // MatchTermCounts'
  size_t postings_memo_answers_ = 0;
  // NamespaceSpeakers' memo, per namespace id.
  struct SpeakerMemo {
    int64_t newest_seq = 0;  // the newest stored event (any namespace) when last read; 0: none
    std::string newest_id;   // its id
    size_t max_speakers = 0;  // as asked
    std::shared_ptr<const std::vector<std::string>> speakers;  // null: more than max_speakers
  };
  std::unordered_map<int64_t, SpeakerMemo> speaker_memo_;
};

}  // namespace engram::sqlite

#endif  // ENGRAM_STORE_SQLITE_EVENT_STORE_H_
