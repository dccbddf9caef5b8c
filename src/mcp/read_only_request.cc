#include "mcp/read_only_request.h"

#include <nlohmann/json.hpp>
#include <string>

#include "api/registry.h"

namespace engram::mcp {

bool IsReadOnlyRequest(std::string_view body) {
  const nlohmann::json message = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!message.is_object()) return false;  // a batch, or not JSON
  auto method = message.find("method");
  if (method == message.end() || !method->is_string()) return false;
  if (method->get<std::string>() != "tools/call") return true;  // answered without the Engine
  auto params = message.find("params");
  if (params == message.end() || !params->is_object()) return false;
  auto name = params->find("name");
  if (name == params->end() || !name->is_string()) return false;
  const api::Capability* capability = api::FindTool(name->get<std::string>());
  return capability != nullptr && capability->access == api::Access::kRead;
}

}  // namespace engram::mcp
