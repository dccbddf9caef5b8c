#include "mcp/server.h"

#include <fmt/format.h>

#include "mcp/protocol.h"
#include "mcp/tools.h"

namespace engram::mcp {
namespace {

RpcError UnsupportedVersion(const std::string& requested) {
  return RpcError{.code = kUnsupportedProtocolVersion,
                  .message = fmt::format("protocol version \"{}\" is not supported", requested),
                  .data = {{"supported", nlohmann::json::array({std::string(kModernVersion)})},
                           {"requested", requested}}};
}

// The 2026-07-28 result envelope: resultType and the server's identity in _meta.
OrderedJson Modernize(OrderedJson result) {
  if (!result.contains("resultType")) result["resultType"] = "complete";
  result["_meta"] = OrderedJson{{kMetaServerInfo, ServerInfo()}};
  return result;
}

int ErrorCodeOf(const OrderedJson& response) {
  auto it = response.find("error");
  return it == response.end() ? 0 : it->value("code", 0);
}

}  // namespace

tl::expected<OrderedJson, RpcError> Server::Dispatch(const Message& m, Connection& c, bool modern) {
  const bool fixtures = c.scope.fixtures;
  if (m.method == "initialize") {
    OrderedJson result = InitializeResult(m.params, fixtures);
    c.legacy_version = result["protocolVersion"].get<std::string>();
    if (auto info = m.params.find("clientInfo"); info != m.params.end() && info->is_object()) {
      c.scope.actor = "mcp:" + info->value("name", std::string("client"));
    }
    return result;
  }
  if (m.method == "server/discover") return DiscoverResult(fixtures);
  if (m.method == "ping") return OrderedJson::object();
  if (m.method == "tools/list") {
    OrderedJson result =
        ToolsList({.namespace_argument = c.namespace_argument, .fixtures = fixtures, .toolsets = c.scope.toolsets});
    if (modern) {
      result["ttlMs"] = 0;
      result["cacheScope"] = "private";
    }
    return result;
  }
  if (m.method == "tools/call") return CallTool(engine_, c.scope, m.params, m.id);
  if (m.method == "logging/setLevel" && fixtures) return OrderedJson::object();
  return tl::unexpected(
      RpcError{.code = kMethodNotFound, .message = fmt::format("method \"{}\" is not served", m.method)});
}

std::optional<OrderedJson> Server::Handle(const Message& m, Connection& c, bool* modern_out) {
  if (m.IsResponse() || m.IsNotification()) return std::nullopt;
  const std::optional<std::string> version = ModernVersionOf(m.params);
  const bool modern = version.has_value() && m.method != "initialize";
  if (modern_out != nullptr) *modern_out = modern;
  if (modern && *version != kModernVersion) return ErrorResponse(m.id, UnsupportedVersion(*version));
  if (modern && c.scope.actor == "mcp") {
    auto meta = m.params["_meta"].find(kMetaClientInfo);
    if (meta != m.params["_meta"].end() && meta->is_object()) {
      c.scope.actor = "mcp:" + meta->value("name", std::string("client"));
    }
  }
  auto result = Dispatch(m, c, modern);
  if (!result) return ErrorResponse(m.id, result.error());
  return ResultResponse(m.id, modern ? Modernize(std::move(*result)) : std::move(*result));
}

Outcome Server::HandleText(std::string_view text, Connection& c) {
  try {
    return HandleTextOrThrow(text, c);
  } catch (const std::exception& e) {  // a Dump of text that is not UTF-8; never expected
    const RpcError error{.code = kInternalError, .message = std::string("internal error: ") + e.what()};
    return Outcome{.body = Dump(ErrorResponse(nullptr, error)), .error_code = error.code};
  }
}

Outcome Server::HandleTextOrThrow(std::string_view text, Connection& c) {
  Outcome out;
  const nlohmann::json input = nlohmann::json::parse(text, nullptr, false);
  if (input.is_discarded()) {
    const RpcError e{.code = kParseError, .message = "parse error: the message is not valid JSON"};
    out.error_code = e.code;
    out.body = Dump(ErrorResponse(nullptr, e));
    return out;
  }
  if (input.is_array()) {
    if (!AllowsBatches(c.legacy_version) || input.empty()) {
      const RpcError e{.code = kInvalidRequest,
                       .message = input.empty() ? "an empty batch"
                                                : "JSON-RPC batches are not supported by this protocol version "
                                                  "(removed in 2025-06-18); send one message at a time"};
      out.error_code = e.code;
      out.body = Dump(ErrorResponse(nullptr, e));
      return out;
    }
    OrderedJson responses = OrderedJson::array();
    for (const nlohmann::json& item : input) {
      nlohmann::json id;
      auto m = ToMessage(item, &id);
      if (!m) {
        responses.push_back(ErrorResponse(id, m.error()));
      } else if (auto r = Handle(*m, c)) {
        responses.push_back(std::move(*r));
      }
    }
    if (!responses.empty()) out.body = Dump(responses);
    return out;
  }
  nlohmann::json id;
  auto m = ToMessage(input, &id);
  if (!m) {
    out.error_code = m.error().code;
    out.body = Dump(ErrorResponse(id, m.error()));
    return out;
  }
  if (auto r = Handle(*m, c, &out.modern)) {
    out.error_code = ErrorCodeOf(*r);
    out.body = Dump(*r);
  }
  return out;
}

}  // namespace engram::mcp
