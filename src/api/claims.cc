// The claims group: explicit memories (remember), and reading claims — listed a page at a time,
// one by id, why it is current, what changed.
#include <fmt/format.h>

#include "api/common.h"
#include "api/groups.h"

namespace engram::api {
namespace {

std::vector<ParamSpec> RememberParams() {
  ParamSpec key{.name = "idempotency_key", .description = "a retry with this key changes nothing",
                .max_length = kMaxIdLength, .in = ParamIn::kHeader, .header = "Idempotency-Key"};
  auto text = [](const char* name, const char* description, int64_t max_length) {
    return ParamSpec{.name = name, .description = description, .max_length = max_length};
  };
  return {NamespaceParam(),
          text("text", "the statement to remember, in the user's words",
               100000),
          text("subject", "structured memory: who or what it is about", kMaxIdLength),
          text("predicate", "structured memory: the attribute (snake_case)", kMaxIdLength),
          text("value", "structured memory: the value", 10000),
          {.name = "at", .type = ParamType::kTimestamp, .description = "when it became true (default now)"},
          key,
          text("session_id", "session of the evidence event (default explicit)", kMaxIdLength),
          text("speaker", "who is speaking (the subject of text defaults to them)", kMaxIdLength)};
}

Result<Reply> RunRemember(Engine& engine, const Args& args, const CallContext&) {
  RememberInput in;
  in.namespace_name = args.String("namespace");
  in.text = args.String("text");
  in.subject = args.String("subject");
  in.predicate = args.String("predicate");
  in.value = args.String("value");
  in.at = args.String("at");
  in.idempotency_key = args.String("idempotency_key");
  in.session_id = args.String("session_id");
  in.speaker = args.String("speaker");
  auto r = engine.Remember(in);
  if (!r) return Error(r.error());
  OrderedJson body = RememberResultToJson(*r);
  body["namespace"] = in.namespace_name;
  body["status"] = "committed";
  return Reply{.body = std::move(body), .http_status = r->duplicate || r->forgotten ? 200 : 201};
}

Result<Reply> RunListClaims(Engine& engine, const Args& args, const CallContext&) {
  ListClaimsQuery q;
  q.namespace_name = args.String("namespace");
  q.subject = args.String("subject");
  q.include_history = args.Bool("include_history");
  q.limit = static_cast<int>(args.Int("limit")) + 1;  // one more: is there a next page?
  if (auto cursor = args.OptString("cursor")) {
    auto after = ParseCursor(*cursor);
    if (!after) return Error(after.error());
    q.after_seq = *after;
  }
  auto claims = engine.ListClaims(q);
  if (!claims) return Error(claims.error());
  const bool more = static_cast<int>(claims->size()) == q.limit;
  if (more) claims->pop_back();
  OrderedJson items = OrderedJson::array();
  for (const Claim& c : *claims) items.push_back(ClaimToJson(c));
  OrderedJson next = more ? OrderedJson(MakeCursor(claims->back().seq)) : OrderedJson();
  return Reply{.body = {{"namespace", q.namespace_name}, {"items", std::move(items)}, {"next_cursor", next}}};
}

Result<Claim> ClaimIn(Engine& engine, const Args& args) {
  auto c = engine.GetClaim(args.String("id"));
  if (!c) return Error(c.error());
  if (c->namespace_name != args.String("namespace")) {
    return Error(NotInNamespace("claim", args.String("id"), args.String("namespace")));
  }
  return c;
}

Result<Reply> RunGetClaim(Engine& engine, const Args& args, const CallContext&) {
  auto c = ClaimIn(engine, args);
  if (!c) return Error(c.error());
  return Reply{.body = ClaimToJson(*c)};
}

// An event or a claim by id: what memory_get answers (ids from recall are of either type).
Result<Reply> RunGetMemory(Engine& engine, const Args& args, const CallContext&) {
  const std::string ns = args.String("namespace");
  auto c = engine.GetClaim(args.String("id"));
  if (c && c->namespace_name == ns) return Reply{.body = {{"namespace", ns}, {"type", "claim"}, {"claim", ClaimToJson(*c)}}};
  if (!c && c.error().code() != StatusCode::kNotFound) return Error(c.error());
  auto e = engine.GetEvent(args.String("id"));
  if (e && e->namespace_name == ns) return Reply{.body = {{"namespace", ns}, {"type", "event"}, {"event", EventToJson(*e)}}};
  if (!e && e.error().code() != StatusCode::kNotFound) return Error(e.error());
  return Error(NotInNamespace("event or claim", args.String("id"), ns));
}

Result<Reply> RunExplain(Engine& engine, const Args& args, const CallContext&) {
  if (auto c = ClaimIn(engine, args); !c) return Error(c.error());
  auto x = engine.ExplainClaim(args.String("id"));
  if (!x) return Error(x.error());
  OrderedJson body = ClaimExplanationToJson(*x);
  body["namespace"] = args.String("namespace");
  return Reply{.body = std::move(body)};
}

Result<Reply> RunHistory(Engine& engine, const Args& args, const CallContext&) {
  if (auto c = ClaimIn(engine, args); !c) return Error(c.error());
  auto x = engine.ExplainClaim(args.String("id"));
  if (!x) return Error(x.error());
  OrderedJson history = OrderedJson::array();
  for (const ClaimChange& h : x->history) history.push_back(ClaimChangeToJson(h));
  OrderedJson chain = ClaimExplanationToJson(*x)["chain"];
  return Reply{.body = {{"namespace", args.String("namespace")}, {"claim_id", x->claim.id},
                        {"chain", std::move(chain)}, {"history", std::move(history)}}};
}

OrderedJson IdFields(const char* description) { return Object({{"namespace", StringType()}, {"claim_id", StringType(description)}}); }

}  // namespace

std::vector<Capability> ClaimCapabilities() {
  std::vector<Capability> out;
  const McpAnnotations read{.read_only = true, .destructive = false, .idempotent = true, .open_world = false};
  out.push_back(
      {.name = "remember",
       .group = "claims",
       .description = "Save a fact, preference or decision now (committed before it returns, in milliseconds). "
                      "A statement that changes an earlier fact supersedes it; the old one stays as history.",
       .access = Access::kWrite,
       .params = RememberParams(),
       .result_schema = Object({{"namespace", StringType()},
                                {"status", StringType("committed")},
                                {"event", EventSchema()},
                                {"claims", ArrayOf(ClaimSchema())},
                                {"decisions", ArrayOf(StringType())},
                                {"duplicate", BooleanType()},
                                {"forgotten", BooleanType()}},
                               {"namespace", "status", "claims", "duplicate", "forgotten"}),
       .handler = RunRemember,
       .rest = {"POST", "/v1/namespaces/{namespace}/memories"},
       .mcp = {.tool = "memory_save",
               .title = "Save a memory",
               .description = "Save a fact, preference or decision now; one that changes an earlier fact supersedes it.",
               .annotations = {.read_only = false, .destructive = false, .idempotent = false, .open_world = false},
               .params = {"text", "at", "idempotency_key"}}});
  out.push_back({.name = "list_claims",
                 .group = "claims",
                 .description = "The namespace's claims, oldest first, current ones unless include_history, a page at "
                                "a time (pass next_cursor back for the next page).",
                 .params = {NamespaceParam(),
                            {.name = "subject", .description = "only claims about this subject (exact)",
                             .max_length = kMaxIdLength, .in = ParamIn::kQuery},
                            {.name = "include_history", .type = ParamType::kBoolean,
                             .description = "also superseded, expired, archived and retracted claims",
                             .default_value = false, .in = ParamIn::kQuery},
                            LimitParam(50, kMaxPageSize), CursorParam()},
                 .result_schema = Object({{"namespace", StringType()}, {"items", ArrayOf(ClaimSchema())},
                                          {"next_cursor", NullableString("null on the last page")}},
                                         {"namespace", "items", "next_cursor"}),
                 .handler = RunListClaims,
                 .rest = {"GET", "/v1/namespaces/{namespace}/claims"}});
  out.push_back({.name = "get_memory",
                 .group = "claims",
                 .description = "Read one memory in full by the id recall gave: a claim with its evidence, or an event.",
                 .params = {NamespaceParam(), IdParam("a claim or event id")},
                 .result_schema = Object({{"namespace", StringType()}, {"type", StringType("claim or event")},
                                          {"claim", ClaimSchema()}, {"event", EventSchema()}},
                                         {"namespace", "type"}),
                 .handler = RunGetMemory,
                 .rest = {"GET", "/v1/namespaces/{namespace}/memories/{id}"},
                 .mcp = {.tool = "memory_get", .title = "Read a memory",
               .description = "Read a memory in full by the id recall gave.", .annotations = read}});
  out.push_back({.name = "get_claim",
                 .group = "claims",
                 .description = "Read one claim with its evidence.",
                 .params = {NamespaceParam(), IdParam("the claim id")},
                 .result_schema = ClaimSchema(),
                 .handler = RunGetClaim,
                 .rest = {"GET", "/v1/namespaces/{namespace}/claims/{id}"}});
  out.push_back({.name = "explain_claim",
                 .group = "claims",
                 .description = "Why a claim is or is not current: its evidence, supersede chain, decisions and history.",
                 .params = {NamespaceParam(), IdParam("the claim id")},
                 .result_schema = Object({{"namespace", StringType()}, {"claim", ClaimSchema()},
                                          {"current", BooleanType()}, {"why", StringType()},
                                          {"chain", ArrayOf(AnyObject())}},
                                         {"namespace", "claim", "current", "why", "chain"}),
                 .handler = RunExplain,
                 .rest = {"GET", "/v1/namespaces/{namespace}/claims/{id}/explain"},
                 .mcp = {.tool = "memory_explain", .title = "Explain a memory",
               .description = "Why a claim is or is not current: evidence, supersede chain, history.", .annotations = read}});
  OrderedJson history = IdFields("the claim");
  history["properties"]["chain"] = ArrayOf(AnyObject("a value of the slot, oldest first"));
  history["properties"]["history"] = ArrayOf(AnyObject("a change: at, actor, action, reason, before, after"));
  history["required"] = OrderedJson::array({"namespace", "claim_id", "chain", "history"});
  out.push_back({.name = "claim_history",
                 .group = "claims",
                 .description = "Every value a fact has had (its supersede chain, oldest first) and every change of "
                                "this claim.",
                 .params = {NamespaceParam(), IdParam("the claim id")},
                 .result_schema = std::move(history),
                 .handler = RunHistory,
                 .rest = {"GET", "/v1/namespaces/{namespace}/claims/{id}/history"},
                 .mcp = {.tool = "memory_history", .title = "History of a memory",
               .description = "Every value the fact has had, and every change of the claim.", .annotations = read}});
  return out;
}

}  // namespace engram::api
