#include "codec/json_codec.h"

#include <fmt/format.h>

#include "util/time.h"

namespace engram {
namespace {

// Metadata is stored as JSON text; it goes out as a JSON object ({} when absent).
OrderedJson MetadataToJson(const std::string& text) {
  if (text.empty()) return OrderedJson::object();
  auto parsed = OrderedJson::parse(text, nullptr, false);
  return parsed.is_discarded() ? OrderedJson::object() : parsed;
}

constexpr const char* kStringFields[] = {
    "namespace",     "session_id",   "role",           "content",       "occurred_at",
    "speaker",       "idempotency_key", "parent_session_id", "session_kind", "session_source",
    "session_title", "origin_class", "tool_name",      "tool_call_id"};

std::string* FieldFor(EventInput& in, std::string_view key) {
  if (key == "namespace") return &in.namespace_name;
  if (key == "session_id") return &in.session_id;
  if (key == "role") return &in.role;
  if (key == "content") return &in.content;
  if (key == "occurred_at") return &in.occurred_at;
  if (key == "speaker") return &in.speaker;
  if (key == "idempotency_key") return &in.idempotency_key;
  if (key == "parent_session_id") return &in.parent_session_id;
  if (key == "session_kind") return &in.session_kind;
  if (key == "session_source") return &in.session_source;
  if (key == "session_title") return &in.session_title;
  if (key == "origin_class") return &in.origin_class;
  if (key == "tool_name") return &in.tool_name;
  if (key == "tool_call_id") return &in.tool_call_id;
  return nullptr;
}

}  // namespace

Result<EventInput> EventInputFromJson(const nlohmann::json& j) {
  if (!j.is_object()) return Error(Status::InvalidArgument("an event must be a JSON object"));
  EventInput in;
  for (const auto& [key, value] : j.items()) {
    if (key == "metadata") {
      if (value.is_null()) continue;
      if (!value.is_object()) {
        return Error(Status::InvalidArgument("field \"metadata\": must be a JSON object"));
      }
      in.metadata_json = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      continue;
    }
    std::string* field = FieldFor(in, key);
    if (field == nullptr) {
      std::string known;
      for (const char* f : kStringFields) known += std::string(known.empty() ? "" : ", ") + f;
      return Error(Status::InvalidArgument(
          fmt::format("unknown field \"{}\" (known: {}, metadata)", key, known)));
    }
    if (value.is_null()) continue;
    if (!value.is_string()) {
      return Error(Status::InvalidArgument(fmt::format("field \"{}\": must be a string", key)));
    }
    *field = value.get<std::string>();
  }
  return in;
}

OrderedJson EventToJson(const Event& e) {
  OrderedJson j;
  j["id"] = e.id;
  j["namespace"] = e.namespace_name;
  j["session_id"] = e.session_id;
  j["role"] = e.role;
  if (!e.speaker.empty()) j["speaker"] = e.speaker;
  j["content"] = e.content;
  j["occurred_at"] = FormatTimestamp(e.occurred_at);
  j["recorded_at"] = FormatTimestamp(e.recorded_at);
  j["origin_class"] = e.origin_class;
  j["content_hash"] = e.content_hash;
  j["idempotency_key"] = e.idempotency_key;
  j["metadata"] = MetadataToJson(e.metadata_json);
  if (!e.tool_name.empty()) j["tool_name"] = e.tool_name;
  if (!e.tool_call_id.empty()) j["tool_call_id"] = e.tool_call_id;
  return j;
}

OrderedJson RecallResultToJson(const RecallResult& r) {
  OrderedJson items = OrderedJson::array();
  for (const RecallItem& it : r.items) {
    OrderedJson j;
    j["type"] = it.type;
    j["id"] = it.id;
    j["text"] = it.text;
    j["score"] = it.score;
    j["occurred_at"] = FormatTimestamp(it.occurred_at);
    j["session_id"] = it.session_id;
    j["speaker"] = it.speaker;
    j["role"] = it.role;
    j["metadata"] = MetadataToJson(it.metadata_json);
    items.push_back(std::move(j));
  }
  OrderedJson out;
  out["items"] = std::move(items);
  out["terms"] = r.terms;
  out["took_ms"] = r.took_ms;
  return out;
}

OrderedJson SessionInfoToJson(const SessionInfo& s) {
  OrderedJson j;
  j["session_id"] = s.id;
  j["namespace"] = s.namespace_name;
  j["parent_session_id"] = s.parent_session_id.empty() ? OrderedJson() : OrderedJson(s.parent_session_id);
  j["kind"] = s.kind;
  j["source"] = s.source;
  j["title"] = s.title;
  j["started_at"] = s.event_count > 0 ? OrderedJson(FormatTimestamp(s.started_at)) : OrderedJson();
  j["last_active_at"] = s.event_count > 0 ? OrderedJson(FormatTimestamp(s.last_active_at)) : OrderedJson();
  j["event_count"] = s.event_count;
  j["preview"] = s.preview;
  return j;
}

OrderedJson SessionSearchResultToJson(const SessionSearchResult& r) {
  OrderedJson hits = OrderedJson::array();
  for (const SessionSearchHit& h : r.hits) {
    OrderedJson j;
    j["session"] = SessionInfoToJson(h.session);
    j["lineage_root_id"] = h.lineage_root_id;
    j["match_event_id"] = h.match_event_id;
    j["score"] = h.score;
    j["first_event"] = h.first_event ? EventToJson(*h.first_event) : OrderedJson();
    j["events_before"] = h.events_before;
    OrderedJson window = OrderedJson::array();
    for (const Event& e : h.window) {
      OrderedJson ej = EventToJson(e);
      if (e.id == h.match_event_id) ej["anchor"] = true;
      window.push_back(std::move(ej));
    }
    j["window"] = std::move(window);
    j["events_after"] = h.events_after;
    j["last_event"] = h.last_event ? EventToJson(*h.last_event) : OrderedJson();
    hits.push_back(std::move(j));
  }
  OrderedJson out;
  out["hits"] = std::move(hits);
  out["terms"] = r.terms;
  return out;
}

OrderedJson StatsToJson(const StoreStats& s) {
  OrderedJson j;
  j["path"] = s.path;
  j["file_bytes"] = s.file_bytes;
  j["wal_bytes"] = s.wal_bytes;
  j["namespaces"] = s.namespaces;
  j["sessions"] = s.sessions;
  j["events"] = s.events;
  OrderedJson per = OrderedJson::array();
  for (const NamespaceStats& n : s.per_namespace) {
    per.push_back(OrderedJson{{"namespace", n.name}, {"sessions", n.sessions}, {"events", n.events}});
  }
  j["per_namespace"] = std::move(per);
  return j;
}

OrderedJson DoctorReportToJson(const DoctorReport& d) {
  OrderedJson j;
  j["ok"] = d.ok;
  j["schema_version"] = d.schema_version;
  j["journal_mode"] = d.journal_mode;
  j["checks"] = d.checks;
  j["problems"] = d.problems;
  j["stats"] = StatsToJson(d.stats);
  return j;
}

OrderedJson StatusToJson(const Status& s) {
  OrderedJson j;
  j["error"]["code"] = std::string(StatusCodeName(s.code()));
  j["error"]["message"] = s.message();
  return j;
}

std::string Dump(const OrderedJson& j, int indent) {
  return j.dump(indent, ' ', false, OrderedJson::error_handler_t::replace);
}

}  // namespace engram
