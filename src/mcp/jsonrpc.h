// mcp/jsonrpc.h — JSON-RPC 2.0 messages as MCP uses them: reading one message a client sent, and
// writing the responses. Transport-neutral (stdio lines and HTTP bodies both go through it).
#ifndef ENGRAM_MCP_JSONRPC_H_
#define ENGRAM_MCP_JSONRPC_H_

#include <nlohmann/json.hpp>
#include <string>

#include "codec/json_codec.h"
#include "tl/expected.hpp"

namespace engram::mcp {

// JSON-RPC 2.0 error codes, and the ones MCP 2026-07-28 reserves (basic/index.mdx).
constexpr int kParseError = -32700;
constexpr int kInvalidRequest = -32600;
constexpr int kMethodNotFound = -32601;
constexpr int kInvalidParams = -32602;
constexpr int kInternalError = -32603;
constexpr int kHeaderMismatch = -32020;             // 2026-07-28 HTTP: Mcp-Method / Mcp-Name
constexpr int kUnsupportedProtocolVersion = -32022;  // 2026-07-28: data {supported, requested}

struct RpcError {
  int code = kInternalError;
  std::string message;  // one line
  nlohmann::json data;  // null = no data member
};

// One message from the client: a request (has_id), a notification (no id) or a response to a
// request of ours (method empty; engram sends none, so responses are ignored).
struct Message {
  nlohmann::json id;  // string or integer; null when absent
  bool has_id = false;
  std::string method;
  nlohmann::json params = nlohmann::json::object();  // always an object (absent = {})

  bool IsNotification() const { return !has_id && !method.empty(); }
  bool IsResponse() const { return method.empty(); }
};

// Reads one message object. Errors (code kInvalidRequest): not an object, "jsonrpc" not "2.0",
// an id that is neither a string nor an integer, a method that is not a string, params that are
// not an object. `id` is filled in whenever the input had a usable one, so the error response can
// carry it.
tl::expected<Message, RpcError> ToMessage(const nlohmann::json& value, nlohmann::json* id = nullptr);

// {"jsonrpc": "2.0", "id": id, "result": result}.
OrderedJson ResultResponse(const nlohmann::json& id, OrderedJson result);
// {"jsonrpc": "2.0", "id": id (null when unknown), "error": {code, message, data?}}.
OrderedJson ErrorResponse(const nlohmann::json& id, const RpcError& error);

// The id as text for messages ("7", "\"abc\""); "null" when absent.
std::string IdText(const nlohmann::json& id);

}  // namespace engram::mcp

#endif  // ENGRAM_MCP_JSONRPC_H_
