// recall/recall.h — the one recall entry point: the events channel and the claims channel, fused.
#ifndef ENGRAM_RECALL_RECALL_H_
#define ENGRAM_RECALL_RECALL_H_

#include <chrono>
#include <vector>

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
// `score` stays the fused score either way. `evidence_strength` and `answerability` describe the
// first item of the final order (the reranker's first when it ran).
//
// Recall runs in three steps, so that the Engine holds its lock only for the one that reads the
// database and never across the reranker's network call: FindRecallCandidates (database),
// RerankCandidates (network only), FinishRecall (neither).
Result<RecallResult> Recall(RecallContext& ctx, const RecallQuery& query);

// What recall found before the rerank stage and the packing.
struct RecallCandidates {
  RecallQuery query;  // as run: include_history set for a question about the past
  // items: the best max(limit, ctx.rerank_pool) folded items (limit without a reranker), best
  // first, claims read whole; not cut to the limit, no feedback ids, not packed.
  // evidence_strength and answerability: those of the fused first item.
  RecallResult result;
  // Per item of result.items, in its order: the share of the question's idf mass (0..1) in the
  // item's text or session window (an event's; a claim standing in for an event has that event's;
  // another claim the best of its recalled evidence events'; 1 for every claim of a claims-only
  // recall).
  std::vector<double> strength;
  std::chrono::steady_clock::time_point started;  // when recall started (for took_ms)
};

// Step 1: the channels, fusion and provenance folding, in read transactions on ctx.db (so under
// the Engine's lock). Does not call ctx.reranker; with it set, looks ctx.rerank_pool deep. Errors:
// as Recall.
Result<RecallCandidates> FindRecallCandidates(RecallContext& ctx, const RecallQuery& query);

// Step 2: the rerank stage over candidates.result.items (see Recall above): the first
// min(max_pool, items) are sent and reordered, with candidates.strength. Touches neither the
// database nor the analyzer: safe without the Engine's lock. Takes up to the reranker's budget;
// never fails (a failure is recorded in result.rerank and warnings).
void RerankCandidates(const providers::RerankClient& reranker, int max_pool, RecallCandidates& candidates);

// Step 3: cuts the items to the query's limit, sets evidence_strength and answerability from the
// first item, the feedback ids, packs under budget_tokens and sets took_ms.
RecallResult FinishRecall(RecallCandidates candidates);

}  // namespace engram

#endif  // ENGRAM_RECALL_RECALL_H_
