// The curated group: MEMORY.md and USER.md of a namespace (docs/curated.md) — read both, change
// one (a single action or a batch, all or nothing), the system-prompt block, and (admin) which
// folder holds them.
#include <fmt/format.h>

#include "api/common.h"
#include "api/groups.h"

namespace engram::api {
namespace {

constexpr int64_t kMaxEntryLength = 100000;

OrderedJson StoreToJson(const CuratedStoreState& s) {
  OrderedJson entries = OrderedJson::array();
  for (const std::string& e : s.entries) entries.push_back(e);
  return {{"entries", std::move(entries)}, {"chars", s.chars}, {"limit", s.limit},
          {"usage", s.usage},              {"version", s.version}, {"file", s.file}};
}

OrderedJson StoreSchema() {
  return Object({{"entries", ArrayOf(StringType())},
                 {"chars", IntegerType("code points of the entries joined by the delimiter")},
                 {"limit", IntegerType("the budget in code points")},
                 {"usage", StringType("\"56% — 1,234/2,200 chars\"")},
                 {"version", StringType("a hash of the file; pass it as if_version to write only over it")},
                 {"file", StringType("the file's path")}},
                {"entries", "chars", "limit", "usage", "version", "file"});
}

Result<Reply> RunRead(Engine& engine, const Args& args, const CallContext&) {
  const std::string ns = args.String("namespace");
  auto stores = engine.ReadCurated(ns);
  if (!stores) return Error(stores.error());
  OrderedJson body{{"namespace", ns}};
  for (const CuratedStoreState& s : *stores) body[s.target] = StoreToJson(s);
  return Reply{.body = std::move(body)};
}

// The operations of a write: `operations`, or the single action/content/old_text. Errors:
// kInvalidArgument naming the field (both forms, neither, an operation that is not an object or
// has a field of the wrong type).
Result<std::vector<CuratedOp>> OpsOf(const Args& args) {
  const bool single = args.Has("action") || args.Has("content") || args.Has("old_text");
  if (args.Has("operations") == single) {
    return Error(Status::InvalidArgument(
        "field \"operations\": give either operations (a batch) or action with content / old_text (one change)"));
  }
  if (single) return std::vector<CuratedOp>{{args.String("action"), args.String("content"), args.String("old_text")}};
  std::vector<CuratedOp> ops;
  const nlohmann::json& list = args.Raw("operations");
  for (size_t i = 0; i < list.size(); ++i) {
    CuratedOp op;
    for (auto [name, into] : {std::pair{"action", &op.action}, std::pair{"content", &op.content},
                              std::pair{"new_text", &op.content}, std::pair{"old_text", &op.old_text}}) {
      if (!list[i].contains(name)) continue;
      if (!list[i][name].is_string()) {
        return Error(Status::InvalidArgument(fmt::format("field \"operations[{}].{}\": must be a string", i, name)));
      }
      *into = list[i][name].get<std::string>();
    }
    ops.push_back(std::move(op));
  }
  return ops;
}

Result<Reply> RunWrite(Engine& engine, const Args& args, const CallContext& context) {
  CuratedWrite w;
  w.namespace_name = args.String("namespace");
  w.target = args.String("target");
  auto ops = OpsOf(args);
  if (!ops) return Error(ops.error());
  w.operations = std::move(*ops);
  w.session_id = args.String("session_id");
  w.if_version = args.String("if_version");
  w.origin_class = context.actor == "cli" ? "direct_user" : "agent";
  auto r = engine.WriteCurated(w);
  if (!r) return Error(r.error());
  OrderedJson replaced = OrderedJson::object(), removed = OrderedJson::object();
  for (const auto& [i, text] : r->replaced_entries) replaced[std::to_string(i)] = text;
  for (const auto& [i, text] : r->removed_entries) removed[std::to_string(i)] = text;
  OrderedJson near = OrderedJson::array(), events = OrderedJson::array();
  for (const std::string& e : r->near_duplicates) near.push_back(e);
  for (const std::string& id : r->event_ids) events.push_back(id);
  OrderedJson body{{"namespace", w.namespace_name}, {"target", w.target}, {"message", r->message},
                   {"applied", r->applied}, {"entry_count", r->state.entries.size()}, {"usage", r->state.usage},
                   {"version", r->state.version}, {"replaced_entries", std::move(replaced)},
                   {"removed_entries", std::move(removed)}, {"near_duplicates", std::move(near)},
                   {"event_ids", std::move(events)}};
  return Reply{.body = std::move(body)};
}

Result<Reply> RunSnapshot(Engine& engine, const Args& args, const CallContext&) {
  const std::string ns = args.String("namespace");
  auto snap = engine.SnapshotCurated(ns, args.String("session_id"));
  if (!snap) return Error(snap.error());
  OrderedJson body{{"namespace", ns}, {"block", snap->block}, {"memory", snap->memory}, {"user", snap->user},
                   {"session_id", snap->session_id.empty() ? OrderedJson(nullptr) : OrderedJson(snap->session_id)}};
  return Reply{.body = std::move(body)};
}

Result<Reply> RunBind(Engine& engine, const Args& args, const CallContext& context) {
  auto folder = ResolveFilePath(context, args.String("folder"));
  if (!folder) return Error(folder.error());
  const std::string ns = args.String("namespace");
  auto bound = engine.BindCurated(ns, *folder);
  if (!bound) return Error(bound.error());
  return Reply{.body = {{"namespace", ns}, {"folder", *bound}}};
}

ParamSpec Text(const char* name, const char* description, int64_t max_length) {
  return ParamSpec{.name = name, .description = description, .max_length = max_length};
}

}  // namespace

std::vector<Capability> CuratedCapabilities() {
  std::vector<Capability> out;
  out.push_back({.name = "read_curated",
                 .group = "curated",
                 .description = "The namespace's curated memory: MEMORY.md (the agent's notes: environment, "
                                "conventions, tool quirks) and USER.md (who the user is), their entries and usage.",
                 .params = {NamespaceParam()},
                 .result_schema = Object({{"namespace", StringType()}, {"memory", StoreSchema()}, {"user", StoreSchema()}},
                                         {"namespace", "memory", "user"}),
                 .handler = RunRead,
                 .rest = {"GET", "/v1/namespaces/{namespace}/curated"}});
  ParamSpec target{.name = "target", .description = "user (their profile) or memory (your notes)",
                   .required = true, .enum_values = {"memory", "user"}};
  ParamSpec action{.name = "action", .description = "one change",
                   .enum_values = {"add", "replace", "remove"}};
  out.push_back(
      {.name = "write_curated",
       .group = "curated",
       .description = "Change a curated store: one action (add content; replace or remove the entry old_text "
                      "names) or a batch of operations, all or nothing, the budget checked on the final state. "
                      "Entries must be durable facts, not task progress; content that reads as an instruction to "
                      "the model is refused.",
       .access = Access::kWrite,
       .params = {NamespaceParam(), target, action,
                  Text("content", "the entry, or its new text (replace)", kMaxEntryLength),
                  Text("old_text", "the entry to change, or a unique part of it", kMaxEntryLength),
                  {.name = "operations", .type = ParamType::kArray,
                   .description = "a batch: [{action, content?, old_text?}], applied in order", .max_length = 100},
                  Text("session_id", "the session the change is recorded in (default curated)", kMaxIdLength),
                  Text("if_version", "write only if the file still has this version (from read_curated)", 64)},
       .result_schema = Object({{"namespace", StringType()}, {"target", StringType()}, {"message", StringType()},
                                {"applied", IntegerType("operations that changed the store")},
                                {"entry_count", IntegerType()}, {"usage", StringType()}, {"version", StringType()},
                                {"replaced_entries", AnyObject("operation index (1-based) → the entry it overwrote")},
                                {"removed_entries", AnyObject("operation index (1-based) → the entry it removed")},
                                {"near_duplicates", ArrayOf(StringType("an entry that reads like an added one"))},
                                {"event_ids", ArrayOf(StringType())}},
                               {"namespace", "target", "message", "applied", "entry_count", "usage", "version",
                                "replaced_entries", "removed_entries", "near_duplicates", "event_ids"}),
       .handler = RunWrite,
       .rest = {"POST", "/v1/namespaces/{namespace}/curated"},
       .mcp = {.tool = "memory_curate",
               .title = "Edit profile or notes",
               .description = "Edit the user's profile (target user) or your notes (memory): entries kept whole in the system prompt. Durable facts only.",
               .annotations = {.read_only = false, .destructive = true, .idempotent = false, .open_world = false},
               .params = {"target", "action", "content", "old_text"}}});
  out.push_back({.name = "curated_snapshot",
                 .group = "curated",
                 .description = "The system-prompt block of the curated memory (Hermes layout); with session_id, "
                                "frozen at that session's first call: later writes show from the next session.",
                 .params = {NamespaceParam(),
                            {.name = "session_id", .description = "freeze the block for this session",
                             .max_length = kMaxIdLength, .in = ParamIn::kQuery}},
                 .result_schema = Object({{"namespace", StringType()}, {"block", StringType("\"\" when both are empty")},
                                          {"memory", StringType()}, {"user", StringType()},
                                          {"session_id", NullableString()}},
                                         {"namespace", "block", "memory", "user", "session_id"}),
                 .handler = RunSnapshot,
                 .rest = {"GET", "/v1/namespaces/{namespace}/curated/snapshot"}});
  out.push_back({.name = "bind_curated",
                 .group = "admin",
                 .description = "Keep a namespace's curated files in a folder of your choice (e.g. a Hermes home's "
                                "memories/, used as is). On a server the folder is inside its file root.",
                 .access = Access::kAdmin,
                 .namespaced = false,
                 .params = {{.name = "namespace", .description = "the namespace", .required = true,
                             .max_length = kMaxIdLength, .non_blank = true},
                            {.name = "folder", .description = "an existing folder", .required = true,
                             .max_length = 4096, .non_blank = true}},
                 .result_schema = Object({{"namespace", StringType()}, {"folder", StringType("its absolute path")}},
                                         {"namespace", "folder"}),
                 .handler = RunBind,
                 .rest = {"POST", "/v1/admin/curated:bind"}});
  return out;
}

}  // namespace engram::api
