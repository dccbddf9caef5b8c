// store/sqlite/best_hits.h — the best rows of a full-text query: each row (seq, score), highest
// score first, ties by the lower seq (the older row), at most `limit`. Shared by the claim and
// episode searches, whose queries return unordered (seq, BM25) rows. Thread safety: as the
// Statement (one connection).
#ifndef ENGRAM_STORE_SQLITE_BEST_HITS_H_
#define ENGRAM_STORE_SQLITE_BEST_HITS_H_

#include <vector>

#include "engram/status.h"
#include "store/sqlite/database.h"
#include "store/sqlite/event_store.h"

namespace engram::sqlite {

// Steps `q` (bound, not yet stepped) to its end, reading column 0 as the seq and column 1 as the
// score; returns the best `limit` hits (none when limit ≤ 0). Errors: from SQLite.
Result<std::vector<SearchHit>> BestHits(Statement& q, int limit);

// Keeps the best `limit` of `hits` (none when limit ≤ 0), best first, in BestHits' order.
void KeepBest(std::vector<SearchHit>& hits, int limit);

}  // namespace engram::sqlite

#endif  // ENGRAM_STORE_SQLITE_BEST_HITS_H_
