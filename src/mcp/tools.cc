#include "mcp/tools.h"

#include "api/registry.h"
#include "api/schema.h"
#include "mcp/fixtures.h"

namespace engram::mcp {
namespace {

OrderedJson Annotations(const api::McpAnnotations& a) {
  return OrderedJson{{"readOnlyHint", a.read_only},
                     {"destructiveHint", a.destructive},
                     {"idempotentHint", a.idempotent},
                     {"openWorldHint", a.open_world}};
}

// A property schema reduced to its type (and, at the top level, its description).
OrderedJson Shallow(const OrderedJson& schema, bool keep_description) {
  OrderedJson out = OrderedJson::object();
  if (auto it = schema.find("type"); it != schema.end()) out["type"] = *it;
  if (keep_description) {
    if (auto it = schema.find("description"); it != schema.end()) out["description"] = *it;
  }
  return out;
}

}  // namespace

OrderedJson CompactOutputSchema(const OrderedJson& result_schema) {
  OrderedJson properties = OrderedJson::object();
  if (auto it = result_schema.find("properties"); it != result_schema.end()) {
    for (const auto& [name, schema] : it->items()) properties[name] = Shallow(schema, true);
  }
  OrderedJson out{{"type", "object"}, {"properties", std::move(properties)}};
  if (auto it = result_schema.find("required"); it != result_schema.end()) out["required"] = *it;
  return out;
}

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
    if (spec.name == "namespace") {
      spec.required = false;
      spec.description = "the namespace to use; default: the one this connection is bound to";
    }
  }
  OrderedJson input = api::InputSchema(specs, ToolParamNames(capability, namespace_argument));
  return OrderedJson{{"name", capability.mcp.tool},
                     {"title", capability.mcp.title},
                     {"description", capability.description},
                     {"inputSchema", std::move(input)},
                     {"outputSchema", CompactOutputSchema(capability.result_schema)},
                     {"annotations", Annotations(capability.mcp.annotations)}};
}

OrderedJson ToolsList(const ToolListOptions& options) {
  OrderedJson tools = OrderedJson::array();
  for (const api::Capability& c : api::AllCapabilities()) {
    if (!c.mcp.tool.empty()) tools.push_back(ToolDefinition(c, options.namespace_argument));
  }
  if (options.fixtures) {
    for (const auto& tool : FixtureTools()) tools.push_back(tool);
  }
  return OrderedJson{{"tools", std::move(tools)}};
}

}  // namespace engram::mcp
