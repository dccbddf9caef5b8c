#include "api/registry.h"

#include <exception>

#include "api/groups.h"

namespace engram::api {
namespace {

std::vector<Capability> Build() {
  std::vector<Capability> all;
  for (auto group : {EventCapabilities, RecallCapabilities, ClaimCapabilities, ForgetCapabilities, WorkingCapabilities,
                     CuratedCapabilities, ExperienceCapabilities, AdminCapabilities, AllNamespacesCapabilities}) {
    for (Capability& c : group()) all.push_back(std::move(c));
  }
  return all;
}

}  // namespace

std::string_view AccessName(Access access) {
  switch (access) {
    case Access::kRead: return "read";
    case Access::kWrite: return "write";
    case Access::kAdmin: return "admin";
  }
  return "admin";
}

const std::vector<Capability>& AllCapabilities() {
  static const std::vector<Capability> all = Build();
  return all;
}

const Capability* FindCapability(std::string_view name) {
  for (const Capability& c : AllCapabilities()) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

const Capability* FindTool(std::string_view tool) {
  for (const Capability& c : AllCapabilities()) {
    if (!c.mcp.tool.empty() && c.mcp.tool == tool) return &c;
  }
  return nullptr;
}

Result<Reply> Invoke(Engine& engine, const Capability& capability, const nlohmann::json& args, ArgsMode mode,
                     const CallContext& context) {
  auto parsed = ParseArgs(capability.params, args, mode);
  if (!parsed) return Error(parsed.error());
  try {
    return capability.handler(engine, *parsed, context);
  } catch (const std::exception& e) {
    return Error(Status::Internal(std::string("capability \"") + capability.name + "\": " + e.what()));
  }
}

}  // namespace engram::api
