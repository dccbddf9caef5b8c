#include "engine/forget_query.h"

#include "recall/match_expression.h"
#include "util/time.h"

namespace engram {

Result<std::vector<std::string>> SelectForgetByQuery(text::Analyzer& analyzer, sqlite::EventStore& events,
                                                     sqlite::ClaimStore& claims, const Options& options,
                                                     std::string_view namespace_name, std::string_view query,
                                                     int limit) {
  std::vector<std::string> ids;
  const MatchExpression match = BuildMatchExpression(analyzer, query, MatchMode::kAll);
  if (match.fts5.empty()) return ids;
  auto ns = events.FindNamespace(namespace_name);
  if (!ns) return Error(ns.error());
  if (!ns->has_value()) return ids;

  sqlite::SearchFilter filter;
  filter.namespace_id = **ns;
  auto event_hits = events.Search(match.fts5, filter, limit, options.bm25_k1, options.bm25_b);
  if (!event_hits) return Error(event_hits.error());
  std::vector<int64_t> seqs;
  for (const sqlite::SearchHit& h : *event_hits) seqs.push_back(h.seq);
  auto found_events = events.GetBySeqs(seqs);
  if (!found_events) return Error(found_events.error());
  for (const Event& e : *found_events) ids.push_back(e.id);

  sqlite::ClaimVisibility every_status;
  every_status.any_status = true;
  auto claim_hits = claims.Search(match.fts5, **ns, every_status, NowMs(), limit, options.bm25_k1, options.bm25_b);
  if (!claim_hits) return Error(claim_hits.error());
  seqs.clear();
  for (const sqlite::SearchHit& h : *claim_hits) seqs.push_back(h.seq);
  auto found_claims = claims.GetBySeqs(seqs);
  if (!found_claims) return Error(found_claims.error());
  for (const Claim& c : *found_claims) ids.push_back(c.id);
  return ids;
}

}  // namespace engram
