// store/sqlite/fts5_tokenizer.h — engram's FTS5 tokenizer and BM25 ranking function.
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
//  * the auxiliary function `engram_bm25(fts_table [, k1 [, b [, docsize]]])`, e.g.
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
//
// Both must be registered on every connection before an `engram` FTS table is read or written.
// Each FTS table opened by a connection gets its own Analyzer, so the SQLite rule "one connection,
// one thread at a time" is all the thread safety needed.
#ifndef ENGRAM_STORE_SQLITE_FTS5_TOKENIZER_H_
#define ENGRAM_STORE_SQLITE_FTS5_TOKENIZER_H_

#include <sqlite3.h>

#include "engram/status.h"

namespace engram::sqlite {

// Registers the `engram` tokenizer and the `engram_bm25` function on `db` (see above). Calling it
// again on the same connection replaces both. Errors: kInvalidArgument when db is null; kInternal
// when this SQLite has no FTS5 (or an fts5_api older than version 2) or registration fails.
Status RegisterFts5Extensions(sqlite3* db);

}  // namespace engram::sqlite

#endif  // ENGRAM_STORE_SQLITE_FTS5_TOKENIZER_H_
