// mcp/tool_call.h — tools/call: one MCP tool call turned into a capability call (api::Invoke in
// tolerant mode) within the connection's namespace scope, and its reply into a CallToolResult.
#ifndef ENGRAM_MCP_TOOL_CALL_H_
#define ENGRAM_MCP_TOOL_CALL_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "api/principal.h"
#include "codec/json_codec.h"
#include "engram/engine.h"
#include "mcp/jsonrpc.h"

namespace engram::mcp {

// Which namespaces a connection may use.
struct CallScope {
  // The namespace of calls that name none (stdio --namespace; HTTP /mcp/{ns} or
  // X-Engram-Namespace); "" = none bound: every call must name one.
  std::string bound_namespace;
  // Checked with api::Authorize for every call, on the namespace the call uses.
  api::Principal principal = api::Principal::Owner();
  std::string actor = "mcp";  // audit actor: "mcp:<client name>"
  bool fixtures = false;      // serve the conformance fixture tools (mcp/fixtures.h)
  // The opt-in toolsets enabled on this connection (McpBinding::toolset): their tools are listed
  // and callable; a tool of a toolset not enabled is an unknown tool.
  std::vector<std::string> toolsets;
};

// Runs tools/call `params` ({"name", "arguments"}) for JSON-RPC request `request_id`.
// Returns the CallToolResult: {"content": [one compact JSON text block], "structuredContent",
// "isError": false}, or for any failure of the call itself (bad arguments, no namespace, a
// namespace the principal may not use, not found, busy, ...) {"content": [one line naming the
// field and the request id], "isError": true}. Recall results are capped (mcp/result_cap.h).
// Errors (as a JSON-RPC error, code kInvalidParams): only a missing or unknown tool name.
// Thread-safe when the Engine is.
tl::expected<OrderedJson, RpcError> CallTool(Engine& engine, const CallScope& scope, const nlohmann::json& params,
                                             const nlohmann::json& request_id);

// The CallToolResult of a failed call: {"content": [{"type": "text", "text": message}], "isError": true}.
OrderedJson ToolError(const std::string& message);

}  // namespace engram::mcp

#endif  // ENGRAM_MCP_TOOL_CALL_H_
