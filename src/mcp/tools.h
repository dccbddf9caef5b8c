// mcp/tools.h — the MCP tool list, generated from the capability registry (api/registry.h): the
// capabilities with an McpBinding, in registry order, each with its title, description,
// inputSchema (the binding's argument subset, with its MCP defaults), a compact outputSchema
// (type object) and all four annotations.
#ifndef ENGRAM_MCP_TOOLS_H_
#define ENGRAM_MCP_TOOLS_H_

#include <string>
#include <vector>

#include "api/capability.h"
#include "codec/json_codec.h"

namespace engram::mcp {

struct ToolListOptions {
  // Add a "namespace" argument to every namespaced tool: the connection has no namespace bound,
  // or may use other namespaces than its own.
  bool namespace_argument = false;
  bool fixtures = false;  // append the conformance-suite fixture tools (mcp/fixtures.h)
  // Opt-in toolsets to list besides the default tools (McpBinding::toolset), e.g. {"experience"}.
  std::vector<std::string> toolsets;
};

// True when the capability is an MCP tool that a connection with these toolsets offers: a default
// tool (no toolset), or one of an enabled toolset.
bool ToolEnabled(const api::Capability& capability, const std::vector<std::string>& toolsets);

// The opt-in toolsets the registry has, sorted ({"experience"}): what `--toolsets` accepts.
std::vector<std::string> KnownToolsets();

// One tool definition: {name, title, description, inputSchema, outputSchema, annotations}.
OrderedJson ToolDefinition(const api::Capability& capability, bool namespace_argument);

// {"tools": [...]}: deterministic (registry order, then the fixtures), the same for every
// connection with the same options. Thread-safe.
OrderedJson ToolsList(const ToolListOptions& options);

// The capability's result schema as MCP lists it: {"type": "object"}. structuredContent conforms
// to the full result schema, which the OpenAPI document carries; listing it here would double
// tools/list past its 6 KB budget (the official memory server spends 10.7 KB, mostly on these).
OrderedJson CompactOutputSchema(const OrderedJson& result_schema);

// The arguments a model sees for `capability`: its McpBinding params (all when empty), with the
// MCP defaults applied, "namespace" first when `namespace_argument`.
std::vector<std::string> ToolParamNames(const api::Capability& capability, bool namespace_argument);

}  // namespace engram::mcp

#endif  // ENGRAM_MCP_TOOLS_H_
