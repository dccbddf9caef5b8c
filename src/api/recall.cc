// The recall group: find the memories that answer a question, rate what came back, and list or
// search past sessions.
#include <fmt/format.h>

#include <algorithm>

#include "api/common.h"
#include "api/groups.h"
#include "api/page.h"
#include "util/time.h"

namespace engram::api {
namespace {

constexpr int64_t kMaxRecallLimit = 1000;  // the maximum of "limit" (and of the engine's RecallQuery)

ParamSpec Time(const char* name, const char* description) {
  return {.name = name, .type = ParamType::kTimestamp, .description = description};
}

ParamSpec Flag(const char* name, const char* description, bool default_value) {
  return {.name = name, .type = ParamType::kBoolean, .description = description, .default_value = default_value};
}

std::vector<ParamSpec> RecallParams() {
  return {NamespaceParam(),
          {.name = "query", .description = "the question, taken literally", .required = true,
           .max_length = kMaxQueryLength},
          {.name = "limit", .type = ParamType::kInteger, .description = "items to return",
           .minimum = 1, .maximum = kMaxRecallLimit, .default_value = 10},
          {.name = "budget_tokens", .type = ParamType::kInteger,
           .description = "pack items under this many tokens (0 = none)", .minimum = 0, .maximum = 1000000,
           .default_value = 0},
          {.name = "session_id", .description = "only this session", .max_length = kMaxIdLength},
          Time("since", "only events at or after this time"),
          Time("until", "only events before this time"),
          Time("as_of", "claims true at this time"),
          Time("known_as_of", "claims engram believed at this time (recorded time)"),
          Flag("include_history", "also superseded and expired claims", false),
          Flag("exclude_instruction_like", "leave out items whose text reads like a prompt injection", false),
          {.name = "match", .description = "any: rank by any term; all: every term must occur",
           .enum_values = {"any", "all"}, .default_value = "any"},
          Flag("include_events", "search events", true),
          Flag("include_claims", "search claims", true),
          Time("now", "when the question is asked (resolves \"yesterday\"); default now"),
          {.name = "utc_offset", .description = "the asker's UTC offset, e.g. +08:00 (default: that of now, else UTC)",
           .max_length = 16},
          {.name = "rerank", .type = ParamType::kBoolean,
           .description = "true: the configured reranker must run; false: not for this query"},
          {.name = "cursor", .description = "next_cursor of the previous page", .max_length = 64}};
}

// The asker's offset: utc_offset, else the offset written in now, else UTC.
Result<int> AskerOffset(const Args& args) {
  int offset = 0;
  if (auto now = args.OptString("now")) {
    auto local = ParseLocalTimestamp(*now);
    if (!local) return Error(local.error().WithContext("field \"now\""));
    offset = local->utc_offset_minutes;
  }
  if (auto text = args.OptString("utc_offset")) {
    auto parsed = ParseUtcOffset(*text);
    if (!parsed) return Error(parsed.error().WithContext("field \"utc_offset\""));
    offset = *parsed;
  }
  return offset;
}

Result<RecallQuery> ToRecallQuery(const Args& args) {
  RecallQuery q;
  q.text = args.String("query");
  q.namespace_name = args.String("namespace");
  q.limit = static_cast<int>(args.Int("limit"));
  q.budget_tokens = static_cast<int>(args.Int("budget_tokens"));
  q.session_id = args.String("session_id");
  q.match = args.String("match") == "all" ? MatchMode::kAll : MatchMode::kAny;
  q.include_history = args.Bool("include_history");
  q.exclude_instruction_like = args.Bool("exclude_instruction_like");
  q.include_events = args.Bool("include_events");
  q.include_claims = args.Bool("include_claims");
  q.rerank = args.OptBool("rerank");
  auto offset = AskerOffset(args);
  if (!offset) return Error(offset.error());
  q.utc_offset_minutes = *offset;
  for (auto [field, target] : {std::pair{"since", &q.since}, std::pair{"until", &q.until},
                               std::pair{"as_of", &q.as_of}, std::pair{"known_as_of", &q.known_as_of},
                               std::pair{"now", &q.now}}) {
    auto t = args.Time(field, q.utc_offset_minutes);
    if (!t) return Error(t.error());
    *target = *t;
  }
  return q;
}

// Keeps the items best first while they fit under `budget` tokens (0 = no budget), stopping at
// the first that does not (so a page is a run of consecutive ranks and its cursor is exact); the
// first item is always kept, so a cursor always moves on. Returns how many were kept.
size_t PackPage(RecallResult& r, int budget) {
  int used = 0;
  size_t kept = 0;
  for (; kept < r.items.size(); ++kept) {
    if (budget > 0 && kept > 0 && used + r.items[kept].tokens > budget) break;
    used += r.items[kept].tokens;
  }
  r.truncated = kept < r.items.size();
  r.items.resize(kept);
  r.used_tokens = used;
  return kept;
}

// One page of the ranked list: ranks [offset, offset + limit), packed under budget_tokens.
Result<Reply> RunRecall(Engine& engine, const Args& args, const CallContext&) {
  auto q = ToRecallQuery(args);
  if (!q) return Error(q.error());
  int64_t offset = 0;
  if (auto cursor = args.OptString("cursor")) {
    auto parsed = ParseCursor(*cursor);
    if (!parsed) return Error(parsed.error());
    offset = *parsed;
  }
  const int budget = q->budget_tokens;
  q->limit = static_cast<int>(std::min<int64_t>(offset + q->limit, kMaxRecallLimit));
  q->budget_tokens = 0;
  auto r = engine.Recall(*q);
  if (!r) return Error(r.error());
  r->items.erase(r->items.begin(), r->items.begin() + std::min<size_t>(offset, r->items.size()));
  const size_t kept = PackPage(*r, budget);
  OrderedJson body = RecallResultToJson(*r);
  body["namespace"] = q->namespace_name;
  body["as_of"] = q->as_of ? OrderedJson(FormatTimestamp(*q->as_of)) : OrderedJson();
  body["next_cursor"] = r->truncated ? OrderedJson(MakeCursor(offset + static_cast<int64_t>(kept))) : OrderedJson();
  return Reply{.body = std::move(body)};
}

Result<Reply> RunFeedback(Engine& engine, const Args& args, const CallContext&) {
  FeedbackInput in{.feedback_id = args.String("feedback_id"), .helpful = args.Bool("helpful"),
                   .namespace_name = args.String("namespace")};
  auto r = engine.Feedback(in);
  if (!r) return Error(r.error());
  return Reply{.body = {{"namespace", r->namespace_name}, {"item_type", r->item_type}, {"item_id", r->item_id},
                        {"helpful", r->helpful}, {"unhelpful", r->unhelpful}}};
}

Result<Reply> RunListSessions(Engine& engine, const Args& args, const CallContext&) {
  return ListSessionsPage(engine, args, /*all_namespaces=*/false);
}

Result<Reply> RunSearchSessions(Engine& engine, const Args& args, const CallContext&) {
  SessionSearchQuery q{.text = args.String("query"),
                       .namespace_name = args.String("namespace"),
                       .current_session_id = args.String("current_session_id"),
                       .limit = static_cast<int>(args.Int("limit")),
                       .window = static_cast<int>(args.Int("window"))};
  auto r = engine.SearchSessions(q);
  if (!r) return Error(r.error());
  OrderedJson body = SessionSearchResultToJson(*r);
  body["namespace"] = q.namespace_name;
  return Reply{.body = std::move(body)};
}

}  // namespace

Result<Reply> ListSessionsPage(Engine& engine, const Args& args, bool all_namespaces) {
  const std::string ns = all_namespaces ? "" : args.String("namespace");
  std::vector<SessionInfo> page;
  auto next = FetchPage(
      args, page,
      [&](int limit, int64_t after) {
        return engine.ListSessions(
            {.namespace_name = ns, .limit = limit, .all_namespaces = all_namespaces, .after_seq = after});
      },
      [](const SessionInfo& s) { return s.seq; });
  if (!next) return Error(next.error());
  OrderedJson items = OrderedJson::array();
  for (const SessionInfo& s : page) items.push_back(SessionInfoToJson(s));
  OrderedJson body{{"namespace", ns}, {"items", std::move(items)}, {"next_cursor", std::move(*next)}};
  if (all_namespaces) body.erase("namespace");
  return Reply{.body = std::move(body)};
}

OrderedJson SessionSchema() {
  return Object({{"session_id", StringType()}, {"namespace", StringType()}, {"event_count", IntegerType()},
                 {"started_at", NullableString("ISO-8601 UTC")}, {"last_active_at", NullableString("ISO-8601 UTC")},
                 {"preview", StringType()}},
                {"session_id", "namespace"});
}

std::vector<Capability> RecallCapabilities() {
  std::vector<Capability> out;
  out.push_back(
      {.name = "recall",
       .group = "recall",
       .description = "Find the memories (claims and events) that answer a question, current facts first, each "
                      "with its evidence and validity. Fast (milliseconds); call it before answering from memory.",
       .params = RecallParams(),
       .result_schema = RecallPacketSchema(),
       .handler = RunRecall,
       .rest = {"POST", "/v1/namespaces/{namespace}/recall"},
       .mcp = {.tool = "memory_recall",
               .title = "Recall memories",
               .description = "Find the memories that answer a question, current facts first, with evidence. Call it before answering from memory.",
               .annotations = {.read_only = true, .destructive = false, .idempotent = true, .open_world = false},
               .params = {"query", "limit", "budget_tokens", "as_of", "include_history", "cursor"},
               .defaults = {{"budget_tokens", 2000}}}});
  out.push_back(
      {.name = "feedback",
       .group = "recall",
       .description = "Rate one recalled item as helpful or not for the question it answered (its feedback_id); "
                      "ratings shape later recalls.",
       .access = Access::kWrite,
       .params = {NamespaceParam(),
                  {.name = "feedback_id", .description = "the item's feedback_id from recall", .required = true,
                   .max_length = 400},
                  {.name = "helpful", .type = ParamType::kBoolean, .description = "true if it helped",
                   .required = true}},
       .result_schema = Object({{"namespace", StringType()}, {"item_type", StringType()}, {"item_id", StringType()},
                                {"helpful", IntegerType()}, {"unhelpful", IntegerType()}},
                               {"namespace", "item_type", "item_id"}),
       .handler = RunFeedback,
       .rest = {"POST", "/v1/namespaces/{namespace}/feedback"},
       .mcp = {.tool = "memory_feedback",
               .title = "Rate a recalled memory",
               .description = "Rate a recalled item helpful or not; it shapes later recalls.",
               .annotations = {.read_only = false, .destructive = false, .idempotent = true, .open_world = false}}});
  out.push_back({.name = "list_sessions",
                 .group = "sessions",
                 .description = "The namespace's sessions, newest first (by when they were first written), "
                                "metadata only, a page at a time (pass next_cursor back for the next page).",
                 .params = {NamespaceParam(), LimitParam(20, 1000), CursorParam()},
                 .result_schema = PageSchema(SessionSchema(), /*namespaced=*/true),
                 .handler = RunListSessions,
                 .rest = {"GET", "/v1/namespaces/{namespace}/sessions"}});
  out.push_back(
      {.name = "search_sessions",
       .group = "sessions",
       .description = "Search past conversations by full text: the best sessions, each with the events around the "
                      "match. Use it to find what was said before, verbatim.",
       .params = {NamespaceParam(),
                  {.name = "query", .description = "what to look for, taken literally", .required = true,
                   .max_length = kMaxQueryLength},
                  {.name = "current_session_id", .description = "this session's lineage is left out",
                   .max_length = kMaxIdLength},
                  {.name = "limit", .type = ParamType::kInteger, .description = "sessions to return", .minimum = 1,
                   .maximum = 10, .default_value = 3},
                  {.name = "window", .type = ParamType::kInteger, .description = "events either side of the hit, 1–20",
                   .minimum = 1, .maximum = 20, .default_value = 5}},
       .result_schema = Object({{"namespace", StringType()}, {"hits", ArrayOf(AnyObject("a session and its window"))}},
                               {"namespace", "hits"}),
       .handler = RunSearchSessions,
       .rest = {"POST", "/v1/namespaces/{namespace}/sessions/search"},
       .mcp = {.tool = "memory_search_sessions",
               .title = "Search past sessions",
               .description = "Full-text search of past conversations: best sessions with the turns around each match.",
               .annotations = {.read_only = true, .destructive = false, .idempotent = true, .open_world = false},
               .params = {"query", "limit"}}});
  return out;
}

}  // namespace engram::api
