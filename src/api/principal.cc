#include "api/principal.h"

#include <fmt/format.h>

namespace engram::api {
namespace {

bool Covers(Access granted, Access needed) {
  if (granted == Access::kAdmin) return true;
  if (granted == Access::kWrite) return needed != Access::kAdmin;
  return needed == Access::kRead;
}

}  // namespace

Status Authorize(const Principal& who, const Capability& capability, std::string_view namespace_name) {
  if (capability.namespaced && namespace_name.empty()) {
    return Status::InvalidArgument("field \"namespace\": required (an empty namespace never means all of them)");
  }
  if (who.owner) return Status::Ok();
  if (capability.access == Access::kAdmin || !capability.namespaced) {
    if (who.admin) return Status::Ok();
    return Status::PermissionDenied(fmt::format("\"{}\" needs an admin key", capability.name));
  }
  for (std::string_view name : {namespace_name, std::string_view("*")}) {
    auto it = who.grants.find(std::string(name));
    if (it != who.grants.end() && Covers(it->second, capability.access)) return Status::Ok();
  }
  return Status::PermissionDenied(fmt::format("this key may not {} namespace \"{}\"",
                                              capability.access == Access::kRead ? "read" : "write", namespace_name));
}

}  // namespace engram::api
