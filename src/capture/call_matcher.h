// capture/call_matcher.h — pairs the `tools/call` requests a client sends with the server's responses
// on one connection (a JSON-RPC id is unique per connection only), the way the tap sees them: one
// message at a time, each direction in order, with the time it passed.
//
// Handles JSON-RPC batches (arrays), a response that is a JSON-RPC error, `notifications/cancelled`
// from the client, and requests the server sends to the client (sampling, elicitation: their ids are
// another id space and are ignored). Not thread-safe: one recorder thread owns it.
#ifndef ENGRAM_CAPTURE_CALL_MATCHER_H_
#define ENGRAM_CAPTURE_CALL_MATCHER_H_

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "capture/tool_call_record.h"

namespace engram::capture {

enum class Direction { kClientToServer, kServerToClient };

class CallMatcher {
 public:
  using Clock = std::chrono::steady_clock;

  explicit CallMatcher(std::string connection_id) : connection_id_(std::move(connection_id)) {}

  // Takes one message (a JSON-RPC object or a batch array) seen at `seen` (steady clock) and
  // `seen_unix_ms` (wall clock); returns the calls it completed, with their whole payloads in
  // args_json / result_json (the journal decides what it keeps). A message that is not JSON-RPC
  // (or not JSON: the caller passes what it could parse) completes nothing.
  std::vector<ToolCallRecord> Observe(Direction direction, const nlohmann::json& message, Clock::time_point seen,
                                     TimestampMs seen_unix_ms);

  // The calls still waiting for a response, as "no_response" (the connection ended).
  std::vector<ToolCallRecord> Close();

  size_t pending() const { return pending_.size(); }
  const std::string& connection_id() const { return connection_id_; }
  // tools/call requests seen that could not be described (no string params.name): not captured.
  int64_t malformed() const { return malformed_; }

 private:
  struct Pending {
    ToolCallRecord record;
    Clock::time_point seen;
  };

  void ObserveOne(Direction direction, const nlohmann::json& message, Clock::time_point seen, TimestampMs seen_unix_ms,
                  std::vector<ToolCallRecord>* done);
  void OnRequest(const nlohmann::json& message, Clock::time_point seen, TimestampMs seen_unix_ms);
  void OnCancelled(const nlohmann::json& message, Clock::time_point seen, std::vector<ToolCallRecord>* done);
  void OnResponse(const nlohmann::json& message, Clock::time_point seen, std::vector<ToolCallRecord>* done);

  std::string connection_id_;
  std::map<std::string, Pending> pending_;  // request id (JSON text) → the call
  int64_t malformed_ = 0;
};

}  // namespace engram::capture

#endif  // ENGRAM_CAPTURE_CALL_MATCHER_H_
