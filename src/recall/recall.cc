#include "recall/recall.h"

#include <algorithm>
#include <chrono>

#include "recall/match_expression.h"
#include "util/time.h"
#include "text/injection_scanner.h"

namespace engram {
namespace {

constexpr double kRrfK = 60.0;  // Cormack, Clarke & Büttcher (SIGIR 2009)

RecallItem ClaimItem(Claim&& c, double score) {
  RecallItem item;
  item.type = "claim";
  item.id = std::move(c.id);
  item.text = std::move(c.text);
  item.score = score;
  item.occurred_at = c.valid_from;
  item.speaker = c.subject;
  if (!c.evidence.empty()) {
    item.session_id = c.evidence.front().session_id;
    item.role = c.evidence.front().role;
  }
  item.status = std::move(c.status);
  item.subject = std::move(c.subject);
  item.predicate = std::move(c.predicate);
  item.slot = std::move(c.slot);
  item.value = std::move(c.value);
  item.qualifiers = std::move(c.qualifiers);
  item.valid_from = c.valid_from;
  item.valid_to = c.valid_to;
  item.evidence = std::move(c.evidence);
  return item;
}

}  // namespace

Result<RecallResult> Recall(RecallContext& ctx, const RecallQuery& query) {
  auto started = std::chrono::steady_clock::now();
  const bool temporal = query.as_of.has_value() || query.known_as_of.has_value();
  const bool hide_stale = !query.include_history && !temporal;

  RecallResult events_result;
  if (query.include_events) {
    RecallQuery events_query = query;
    if (temporal) {
      TimestampMs horizon = query.known_as_of.value_or(*query.as_of);
      if (query.as_of) horizon = std::min(horizon, *query.as_of);
      if (!events_query.until || *events_query.until > horizon + 1) events_query.until = horizon + 1;
      if (events_query.since && *events_query.since >= *events_query.until) events_query.since.reset();
    }
    // Over-fetch so that hiding stale events still fills the limit.
    if (hide_stale) events_query.limit = std::min(1000, query.limit * 2 + 10);
    auto r = RecallEvents(ctx, events_query);
    if (!r) return Error(r.error());
    events_result = std::move(*r);
  } else {
    // Validate the same way without searching events.
    RecallQuery probe = query;
    probe.limit = std::max(1, std::min(query.limit, 1000));
    probe.text.clear();
    auto r = RecallEvents(ctx, probe);
    if (!r) return Error(r.error());
  }

  std::vector<RecallItem> events = std::move(events_result.items);
  std::vector<RecallItem> claims;
  Status st = ctx.db.ReadTransaction([&]() -> Status {
    if (hide_stale && !events.empty()) {
      std::vector<std::string> ids;
      for (const auto& e : events) ids.push_back(e.id);
      auto currency = ctx.claims.EvidenceCurrency(ids);
      if (!currency) return currency.error();
      events.erase(std::remove_if(events.begin(), events.end(),
                                  [&](const RecallItem& e) {
                                    auto it = currency->find(e.id);
                                    return it != currency->end() && !it->second;
                                  }),
                   events.end());
    }
    if (events.size() > static_cast<size_t>(query.limit)) events.resize(query.limit);
    if (!query.include_claims) return Status::Ok();
    auto ns = ctx.store.FindNamespace(query.namespace_name);
    if (!ns) return ns.error();
    if (!ns->has_value()) return Status::Ok();
    MatchExpression match = BuildMatchExpression(ctx.analyzer, query.text, query.match);
    if (events_result.terms.empty()) events_result.terms = match.terms;
    if (match.fts5.empty()) return Status::Ok();
    sqlite::ClaimVisibility visibility{query.as_of, query.known_as_of, query.include_history};
    auto hits = ctx.claims.Search(match.fts5, **ns, visibility, NowMs(), query.limit, ctx.options.bm25_k1,
                                  ctx.options.bm25_b);
    if (!hits) return hits.error();
    std::vector<int64_t> seqs;
    for (const auto& h : *hits) seqs.push_back(h.seq);
    auto loaded = ctx.claims.GetBySeqs(seqs);
    if (!loaded) return loaded.error();
    for (size_t i = 0; i < loaded->size(); ++i) claims.push_back(ClaimItem(std::move((*loaded)[i]), (*hits)[i].score));
    return Status::Ok();
  });
  if (!st.ok()) return Error(st);

  // Reciprocal rank fusion of the two ranked lists.
  struct Fused {
    double rrf;
    double bm25;
    RecallItem item;
  };
  std::vector<Fused> fused;
  for (size_t i = 0; i < events.size(); ++i) fused.push_back({1.0 / (kRrfK + i + 1), events[i].score, std::move(events[i])});
  for (size_t i = 0; i < claims.size(); ++i) fused.push_back({1.0 / (kRrfK + i + 1), claims[i].score, std::move(claims[i])});
  std::stable_sort(fused.begin(), fused.end(), [](const Fused& a, const Fused& b) {
    if (a.rrf != b.rrf) return a.rrf > b.rrf;
    return a.bm25 > b.bm25;
  });
  RecallResult result;
  result.terms = std::move(events_result.terms);
  for (Fused& f : fused) {
    if (result.items.size() >= static_cast<size_t>(query.limit)) break;
    if (text::LooksLikeInstruction(f.item.text)) f.item.flags.push_back("instruction_like");
    result.items.push_back(std::move(f.item));
  }
  result.took_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  return result;
}

}  // namespace engram
