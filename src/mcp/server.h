// mcp/server.h — the transport-neutral MCP server: JSON-RPC text in, JSON-RPC text out, for both
// protocol eras at once (mcp/protocol.h). Transports (mcp/stdio.h, mcp/http_handler.h) own the
// framing; the server owns the methods: initialize, server/discover, ping, tools/list,
// tools/call, notifications (ignored: every call is answered before the next is read, so
// notifications/cancelled has nothing to cancel).
#ifndef ENGRAM_MCP_SERVER_H_
#define ENGRAM_MCP_SERVER_H_

#include <optional>
#include <string>
#include <string_view>

#include "engram/engine.h"
#include "mcp/jsonrpc.h"
#include "mcp/tool_call.h"

namespace engram::mcp {

// What one client connection has agreed and may do (a stdio process, or one HTTP request).
struct Connection {
  CallScope scope;
  bool namespace_argument = false;  // tools/list offers a "namespace" argument (see ToolListOptions)
  std::string legacy_version;       // negotiated by initialize; "" before (or stateless HTTP)
};

// The reply to one input text.
struct Outcome {
  std::string body;    // the JSON-RPC response (or batch of them), compact; "" = nothing to send
  int error_code = 0;  // the error code of a single error response, else 0
  bool modern = false;  // the request was a 2026-07-28 one (it carried _meta)
};

class Server {
 public:
  // `engine` must outlive the server.
  explicit Server(Engine& engine) : engine_(engine) {}

  // Handles one message text: a JSON-RPC request, notification or response, or (only under
  // 2025-03-26) a batch of them. Parse errors are -32700, malformed messages -32600 (batches under
  // later versions too), unknown methods -32601, an unknown tool -32602; everything a tool call
  // does wrong is a tool result with isError. Never throws. Thread-safe for distinct connections.
  Outcome HandleText(std::string_view text, Connection& connection);

  // Handles one message; nullopt when nothing is to be sent (a notification or a response).
  std::optional<OrderedJson> Handle(const Message& message, Connection& connection, bool* modern = nullptr);

 private:
  Outcome HandleTextOrThrow(std::string_view text, Connection& connection);
  tl::expected<OrderedJson, RpcError> Dispatch(const Message& message, Connection& connection, bool modern);

  Engine& engine_;
};

}  // namespace engram::mcp

#endif  // ENGRAM_MCP_SERVER_H_
