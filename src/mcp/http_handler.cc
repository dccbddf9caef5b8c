#include "mcp/http_handler.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "mcp/protocol.h"

namespace engram::mcp {
namespace {

server::HttpResponse Reply(int status, const std::string& body) {
  return server::HttpResponse{.status = status, .body = body};
}

server::HttpResponse RpcFailure(int status, int code, const std::string& message, const nlohmann::json& id = nullptr) {
  return Reply(status, Dump(ErrorResponse(id, RpcError{.code = code, .message = message})));
}

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char ch) { return std::tolower(ch); });
  return s;
}

// The host name of a Host header ("127.0.0.1:8420" → "127.0.0.1", "[::1]:80" → "[::1]").
std::string HostName(const std::string& host) {
  if (!host.empty() && host.front() == '[') return Lower(host.substr(0, host.find(']') + 1));
  return Lower(host.substr(0, host.find(':')));
}

// The host name of an Origin ("http://localhost:3000" → "localhost"); "" when it has none.
std::string OriginHost(const std::string& origin) {
  const size_t scheme = origin.find("://");
  if (scheme == std::string::npos) return "";
  const std::string rest = origin.substr(scheme + 3);
  return HostName(rest.substr(0, rest.find('/')));
}

bool Allowed(const std::vector<std::string>& hosts, const std::string& name) {
  return hosts.empty() || std::find(hosts.begin(), hosts.end(), name) != hosts.end();
}

bool AcceptsJson(const std::string& accept) {
  if (accept.empty()) return true;
  const std::string a = Lower(accept);
  for (const char* type : {"application/json", "application/*", "*/*", "text/event-stream"}) {
    if (a.find(type) != std::string::npos) return true;
  }
  return false;
}

std::string Base64Decode(std::string_view in) {
  static const std::string kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  int bits = 0;
  uint32_t acc = 0;
  for (char ch : in) {
    const size_t v = kAlphabet.find(ch);
    if (v == std::string::npos) continue;  // padding
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((acc >> bits) & 0xFF));
    }
  }
  return out;
}

// A header value as sent: plain, or "=?base64?<b64>?=" (2026-07-28 streamable-http).
std::string HeaderValue(const std::string& raw) {
  if (raw.rfind("=?base64?", 0) == 0 && raw.size() >= 11 && raw.compare(raw.size() - 2, 2, "?=") == 0) {
    return Base64Decode(std::string_view(raw).substr(9, raw.size() - 11));
  }
  return raw;
}

// For a 2026-07-28 request: its Mcp-Method (and, for tools/call, Mcp-Name) headers must be there
// and agree with the body. "" when they do, else the message of the -32020 error.
std::string HeaderMismatch(const server::HttpRequest& req, const nlohmann::json& body) {
  if (!body.is_object() || !ModernVersionOf(body.value("params", nlohmann::json::object()))) return "";
  const std::string method = body.value("method", std::string());
  const std::string header = HeaderValue(req.Header("mcp-method"));
  if (header != method) {
    return header.empty() ? "header Mcp-Method: required"
                          : fmt::format("header Mcp-Method: \"{}\" differs from the body's \"{}\"", header, method);
  }
  if (method != "tools/call") return "";
  const nlohmann::json& params = body["params"];
  const std::string name = params.value("name", std::string());
  const std::string name_header = HeaderValue(req.Header("mcp-name"));
  if (name_header == name) return "";
  return name_header.empty() ? "header Mcp-Name: required for tools/call"
                             : fmt::format("header Mcp-Name: \"{}\" differs from the body's \"{}\"", name_header, name);
}

// The namespace the request binds: /mcp/{namespace}, else X-Engram-Namespace.
std::string BoundNamespace(const server::HttpRequest& req) {
  if (auto it = req.path_params.find("namespace"); it != req.path_params.end() && !it->second.empty()) {
    return it->second;
  }
  const std::string prefix = "/mcp/";
  if (req.path.rfind(prefix, 0) == 0 && req.path.size() > prefix.size()) {
    std::string ns = req.path.substr(prefix.size());
    if (!ns.empty() && ns.back() == '/') ns.pop_back();
    if (!ns.empty() && ns.find('/') == std::string::npos) return ns;
  }
  return req.Header("x-engram-namespace");
}

int StatusFor(const Outcome& outcome) {
  switch (outcome.error_code) {
    case kParseError:
    case kInvalidRequest:
    case kUnsupportedProtocolVersion: return 400;
    case kMethodNotFound: return outcome.modern ? 404 : 200;
    default: return 200;
  }
}

server::HttpResponse HandlePost(Server& server, const HttpOptions& options, const server::HttpRequest& req) {
  const std::string content_type = Lower(req.Header("content-type"));
  if (!content_type.empty() && content_type.find("application/json") == std::string::npos) {
    return RpcFailure(415, kInvalidRequest, "Content-Type must be application/json");
  }
  const std::string version = req.Header("mcp-protocol-version");
  if (!version.empty() && !IsSupportedVersion(version)) {
    return RpcFailure(400, kInvalidRequest, fmt::format("header MCP-Protocol-Version: \"{}\" is not supported", version));
  }
  const nlohmann::json body = nlohmann::json::parse(req.body, nullptr, false);
  if (const std::string mismatch = HeaderMismatch(req, body); !mismatch.empty()) {
    return RpcFailure(400, kHeaderMismatch, mismatch, body.is_object() ? body.value("id", nlohmann::json()) : nullptr);
  }
  Connection connection{.scope = {.bound_namespace = BoundNamespace(req), .principal = req.principal,
                                  .actor = "mcp:http", .fixtures = options.fixtures},
                        .legacy_version = version.empty() ? "2025-03-26" : version};
  connection.namespace_argument = connection.scope.bound_namespace.empty();
  const Outcome outcome = server.HandleText(req.body, connection);
  if (outcome.body.empty()) return server::HttpResponse{.status = 202, .content_type = ""};
  return Reply(StatusFor(outcome), outcome.body);
}

}  // namespace

server::HttpResponse HandleHttp(Server& server, const HttpOptions& options, const server::HttpRequest& req) {
  const std::string origin = req.Header("origin");
  if (!origin.empty() && std::find(options.allowed_origins.begin(), options.allowed_origins.end(), origin) ==
                             options.allowed_origins.end() &&
      !Allowed(options.allowed_hosts, OriginHost(origin))) {
    return RpcFailure(403, kInvalidRequest, fmt::format("Origin \"{}\" is not allowed", origin));
  }
  const std::string host = req.Header("host");
  if (!host.empty() && !Allowed(options.allowed_hosts, HostName(host))) {
    return RpcFailure(403, kInvalidRequest, fmt::format("Host \"{}\" is not allowed", host));
  }
  if (req.method != "POST") {
    server::HttpResponse r = RpcFailure(405, kInvalidRequest, "method not allowed: this endpoint takes POST only");
    r.headers.push_back({"Allow", "POST"});
    return r;
  }
  if (!AcceptsJson(req.Header("accept"))) {
    return RpcFailure(406, kInvalidRequest, "Accept must admit application/json");
  }
  return HandlePost(server, options, req);
}

server::HttpHandler MakeHttpHandler(Server& server, HttpOptions options) {
  return [&server, options = std::move(options)](const server::HttpRequest& req) {
    return HandleHttp(server, options, req);
  };
}

}  // namespace engram::mcp
