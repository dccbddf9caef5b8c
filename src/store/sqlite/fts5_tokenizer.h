// store/sqlite/fts5_tokenizer.h — engram's FTS5 tokenizer, BM25 ranking function and term counts.
//
// RegisterFts5Extensions(db) adds to one connection:
//
//  * the tokenizer `engram`, backed by text::Analyzer:
//      CREATE VIRTUAL TABLE t USING fts5(body, tokenize='engram full');   -- or 'engram plain'
//    The single argument picks engram::TextAnalysis (`full` → kFull, `plain` → kPlain, none →
//    kFull); any other argument, or more than one, makes CREATE/first use fail with "error in
//    tokenizer constructor". MATCH strings (FTS5_TOKENIZE_QUERY) are analysed in
//    TokenizeMode::kQuery, stored text and auxiliary-function requests in kIndex. A prefix query
//    ("word*") is analysed like any query term, so its last word is stemmed before the prefix match
//    ("running*" → "run*").
//
//  * the auxiliary function `engram_bm25(fts_table [, k1 [, b [, docsize [, table, match]]]])`,
//    e.g.
//      SELECT rowid, engram_bm25(t, 0.9, 0.4) AS score FROM t WHERE t MATCH ? ORDER BY score DESC;
//    `docsize` (optional) is the row's `<table>_docsize.sz` blob, joined by the caller: with it the
//    row length is read from that blob (FTS5's documented shadow-table format: one varint per
//    column) instead of through xColumnSize, which runs a nested query per matched row.
//    It returns the Okapi BM25 score of the current row as a POSITIVE double (higher = better;
//    FTS5's built-in bm25() is negative, lower = better), summed over the query's phrases:
//      score = Σ_phrase idf · tf · (k1 + 1) / (tf + k1 · (1 − b + b · dl / avgdl))
//      idf   = ln(1 + (N − n + 0.5) / (n + 0.5))      (Lucene's form; always > 0)
//    N = rows in the table, n = rows matching the phrase (counted once per query and cached),
//    tf = hits of the phrase in column 0 of the row, dl = tokens (positions) in column 0 of the
//    row, avgdl = total tokens of column 0 / N. Only column 0 is scored. k1 defaults to 1.2, b to
//    0.75 (NULL also means default); k1 < 0 or b outside [0, 1] is an SQL error.
//    `table, match` (optional, text; the table's name and the very MATCH expression of the
//    statement): when `match` is a plain list of quoted phrases (QuotedPhrases), each phrase's n
//    is memoised per connection by (table, phrase text) until the database changes
//    (PhraseCountCache), instead of being counted again by walking its whole doclist for every
//    statement. The scores are the same either way.
//
//  * the auxiliary function `engram_bm25_shares(fts_table, k1, b, docsize [, table, match])`
//    (arguments as for engram_bm25): each phrase's term of that sum for the current row, as a BLOB
//    of n native doubles in phrase order (0 for a phrase the row lacks). Adding them up in order
//    from 0 gives engram_bm25's score bit for bit; a phrase's share does not depend on the other
//    phrases of the query (ClaimMatchCache memoises them per phrase).
//
//  * the auxiliary function `engram_term_counts(fts_table, docsize [, table, match])` (`table,
//    match` as for engram_bm25): the per-phrase counts of the
//    current row for scorers that combine rows (recall's window channel), as a BLOB laid out as
//      TermCountsHeader {n, dl, avgdl}        12 bytes, native byte order
//      float idf[n]                           the same idf as engram_bm25 (per query phrase)
//      uint16 tf[n]                           hits of phrase i in column 0 (clamped to 65535)
//    Parse it with ParseTermCounts. `docsize` is required (as for engram_bm25).
//
// All must be registered on every connection before an `engram` FTS table is read or written.
// Each FTS table opened by a connection gets its own Analyzer, so the SQLite rule "one connection,
// one thread at a time" is all the thread safety needed.
#ifndef ENGRAM_STORE_SQLITE_FTS5_TOKENIZER_H_
#define ENGRAM_STORE_SQLITE_FTS5_TOKENIZER_H_

#include <sqlite3.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "engram/status.h"

namespace engram::sqlite {

// Column 0's token count from a `<table>_docsize.sz` blob (one SQLite varint per column, as FTS5
// writes it). False when the bytes are not one.
bool ParseDocSizeColumn0(std::string_view blob, int* doc_len);

// The fixed part of an engram_term_counts blob.
struct TermCountsHeader {
  uint32_t phrases = 0;     // n
  uint32_t doc_length = 0;  // dl: tokens in column 0 of the row
  float avg_length = 0;     // avgdl of the table
};
static_assert(sizeof(TermCountsHeader) == 12);

constexpr size_t TermCountsBlobSize(uint32_t phrases) {
  return sizeof(TermCountsHeader) + 4 * static_cast<size_t>(phrases) + 2 * static_cast<size_t>(phrases);
}

// Reads an engram_term_counts blob of `size` bytes: the header, then idf(i) and tf(i) for
// i < header.phrases. False when the size does not match the header.
class TermCountsView {
 public:
  bool Parse(const void* blob, size_t size) {
    if (blob == nullptr || size < sizeof(TermCountsHeader)) return false;
    std::memcpy(&header_, blob, sizeof header_);
    if (size != TermCountsBlobSize(header_.phrases)) return false;
    base_ = static_cast<const unsigned char*>(blob);
    return true;
  }
  const TermCountsHeader& header() const { return header_; }
  float Idf(uint32_t i) const {
    float v;
    std::memcpy(&v, base_ + sizeof(TermCountsHeader) + 4 * i, 4);
    return v;
  }
  uint16_t Tf(uint32_t i) const {
    uint16_t v;
    std::memcpy(&v, base_ + sizeof(TermCountsHeader) + 4 * header_.phrases + 2 * i, 2);
    return v;
  }

 private:
  TermCountsHeader header_;
  const unsigned char* base_ = nullptr;
};

// Registers the `engram` tokenizer, the `engram_bm25`, `engram_bm25_shares` and `engram_term_counts` functions and the SQL
// function `engram_asks_question(text)` (text/dialogue_act.h) on `db` (see above). Calling it
// again on the same connection replaces both. Errors: kInvalidArgument when db is null; kInternal
// when this SQLite has no FTS5 (or an fts5_api older than version 2) or registration fails.
Status RegisterFts5Extensions(sqlite3* db);

}  // namespace engram::sqlite

#endif  // ENGRAM_STORE_SQLITE_FTS5_TOKENIZER_H_
