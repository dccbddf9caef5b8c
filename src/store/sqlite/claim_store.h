// store/sqlite/claim_store.h — SQL over claims, their evidence, history and decisions, and the
// full-text index over claim text. Callers own transactions, as with EventStore.
#ifndef ENGRAM_STORE_SQLITE_CLAIM_STORE_H_
#define ENGRAM_STORE_SQLITE_CLAIM_STORE_H_

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engram/status.h"
#include "engram/types.h"
#include "store/sqlite/claim_match_cache.h"
#include "store/sqlite/data_version_watch.h"
#include "store/sqlite/database.h"
#include "store/sqlite/event_store.h"

namespace engram::sqlite {

struct StoredClaim {
  int64_t seq = 0;
  bool negated = false;
  std::string topic_key;
  std::string polarity_key;
  // Words indexed with the claim's text but not part of it (Insert): how a question may name the
  // claim's attribute without its value ("job" for "Lin works as a nurse"). Write only.
  std::string search_words;
  // Which current claims of the topic a new value can be a near-copy of (write/claim_identity.h,
  // NearCopyKey: its protected atoms). "" = not known (NULL: claims written before schema 13, or
  // by a path that does not compute it): such a claim is offered to every near-copy check. Write only.
  std::string near_copy_key;
  Claim claim;  // evidence not loaded unless asked
};

// Which claims a search may return (bitemporal visibility).
struct ClaimVisibility {
  std::optional<TimestampMs> as_of;        // valid time
  std::optional<TimestampMs> known_as_of;  // recorded time
  bool include_history = false;
  // Valid-time range (recall's since/until, B39): only claims whose validity overlaps
  // [valid_since, valid_until) — valid_from < valid_until and (open or valid_to > valid_since).
  std::optional<TimestampMs> valid_since;
  std::optional<TimestampMs> valid_until;
  // Archived claims only (the resurrection cold path, lifecycle/resurrect.h); overrides the rest.
  bool archived_only = false;
  // Every claim, whatever its status or time (what `forget --query` may select); overrides the
  // rest but archived_only.
  bool any_status = false;
};

// One current value of a topic (ClaimStore::CurrentValuesByTopic).
struct TopicValue {
  int64_t seq = 0;
  bool negated = false;
  std::string value;
};

class ClaimStore {
 public:
  explicit ClaimStore(Database& db) : db_(db) {}

  // Current (active or disputed) claims with this fact hash / polarity key / topic key, oldest
  // first; the active claim holding this conflict key. Each reads only the current claims of its
  // key (an index of current claims), never the key's history: the cost does not grow with the
  // superseded claims of the namespace. Errors: from SQLite. Not thread-safe (one connection).
  Result<std::optional<StoredClaim>> CurrentByFactHash(int64_t namespace_id, std::string_view hash);
  Result<std::vector<StoredClaim>> CurrentByPolarity(int64_t namespace_id, std::string_view key);
  // The seq, negation and value of each current claim of this topic key whose near-copy key is
  // `near_copy_key` or unknown, oldest first (the near-copy check reads only these; "" reads every
  // current claim of the topic). Errors: from SQLite.
  Result<std::vector<TopicValue>> CurrentValuesByTopic(int64_t namespace_id, std::string_view key,
                                                       std::string_view near_copy_key);
  // The claim with this seq. Errors: kNotFound, from SQLite.
  Result<StoredClaim> BySeq(int64_t seq);
  // Current (active or disputed) claims about `subject` (exact), oldest first.
  Result<std::vector<StoredClaim>> CurrentBySubject(int64_t namespace_id, std::string_view subject);
  // The `limit` most recently recorded current claims about `subject` (exact), newest first: read
  // backwards along the subject's index, so the cost does not grow with the subject's history
  // (write/same_thing.h). Errors: from SQLite.
  Result<std::vector<StoredClaim>> RecentCurrentBySubject(int64_t namespace_id, std::string_view subject, int limit);
  // The namespace's `limit` most recently recorded current (active or disputed) claims, newest
  // first (the claim a bare correction corrects).
  Result<std::vector<StoredClaim>> RecentCurrent(int64_t namespace_id, int limit);
  Result<std::optional<StoredClaim>> ActiveByConflictKey(int64_t namespace_id, std::string_view key);
  // Active and disputed claims holding this conflict key.
  Result<std::vector<StoredClaim>> CurrentByConflictKey(int64_t namespace_id, std::string_view key);
  // Of the claims ever holding this conflict key (not retracted), the one whose valid_from is the
  // smallest after `after`: the value that followed (used to close a backfilled value).
  Result<std::optional<StoredClaim>> NextInValidTime(int64_t namespace_id, std::string_view key,
                                                     TimestampMs after);

  // Inserts the claim (and its full-text row); returns its seq. Errors: kAlreadyExists when a
  // uniqueness rule (one current fact, one active value per single-valued slot) is violated.
  Result<int64_t> Insert(int64_t namespace_id, const StoredClaim& claim);
  Status AddEvidence(int64_t claim_seq, int64_t event_seq, std::string_view relation, TimestampMs now);
  // Closes a claim: status superseded, valid_to (if earlier than the current one), recorded_to,
  // superseded_by_id.
  Status MarkSuperseded(int64_t claim_seq, std::string_view by_id, TimestampMs valid_to,
                        TimestampMs recorded_to);
  Status AddHistory(int64_t claim_seq, TimestampMs at, std::string_view actor, std::string_view action,
                    std::string_view reason, std::string_view before_json, std::string_view after_json);
  Status AddDecision(int64_t namespace_id, std::optional<int64_t> event_seq,
                     std::optional<int64_t> claim_seq, TimestampMs at, std::string_view decision,
                     std::string_view reason, std::string_view detail, std::string_view candidate_json);

  // Loads claims with their evidence events.
  Result<StoredClaim> Get(std::string_view id);
  Result<std::vector<Claim>> GetBySeqs(const std::vector<int64_t>& seqs);
  // Seqs of a namespace's claims (current only unless include_history), oldest first, those after
  // `after_seq` only (keyset pagination).
  Result<std::vector<int64_t>> List(int64_t namespace_id, std::string_view subject, bool include_history,
                                    int limit, int offset, int64_t after_seq = 0);
  Result<std::vector<ClaimDecision>> Decisions(int64_t claim_seq);
  Result<std::vector<ClaimChange>> History(int64_t claim_seq);

  // Full-text search over claim text with bitemporal visibility: the best `limit` claims by BM25
  // (engram_bm25 with k1, b), highest first, ties by the lower seq. An OR of quoted phrases read
  // in a read transaction is answered from this connection's ClaimMatchCache (the same hits:
  // ClaimStoreTest compares the two), filling it with the phrases it lacks, unless the database
  // changed since this connection's last search (that one goes to SQLite alone, as
  // EventStore::MatchTermCounts). Errors: from SQLite.
  Result<std::vector<SearchHit>> Search(std::string_view match, int64_t namespace_id,
                                        const ClaimVisibility& visibility, TimestampMs now, int limit,
                                        double k1, double b);
  // Searches answered from Search's memo so far (for tests and profiles).
  size_t MemoAnswers() const { return memo_answers_; }
  // SupportingEvents' memo holds at most this many claims (kMaxMemoClaims unless a test sets it).
  void SetSupportsMemoLimit(size_t claims) { supports_memo_limit_ = claims; }
  // Search by SQLite alone. Bounded by NamespaceSeqRange: FTS5 walks only the namespace's part of
  // each posting list.
  Result<std::vector<SearchHit>> ScanSearch(std::string_view match, int64_t namespace_id,
                                            const ClaimVisibility& visibility, TimestampMs now, int limit,
                                            double k1, double b);

  // The lowest and highest seq of the namespace's claims (any status), nullopt when it has none.
  // Two seeks of claims_namespace_seq (schema version 11).
  Result<std::optional<std::pair<int64_t, int64_t>>> NamespaceSeqRange(int64_t namespace_id);

  // True when the event supports at least one claim and none of them still stands (active,
  // disputed, or archived: an archived claim faded from use, it did not stop being true; and not
  // past its expires_at at `now`, ms UTC): what it said is no longer true.
  Result<bool> IsStaleEvidence(int64_t event_seq, TimestampMs now);
  // The seqs of the superseded claims the event supports, ascending; empty when none. Errors:
  // from SQLite.
  Result<std::vector<int64_t>> SupersededClaimsReadFrom(int64_t event_seq);
  // The conflict keys (distinct, non-empty, sorted) of the claims still standing (active or
  // disputed) that the event with id `event_id` supports: the single-valued facts read from it.
  // Empty for an unknown id. Run inside a transaction. Errors: from SQLite.
  Result<std::vector<std::string>> ConflictKeysReadFrom(std::string_view event_id);
  // A claim still standing (active or disputed) that an event supports: what recall's asked
  // attribute step (recall/asked_attribute.h) compares with the question.
  struct StandingFact {
    int64_t seq = 0;
    std::string id, subject, predicate, slot;
    std::string conflict_key;  // "" for a multi-valued attribute
  };
  // The claims still standing that the event with id `event_id` supports, in seq order (the order
  // they were read). Empty for an unknown id. Run inside a transaction. Errors: from SQLite.
  Result<std::vector<StandingFact>> StandingFactsReadFrom(std::string_view event_id);
  // True when the namespace holds a claim that no longer stands at `now` (superseded, expired,
  // past its expires_at, ...): only then can an event be stale evidence. Memoised per namespace
  // until the database changes (PRAGMA data_version for other connections' commits,
  // total_changes for this one's); the memo keeps the earliest expires_at, compared with `now`.
  Result<bool> HasNonCurrentClaims(std::string_view namespace_name, TimestampMs now);

  // The text of each claim, in the order of `seqs` (a seq may repeat). One query. Errors:
  // kNotFound when a seq is not a claim.
  Result<std::vector<std::string>> TextsBySeqs(const std::vector<int64_t>& seqs);

  // The claim's valid_from (UTC ms) when a time expression of its evidence dated it (time_phrase
  // set: "yesterday" → the speaker's local midnight of that day); nullopt otherwise, or when no
  // claim has that seq. Errors: from SQLite.
  Result<std::optional<TimestampMs>> TimeMentionStart(int64_t claim_seq);

  // The events (seqs, ascending, at most `limit`) that first stated a claim of the namespace which
  // a time expression dated to [start, end) (UTC ms): the claim's day — from its valid_from, the
  // speaker's local midnight — has its middle in the range ("I visited Lisbon yesterday", said on
  // March 10, is an event of March 9: B35). Only the claim's earliest "supports" event counts (a
  // later one repeats it). Errors: from SQLite.
  Result<std::vector<int64_t>> EventsDatedIn(int64_t namespace_id, TimestampMs start, TimestampMs end, int limit);

  // The events each claim was read from (relation "supports"), in the order of `claim_seqs`, each
  // claim's by event seq. In a read transaction, memoised per claim until the database changes
  // (as Search's matches); else one query, over claim_evidence alone. Errors: from SQLite.
  struct Support {
    int64_t claim_seq = 0;
    int64_t event_seq = 0;
  };
  Result<std::vector<Support>> SupportingEvents(const std::vector<int64_t>& claim_seqs);

 private:
  Result<std::vector<EvidenceRef>> Evidence(int64_t claim_seq);
  Database& db_;
  // HasNonCurrentClaims memo: valid for one (data_version, total_changes) pair.
  struct NonCurrentMemo {
    int64_t data_version = -1;
    int64_t total_changes = -1;
    struct Entry {
      bool by_status = false;                 // a claim neither active, disputed nor archived
      std::optional<TimestampMs> first_expiry;  // min(expires_at) of the namespace's claims
    };
    std::map<std::string, Entry, std::less<>> by_namespace;
  };
  NonCurrentMemo non_current_memo_;
  // SupportingEvents by SQLite alone.
  Result<std::vector<Support>> ReadSupports(const std::vector<int64_t>& claim_seqs);
  // Empties the memos below when memo_watch_ says the database changed (or cannot tell); returns
  // its verdict: only kUnchanged lets a memo answer.
  DataVersionWatch::Verdict RefreshMemos();
  // Search's and SupportingEvents' memos, emptied by RefreshMemos.
  Status MemoisePhrases(const std::vector<std::string_view>& phrases, int64_t namespace_id,
                        std::pair<int64_t, int64_t> seq_range, double k1, double b);
  DataVersionWatch memo_watch_;
  ClaimMatchCache match_memo_;
  size_t memo_answers_ = 0;
  static constexpr size_t kMaxMemoClaims = 100000;  // claims in supports_memo_ (about 10 MB at most)
  size_t supports_memo_limit_ = kMaxMemoClaims;
  std::unordered_map<int64_t, std::vector<int64_t>> supports_memo_;  // claim seq → "supports" event seqs
};

// Claim as JSON text (for history before/after snapshots).
std::string ClaimSnapshotJson(const Claim& c);

}  // namespace engram::sqlite

#endif  // ENGRAM_STORE_SQLITE_CLAIM_STORE_H_
