// capture/tool_call_record.cc — see tool_call_record.h.
#include "capture/tool_call_record.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <string_view>
#include <vector>

#include "util/sha256.h"
#include "util/utf8.h"

namespace engram::capture {
namespace {

using json = nlohmann::json;

std::string Compact(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// The value of `key` in a W3C baggage header ("k1=v1,k2=v2;prop"), "" when absent.
std::string BaggageValue(std::string_view baggage, std::string_view key) {
  size_t pos = 0;
  while (pos <= baggage.size()) {
    size_t end = baggage.find(',', pos);
    if (end == std::string_view::npos) end = baggage.size();
    std::string_view member = baggage.substr(pos, end - pos);
    member = member.substr(0, member.find(';'));  // properties are not part of the value
    const size_t eq = member.find('=');
    if (eq != std::string_view::npos) {
      std::string_view k = member.substr(0, eq), v = member.substr(eq + 1);
      while (!k.empty() && (k.front() == ' ' || k.front() == '\t')) k.remove_prefix(1);
      while (!k.empty() && (k.back() == ' ' || k.back() == '\t')) k.remove_suffix(1);
      while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
      while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
      if (k == key) return std::string(v);
    }
    pos = end + 1;
  }
  return "";
}

// The trace id of a W3C traceparent ("00-<32 hex>-<16 hex>-<2 hex>"), "" when malformed or all zero.
std::string TraceIdOf(std::string_view traceparent) {
  if (traceparent.size() < 55 || traceparent[2] != '-' || traceparent[35] != '-') return "";
  const std::string_view id = traceparent.substr(3, 32);
  bool nonzero = false;
  for (char c : id) {
    const bool hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
    if (!hex) return "";
    nonzero |= c != '0';
  }
  return nonzero ? std::string(id) : "";
}

Correlation CorrelationOf(const json& params) {
  Correlation c;
  const auto meta = params.find("_meta");
  if (meta == params.end() || !meta->is_object()) return c;
  const auto baggage = meta->find("baggage");
  if (baggage != meta->end() && baggage->is_string()) {
    const std::string b = baggage->get<std::string>();
    c.session_id = BaggageValue(b, "engram.session_id");
    c.task_id = BaggageValue(b, "engram.task_id");
  }
  const auto traceparent = meta->find("traceparent");
  if (traceparent != meta->end() && traceparent->is_string()) c.trace_id = TraceIdOf(traceparent->get<std::string>());
  return c;
}

// The text parts of a result's content, joined by newlines.
std::string ContentText(const json& content) {
  std::string text;
  if (!content.is_array()) return text;
  for (const json& item : content) {
    if (!item.is_object() || item.value("type", "") != "text") continue;
    const auto t = item.find("text");
    if (t == item.end() || !t->is_string()) continue;
    if (!text.empty()) text += '\n';
    text += t->get<std::string>();
  }
  return text;
}

// structuredContent's rows: its length when it is an array, or the length of its only array member;
// else the text's when the text is a JSON array.
std::optional<int64_t> RowCount(const json& result, const std::string& text) {
  const auto structured = result.find("structuredContent");
  if (structured != result.end()) {
    if (structured->is_array()) return static_cast<int64_t>(structured->size());
    if (structured->is_object()) {
      std::optional<int64_t> rows;
      for (const auto& [key, value] : structured->items()) {
        if (!value.is_array()) continue;
        if (rows) return std::nullopt;  // two arrays: which one holds the rows is not known
        rows = static_cast<int64_t>(value.size());
      }
      if (rows) return rows;
    }
  }
  if (!text.empty() && text.front() == '[') {
    const json parsed = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (parsed.is_array()) return static_cast<int64_t>(parsed.size());
  }
  return std::nullopt;
}

void DescribeResult(const json& result, ToolCallRecord* r) {
  r->result_bytes = static_cast<int64_t>(Compact(result).size());
  const json content = result.is_object() ? result.value("content", json::array()) : json::array();
  if (content.is_array()) {
    for (const json& item : content) {
      const std::string type = item.is_object() ? item.value("type", "") : "";
      ++r->content_types[type.empty() ? "unknown" : type];
    }
  }
  const std::string text = ContentText(content);
  const bool is_error = result.is_object() && result.value("isError", false) == true;
  r->outcome = is_error ? "tool_error" : "ok";
  if (is_error) r->error_message = TruncateCodePoints(text, kResultPreviewChars);
  r->result_preview = TruncateCodePoints(text, kResultPreviewChars);
  if (result.is_object()) r->row_count = RowCount(result, text);
}

json CorrelationJson(const Correlation& c) {
  json j = json::object();
  if (!c.session_id.empty()) j["session_id"] = c.session_id;
  if (!c.task_id.empty()) j["task_id"] = c.task_id;
  if (!c.trace_id.empty()) j["trace_id"] = c.trace_id;
  return j;
}

Status FieldError(const std::string& field, const std::string& what) {
  return Status::InvalidArgument(fmt::format("field \"{}\": {}", field, what));
}

}  // namespace

Status DescribeRequest(const json& request, ToolCallRecord* r) {
  if (!request.is_object() || request.value("method", "") != "tools/call") {
    return Status::InvalidArgument("not a tools/call request");
  }
  const auto params = request.find("params");
  if (params == request.end() || !params->is_object() || !params->contains("name") || !(*params)["name"].is_string()) {
    return FieldError("params.name", "a tools/call request needs a string tool name");
  }
  r->tool_name = (*params)["name"].get<std::string>();
  const json args = params->value("arguments", json::object());
  const std::string args_text = Compact(args);
  r->args_bytes = static_cast<int64_t>(args_text.size());
  r->args_sha256 = Sha256Hex(args_text);
  r->args_summary = TruncateCodePoints(args_text, kArgsSummaryChars);
  r->correlation = CorrelationOf(*params);
  return Status::Ok();
}

void DescribeResponse(const json& response, ToolCallRecord* r) {
  const auto error = response.find("error");
  if (error != response.end()) {
    r->outcome = "rpc_error";
    if (error->is_object()) {
      const json code = error->value("code", json());
      r->rpc_error_code = code.is_number_integer() ? code.get<int64_t>() : 0;
      const json message = error->value("message", json());
      if (message.is_string()) r->error_message = TruncateCodePoints(message.get<std::string>(), kResultPreviewChars);
    }
    return;
  }
  DescribeResult(response.value("result", json::object()), r);
}

json ToJson(const ToolCallRecord& r) {
  json j = {{"capture_id", r.capture_id},       {"connection_id", r.connection_id},
            {"request_id", r.request_id},       {"tool_name", r.tool_name},
            {"started_at", r.started_at},       {"duration_us", r.duration_us},
            {"args_summary", r.args_summary},   {"args_sha256", r.args_sha256},
            {"args_bytes", r.args_bytes},       {"outcome", r.outcome},
            {"result_bytes", r.result_bytes},   {"content_types", r.content_types},
            {"result_preview", r.result_preview}, {"correlation", CorrelationJson(r.correlation)}};
  if (r.outcome == "rpc_error") j["rpc_error_code"] = r.rpc_error_code;
  if (!r.error_message.empty()) j["error_message"] = r.error_message;
  if (r.row_count) j["row_count"] = *r.row_count;
  if (!r.args_json.empty()) j["args_json"] = r.args_json;
  if (!r.result_json.empty()) j["result_json"] = r.result_json;
  if (!r.args_ref.empty()) j["args_ref"] = r.args_ref;
  if (!r.result_ref.empty()) j["result_ref"] = r.result_ref;
  if (!r.namespace_name.empty()) j["namespace"] = r.namespace_name;
  if (!r.fallback_session.empty()) j["fallback_session"] = r.fallback_session;
  return j;
}

Result<ToolCallRecord> FromJson(const json& j) {
  if (!j.is_object()) return Error(Status::InvalidArgument("a tool call record must be a JSON object"));
  ToolCallRecord r;
  try {
    r.capture_id = j.at("capture_id").get<std::string>();
    r.connection_id = j.at("connection_id").get<std::string>();
    r.request_id = j.at("request_id").get<std::string>();
    r.tool_name = j.at("tool_name").get<std::string>();
    r.started_at = j.at("started_at").get<int64_t>();
    r.duration_us = j.at("duration_us").get<int64_t>();
    r.args_summary = j.at("args_summary").get<std::string>();
    r.args_sha256 = j.at("args_sha256").get<std::string>();
    r.args_bytes = j.at("args_bytes").get<int64_t>();
    r.outcome = j.at("outcome").get<std::string>();
    r.result_bytes = j.at("result_bytes").get<int64_t>();
    r.content_types = j.at("content_types").get<std::map<std::string, int64_t>>();
    r.result_preview = j.at("result_preview").get<std::string>();
    r.rpc_error_code = j.value("rpc_error_code", int64_t{0});
    r.error_message = j.value("error_message", "");
    if (j.contains("row_count")) r.row_count = j["row_count"].get<int64_t>();
    r.args_json = j.value("args_json", "");
    r.result_json = j.value("result_json", "");
    r.args_ref = j.value("args_ref", "");
    r.result_ref = j.value("result_ref", "");
    r.namespace_name = j.value("namespace", "");
    r.fallback_session = j.value("fallback_session", "");
    const json c = j.value("correlation", json::object());
    r.correlation = {c.value("session_id", ""), c.value("task_id", ""), c.value("trace_id", "")};
  } catch (const json::exception& e) {
    return Error(Status::InvalidArgument(fmt::format("tool call record: {}", e.what())));
  }
  return r;
}

std::string DescribeForRecall(const ToolCallRecord& r) {
  std::vector<std::string> parts;
  for (const auto& [type, count] : r.content_types) parts.push_back(fmt::format("{} {}", count, type));
  if (r.row_count) parts.push_back(fmt::format("{} rows", *r.row_count));
  parts.push_back(fmt::format("{} bytes", r.result_bytes));
  if (r.duration_us >= 0) parts.push_back(fmt::format("{} ms", r.duration_us / 1000));
  std::string line = fmt::format("tool {}({}) → {}", r.tool_name, r.args_summary, r.outcome);
  if (r.outcome == "rpc_error") line += fmt::format(" {}", r.rpc_error_code);
  if (r.outcome == "ok" || r.outcome == "tool_error") line += ": " + fmt::format("{}", fmt::join(parts, ", "));
  const std::string& tail = r.outcome == "ok" ? r.result_preview : r.error_message;
  if (!tail.empty()) line += ": " + tail;
  return line;
}

std::string SessionOf(const ToolCallRecord& r, const std::string& fallback) {
  if (!r.correlation.session_id.empty()) return r.correlation.session_id;
  if (!r.correlation.trace_id.empty()) return "trace-" + r.correlation.trace_id;
  return fallback;
}

}  // namespace engram::capture
