// The events group: store events (one, or a batch in one transaction) and read one back.
#include <fmt/format.h>

#include "api/common.h"
#include "api/groups.h"

namespace engram::api {
namespace {

std::vector<ParamSpec> EventFields() {
  auto text = [](const char* name, const char* description, bool required = false) {
    return ParamSpec{.name = name, .description = description, .required = required};
  };
  ParamSpec session = text("session_id", "the conversation it belongs to, 1–200 characters", true);
  session.max_length = kMaxIdLength;
  ParamSpec role = text("role", "who produced it", true);
  role.enum_values.assign(std::begin(kRoles), std::end(kRoles));
  ParamSpec occurred = {.name = "occurred_at", .type = ParamType::kTimestamp,
                        .description = "valid time (ISO-8601; without an offset: UTC; default now)"};
  ParamSpec key = text("idempotency_key", "a replay with the same key stores nothing and returns the original");
  key.in = ParamIn::kHeader;
  key.header = "Idempotency-Key";
  key.max_length = kMaxIdLength;
  return {session,
          role,
          text("content", "the text (not blank; at most 1,000,000 bytes)", true),
          occurred,
          text("speaker", "display name of who spoke"),
          key,
          {.name = "metadata", .type = ParamType::kObject, .description = "a JSON object kept with the event"},
          text("parent_session_id", "lineage parent session (same namespace)"),
          text("session_kind", "kind of the session on first use"),
          text("session_source", "where the session came from"),
          text("session_title", "title of the session on first use"),
          text("origin_class", "provenance class of the content"),
          text("tool_name", "for role tool"),
          text("tool_call_id", "for role tool")};
}

OrderedJson IngestResultToJson(const IngestResult& r) {
  OrderedJson j{{"event", EventToJson(r.event)}, {"duplicate", r.duplicate}, {"forgotten", r.forgotten}};
  if (r.forgotten) j["tombstone_id"] = r.tombstone_id;
  return j;
}

OrderedJson IngestResultSchema() {
  return Object({{"event", EventSchema()},
                 {"duplicate", BooleanType("the idempotency key was seen before: event is the original")},
                 {"forgotten", BooleanType("the content matches a tombstone: nothing was stored")},
                 {"tombstone_id", StringType()}},
                {"event", "duplicate", "forgotten"});
}

// An event object of a batch, or the fields of a single event, with the namespace of the call.
Result<EventInput> ToEventInput(const nlohmann::json& fields, const std::string& namespace_name) {
  nlohmann::json j = fields;
  if (j.is_object()) {
    if (j.contains("namespace") && j["namespace"] != namespace_name) {
      return Error(Status::InvalidArgument(
          fmt::format("field \"namespace\": \"{}\" differs from the namespace of the call (\"{}\")",
                      j["namespace"].is_string() ? j["namespace"].get<std::string>() : j["namespace"].dump(),
                      namespace_name)));
    }
    j["namespace"] = namespace_name;
  }
  return EventInputFromJson(j);
}

Result<Reply> IngestOne(Engine& engine, const Args& args, const CallContext&) {
  auto input = ToEventInput(args.values(), args.String("namespace"));
  if (!input) return Error(input.error());
  auto r = engine.Ingest(*input);
  if (!r) return Error(r.error());
  Reply reply{.body = IngestResultToJson(*r)};
  reply.body["namespace"] = args.String("namespace");
  reply.http_status = r->duplicate || r->forgotten ? 200 : 201;
  return reply;
}

Result<Reply> IngestMany(Engine& engine, const Args& args, const CallContext&) {
  const std::string ns = args.String("namespace");
  std::vector<EventInput> inputs;
  const nlohmann::json& events = args.Raw("events");
  for (size_t i = 0; i < events.size(); ++i) {
    auto input = ToEventInput(events[i], ns);
    if (!input) return Error(input.error().WithContext(fmt::format("event {}", i)));
    inputs.push_back(std::move(*input));
  }
  auto results = engine.IngestBatch(inputs);
  if (!results) return Error(results.error());
  OrderedJson items = OrderedJson::array();
  int stored = 0;
  for (const IngestResult& r : *results) {
    items.push_back(IngestResultToJson(r));
    if (!r.duplicate && !r.forgotten) ++stored;
  }
  return Reply{.body = {{"namespace", ns}, {"stored", stored}, {"results", std::move(items)}},
               .http_status = stored > 0 ? 201 : 200};
}

Result<Reply> GetOne(Engine& engine, const Args& args, const CallContext&) {
  auto e = engine.GetEvent(args.String("id"));
  if (!e) return Error(e.error());
  if (e->namespace_name != args.String("namespace")) {
    return Error(NotInNamespace("event", args.String("id"), args.String("namespace")));
  }
  return Reply{.body = EventToJson(*e)};
}

}  // namespace

std::vector<Capability> EventCapabilities() {
  std::vector<Capability> out;
  std::vector<ParamSpec> one = {NamespaceParam()};
  for (ParamSpec& p : EventFields()) one.push_back(std::move(p));
  out.push_back({.name = "ingest_event",
                 .group = "events",
                 .description = "Store one event (a message or tool result) durably; claims are extracted from it "
                                "afterwards. Returns the stored event.",
                 .access = Access::kWrite,
                 .params = std::move(one),
                 .result_schema = IngestResultSchema(),
                 .handler = IngestOne,
                 .rest = {"POST", "/v1/namespaces/{namespace}/events"}});
  out.push_back(
      {.name = "ingest_events",
       .group = "events",
       .description = "Store up to 1,000 events in one transaction: all are validated first and nothing is stored "
                      "when one is invalid. Claims are extracted afterwards.",
       .access = Access::kWrite,
       .params = {NamespaceParam(),
                  {.name = "events",
                   .type = ParamType::kArray,
                   .description = "each {session_id, role, content, occurred_at?, speaker?, ...}",
                   .required = true,
                   .max_length = 1000}},
       .result_schema = Object({{"namespace", StringType()},
                                {"stored", IntegerType("events newly stored")},
                                {"results", ArrayOf(IngestResultSchema())}},
                               {"namespace", "stored", "results"}),
       .handler = IngestMany,
       .rest = {"POST", "/v1/namespaces/{namespace}/events:batch"},
       .mcp = {.tool = "memory_ingest",
               .title = "Ingest conversation events",
               .description = "Store conversation events (up to 1,000, all or nothing); claims are extracted afterwards.",
               .annotations = {.read_only = false, .destructive = false, .idempotent = true, .open_world = false}}});
  out.push_back({.name = "get_event",
                 .group = "events",
                 .description = "Read one event by id.",
                 .params = {NamespaceParam(), IdParam("the event id")},
                 .result_schema = EventSchema(),
                 .handler = GetOne,
                 .rest = {"GET", "/v1/namespaces/{namespace}/events/{id}"}});
  return out;
}

}  // namespace engram::api
