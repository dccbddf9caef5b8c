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
// dropped.
Result<RecallResult> Recall(RecallContext& ctx, const RecallQuery& query);

}  // namespace engram

#endif  // ENGRAM_RECALL_RECALL_H_
