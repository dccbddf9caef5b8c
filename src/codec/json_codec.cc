#include "codec/json_codec.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "codec/compact_json.h"
#include "util/time.h"

namespace engram {
namespace {

// An empty object with room for `members` members. ordered_json keeps an object's members in a
// std::vector of pair<const std::string, json>; each time it grows, every member is copied (the
// key is const, so it cannot be moved). Reserving the packet's objects saved 0.47 M instructions
// of a REST recall (bench/RESULTS.md, 2026-12-03).
OrderedJson ReservedObject(size_t members) {
  OrderedJson j = OrderedJson::object();
  j.get_ref<OrderedJson::object_t&>().reserve(members);
  return j;
}

// Metadata is stored as JSON text; it goes out as a JSON object ({} when absent).
OrderedJson MetadataToJson(const std::string& text) {
  if (text.empty()) return OrderedJson::object();
  OrderedJson parsed = OrderedJson::parse(text, nullptr, false);
  if (parsed.is_discarded()) return OrderedJson::object();
  return parsed;  // moved (the conditional operator copied the whole tree)
}

// A stored JSON object (a claim snapshot in its history, an audit detail) as it goes out: its
// times — stored as integers of ms since the epoch — become ISO-8601 UTC like every other time
// engram prints (B36). Nested objects (an audit detail's "before"/"after") are converted too.
OrderedJson StoredObjectToJson(const std::string& text) {
  static constexpr std::string_view kTimeFields[] = {"valid_from", "valid_to", "recorded_from", "recorded_to",
                                                     "expires_at", "last_accessed_at", "decay_below_since",
                                                     "occurred_at", "at"};
  if (text.empty()) return OrderedJson::object();
  OrderedJson j = OrderedJson::parse(text, nullptr, false);
  if (j.is_discarded()) return OrderedJson(text);
  std::function<void(OrderedJson&)> convert = [&](OrderedJson& o) {
    if (!o.is_object()) return;
    for (auto& [key, value] : o.items()) {
      if (value.is_object()) {
        convert(value);
      } else if (value.is_number_integer() &&
                 std::find(std::begin(kTimeFields), std::end(kTimeFields), key) != std::end(kTimeFields)) {
        value = FormatTimestamp(value.get<int64_t>());
      }
    }
  };
  convert(j);
  return j;
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
  // The same instant in the calendar it was written in ("2023-05-08T12:45:00+08:00"), and that
  // offset in minutes east of UTC (B53).
  j["occurred_at_local"] = FormatLocalTimestamp(e.occurred_at, e.utc_offset_minutes);
  j["utc_offset_minutes"] = e.utc_offset_minutes;
  j["recorded_at"] = FormatTimestamp(e.recorded_at);
  j["origin_class"] = e.origin_class;
  j["content_hash"] = e.content_hash;
  j["idempotency_key"] = e.idempotency_key;
  j["metadata"] = MetadataToJson(e.metadata_json);
  if (!e.tool_name.empty()) j["tool_name"] = e.tool_name;
  if (!e.tool_call_id.empty()) j["tool_call_id"] = e.tool_call_id;
  return j;
}

OrderedJson OptionalTime(const std::optional<TimestampMs>& t) {
  return t ? OrderedJson(FormatTimestamp(*t)) : OrderedJson();
}

OrderedJson EvidenceToJson(const EvidenceRef& e) {
  OrderedJson j = ReservedObject(9);
  j["event_id"] = e.event_id;
  j["relation"] = e.relation;
  j["role"] = e.role;
  j["speaker"] = e.speaker;
  j["origin_class"] = e.origin_class;
  j["session_id"] = e.session_id;
  j["occurred_at"] = FormatTimestamp(e.occurred_at);
  j["content"] = e.content;
  j["metadata"] = MetadataToJson(e.metadata_json);
  return j;
}

OrderedJson ClaimToJson(const Claim& c) {
  OrderedJson j;
  j["id"] = c.id;
  j["namespace"] = c.namespace_name;
  j["subject"] = c.subject;
  j["predicate"] = c.predicate;
  j["slot"] = c.slot;
  j["value"] = c.value;
  j["text"] = c.text;
  j["qualifiers"] = c.qualifiers;
  j["status"] = c.status;
  j["valid_from"] = FormatTimestamp(c.valid_from);
  j["valid_to"] = OptionalTime(c.valid_to);
  j["recorded_from"] = FormatTimestamp(c.recorded_from);
  j["recorded_to"] = OptionalTime(c.recorded_to);
  j["scope"] = c.scope;
  j["authority"] = c.authority;
  j["assertion"] = c.assertion;
  j["confidence"] = c.confidence;
  j["importance"] = c.importance;
  j["supersedes_id"] = c.supersedes_id.empty() ? OrderedJson() : OrderedJson(c.supersedes_id);
  j["superseded_by_id"] = c.superseded_by_id.empty() ? OrderedJson() : OrderedJson(c.superseded_by_id);
  j["time_phrase"] = c.time_phrase;
  j["extractor"] = c.extractor;
  j["expires_at"] = OptionalTime(c.expires_at);
  j["activation"] = c.activation;
  j["access_count"] = c.access_count;
  j["last_accessed_at"] = OptionalTime(c.last_accessed_at);
  OrderedJson evidence = OrderedJson::array();
  for (const auto& e : c.evidence) evidence.push_back(EvidenceToJson(e));
  j["evidence"] = std::move(evidence);
  return j;
}

OrderedJson ClaimChangeToJson(const ClaimChange& c) {
  OrderedJson j;
  j["at"] = FormatTimestamp(c.at);
  j["actor"] = c.actor;
  j["action"] = c.action;
  j["reason"] = c.reason;
  j["before"] = StoredObjectToJson(c.before_json);
  j["after"] = StoredObjectToJson(c.after_json);
  return j;
}

OrderedJson ClaimExplanationToJson(const ClaimExplanation& x) {
  OrderedJson j;
  j["claim"] = ClaimToJson(x.claim);
  j["current"] = x.current;
  j["why"] = x.why;
  OrderedJson chain = OrderedJson::array();
  for (const auto& c : x.chain) {
    chain.push_back(OrderedJson{{"id", c.id}, {"value", c.value}, {"text", c.text}, {"status", c.status},
                                {"valid_from", FormatTimestamp(c.valid_from)}, {"valid_to", OptionalTime(c.valid_to)}});
  }
  j["chain"] = std::move(chain);
  OrderedJson decisions = OrderedJson::array();
  for (const auto& d : x.decisions) {
    decisions.push_back(OrderedJson{{"at", FormatTimestamp(d.at)}, {"decision", d.decision}, {"reason", d.reason},
                                    {"detail", d.detail}, {"event_id", d.event_id}});
  }
  j["decisions"] = std::move(decisions);
  OrderedJson history = OrderedJson::array();
  for (const auto& h : x.history) history.push_back(ClaimChangeToJson(h));
  j["history"] = std::move(history);
  return j;
}

OrderedJson RememberResultToJson(const RememberResult& r) {
  OrderedJson j;
  j["event"] = EventToJson(r.event);
  j["duplicate"] = r.duplicate;
  OrderedJson claims = OrderedJson::array();
  for (const auto& c : r.claims) claims.push_back(ClaimToJson(c));
  j["claims"] = std::move(claims);
  j["decisions"] = r.decisions;
  j["forgotten"] = r.forgotten;
  if (r.forgotten) j["tombstone_id"] = r.tombstone_id;
  return j;
}

OrderedJson ForgetReportToJson(const ForgetReport& r) {
  OrderedJson j;
  j["preview"] = r.preview;
  j["operation_id"] = r.operation_id;
  j["events"] = r.events;
  j["claims"] = r.claims;
  j["sessions"] = r.sessions;
  j["vectors"] = r.vectors;
  j["feedback"] = r.feedback;
  j["jobs"] = r.jobs;
  OrderedJson items = OrderedJson::array();
  for (const ForgetItem& it : r.items) {
    OrderedJson item{{"type", it.type}, {"id", it.id}, {"why", it.why}};
    if (r.preview) item["text"] = it.text;
    items.push_back(std::move(item));
  }
  j["items"] = std::move(items);
  j["tombstone_ids"] = r.tombstone_ids;
  j["already_forgotten"] = r.already_forgotten;
  j["curated_entries"] = r.curated_entries;
  j["warnings"] = r.warnings;
  return j;
}

OrderedJson TombstoneToJson(const Tombstone& t) {
  OrderedJson j;
  j["id"] = t.id;
  j["namespace"] = t.namespace_name;
  j["object_type"] = t.object_type;
  j["object_id"] = t.object_id;
  if (!t.content_hash.empty()) j["content_hash"] = t.content_hash;
  if (!t.idempotency_hash.empty()) j["idempotency_hash"] = t.idempotency_hash;
  if (!t.fact_hash.empty()) j["fact_hash"] = t.fact_hash;
  j["reason"] = t.reason;
  OrderedJson selector = OrderedJson::parse(t.selector_json, nullptr, false);
  j["selector"] = selector.is_discarded() ? OrderedJson(t.selector_json) : selector;
  j["operation_id"] = t.operation_id;
  j["actor"] = t.actor;
  j["created_at"] = FormatTimestamp(t.created_at);
  return j;
}

OrderedJson AuditEntryToJson(const AuditEntry& a) {
  OrderedJson j;
  j["seq"] = a.seq;
  j["at"] = FormatTimestamp(a.at);
  j["actor"] = a.actor;
  j["action"] = a.action;
  j["object_type"] = a.object_type;
  j["object_id"] = a.object_id;
  j["namespace"] = a.namespace_name;
  j["reason"] = a.reason;
  j["detail"] = StoredObjectToJson(a.detail_json);
  return j;
}

namespace {
OrderedJson MaintainCountsToJson(const MaintainNamespaceReport& r) {
  OrderedJson j;
  if (!r.namespace_name.empty()) j["namespace"] = r.namespace_name;
  j["access_flushed"] = r.access_flushed;
  j["ttl_assigned"] = r.ttl_assigned;
  j["expired"] = r.expired;
  j["decayed"] = r.decayed;
  j["archived"] = r.archived;
  j["vectors_dropped"] = r.vectors_dropped;
  j["converged"] = r.converged;
  j["experience_cold"] = r.experience_cold;
  j["experience_warmed"] = r.experience_warmed;
  j["experience_forgotten"] = r.experience_forgotten;
  return j;
}
}  // namespace

OrderedJson MaintainReportToJson(const MaintainReport& r) {
  OrderedJson j;
  j["now"] = FormatTimestamp(r.now);
  j["total"] = MaintainCountsToJson(r.total);
  OrderedJson per = OrderedJson::array();
  for (const auto& n : r.namespaces) per.push_back(MaintainCountsToJson(n));
  j["namespaces"] = std::move(per);
  j["took_ms"] = r.took_ms;
  return j;
}

OrderedJson CompactReportToJson(const CompactReport& r) {
  OrderedJson j;
  j["file_bytes_before"] = r.file_bytes_before;
  j["file_bytes_after"] = r.file_bytes_after;
  j["wal_truncated"] = r.wal_truncated;
  j["took_ms"] = r.took_ms;
  return j;
}

OrderedJson ProcessReportToJson(const ProcessReport& r) {
  OrderedJson j;
  j["batches"] = r.batches;
  j["events"] = r.events;
  j["claims_created"] = r.claims_created;
  j["claims_confirmed"] = r.claims_confirmed;
  j["claims_superseded"] = r.claims_superseded;
  j["claims_disputed"] = r.claims_disputed;
  j["candidates_rejected"] = r.candidates_rejected;
  j["jobs_failed"] = r.jobs_failed;
  j["errors"] = r.errors;
  return j;
}

OrderedJson JobInfoToJson(const JobInfo& x) {
  OrderedJson j;
  j["id"] = x.id;
  j["kind"] = x.kind;
  j["status"] = x.status;
  j["namespace"] = x.namespace_name;
  j["session_id"] = x.session_id;
  j["event_id"] = x.event_id;
  j["attempts"] = x.attempts;
  j["last_error"] = x.last_error;
  j["updated_at"] = FormatTimestamp(x.updated_at);
  if (x.status == "leased") {
    j["lease"] = OrderedJson{{"owner", x.lease_owner},
                             {"owner_alive", x.lease_owner_alive},
                             {"expires_at", FormatTimestamp(x.lease_expires_at)},
                             {"stale", x.lease_stale}};
  }
  return j;
}

OrderedJson RecallResultToJson(const RecallResult& r) {
  OrderedJson items = OrderedJson::array();
  items.get_ref<OrderedJson::array_t&>().reserve(r.items.size());
  for (const RecallItem& it : r.items) {
    OrderedJson j = ReservedObject(it.type == "claim" ? 22 : 13);
    j["type"] = it.type;
    j["id"] = it.id;
    j["text"] = it.text;
    j["score"] = it.score;
    j["occurred_at"] = FormatTimestamp(it.occurred_at);
    j["session_id"] = it.session_id;
    j["speaker"] = it.speaker;
    j["role"] = it.role;
    j["metadata"] = MetadataToJson(it.metadata_json);
    if (it.type == "claim") {
      j["status"] = it.status;
      j["subject"] = it.subject;
      j["predicate"] = it.predicate;
      j["slot"] = it.slot;
      j["value"] = it.value;
      j["qualifiers"] = it.qualifiers;
      j["valid_from"] = FormatTimestamp(it.valid_from);
      j["valid_to"] = OptionalTime(it.valid_to);
      OrderedJson evidence = OrderedJson::array();
      for (const auto& e : it.evidence) evidence.push_back(EvidenceToJson(e));
      j["evidence"] = std::move(evidence);
    }
    OrderedJson channels = OrderedJson::array();
    for (const ChannelScore& c : it.channels) {
      OrderedJson cj = ReservedObject(3);
      cj["channel"] = c.channel;
      cj["rank"] = c.rank;
      cj["score"] = c.score;
      channels.push_back(std::move(cj));
    }
    j["channels"] = std::move(channels);
    j["tokens"] = it.tokens;
    j["feedback_id"] = it.feedback_id;
    j["flags"] = it.flags;
    items.push_back(std::move(j));
  }
  // 12 members at most, and room for the 3 the recall capability adds (api/recall.cc: namespace,
  // as_of, next_cursor): growing the packet's object would copy every item.
  OrderedJson out = ReservedObject(15);
  out["version"] = r.version;
  out["answerability"] = r.answerability;
  out["intent"] = r.intent;
  out["evidence_strength"] = r.evidence_strength;
  out["used_tokens"] = r.used_tokens;
  out["truncated"] = r.truncated;
  out["items"] = std::move(items);
  out["terms"] = r.terms;
  OrderedJson stages = OrderedJson::array();
  for (const RecallStage& s : r.stages) {
    OrderedJson sj = ReservedObject(2);
    sj["stage"] = s.name;
    sj["candidates"] = s.count;
    stages.push_back(std::move(sj));
  }
  out["stages"] = std::move(stages);
  out["took_ms"] = r.took_ms;
  if (!r.warnings.empty()) out["warnings"] = r.warnings;
  if (!r.rerank.status.empty()) {
    // Optional like "warnings": packets without a reranker are unchanged (still version 1).
    OrderedJson rj;
    rj["status"] = r.rerank.status;
    if (!r.rerank.reason.empty()) rj["reason"] = r.rerank.reason;
    rj["model"] = r.rerank.model;
    rj["pool"] = r.rerank.pool;
    rj["took_ms"] = r.rerank.took_ms;
    out["rerank"] = std::move(rj);
  }
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
    per.push_back(OrderedJson{{"namespace", n.name}, {"sessions", n.sessions}, {"events", n.events},
                              {"claims", n.claims}, {"active_claims", n.active_claims}});
  }
  j["per_namespace"] = std::move(per);
  j["claims"] = s.claims;
  j["active_claims"] = s.active_claims;
  j["pending_jobs"] = s.pending_jobs;
  j["leased_jobs"] = s.leased_jobs;
  j["stale_leased_jobs"] = s.stale_leased_jobs;
  j["failed_jobs"] = s.failed_jobs;
  j["damage"] = s.damage;
  return j;
}

OrderedJson DoctorReportToJson(const DoctorReport& d) {
  OrderedJson j;
  j["ok"] = d.ok;
  j["schema_version"] = d.schema_version;
  j["journal_mode"] = d.journal_mode;
  j["sqlite_version"] = d.sqlite_version;
  j["checks"] = d.checks;
  j["problems"] = d.problems;
  j["stats"] = StatsToJson(d.stats);
  j["integrity"] = d.integrity;
  j["damaged"] = d.damaged;
  OrderedJson tables = OrderedJson::array();
  for (const TableHealth& t : d.tables) {
    tables.push_back(OrderedJson{{"name", t.name}, {"rows", t.rows}, {"error", t.error}});
  }
  j["tables"] = tables;
  j["export"] = d.export_check;
  return j;
}

OrderedJson StatusToJson(const Status& s) {
  OrderedJson j;
  j["error"]["code"] = std::string(StatusCodeName(s.code()));
  j["error"]["message"] = s.message();
  return j;
}

std::string Dump(const OrderedJson& j, int indent) {
  if (indent < 0) {
    std::string out;
    AppendCompactJson(j, &out);  // the same bytes as dump(-1, ...), faster
    return out;
  }
  return j.dump(indent, ' ', false, OrderedJson::error_handler_t::replace);
}

}  // namespace engram
