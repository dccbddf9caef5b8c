#include "recall/successor_hits.h"

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace engram {
namespace {

// True when `c` holds at `now`: active, its valid time not ended and its TTL not passed.
bool CurrentAt(const Claim& c, TimestampMs now) {
  return c.status == "active" && !(c.valid_to && *c.valid_to <= now) && !(c.expires_at && *c.expires_at <= now);
}

// The current claim `replaced` leads to along superseded_by_id, or nullopt (a forgotten successor,
// whose row is gone, leads nowhere).
Result<std::optional<sqlite::StoredClaim>> CurrentSuccessor(sqlite::ClaimStore& claims, const Claim& replaced,
                                                            TimestampMs now) {
  std::string next = replaced.superseded_by_id;
  for (int step = 0; step < kMaxSuccessorSteps && !next.empty(); ++step) {
    auto claim = claims.Get(next);
    if (!claim && claim.error().code() == StatusCode::kNotFound) break;
    if (!claim) return Error(claim.error());
    if (CurrentAt(claim->claim, now)) return std::optional<sqlite::StoredClaim>(std::move(*claim));
    if (claim->claim.status != "superseded") break;
    next = claim->claim.superseded_by_id;
  }
  return std::optional<sqlite::StoredClaim>();
}

}  // namespace

Result<std::vector<sqlite::SearchHit>> SuccessorHits(sqlite::ClaimStore& claims, std::string_view match,
                                                     int64_t namespace_id, const sqlite::ClaimVisibility& visibility,
                                                     const std::vector<sqlite::SearchHit>& current, TimestampMs now,
                                                     int pool, double k1, double b) {
  std::vector<sqlite::SearchHit> out;
  sqlite::ClaimVisibility any = visibility;
  any.include_history = true;
  auto hits = claims.Search(match, namespace_id, any, now, pool, k1, b);
  if (!hits) return Error(hits.error());
  std::unordered_map<int64_t, double> score_of;  // the current hits' scores
  for (const sqlite::SearchHit& h : current) score_of.emplace(h.seq, h.score);
  for (const sqlite::SearchHit& h : *hits) {
    if (score_of.count(h.seq) > 0) continue;  // current: a hit already
    auto replaced = claims.BySeq(h.seq);
    if (!replaced) return Error(replaced.error());
    if (replaced->claim.status != "superseded") continue;
    auto successor = CurrentSuccessor(claims, replaced->claim, now);
    if (!successor) return Error(successor.error());
    if (!successor->has_value()) continue;
    // A successor that is a hit already stands where the replaced claim stood when that is higher.
    auto [at, added] = score_of.emplace((*successor)->seq, h.score);
    if (!added && at->second >= h.score) continue;
    at->second = h.score;
    out.push_back({(*successor)->seq, h.score});
  }
  return out;
}

Result<std::vector<sqlite::SearchHit>> StaleEventSuccessorHits(sqlite::ClaimStore& claims, sqlite::EventStore& events,
                                                               std::string_view match,
                                                               const sqlite::SearchFilter& filter,
                                                               const std::vector<sqlite::SearchHit>& current,
                                                               TimestampMs now, int pool, double k1, double b) {
  std::vector<sqlite::SearchHit> out;
  auto hits = events.Search(match, filter, pool, k1, b);
  if (!hits) return Error(hits.error());
  if (hits->empty()) return out;
  double best_event = 0.0, best_claim = 0.0;
  for (const sqlite::SearchHit& h : *hits) best_event = std::max(best_event, h.score);
  for (const sqlite::SearchHit& h : current) best_claim = std::max(best_claim, h.score);
  const double scale = best_claim > 0.0 && best_event > 0.0 ? best_claim / best_event : 1.0;
  std::unordered_set<int64_t> taken;
  for (const sqlite::SearchHit& h : current) taken.insert(h.seq);
  for (const sqlite::SearchHit& h : *hits) {
    auto stale = claims.IsStaleEvidence(h.seq, now);
    if (!stale) return Error(stale.error());
    if (!*stale) continue;
    auto replaced = claims.SupersededClaimsReadFrom(h.seq);
    if (!replaced) return Error(replaced.error());
    for (const int64_t seq : *replaced) {
      auto claim = claims.BySeq(seq);
      if (!claim) return Error(claim.error());
      auto successor = CurrentSuccessor(claims, claim->claim, now);
      if (!successor) return Error(successor.error());
      if (successor->has_value() && taken.insert((*successor)->seq).second) {
        out.push_back({(*successor)->seq, h.score * scale});
      }
    }
  }
  return out;
}

}  // namespace engram
