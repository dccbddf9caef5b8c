// recall/successor_hits.h — for a question about how things stand now, the current claims that
// replaced the superseded claims the question matches (issue 16, "a current claim ranks above what
// it superseded"). "Which school do I teach at?" matches "I teach maths at Hillside Academy", which
// "I left Hillside last month and I am tutoring online now" closed; the successor ("user left
// Hillside last month") shares no word with the question, yet it is the answer's way in: its claim,
// and through it the event it was read from, stand where the replaced claim would have stood.
//
// Asked only without a valid-time range (recall's since/until): a successor may lie outside it.
// Each superseded claim among the question's best `pool` claims of any status is followed along
// superseded_by_id (at most kMaxSuccessorSteps claims) to a claim that is current at `now`; that
// claim is a hit with the replaced claim's score, or, when it is a hit already with a lower score,
// is given the replaced claim's (the caller keeps the higher of a seq's scores): "the laptop is
// running Sonoma now" read two claims from one turn, and the one that replaced "macOS Monterey"
// stands for it when the question names macOS. Claims retracted, expired or forgotten lead
// nowhere: nothing replaced them.
//
// Thread safety: as ClaimStore (the caller's connection, inside its read transaction).
#ifndef ENGRAM_RECALL_SUCCESSOR_HITS_H_
#define ENGRAM_RECALL_SUCCESSOR_HITS_H_

#include <string_view>
#include <vector>

#include "engram/status.h"
#include "store/sqlite/claim_store.h"
#include "store/sqlite/event_store.h"

namespace engram {

// How many replacements a chain is followed through (a value changed that often is still found).
inline constexpr int kMaxSuccessorSteps = 8;

// The successors' hits (above), a seq of `current` again when its score is raised; `current` are
// the question's hits among current claims (same match, namespace and visibility but history). `k1`, `b`: BM25 parameters of
// ClaimStore::Search. Errors: from SQLite.
Result<std::vector<sqlite::SearchHit>> SuccessorHits(sqlite::ClaimStore& claims, std::string_view match,
                                                     int64_t namespace_id, const sqlite::ClaimVisibility& visibility,
                                                     const std::vector<sqlite::SearchHit>& current, TimestampMs now,
                                                     int pool, double k1, double b);

// For the same question, what replaced what its best `pool` matching events said (session 28): an
// event whose claims no longer stand is stale evidence, hidden from a question about now, and its
// superseded claims lead along superseded_by_id, as above, to the claims current in their place.
// "What phone do I have?" matches "My phone is an iPhone 12", which "Ditched the iPhone, I'm on a
// Samsung now" closed; no claim holds "phone", so without this the answer has no way in. Each
// successor is a hit (unless one already: `current` and `taken`) with the event's BM25 score
// scaled to the claims' (times the best score of `current` over the best event score; the event's
// own when `current` is empty). `filter` is the question's namespace and valid-time range; `k1`,
// `b`: BM25 parameters of EventStore::Search. Errors: from SQLite.
Result<std::vector<sqlite::SearchHit>> StaleEventSuccessorHits(sqlite::ClaimStore& claims, sqlite::EventStore& events,
                                                               std::string_view match,
                                                               const sqlite::SearchFilter& filter,
                                                               const std::vector<sqlite::SearchHit>& current,
                                                               TimestampMs now, int pool, double k1, double b);

}  // namespace engram

#endif  // ENGRAM_RECALL_SUCCESSOR_HITS_H_
