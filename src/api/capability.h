// api/capability.h — one description of each thing engram can do, shared by every face.
//
// A Capability is written once: its arguments (ParamSpecs, with their validation), its result
// shape (a JSON Schema), the access it needs, and the handler that calls the Engine. The CLI, the
// REST server and the MCP server are thin faces over it: they gather arguments into a JSON object,
// call Invoke (api/registry.h) and render the reply. The OpenAPI document and the MCP tool list are
// generated from these descriptions (api/schema.h), so every face names the same fields, applies
// the same limits and reports the same errors (StatusCode → HTTP / JSON-RPC / exit code, status.h).
#ifndef ENGRAM_API_CAPABILITY_H_
#define ENGRAM_API_CAPABILITY_H_

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "api/args.h"
#include "codec/json_codec.h"
#include "engram/engine.h"

namespace engram::api {

// What a caller must be granted (on the namespace, for namespaced capabilities) to call it.
// kAdmin capabilities act on the whole file (doctor, backup, maintain of every namespace).
enum class Access { kRead, kWrite, kAdmin };
std::string_view AccessName(Access access);  // "read", "write", "admin"

// Who is calling, for audit rows and logs.
struct CallContext {
  std::string actor = "api";  // "cli", "rest:<key id>", "mcp:<client name>"
  std::string request_id;     // echoed in errors; "" when the face has none
  // When not empty, a file path argument (backup, verify_backup) names a file inside this folder:
  // a relative path without ".." components, resolved under it. A server sets it, so that a
  // caller can never make it read or write elsewhere on its file system; the CLI leaves it empty.
  std::string file_root;
};

// What a handler returns: a JSON object, or (for export) a body of another media type.
struct Reply {
  OrderedJson body = OrderedJson::object();
  std::string raw;           // when not empty, sent instead of `body` (e.g. JSONL)
  std::string content_type;  // of `raw` ("application/x-ndjson")
  int http_status = 200;     // 200, 201 (created) or 202 (accepted)
};

using Handler = std::function<Result<Reply>(Engine&, const Args&, const CallContext&)>;

struct RestBinding {
  std::string method;  // GET, POST, DELETE
  std::string path;    // "/v1/namespaces/{namespace}/recall"; {name} segments are ParamIn::kPath
};

// MCP tool annotations (MCP 2025-06-18 ToolAnnotations): all four are always sent.
struct McpAnnotations {
  bool read_only = false;
  bool destructive = false;
  bool idempotent = false;
  bool open_world = false;
};

struct McpBinding {
  std::string tool;   // tool name ("memory_recall"); "" = not an MCP tool
  std::string title;  // human title
  // The description a model reads in tools/list, when shorter than Capability::description
  // (tools/list stays under 6 KB); "" = the capability's.
  std::string description;
  McpAnnotations annotations;
  // The arguments the tool exposes, in order (a subset of the capability's, to keep tools/list
  // small); empty = all. "namespace" is added by the MCP face when it is not bound.
  std::vector<std::string> params;
  // Defaults that differ on MCP (e.g. recall's token budget), by argument name.
  std::map<std::string, nlohmann::json> defaults;
  // "" = a default tool, always listed. Otherwise the opt-in toolset the tool belongs to
  // ("experience"): listed and callable only on a connection that enables it (`engram mcp
  // --toolsets experience`), so that tools/list stays within its budget for everyone else.
  std::string toolset;
};

struct Capability {
  std::string name;         // snake_case, unique: "recall", "list_claims"
  std::string group;        // CLI command group / OpenAPI tag: "events", "claims", ...
  std::string description;  // one to three sentences: what it does, when to call it, its cost
  Access access = Access::kRead;
  bool namespaced = true;   // takes a required "namespace" argument (never "all namespaces")
  std::vector<ParamSpec> params;  // "namespace" first when namespaced
  OrderedJson result_schema;      // JSON Schema of Reply::body (type object)
  std::string raw_media_type;     // the media type of Reply::raw when the handler sends one ("" = never)
  Handler handler;
  RestBinding rest;
  McpBinding mcp;
};

}  // namespace engram::api

#endif  // ENGRAM_API_CAPABILITY_H_
