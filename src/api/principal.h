// api/principal.h — who is calling a server, what they are granted, and the one authorization
// rule every face applies (REST and MCP over HTTP; the CLI and stdio MCP run as the file's owner).
#ifndef ENGRAM_API_PRINCIPAL_H_
#define ENGRAM_API_PRINCIPAL_H_

#include <map>
#include <string>
#include <string_view>

#include "api/capability.h"

namespace engram::api {

struct Principal {
  std::string key_id;  // the API key's public id; "" for the local owner
  // Namespace name → the highest access granted on it (kWrite implies kRead). The name "*"
  // grants every namespace; it is only ever written explicitly.
  std::map<std::string, Access> grants;
  bool admin = false;  // may call kAdmin capabilities (whole-file operations)
  bool owner = false;  // the local owner (no keys configured, loopback): everything

  static Principal Owner() { return {.admin = true, .owner = true}; }
};

// Whether `who` may call `capability` on `namespace_name` ("" for a capability that is not
// namespaced). Errors: kPermissionDenied naming the access and the namespace (never listing what
// is granted). A namespaced capability with an empty namespace is kInvalidArgument: an empty
// scope never means "everything".
Status Authorize(const Principal& who, const Capability& capability, std::string_view namespace_name);

}  // namespace engram::api

#endif  // ENGRAM_API_PRINCIPAL_H_
