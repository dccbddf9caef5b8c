// api/common.h — pieces every capability group uses: the standard arguments (namespace, limit,
// cursor, id), the result schemas of the public types, and namespace checks for id lookups.
#ifndef ENGRAM_API_COMMON_H_
#define ENGRAM_API_COMMON_H_

#include <string>
#include <string_view>

#include "api/capability.h"
#include "api/schema.h"

namespace engram::api {

// Limits shared with Engine's validation (engine.h): namespace and session ids are 1–200
// characters; a query is at most 64 KiB.
constexpr int64_t kMaxIdLength = 200;
constexpr int64_t kMaxQueryLength = 65536;
constexpr int64_t kMaxPageSize = 100;  // cursor-paged lists: 1–100 items a page (REST convention)

ParamSpec NamespaceParam();  // required, in the REST path
ParamSpec IdParam(const char* description);  // required, in the REST path as {id}
ParamSpec LimitParam(int64_t default_value, int64_t maximum);  // query parameter
ParamSpec CursorParam();  // optional opaque cursor, query parameter

// A namespace that may be left out where every namespace can be asked for explicitly (admin
// capabilities: export, maintain): given, it must not be empty or blank. `in` is where REST takes
// it from.
ParamSpec OptionalNamespaceParam(ParamIn in);
// all_namespaces: true asks for every namespace; the only way to (B27).
ParamSpec AllNamespacesParam();
// The scope OptionalNamespaceParam and AllNamespacesParam name: exactly one of them.
// Errors: kInvalidArgument naming field "namespace" (neither, or both).
Result<NamespaceScope> ScopeOf(const Args& args);

// Opaque cursors: "c1." + the hex of a position. ParseCursor errors: kInvalidArgument naming
// field "cursor".
std::string MakeCursor(int64_t position);
Result<int64_t> ParseCursor(std::string_view cursor);

// `path` as a capability may open it (CallContext::file_root): unchanged when there is no root,
// else resolved under the root. Errors: kInvalidArgument naming field "path" (empty, absolute,
// or with a ".." component under a root).
Result<std::string> ResolveFilePath(const CallContext& context, const std::string& path);

// A not-found error for an id looked up in a namespace it does not belong to (the message never
// says where it is).
Status NotInNamespace(std::string_view kind, std::string_view id, std::string_view namespace_name);

// Result schemas of the public types, as codec/json_codec.h writes them.
OrderedJson EventSchema();
OrderedJson ClaimSchema();
OrderedJson RecallPacketSchema();
OrderedJson TombstoneSchema();

// JSON of admin results the CLI also writes without a capability (restore, restore --verify-only):
// {namespaces, sessions, tombstones, events, claims} (lines of a dump); a backup manifest
// {schema_version, created_at (ISO-8601 UTC), engram_version, file_bytes, file_xxh3, ...}; and
// {verified: path, manifest}.
OrderedJson DumpCountsToJson(const DumpCounts& c);
OrderedJson ManifestToJson(const BackupManifest& m);
OrderedJson VerifiedBackupToJson(const std::string& path, const BackupManifest& m);

}  // namespace engram::api

#endif  // ENGRAM_API_COMMON_H_
