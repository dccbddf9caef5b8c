// api/registry.h — every capability of engram, and the one way to call one.
#ifndef ENGRAM_API_REGISTRY_H_
#define ENGRAM_API_REGISTRY_H_

#include <string_view>
#include <vector>

#include "api/capability.h"

namespace engram::api {

// Every capability, in a fixed order (by group, then as declared): the order of the OpenAPI
// paths and of MCP tools/list. Built once; thread-safe.
const std::vector<Capability>& AllCapabilities();

// The capability called `name`, or nullptr.
const Capability* FindCapability(std::string_view name);
// The capability whose MCP tool is `tool`, or nullptr.
const Capability* FindTool(std::string_view tool);

// Validates `args` against the capability's ParamSpecs (api/args.h, in `mode`) and runs its
// handler. Returns the handler's Reply. Errors: kInvalidArgument naming the field; whatever the
// Engine returns (status.h); kInternal when a handler throws (never expected). Thread-safe when the
// Engine is.
Result<Reply> Invoke(Engine& engine, const Capability& capability, const nlohmann::json& args,
                     ArgsMode mode, const CallContext& context = {});

}  // namespace engram::api

#endif  // ENGRAM_API_REGISTRY_H_
