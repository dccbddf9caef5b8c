// capture/call_matcher.cc — see call_matcher.h.
#include "capture/call_matcher.h"

#include "util/ulid.h"
#include "util/utf8.h"

namespace engram::capture {
namespace {

using json = nlohmann::json;

std::string Compact(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

int64_t Micros(CallMatcher::Clock::duration d) {
  return std::chrono::duration_cast<std::chrono::microseconds>(d).count();
}

// A JSON-RPC id is a string or a number; anything else (null, missing) identifies no request.
bool IsId(const json& id) { return id.is_string() || id.is_number(); }

}  // namespace

std::vector<ToolCallRecord> CallMatcher::Observe(Direction direction, const json& message, Clock::time_point seen,
                                                TimestampMs seen_unix_ms) {
  std::vector<ToolCallRecord> done;
  if (message.is_array()) {
    for (const json& one : message) ObserveOne(direction, one, seen, seen_unix_ms, &done);
  } else {
    ObserveOne(direction, message, seen, seen_unix_ms, &done);
  }
  return done;
}

void CallMatcher::ObserveOne(Direction direction, const json& message, Clock::time_point seen, TimestampMs seen_unix_ms,
                             std::vector<ToolCallRecord>* done) {
  if (!message.is_object()) return;
  const auto method = message.find("method");
  const bool is_request = method != message.end() && method->is_string();
  if (direction == Direction::kClientToServer) {
    if (!is_request) return;  // the client's responses answer the server's own requests
    if (*method == "tools/call" && message.contains("id") && IsId(message["id"])) OnRequest(message, seen, seen_unix_ms);
    if (*method == "notifications/cancelled") OnCancelled(message, seen, done);
    return;
  }
  if (!is_request && message.contains("id")) OnResponse(message, seen, done);
}

void CallMatcher::OnRequest(const json& message, Clock::time_point seen, TimestampMs seen_unix_ms) {
  ToolCallRecord r;
  if (!DescribeRequest(message, &r).ok()) {
    ++malformed_;
    return;
  }
  r.capture_id = NewUlid(seen_unix_ms);
  r.connection_id = connection_id_;
  r.request_id = Compact(message["id"]);
  r.started_at = seen_unix_ms;
  r.args_json = Compact(message["params"].value("arguments", json::object()));
  // A repeated id replaces the older request: the server answers the newer one (a client bug; the
  // older call is not captured twice).
  const std::string id = r.request_id;
  pending_[id] = Pending{std::move(r), seen};
}

void CallMatcher::OnCancelled(const json& message, Clock::time_point seen, std::vector<ToolCallRecord>* done) {
  const json params = message.value("params", json::object());
  if (!params.is_object() || !params.contains("requestId") || !IsId(params["requestId"])) return;
  auto it = pending_.find(Compact(params["requestId"]));
  if (it == pending_.end()) return;
  ToolCallRecord r = std::move(it->second.record);
  r.outcome = "cancelled";
  r.duration_us = Micros(seen - it->second.seen);
  const json reason = params.value("reason", json());
  if (reason.is_string()) r.error_message = TruncateCodePoints(reason.get<std::string>(), kResultPreviewChars);
  pending_.erase(it);
  done->push_back(std::move(r));
}

void CallMatcher::OnResponse(const json& message, Clock::time_point seen, std::vector<ToolCallRecord>* done) {
  if (!IsId(message["id"])) return;
  auto it = pending_.find(Compact(message["id"]));
  if (it == pending_.end()) return;  // an answer to another method, or to a cancelled call
  ToolCallRecord r = std::move(it->second.record);
  r.duration_us = Micros(seen - it->second.seen);
  DescribeResponse(message, &r);
  r.result_json = Compact(message.contains("error") ? message["error"] : message.value("result", json::object()));
  pending_.erase(it);
  done->push_back(std::move(r));
}

std::vector<ToolCallRecord> CallMatcher::Close() {
  std::vector<ToolCallRecord> out;
  for (auto& [id, p] : pending_) {
    p.record.outcome = "no_response";
    p.record.duration_us = -1;
    out.push_back(std::move(p.record));
  }
  pending_.clear();
  return out;
}

}  // namespace engram::capture
