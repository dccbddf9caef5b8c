// codec/json_codec.h — the JSON wire format of the public types, shared by the CLI, the importers
// and (later) REST and MCP, so that every interface reads and writes the same shapes.
//
// Output is nlohmann::ordered_json (stable field order). Times are ISO-8601 UTC strings. Text that
// is not valid UTF-8 cannot reach here (ingest rejects it), but callers still dump with
// error_handler_t::replace (see Dump).
#ifndef ENGRAM_CODEC_JSON_CODEC_H_
#define ENGRAM_CODEC_JSON_CODEC_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "engram/status.h"
#include "engram/types.h"

namespace engram {

using OrderedJson = nlohmann::ordered_json;

// Reads one event object: {"namespace","session_id","role","content","occurred_at"?,"speaker"?,
// "idempotency_key"?,"metadata"? (object),"parent_session_id"?,"session_kind"?,"session_source"?,
// "session_title"?,"origin_class"?,"tool_name"?,"tool_call_id"?}. Unknown fields and fields of the
// wrong JSON type are errors naming the field. Values are not validated here (Engine does that).
Result<EventInput> EventInputFromJson(const nlohmann::json& j);

OrderedJson EventToJson(const Event& e);
// The context packet (docs/retrieval.md): {"version", "answerability", "intent", "evidence_strength",
// "used_tokens", "truncated", "items", "terms", "stages", "took_ms"}, plus "warnings" when there
// are any and "rerank": {"status": "applied"|"skipped", "reason"? (skipped), "model", "pool",
// "took_ms"} when a reranker ran.
OrderedJson RecallResultToJson(const RecallResult& r);
OrderedJson SessionInfoToJson(const SessionInfo& s);
OrderedJson SessionSearchResultToJson(const SessionSearchResult& r);
OrderedJson StatsToJson(const StoreStats& s);
OrderedJson DoctorReportToJson(const DoctorReport& d);
OrderedJson ClaimToJson(const Claim& c);
OrderedJson EvidenceToJson(const EvidenceRef& e);
OrderedJson ClaimExplanationToJson(const ClaimExplanation& x);
OrderedJson ClaimChangeToJson(const ClaimChange& c);
OrderedJson RememberResultToJson(const RememberResult& r);
OrderedJson ProcessReportToJson(const ProcessReport& r);
OrderedJson JobInfoToJson(const JobInfo& j);
OrderedJson ForgetReportToJson(const ForgetReport& r);
OrderedJson TombstoneToJson(const Tombstone& t);
OrderedJson AuditEntryToJson(const AuditEntry& a);  // "detail" is the stored JSON object
OrderedJson CompactReportToJson(const CompactReport& r);
// {"now", "total": {counts}, "namespaces": [{"namespace", counts...}], "took_ms"}
OrderedJson MaintainReportToJson(const MaintainReport& r);
OrderedJson StatusToJson(const Status& s);  // {"error": {"code": "invalid_argument", "message": ...}}
// A time as ISO-8601 UTC, or null when unset.
OrderedJson OptionalTime(const std::optional<TimestampMs>& t);

// One-line JSON; invalid UTF-8 (never expected) is replaced rather than thrown.
std::string Dump(const OrderedJson& j, int indent = -1);

}  // namespace engram

#endif  // ENGRAM_CODEC_JSON_CODEC_H_
