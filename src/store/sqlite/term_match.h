// store/sqlite/term_match.h — what a full-text match of events gives recall's window channel:
// the filter of a search (namespace, session, time) and the matching rows with their per-phrase
// counts (EventStore::MatchTermCounts, TermMatchCache).
#ifndef ENGRAM_STORE_SQLITE_TERM_MATCH_H_
#define ENGRAM_STORE_SQLITE_TERM_MATCH_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engram/types.h"

namespace engram::sqlite {

// Which events a search may return: the namespace's, of one session when set, with
// since <= occurred_at < until (ms UTC) when set.
struct SearchFilter {
  int64_t namespace_id = 0;
  std::optional<int64_t> session_rowid;
  std::optional<TimestampMs> since;
  std::optional<TimestampMs> until;
};

// One event that matched a full-text query, with what recall's own scorers need.
struct TermMatchRow {
  int64_t seq = 0;
  int64_t session_rowid = 0;
  TimestampMs occurred_at = 0;
  std::string speaker;
  int32_t doc_length = 0;  // tokens in the indexed text
  // (its hits of each query phrase: TermMatchSet::Tf)
};

// The rows of one MatchTermCounts query.
struct TermMatchSet {
  std::vector<double> idf;  // per query phrase (engram_bm25's idf, over the whole table)
  double avg_length = 1.0;  // average tokens per indexed event (the whole table)
  std::vector<TermMatchRow> rows;  // in FTS5's order (ascending seq)
  // Hits of each query phrase (in MatchTermCounts' phrase order) of every row, idf.size() a row,
  // rows in the order of `rows`: one array, not one allocation per row.
  std::vector<uint16_t> tf;
  // The idf.size() counts of rows[row].
  const uint16_t* Tf(size_t row) const { return tf.data() + row * idf.size(); }
  // True when the query stopped at `max_rows` rows: more may match (every row with a seq above
  // rows.back().seq is unread).
  bool stopped_at_max = false;
};

// Matching rows without their events: seq, length and per-phrase counts only (EventStore::MatchPostings, TermMatchCache::Postings).
struct TermPostings {
  std::vector<double> idf;  // per query phrase, as TermMatchSet::idf
  double avg_length = 1.0;
  uint32_t phrases = 0;
  std::vector<int64_t> seqs;         // ascending
  std::vector<int32_t> doc_lengths;  // tokens in the indexed text, one per seq
  std::vector<uint16_t> tf;          // seqs.size() × phrases, row-major, MatchTermCounts' order
  const uint16_t* Tf(size_t row) const { return tf.data() + row * phrases; }
  // Row index of `seq`, or -1 (binary search).
  std::ptrdiff_t Find(int64_t seq) const;
};

}  // namespace engram::sqlite

#endif  // ENGRAM_STORE_SQLITE_TERM_MATCH_H_
