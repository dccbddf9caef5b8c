#include "recall/event_recall.h"

#include <chrono>
#include <fmt/format.h>
#include <set>

#include "recall/match_expression.h"
#include "util/utf8.h"

namespace engram {
namespace {

constexpr int kMaxRecallLimit = 1000;
constexpr size_t kMaxQueryBytes = 64 * 1024;
// How many full-text hits session search looks through for distinct lineages (Hermes: 300).
constexpr int kSessionSearchPool = 300;

Status CheckQueryText(std::string_view text) {
  size_t bad = 0;
  if (!IsValidUtf8(text, &bad)) {
    return Status::InvalidArgument(fmt::format("field \"query\": is not valid UTF-8 (byte {})", bad));
  }
  if (text.size() > kMaxQueryBytes) {
    return Status::InvalidArgument(
        fmt::format("field \"query\": is {} bytes; the limit is {}", text.size(), kMaxQueryBytes));
  }
  return Status::Ok();
}

Result<int64_t> RequireNamespace(RecallContext& ctx, std::string_view name) {
  if (name.empty()) return Error(Status::InvalidArgument("field \"namespace\": is required"));
  auto ns = ctx.store.FindNamespace(name);
  if (!ns) return Error(ns.error());
  if (!ns->has_value()) {
    return Error(Status::NotFound(fmt::format("namespace \"{}\" does not exist", TruncateCodePoints(name, 80))));
  }
  return **ns;
}

}  // namespace

Status ValidateRecallQuery(const RecallQuery& query) {
  if (query.namespace_name.empty()) return Status::InvalidArgument("field \"namespace\": is required");
  ENGRAM_RETURN_IF_ERROR(CheckQueryText(query.text));
  if (query.limit < 1 || query.limit > kMaxRecallLimit) {
    return Status::InvalidArgument(
        fmt::format("field \"limit\": {} is outside 1–{}", query.limit, kMaxRecallLimit));
  }
  if (query.since && query.until && *query.since >= *query.until) {
    return Status::InvalidArgument("field \"since\": must be earlier than \"until\"");
  }
  return Status::Ok();
}

Result<RecallResult> RecallEvents(RecallContext& ctx, const RecallQuery& query,
                                  const EventHitFilter* hit_filter) {
  auto started = std::chrono::steady_clock::now();
  ENGRAM_RETURN_IF_ERROR(ValidateRecallQuery(query));
  RecallResult result;
  Status st = ctx.db.ReadTransaction([&]() -> Status {
    auto ns = RequireNamespace(ctx, query.namespace_name);
    if (!ns) return ns.error();
    sqlite::SearchFilter filter;
    filter.namespace_id = *ns;
    filter.since = query.since;
    filter.until = query.until;
    if (!query.session_id.empty()) {
      auto session = ctx.store.FindSession(*ns, query.session_id);
      if (!session) return session.error();
      if (!session->has_value()) {
        return Status::NotFound(fmt::format("session \"{}\" does not exist in namespace \"{}\"",
                                            TruncateCodePoints(query.session_id, 80),
                                            query.namespace_name));
      }
      filter.session_rowid = **session;
    }
    MatchExpression match = BuildMatchExpression(ctx.analyzer, query.text, query.match);
    result.terms = match.terms;
    if (match.fts5.empty()) return Status::Ok();
    const int search_limit = hit_filter != nullptr ? std::max(query.limit, hit_filter->search_limit) : query.limit;
    auto hits = ctx.store.Search(match.fts5, filter, search_limit, ctx.options.bm25_k1, ctx.options.bm25_b);
    if (!hits) return hits.error();
    if (hit_filter != nullptr) {
      std::vector<sqlite::SearchHit> kept;
      for (const sqlite::SearchHit& hit : *hits) {
        if (kept.size() >= static_cast<size_t>(query.limit)) break;
        auto keep = hit_filter->keep(hit.seq);
        if (!keep) return keep.error();
        if (*keep) kept.push_back(hit);
      }
      *hits = std::move(kept);
    }
    std::vector<int64_t> seqs;
    seqs.reserve(hits->size());
    for (const sqlite::SearchHit& hit : *hits) seqs.push_back(hit.seq);
    auto events = ctx.store.GetBySeqs(seqs);
    if (!events) return events.error();
    for (size_t i = 0; i < hits->size(); ++i) {
      Event& event = (*events)[i];
      RecallItem item;
      item.id = std::move(event.id);
      item.text = std::move(event.content);
      item.score = (*hits)[i].score;
      item.occurred_at = event.occurred_at;
      item.recorded_at = event.recorded_at;
      item.session_id = std::move(event.session_id);
      item.speaker = std::move(event.speaker);
      item.role = std::move(event.role);
      item.metadata_json = std::move(event.metadata_json);
      result.items.push_back(std::move(item));
    }
    return Status::Ok();
  });
  if (!st.ok()) return Error(st);
  result.took_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  return result;
}

Result<SessionSearchResult> SearchSessions(RecallContext& ctx, const SessionSearchQuery& query) {
  ENGRAM_RETURN_IF_ERROR(CheckQueryText(query.text));
  const int limit = std::clamp(query.limit, 1, 10);
  const int window = std::clamp(query.window, 1, 20);
  SessionSearchResult result;
  Status st = ctx.db.ReadTransaction([&]() -> Status {
    auto ns = RequireNamespace(ctx, query.namespace_name);
    if (!ns) return ns.error();
    std::optional<int64_t> current_root;
    std::optional<int64_t> current_session;
    if (!query.current_session_id.empty()) {
      auto cur = ctx.store.FindSession(*ns, query.current_session_id);
      if (!cur) return cur.error();
      if (cur->has_value()) {
        current_session = **cur;
        auto root = ctx.store.LineageRoot(**cur);
        if (!root) return root.error();
        current_root = *root;
      }
    }
    sqlite::SearchFilter filter;
    filter.namespace_id = *ns;
    std::vector<sqlite::SearchHit> hits;
    for (MatchMode mode : {MatchMode::kAll, MatchMode::kAny}) {
      MatchExpression match = BuildMatchExpression(ctx.analyzer, query.text, mode);
      result.terms = match.terms;
      if (match.fts5.empty()) return Status::Ok();
      auto found = ctx.store.Search(match.fts5, filter, kSessionSearchPool, ctx.options.bm25_k1,
                                    ctx.options.bm25_b);
      if (!found) return found.error();
      hits = std::move(*found);
      if (!hits.empty()) break;
    }

    // Resolve each hit's session and lineage; keep the best hit per lineage root.
    struct Candidate {
      sqlite::SearchHit hit;
      int64_t session_rowid;
      int64_t root;
      SessionInfo info;
    };
    std::vector<Candidate> regular, demoted;
    std::set<int64_t> seen_roots;
    for (const sqlite::SearchHit& hit : hits) {
      auto session_rowid = ctx.store.SessionRowidOfEvent(hit.seq);
      if (!session_rowid) return session_rowid.error();
      if (current_session && *session_rowid == *current_session) continue;
      auto root = ctx.store.LineageRoot(*session_rowid);
      if (!root) return root.error();
      if (current_root && *root == *current_root) continue;
      if (!seen_roots.insert(*root).second) continue;
      auto info = ctx.store.GetSession(*session_rowid);
      if (!info) return info.error();
      if (info->kind == "subagent") continue;
      Candidate c{hit, *session_rowid, *root, std::move(*info)};
      (c.info.kind == "cron" ? demoted : regular).push_back(std::move(c));
    }
    regular.insert(regular.end(), std::make_move_iterator(demoted.begin()),
                   std::make_move_iterator(demoted.end()));
    if (regular.size() > static_cast<size_t>(limit)) regular.resize(limit);

    for (Candidate& c : regular) {
      SessionSearchHit out;
      auto root_info = ctx.store.GetSession(c.root);
      if (!root_info) return root_info.error();
      out.lineage_root_id = root_info->id;
      auto match_event = ctx.store.GetBySeq(c.hit.seq);
      if (!match_event) return match_event.error();
      out.match_event_id = match_event->id;
      out.score = c.hit.score;
      auto pos = ctx.store.PositionInSession(c.hit.seq);
      if (!pos) return pos.error();
      auto [index, count] = *pos;
      int64_t offset = std::max<int64_t>(0, index - window);
      auto events = ctx.store.SessionEvents(c.session_rowid, offset, 2 * window + 1);
      if (!events) return events.error();
      out.window = std::move(*events);
      out.events_before = offset;
      out.events_after = std::max<int64_t>(0, count - offset - static_cast<int64_t>(out.window.size()));
      if (out.events_before > 0) {
        auto first = ctx.store.SessionEvents(c.session_rowid, 0, 1);
        if (!first) return first.error();
        if (!first->empty()) out.first_event = first->front();
      }
      if (out.events_after > 0) {
        auto last = ctx.store.SessionEvents(c.session_rowid, count - 1, 1);
        if (!last) return last.error();
        if (!last->empty()) out.last_event = last->front();
      }
      out.session = std::move(c.info);
      result.hits.push_back(std::move(out));
    }
    return Status::Ok();
  });
  if (!st.ok()) return Error(st);
  return result;
}

}  // namespace engram
