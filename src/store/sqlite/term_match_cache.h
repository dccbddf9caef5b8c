// store/sqlite/term_match_cache.h — one connection's memo of the window channel's full-text
// matches: for a namespace and a phrase of a MATCH expression, every event of the namespace that
// holds the phrase, with what EventStore::MatchTermCounts reads of it (the phrase's count, the
// event's session, time, speaker and length) and the phrase's idf. A question whose phrases are
// all memoised is answered by merging their lists instead of walking FTS5's doclists and joining
// every matching row to `events` and `event_fts_docsize` again: questions about one conversation
// share its names and words.
//
// Only for expressions of quoted phrases joined by OR (recall's MatchMode::kAny): the matching
// rows are then the union of each phrase's rows, and each row's counts are its counts of each
// phrase alone. idf and the average length are table-wide, so any write anywhere changes them:
// EventStore empties the memo whenever its DataVersionWatch says the database changed (a commit
// by any connection or process, a row changed by this one) and never uses it inside a write
// transaction.
//
// Not thread-safe (as the connection).
#ifndef ENGRAM_STORE_SQLITE_TERM_MATCH_CACHE_H_
#define ENGRAM_STORE_SQLITE_TERM_MATCH_CACHE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "store/sqlite/term_match.h"

namespace engram::sqlite {

// The phrases of `match` when it is "..." ( OR "..." )* exactly (QuotedPhrases' text of each,
// doubled quotes left doubled); nullopt for any other expression (AND, FTS5 syntax).
std::optional<std::vector<std::string_view>> OrPhrases(std::string_view match);

// The MATCH expression of `phrases` joined by OR, each quoted ("a" OR "b"): OrPhrases' inverse.
std::string OrOfPhrases(const std::vector<std::string_view>& phrases);

// The distinct phrases of `phrases` that `held` says a memo lacks, in order (the memos' Missing).
std::vector<std::string_view> DistinctMissing(const std::vector<std::string_view>& phrases,
                                              const std::function<bool(std::string_view)>& held);

class TermMatchCache {
 public:
  // At most this many memoised rows (over every phrase and namespace; each phrase's entry counts
  // as EntryUnits rows more, an absent phrase too); the memo starts again when a fill would pass
  // it. A row is 40 bytes: about 10 MB per connection at most.
  static constexpr size_t kMaxRows = 250000;

  // Forgets everything (the database changed).
  void Clear();

  // The rows MatchTermCounts(match, filter, max_rows) returns, when every phrase of `phrases`
  // (OrPhrases of match) is memoised for filter.namespace_id; nullopt otherwise.
  std::optional<TermMatchSet> Match(const std::vector<std::string_view>& phrases, const SearchFilter& filter,
                                    size_t max_rows) const;

  // The rows of the namespace's events MatchPostings(match, after_seq, last_seq, max_rows) would
  // return, when every phrase of `phrases` is memoised for it; nullopt otherwise. Those are all
  // its rows only when no other namespace has an event in the range (OwnsSeqRange).
  std::optional<TermPostings> Postings(const std::vector<std::string_view>& phrases, int64_t namespace_id,
                                       int64_t after_seq, int64_t last_seq, size_t max_rows) const;

  // The distinct phrases of `phrases` not memoised for the namespace, in order.
  std::vector<std::string_view> Missing(int64_t namespace_id, const std::vector<std::string_view>& phrases) const;

  // Memoises each phrase's rows from `all`: MatchTermCounts of the OR of `phrases` over the whole
  // namespace (no session, time or row limit: every matching row, stopped_at_max false). A phrase
  // without rows is memoised too (as absent) when `all` has rows (they carry its idf). Nothing is
  // memoised when a row holds no phrase or the rows are more than kMaxRows.
  void Remember(int64_t namespace_id, const std::vector<std::string_view>& phrases, const TermMatchSet& all);
  // Memoises a phrase that no event of the namespace holds, with its (table-wide) idf.
  void RememberAbsent(int64_t namespace_id, std::string_view phrase, double idf);

  // A namespace's first and last seq, and whether no other namespace has an event between them
  // (as the database was when memoised). Namespaces written one after another own their ranges;
  // written at the same time, they interleave.
  struct SeqRange {
    int64_t first = 0;
    int64_t last = 0;
    bool owned = false;
  };
  // nullptr: not known yet.
  const SeqRange* NamespaceRange(int64_t namespace_id) const;
  void SetNamespaceRange(int64_t namespace_id, SeqRange range) { ranges_[namespace_id] = range; }

  // A namespace whose matches are too many to memoise (its whole-namespace read stopped at its
  // limit): MatchTermCounts reads it from SQLite without trying again until the memo is cleared.
  void MarkTooLarge(int64_t namespace_id) { too_large_.insert(namespace_id); }
  bool TooLarge(int64_t namespace_id) const { return too_large_.count(namespace_id) > 0; }

  // Memoised rows plus EntryUnits of every phrase held.
  size_t rows() const { return rows_; }

 private:
  struct Row {
    int64_t seq = 0;
    int64_t session_rowid = 0;
    TimestampMs occurred_at = 0;
    uint32_t speaker = 0;  // index into speakers_
    int32_t doc_length = 0;
    uint16_t tf = 0;
  };
  struct Phrase {
    double idf = 0;
    std::vector<Row> rows;  // ascending seq
  };
  // The key of a phrase of a namespace: the id's 8 bytes, then the phrase's text (in key_).
  const std::string& Key(int64_t namespace_id, std::string_view phrase) const;
  const Phrase* Find(int64_t namespace_id, std::string_view phrase) const;
  // Each phrase's memoised rows, in order; nullopt when one is not memoised.
  std::optional<std::vector<const Phrase*>> Lists(int64_t namespace_id,
                                                  const std::vector<std::string_view>& phrases) const;
  // Calls emit(row, tf) for every seq above `after_seq` that some list holds, ascending (FTS5's
  // order): `row` one list's row of it, tf[i] its count of phrase i (0: not held). Stops when
  // emit returns false.
  template <typename Emit>
  static void MergeRows(const std::vector<const Phrase*>& lists, int64_t after_seq, Emit&& emit);
  uint32_t SpeakerId(const std::string& speaker);
  // What one phrase's entry counts against kMaxRows besides its rows.
  static size_t EntryUnits(std::string_view phrase);
  // Empties the memo (not too_large_) when `adding` more would pass kMaxRows.
  void MakeRoom(size_t adding);

  std::unordered_map<std::string, Phrase> phrases_;  // Key → its rows
  mutable std::string key_;                          // reused by Key
  std::vector<std::string> speakers_;
  std::unordered_map<std::string, uint32_t> speaker_ids_;
  std::set<int64_t> too_large_;
  std::unordered_map<int64_t, SeqRange> ranges_;
  double avg_length_ = 1.0;
  size_t rows_ = 0;
};

}  // namespace engram::sqlite

#endif  // ENGRAM_STORE_SQLITE_TERM_MATCH_CACHE_H_
