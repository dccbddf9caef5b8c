// store/sqlite/claim_match_cache.h — one connection's memo of the claims channel's full-text
// matches: for a namespace and a phrase of a MATCH expression, every claim of the namespace that
// holds the phrase, with the phrase's share of the claim's BM25 score (engram_bm25 of that phrase
// alone) and what a ClaimVisibility reads of the claim (its ClaimStanding). A search whose phrases
// are all memoised adds up each claim's shares, keeps the claims visible at `now` and picks the
// best, instead of walking FTS5's doclists and joining every matching row to `claims` and
// `claim_fts_docsize` again: recall's questions about one conversation share its names and words.
//
// The scores are engram_bm25's bit for bit: it sums, in phrase order, idf·tf·(k1+1)/(tf+norm) of
// each phrase the row holds (store/sqlite/fts5_tokenizer.h), and a phrase alone gives exactly that
// term (0 + x = x); the shares are added in the expression's phrase order, starting from 0.
//
// Only for expressions of quoted phrases joined by OR (OrPhrases) and for the visibilities that
// read status and valid time alone (Answers). idf and the average length are table-wide, so any
// write anywhere changes them: ClaimStore empties the memo whenever its DataVersionWatch says the
// database changed and never uses it inside a write transaction; a change of k1 or b empties it
// too. Not thread-safe (as the connection).
#ifndef ENGRAM_STORE_SQLITE_CLAIM_MATCH_CACHE_H_
#define ENGRAM_STORE_SQLITE_CLAIM_MATCH_CACHE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "engram/types.h"
#include "store/sqlite/event_store.h"

namespace engram::sqlite {

struct ClaimVisibility;

// What a ClaimVisibility without known_as_of reads of a claim.
struct ClaimStanding {
  enum class Status : uint8_t { kActive, kDisputed, kSuperseded, kExpired, kArchived, kRetracted };
  Status status = Status::kActive;
  TimestampMs valid_from = 0;
  std::optional<TimestampMs> valid_to;
  std::optional<TimestampMs> expires_at;

  // The Status of a `claims.status` text; nullopt for any other text.
  static std::optional<Status> ParseStatus(std::string_view text);
};

// True when a claim standing so is visible under `v` at `now` (ms UTC): ClaimStore::Search's SQL
// conditions, for the visibilities ClaimMatchCache::Answers takes.
bool VisibleAt(const ClaimStanding& claim, const ClaimVisibility& v, TimestampMs now);

class ClaimMatchCache {
 public:
  // One claim holding a phrase: its seq, the phrase's BM25 share, its standing.
  struct Row {
    int64_t seq = 0;
    double share = 0;
    ClaimStanding standing;
  };

  // At most this many memoised rows over every phrase and namespace (each phrase's entry counts
  // as EntryUnits rows more, an absent phrase too); the memo starts again when a fill would pass
  // it. A row is 64 bytes: about 8 MB per connection at most.
  static constexpr size_t kMaxRows = 125000;

  // True for the visibilities the memo can answer: not archived_only, any_status or known_as_of
  // (those read recorded time or every status, and are rare: they go to SQLite).
  static bool Answers(const ClaimVisibility& v);

  // Forgets everything (the database changed), the phrases found too large too.
  void Clear();

  // Empties the memo when its shares were taken with other BM25 parameters.
  void UseParameters(double k1, double b);

  // The distinct phrases of `phrases` not memoised for the namespace, in order.
  std::vector<std::string_view> Missing(int64_t namespace_id, const std::vector<std::string_view>& phrases) const;

  // Memoises one fill: rows[i] is every claim of the namespace holding phrases[i] (ascending seq;
  // none for a phrase no claim of it holds). A fill larger than kMaxRows is not memoised: its
  // phrases are marked TooLarge until Clear (a search holding one goes to SQLite without filling
  // again); a fill that fits only in an empty memo empties it first, never halfway through.
  void Remember(int64_t namespace_id, const std::vector<std::string_view>& phrases, std::vector<std::vector<Row>> rows);

  // True when a phrase of `phrases` was part of a fill too large to memoise.
  bool TooLarge(int64_t namespace_id, const std::vector<std::string_view>& phrases) const;

  // The best `limit` hits of the OR of `phrases` among the claims visible under `v` at `now`
  // (highest score first, ties by the lower seq: BestHits' order), when every phrase is memoised
  // for the namespace and Answers(v); nullopt otherwise.
  std::optional<std::vector<SearchHit>> Search(int64_t namespace_id, const std::vector<std::string_view>& phrases,
                                               const ClaimVisibility& v, TimestampMs now, int limit) const;

  // Memoised rows plus EntryUnits of every phrase held.
  size_t rows() const { return rows_; }

 private:
  // The key of a phrase of a namespace: the id's 8 bytes, then the phrase's text (in key_).
  const std::string& Key(int64_t namespace_id, std::string_view phrase) const;
  const std::vector<Row>* Find(int64_t namespace_id, std::string_view phrase) const;
  static size_t EntryUnits(std::string_view phrase);

  std::unordered_map<std::string, std::vector<Row>> phrases_;  // Key → its rows, ascending seq
  std::unordered_set<std::string> too_large_;                  // Keys of phrases never memoised
  mutable std::string key_;                                    // reused by Key
  std::optional<std::pair<double, double>> parameters_;        // k1, b of the shares
  size_t rows_ = 0;
};

}  // namespace engram::sqlite

#endif  // ENGRAM_STORE_SQLITE_CLAIM_MATCH_CACHE_H_
