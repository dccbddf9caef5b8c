// engine/namespace_scope.h — the one rule for what a call of the Engine acts on: a namespace it
// names, or — only when asked for explicitly — every namespace. An empty or blank name is never
// "everything" (B27).
#ifndef ENGRAM_ENGINE_NAMESPACE_SCOPE_H_
#define ENGRAM_ENGINE_NAMESPACE_SCOPE_H_

#include <string_view>

#include "engram/status.h"

namespace engram {

// OK when exactly one of `namespace_name` (a valid name: 1–200 characters, UTF-8, not blank, no
// control characters) and `all_namespaces` is given. Errors: kInvalidArgument naming field
// "namespace" (missing, empty, blank, malformed, or given together with all_namespaces).
// Thread-safe.
Status ValidateNamespaceScope(std::string_view namespace_name, bool all_namespaces);

// The error for a namespace that is missing or empty where one is required.
Status NamespaceRequired();

}  // namespace engram

#endif  // ENGRAM_ENGINE_NAMESPACE_SCOPE_H_
