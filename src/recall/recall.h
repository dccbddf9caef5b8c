// recall/recall.h — the one recall entry point: the events channel and the claims channel, fused.
#ifndef ENGRAM_RECALL_RECALL_H_
#define ENGRAM_RECALL_RECALL_H_

#include "recall/event_recall.h"

namespace engram {

// See Engine::Recall. Channels:
//   events — BM25 over event text (recall/event_recall.h). By default an event whose every claim
//            has been superseded is left out (its facts are no longer true); include_history,
//            as_of and known_as_of bring it back. With as_of/known_as_of only events that had
//            happened by then count.
//   claims — BM25 over claim text, filtered by bitemporal visibility: current (active, disputed)
//            by default; true at `as_of` (valid time); believed at `known_as_of` (recorded time);
//            every status with include_history. Each claim carries its evidence events.
// Fusion: reciprocal rank fusion, score = Σ 1/(60 + rank) over the channels (Cormack et al. 2009,
// k = 60), ties broken by channel BM25; then provenance folding: an event's place goes to its
// best-ranked claim (which carries the event as evidence) when that claim ranks at least as well in
// its channel, and an item whose source events are all represented by a better-ranked item is
// dropped. Rerank (when ctx.reranker is set): the best max(limit, ctx.rerank_pool) folded items are
// candidates; the best ctx.rerank_pool of them are scored by the reranker and reordered by its
// score (ties keep the fused order; the items after the pool keep theirs, after it), each gets a
// "rerank" channel (its rank in the pool, the reranker's score), and the list is cut to `limit`.
// Its failure (timeout after the budget, HTTP error, malformed reply) is not recall's: the fused
// order is kept, RecallResult::rerank says "skipped" with the reason and warnings repeats it.
// `score` stays the fused score either way.
Result<RecallResult> Recall(RecallContext& ctx, const RecallQuery& query);

}  // namespace engram

#endif  // ENGRAM_RECALL_RECALL_H_
