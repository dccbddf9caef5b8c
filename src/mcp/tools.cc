#include "mcp/tools.h"

#include <algorithm>
#include <set>

#include "api/registry.h"
#include "api/schema.h"
#include "mcp/fixtures.h"

namespace engram::mcp {
namespace {

constexpr int64_t kQuietMaxLength = 1000;

OrderedJson Annotations(const api::McpAnnotations& a) {
  return OrderedJson{{"readOnlyHint", a.read_only},
                     {"destructiveHint", a.destructive},
                     {"idempotentHint", a.idempotent},
                     {"openWorldHint", a.open_world}};
}

}  // namespace

OrderedJson CompactOutputSchema(const OrderedJson& result_schema) { return OrderedJson{{"type", "object"}}; }

std::vector<std::string> ToolParamNames(const api::Capability& capability, bool namespace_argument) {
  std::vector<std::string> names;
  if (namespace_argument && capability.namespaced) names.push_back("namespace");
  if (!capability.mcp.params.empty()) {
    for (const std::string& name : capability.mcp.params) names.push_back(name);
    return names;
  }
  for (const api::ParamSpec& spec : capability.params) {
    if (spec.name != "namespace") names.push_back(spec.name);
  }
  return names;
}

OrderedJson ToolDefinition(const api::Capability& capability, bool namespace_argument) {
  std::vector<api::ParamSpec> specs = capability.params;
  for (api::ParamSpec& spec : specs) {
    auto d = capability.mcp.defaults.find(spec.name);
    if (d != capability.mcp.defaults.end()) spec.default_value = d->second;
    // The namespace is optional on MCP when the connection has one bound.
    // Large length limits tell a model nothing; they are still enforced, by the error naming the field.
    if (spec.max_length && *spec.max_length >= kQuietMaxLength) spec.max_length.reset();
    // Optional on MCP (the connection may have one bound); the name says the rest.
    if (spec.name == "namespace") spec = {.name = "namespace"};
  }
  OrderedJson input = api::InputSchema(specs, ToolParamNames(capability, namespace_argument));
  return OrderedJson{{"name", capability.mcp.tool},
                     {"title", capability.mcp.title},
                     {"description", capability.mcp.description.empty() ? capability.description
                                                                         : capability.mcp.description},
                     {"inputSchema", std::move(input)},
                     {"outputSchema", CompactOutputSchema(capability.result_schema)},
                     {"annotations", Annotations(capability.mcp.annotations)}};
}

bool ToolEnabled(const api::Capability& capability, const std::vector<std::string>& toolsets) {
  if (capability.mcp.tool.empty()) return false;
  if (capability.mcp.toolset.empty()) return true;
  return std::find(toolsets.begin(), toolsets.end(), capability.mcp.toolset) != toolsets.end();
}

std::vector<std::string> KnownToolsets() {
  std::set<std::string> names;
  for (const api::Capability& c : api::AllCapabilities()) {
    if (!c.mcp.tool.empty() && !c.mcp.toolset.empty()) names.insert(c.mcp.toolset);
  }
  return {names.begin(), names.end()};
}

OrderedJson ToolsList(const ToolListOptions& options) {
  OrderedJson tools = OrderedJson::array();
  for (const api::Capability& c : api::AllCapabilities()) {
    if (ToolEnabled(c, options.toolsets)) tools.push_back(ToolDefinition(c, options.namespace_argument));
  }
  if (options.fixtures) {
    for (const auto& tool : FixtureTools()) tools.push_back(tool);
  }
  return OrderedJson{{"tools", std::move(tools)}};
}

}  // namespace engram::mcp
