#include "mcp/jsonrpc.h"

namespace engram::mcp {
namespace {

RpcError Invalid(std::string message) { return RpcError{.code = kInvalidRequest, .message = std::move(message)}; }

OrderedJson ToOrdered(const nlohmann::json& j) { return OrderedJson::parse(j.dump()); }

}  // namespace

tl::expected<Message, RpcError> ToMessage(const nlohmann::json& value, nlohmann::json* id_out) {
  if (!value.is_object()) return tl::unexpected(Invalid("a JSON-RPC message must be an object"));
  Message m;
  if (auto it = value.find("id"); it != value.end() && !it->is_null()) {
    if (!it->is_string() && !it->is_number_integer()) {
      return tl::unexpected(Invalid("field \"id\": must be a string or an integer"));
    }
    m.id = *it;
    m.has_id = true;
    if (id_out != nullptr) *id_out = m.id;
  }
  auto version = value.find("jsonrpc");
  if (version == value.end() || *version != "2.0") {
    return tl::unexpected(Invalid("field \"jsonrpc\": must be \"2.0\""));
  }
  if (auto it = value.find("method"); it != value.end()) {
    if (!it->is_string() || it->get<std::string>().empty()) {
      return tl::unexpected(Invalid("field \"method\": must be a non-empty string"));
    }
    m.method = it->get<std::string>();
  } else if (!value.contains("result") && !value.contains("error")) {
    return tl::unexpected(Invalid("field \"method\": required"));
  }
  if (auto it = value.find("params"); it != value.end() && !it->is_null()) {
    if (!it->is_object()) return tl::unexpected(Invalid("field \"params\": must be an object"));
    m.params = *it;
  }
  return m;
}

OrderedJson ResultResponse(const nlohmann::json& id, OrderedJson result) {
  OrderedJson j{{"jsonrpc", "2.0"}, {"id", ToOrdered(id)}, {"result", std::move(result)}};
  return j;
}

OrderedJson ErrorResponse(const nlohmann::json& id, const RpcError& error) {
  OrderedJson e{{"code", error.code}, {"message", error.message}};
  if (!error.data.is_null()) e["data"] = ToOrdered(error.data);
  return OrderedJson{{"jsonrpc", "2.0"}, {"id", ToOrdered(id)}, {"error", std::move(e)}};
}

std::string IdText(const nlohmann::json& id) { return id.dump(); }

}  // namespace engram::mcp
