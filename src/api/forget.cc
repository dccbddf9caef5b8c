// The forget group: forget what a selector names (a preview unless confirmed), list the
// tombstones, and take a tombstone back.
#include <fmt/format.h>

#include "api/common.h"
#include "api/groups.h"
#include "api/page.h"

namespace engram::api {
namespace {

std::vector<ParamSpec> ForgetParams() {
  auto text = [](const char* name, const char* description) {
    return ParamSpec{.name = name, .description = description, .max_length = kMaxQueryLength};
  };
  return {NamespaceParam(),
          {.name = "ids", .type = ParamType::kStringArray,
           .description = "event, claim, episode or rule ids", .max_length = 1000},
          text("session_id", "forget every event of this session"),
          text("subject", "forget every claim about this subject (exact)"),
          {.name = "before", .type = ParamType::kTimestamp, .description = "forget every event before this time"},
          text("query", "every event and claim (any status) holding every term of this text"),
          {.name = "query_limit", .type = ParamType::kInteger, .description = "at most this many events and this many claims, 1–1000",
           .minimum = 1, .maximum = 1000, .default_value = 20},
          {.name = "all", .type = ParamType::kBoolean, .description = "forget the whole namespace",
           .default_value = false},
          {.name = "confirm", .type = ParamType::kBoolean,
           .description = "false (default): only report what would go; true: forget", .default_value = false},
          {.name = "reason", .description = "why (kept in the tombstones and audit log)", .max_length = 1000}};
}

Result<Reply> RunForget(Engine& engine, const Args& args, const CallContext& context) {
  ForgetRequest r;
  r.namespace_name = args.String("namespace");
  r.ids = args.Strings("ids");
  r.session_id = args.String("session_id");
  r.subject = args.String("subject");
  auto before = args.Time("before");
  if (!before) return Error(before.error());
  r.before = *before;
  r.query = args.String("query");
  r.query_limit = static_cast<int>(args.Int("query_limit"));
  r.all = args.Bool("all");
  r.confirm = args.Bool("confirm");
  r.preview = !r.confirm;
  r.reason = args.String("reason");
  r.actor = context.actor;
  auto report = engine.Forget(r);
  if (!report) return Error(report.error());
  OrderedJson body = ForgetReportToJson(*report);
  body["namespace"] = r.namespace_name;
  return Reply{.body = std::move(body)};
}

}  // namespace

Result<Reply> ListTombstonesPage(Engine& engine, const Args& args, bool all_namespaces) {
  const std::string ns = all_namespaces ? "" : args.String("namespace");
  std::vector<Tombstone> page;
  auto next = FetchPage(
      args, page,
      [&](int limit, int64_t after) {
        return engine.ListTombstones({.namespace_name = ns, .object_id = args.String("object_id"), .limit = limit,
                                      .all_namespaces = all_namespaces, .after_seq = after});
      },
      [](const Tombstone& t) { return t.seq; });
  if (!next) return Error(next.error());
  OrderedJson items = OrderedJson::array();
  for (const Tombstone& t : page) items.push_back(TombstoneToJson(t));
  OrderedJson body{{"namespace", ns}, {"items", std::move(items)}, {"next_cursor", std::move(*next)}};
  if (all_namespaces) body.erase("namespace");
  return Reply{.body = std::move(body)};
}

namespace {

Result<Reply> RunTombstones(Engine& engine, const Args& args, const CallContext&) {
  return ListTombstonesPage(engine, args, /*all_namespaces=*/false);
}

Result<Reply> RunUnforget(Engine& engine, const Args& args, const CallContext&) {
  auto t = engine.Unforget(args.String("id"), args.String("reason"));
  if (!t) return Error(t.error());
  return Reply{.body = {{"unforgotten", TombstoneToJson(*t)}}};
}

}  // namespace

std::vector<Capability> ForgetCapabilities() {
  std::vector<Capability> out;
  out.push_back(
      {.name = "forget",
       .group = "forget",
       .description = "Forget memories for good: by ids, session, subject, time or a query. Without confirm it only "
                      "reports what would go; with confirm the content is deleted and a tombstone keeps it from "
                      "coming back.",
       .access = Access::kWrite,
       .params = ForgetParams(),
       .result_schema = Object({{"namespace", StringType()},
                                {"preview", BooleanType("true: nothing was changed")},
                                {"operation_id", StringType()},
                                {"events", IntegerType()},
                                {"claims", IntegerType()},
                                {"items", ArrayOf(AnyObject("{type, id, why, text?}"))},
                                {"curated_entries", IntegerType("curated entries taken out of their files")},
                                {"warnings", ArrayOf(StringType())}},
                               {"namespace", "preview", "events", "claims", "items"}),
       .handler = RunForget,
       .rest = {"POST", "/v1/namespaces/{namespace}/forget"},
       .mcp = {.tool = "memory_forget",
               .title = "Forget memories",
               .description = "Forget for good, by ids or query: a preview unless confirm; a tombstone blocks its return.",
               .annotations = {.read_only = false, .destructive = true, .idempotent = true, .open_world = false},
               .params = {"ids", "query", "confirm"}}});
  out.push_back({.name = "list_tombstones",
                 .group = "forget",
                 .description = "What was forgotten in the namespace, newest first: ids and hashes, never content.",
                 .params = {NamespaceParam(),
                            {.name = "object_id", .description = "only the tombstones of this object",
                             .max_length = kMaxIdLength, .in = ParamIn::kQuery},
                            LimitParam(100, 100000), CursorParam()},
                 .result_schema = PageSchema(TombstoneSchema(), /*namespaced=*/true),
                 .handler = RunTombstones,
                 .rest = {"GET", "/v1/namespaces/{namespace}/tombstones"}});
  out.push_back({.name = "unforget",
                 .group = "forget",
                 .description = "Remove a tombstone so the same content may be stored again (the content itself does "
                                "not come back).",
                 .access = Access::kAdmin,
                 .namespaced = false,
                 .params = {IdParam("a tombstone id, or the id of a forgotten object"),
                            {.name = "reason", .description = "why", .max_length = 1000}},
                 .result_schema = Object({{"unforgotten", TombstoneSchema()}}, {"unforgotten"}),
                 .handler = RunUnforget,
                 .rest = {"POST", "/v1/admin/tombstones/{id}/unforget"}});
  return out;
}

}  // namespace engram::api
