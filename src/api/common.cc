#include "api/common.h"

#include <fmt/format.h>

#include <charconv>

namespace engram::api {

ParamSpec NamespaceParam() {
  return {.name = "namespace",
          .type = ParamType::kString,
          .description = "the namespace (one user, agent or project); required, never \"all\"",
          .required = true,
          .max_length = kMaxIdLength,
          .non_blank = true,
          .in = ParamIn::kPath};
}

ParamSpec OptionalNamespaceParam(ParamIn in) {
  return {.name = "namespace",
          .description = "only this namespace (or all_namespaces: true for every one)",
          .max_length = kMaxIdLength,
          .non_blank = true,
          .in = in};
}

ParamSpec AllNamespacesParam() {
  return {.name = "all_namespaces",
          .type = ParamType::kBoolean,
          .description = "true: every namespace (never implied by a missing or empty namespace)",
          .default_value = false,
          .in = ParamIn::kQuery};
}

Result<NamespaceScope> ScopeOf(const Args& args) {
  auto ns = args.OptString("namespace");
  const bool all = args.Bool("all_namespaces");
  if (ns && all) {
    return Error(Status::InvalidArgument("field \"namespace\": give a namespace or all_namespaces, not both"));
  }
  if (all) return NamespaceScope::All();
  if (!ns) {
    return Error(Status::InvalidArgument(
        "field \"namespace\": required: name one, or set all_namespaces (the CLI's --all-namespaces) for "
        "every namespace; never implied"));
  }
  return NamespaceScope(*ns);
}

ParamSpec IdParam(const char* description) {
  return {.name = "id", .description = description, .required = true, .max_length = kMaxIdLength, .in = ParamIn::kPath};
}

ParamSpec LimitParam(int64_t default_value, int64_t maximum) {
  return {.name = "limit",
          .type = ParamType::kInteger,
          .description = fmt::format("how many items to return, 1–{}", maximum),
          .minimum = 1,
          .maximum = maximum,
          .default_value = default_value,
          .in = ParamIn::kQuery};
}

ParamSpec CursorParam() {
  return {.name = "cursor",
          .description = "the next_cursor of the previous page; omit for the first page",
          .max_length = 64,
          .in = ParamIn::kQuery};
}

std::string MakeCursor(int64_t position) { return fmt::format("c1.{:x}", position); }

Result<int64_t> ParseCursor(std::string_view cursor) {
  int64_t position = 0;
  if (cursor.rfind("c1.", 0) == 0 && cursor.size() > 3) {
    auto [end, ec] = std::from_chars(cursor.data() + 3, cursor.data() + cursor.size(), position, 16);
    if (ec == std::errc() && end == cursor.data() + cursor.size() && position >= 0) return position;
  }
  return Error(Status::InvalidArgument(
      fmt::format("field \"cursor\": \"{}\" is not a cursor this server gave (pass next_cursor as it is)", cursor)));
}

// NAME_MAX of Linux file systems (ext4, xfs, btrfs): a longer name is the caller's error.
constexpr size_t kMaxFileNameBytes = 255;

Result<std::string> ResolveFilePath(const CallContext& context, const std::string& path) {
  if (path.empty()) return Error(Status::InvalidArgument("field \"path\": required"));
  // A NUL byte would cut the name short in every file system call (JSON can carry one: \u0000).
  if (path.find('\0') != std::string::npos) {
    return Error(Status::InvalidArgument("field \"path\": contains a NUL character"));
  }
  if (context.file_root.empty()) return path;
  if (path.front() == '/') {
    return Error(Status::InvalidArgument(
        fmt::format("field \"path\": \"{}\" is absolute; name a file inside the server's backup folder", path)));
  }
  for (size_t start = 0; start <= path.size();) {
    size_t slash = path.find('/', start);
    if (slash == std::string::npos) slash = path.size();
    if (path.compare(start, slash - start, "..") == 0 && slash - start == 2) {
      return Error(Status::InvalidArgument("field \"path\": \"..\" may not leave the server's backup folder"));
    }
    if (slash - start > kMaxFileNameBytes) {
      return Error(Status::InvalidArgument(
          fmt::format("field \"path\": a name is longer than {} bytes (the file system's limit)", kMaxFileNameBytes)));
    }
    start = slash + 1;
  }
  return context.file_root + "/" + path;
}

Status NotInNamespace(std::string_view kind, std::string_view id, std::string_view namespace_name) {
  return Status::NotFound(fmt::format("no {} {} in namespace \"{}\"", kind, id, namespace_name));
}

OrderedJson EventSchema() {
  return Object({{"id", StringType("ULID")},
                 {"namespace", StringType()},
                 {"session_id", StringType()},
                 {"role", StringType()},
                 {"speaker", StringType()},
                 {"content", StringType()},
                 {"occurred_at", StringType("valid time, ISO-8601 UTC")},
                 {"recorded_at", StringType("recorded time, ISO-8601 UTC")},
                 {"origin_class", StringType()},
                 {"content_hash", StringType("XXH3-128, 32 hex digits")},
                 {"idempotency_key", StringType()},
                 {"metadata", AnyObject()}},
                {"id", "namespace", "session_id", "role", "content", "occurred_at", "recorded_at"});
}

OrderedJson ClaimSchema() {
  return Object({{"id", StringType("ULID")},
                 {"namespace", StringType()},
                 {"subject", StringType()},
                 {"predicate", StringType()},
                 {"slot", StringType()},
                 {"value", StringType()},
                 {"text", StringType("the claim as a readable statement")},
                 {"qualifiers", ArrayOf(StringType())},
                 {"status", StringType("active, superseded, disputed, expired, archived, retracted")},
                 {"valid_from", StringType()},
                 {"valid_to", NullableString()},
                 {"recorded_from", StringType()},
                 {"recorded_to", NullableString()},
                 {"supersedes_id", NullableString()},
                 {"superseded_by_id", NullableString()},
                 {"confidence", NumberType()},
                 {"evidence", ArrayOf(AnyObject("an event the claim was read from"))}},
                {"id", "namespace", "subject", "predicate", "value", "text", "status", "valid_from"});
}

OrderedJson RecallPacketSchema() {
  OrderedJson item = Object({{"type", StringType("event or claim")},
                             {"id", StringType()},
                             {"text", StringType()},
                             {"score", NumberType()},
                             {"feedback_id", StringType("pass to feedback to rate this item")}},
                            {"type", "id", "text", "score"});
  return Object({{"version", IntegerType("context packet version")},
                 {"namespace", StringType("the namespace searched")},
                 {"answerability", StringType()},
                 {"intent", StringType()},
                 {"evidence_strength", NumberType()},
                 {"used_tokens", IntegerType()},
                 {"truncated", BooleanType("an item was left out to stay under the token budget")},
                 {"next_cursor", NullableString("pass as cursor for the items ranked after these; null when none")},
                 {"items", ArrayOf(std::move(item))},
                 {"terms", ArrayOf(StringType())},
                 {"took_ms", NumberType()}},
                {"version", "namespace", "items", "truncated"});
}

OrderedJson TombstoneSchema() {
  return Object({{"id", StringType()}, {"object_type", StringType()}, {"object_id", StringType()}},
                {"id", "object_type", "object_id"});
}

}  // namespace engram::api
