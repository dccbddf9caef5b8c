// mcp/http_handler.h — MCP over streamable HTTP (2025-11-25 transports; 2026-07-28
// streamable-http) as a server::HttpHandler, for `engram serve` to mount at /mcp and /mcp/{ns}.
//
// POST only, answered with application/json (never SSE, so `Accept: application/json` alone is
// enough); no session ids are minted, so a restarted server never strands a client. Status codes:
// 200 a response; 202 a notification or response (no body); 400 malformed JSON or JSON-RPC, an
// unsupported MCP-Protocol-Version, a 2026-07-28 request whose Mcp-Method / Mcp-Name headers are
// missing or differ from the body (-32020); 403 an Origin or Host that is not allowed (DNS
// rebinding); 404 an unknown method of a 2026-07-28 request; 405 (Allow: POST) GET, DELETE and
// the rest; 406 an Accept that admits no JSON; 415 a body that is not application/json.
#ifndef ENGRAM_MCP_HTTP_HANDLER_H_
#define ENGRAM_MCP_HTTP_HANDLER_H_

#include <string>
#include <vector>

#include "mcp/server.h"
#include "server/http_exchange.h"

namespace engram::mcp {

struct HttpOptions {
  bool fixtures = false;  // the conformance fixture tools (test-only)
  // Host names (no port) accepted in the Host and Origin headers; empty = any (a server bound
  // off loopback behind its API keys). The default suits a server bound to loopback.
  std::vector<std::string> allowed_hosts = {"localhost", "127.0.0.1", "[::1]"};
  std::vector<std::string> allowed_origins;  // further exact origins ("https://app.example")
};

// The handler. The namespace of calls that name none is the path's {namespace} (path_params or
// "/mcp/<ns>"), else the X-Engram-Namespace header, else none (every call must name one); the
// request's principal is checked for every call (api::Authorize). `server` must outlive the
// handler. Thread-safe: each request is its own connection.
server::HttpHandler MakeHttpHandler(Server& server, HttpOptions options = {});

// Answers one request as the handler does (for a caller that makes a Server per request, e.g. on
// an Engine leased from a pool). Thread-safe.
server::HttpResponse HandleHttp(Server& server, const HttpOptions& options, const server::HttpRequest& request);

}  // namespace engram::mcp

#endif  // ENGRAM_MCP_HTTP_HANDLER_H_
