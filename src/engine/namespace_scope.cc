#include "engine/namespace_scope.h"

#include <fmt/format.h>

#include "write/event_validation.h"

namespace engram {

Status NamespaceRequired() {
  return Status::InvalidArgument(
      "field \"namespace\": is required and must not be empty (an empty namespace never means every "
      "namespace: ask for all_namespaces explicitly)");
}

Status ValidateNamespaceScope(std::string_view namespace_name, bool all_namespaces) {
  if (all_namespaces) {
    if (namespace_name.empty()) return Status::Ok();
    return Status::InvalidArgument(fmt::format(
        "field \"namespace\": \"{}\" and all_namespaces exclude each other: give one", namespace_name));
  }
  if (namespace_name.empty()) return NamespaceRequired();
  return ValidateNameField("namespace", namespace_name, true);
}

}  // namespace engram
