// capture/tool_call_record.h — one MCP `tools/call` as engram captures it: the request's tool name,
// a summary of its arguments, the result's metadata and timing, and what it correlates with.
// Designed after the capture designs of ../shared/reference/experience_memory.md §3 (OTel MCP
// semantic conventions, docker/mcp-gateway's call log): the arguments as the first 200 characters
// of their JSON plus a hash of the whole; the result as isError, content types and counts, byte
// sizes and a row count; the payloads themselves only by reference above a size threshold.
#ifndef ENGRAM_CAPTURE_TOOL_CALL_RECORD_H_
#define ENGRAM_CAPTURE_TOOL_CALL_RECORD_H_

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "engram/status.h"
#include "engram/types.h"

namespace engram::capture {

// Characters (code points) of the arguments' JSON kept in a record (experience_memory.md §3).
inline constexpr size_t kArgsSummaryChars = 200;
// Characters of a result's text kept in a record, for recall.
inline constexpr size_t kResultPreviewChars = 200;

// Where a call belongs. From the request's `params._meta`: the W3C baggage keys `engram.session_id`
// and `engram.task_id`, and the trace id of `traceparent` (SEP-414 puts both in `_meta` since the
// 2026-07-28 revision removed protocol sessions); the connection is the tap's own.
struct Correlation {
  std::string session_id;  // baggage engram.session_id; "" when absent
  std::string task_id;     // baggage engram.task_id; "" when absent
  std::string trace_id;    // 32 hex digits of traceparent; "" when absent or malformed
};

struct ToolCallRecord {
  std::string capture_id;     // ULID given by the tap when the request was seen
  std::string connection_id;  // one tap process (stdio) = one connection
  std::string request_id;     // the JSON-RPC id as JSON text ("7", "\"abc\""): unique per connection only
  std::string tool_name;      // params.name
  TimestampMs started_at = 0;  // when the request passed the tap (Unix ms)
  int64_t duration_us = 0;     // request seen → response seen, microseconds; -1 when no response came
  // Arguments: the first kArgsSummaryChars code points of their compact JSON ("…" appended when
  // cut), the SHA-256 (hex) of
  // that whole JSON, its size in bytes.
  std::string args_summary;
  std::string args_sha256;
  int64_t args_bytes = 0;
  // Outcome: "ok" (a result, isError false), "tool_error" (a result with isError true: the tool
  // failed; MCP reports tool failures this way, not as JSON-RPC errors), "rpc_error" (a JSON-RPC
  // error response), "cancelled" (notifications/cancelled for it), "no_response" (the connection
  // ended first).
  std::string outcome;
  int64_t rpc_error_code = 0;  // for "rpc_error"
  std::string error_message;   // rpc error message, or the first text of a tool_error (≤ 200 chars)
  int64_t result_bytes = 0;    // the result object's compact JSON size
  std::map<std::string, int64_t> content_types;  // content item type → count ("text": 2, "image": 1)
  std::optional<int64_t> row_count;  // length of structuredContent when it is an array (or has one
                                     // array member), else of the text when it is a JSON array
  std::string result_preview;  // the first kResultPreviewChars code points of the result's text
  Correlation correlation;
  // The payloads (compact JSON of the arguments, and of the result or error): whole when at most the
  // tap's inline size ("" otherwise), or by reference to the journal's payload store above it
  // ("sha256:<hex>"; "" otherwise). Both "" when the tap keeps no payloads.
  std::string args_json;
  std::string result_json;
  std::string args_ref;
  std::string result_ref;
  // Where the record is delivered, as the tap that recorded it was told (its -n and --session):
  // kept with the record, so that another tap or `mcp-tap drain` on the same journal delivers it
  // there and not into its own namespace. "" in records of journals written before (the
  // deliverer's own are used then).
  std::string namespace_name;
  std::string fallback_session;
};

// Parses what a `tools/call` request says: name, arguments summary, correlation. Errors:
// kInvalidArgument when `request` is not a tools/call request with a string params.name.
Status DescribeRequest(const nlohmann::json& request, ToolCallRecord* record);

// Fills the outcome and result metadata from the response to the record's request (a JSON-RPC
// response object with "result" or "error").
void DescribeResponse(const nlohmann::json& response, ToolCallRecord* record);

// The record as one JSON object (the journal's and the event metadata's form) and back.
// FromJson errors: kInvalidArgument naming the field.
nlohmann::json ToJson(const ToolCallRecord& record);
Result<ToolCallRecord> FromJson(const nlohmann::json& j);

// One line for people and for full-text recall: `tool get_weather({"city":"Paris"}) → ok: 1 text,
// 532 bytes, 12 ms: Sunny, 21 °C`.
std::string DescribeForRecall(const ToolCallRecord& record);

// The session a record's event goes to: the baggage's engram.session_id, else "trace-<trace id>",
// else `fallback` (the tap's --session, or "mcp-tap-<connection>").
std::string SessionOf(const ToolCallRecord& record, const std::string& fallback);

}  // namespace engram::capture

#endif  // ENGRAM_CAPTURE_TOOL_CALL_RECORD_H_
