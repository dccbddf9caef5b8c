#include "write/event_validation.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "util/hash.h"
#include "util/time.h"
#include "util/ulid.h"
#include "util/utf8.h"

namespace engram {
namespace {

Status FieldError(std::string_view field, std::string_view problem) {
  return Status::InvalidArgument(fmt::format("field \"{}\": {}", field, problem));
}

bool HasControlCharacter(std::string_view s) {
  return std::any_of(s.begin(), s.end(),
                     [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
}

}  // namespace

Status ValidateNameField(std::string_view field, std::string_view value, bool required) {
  if (value.empty()) {
    return required ? FieldError(field, "is required and must not be empty") : Status::Ok();
  }
  size_t bad = 0;
  if (!IsValidUtf8(value, &bad)) {
    return FieldError(field, fmt::format("is not valid UTF-8 (byte {})", bad));
  }
  if (IsBlank(value)) return FieldError(field, "must not be blank");
  if (HasControlCharacter(value)) return FieldError(field, "must not contain control characters");
  if (CodePointCount(value) > kMaxNameChars) {
    return FieldError(field, fmt::format("is longer than {} characters", kMaxNameChars));
  }
  return Status::Ok();
}

namespace {

Status CheckName(std::string_view field, std::string_view value, bool required) {
  return ValidateNameField(field, value, required);
}

template <size_t N>
Status CheckOneOf(std::string_view field, std::string_view value, const char* const (&allowed)[N]) {
  for (const char* a : allowed) {
    if (value == a) return Status::Ok();
  }
  std::string list;
  for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
  return FieldError(field, fmt::format("unknown value \"{}\" (expected one of: {})",
                                       TruncateCodePoints(value, 40), list));
}

std::string DefaultOrigin(std::string_view role) {
  if (role == "user") return "direct_user";
  if (role == "assistant") return "agent";
  if (role == "tool") return "external";
  return "system";
}

}  // namespace

Result<sqlite::EventRow> ValidateEventInput(const EventInput& in, TimestampMs now) {
  ENGRAM_RETURN_IF_ERROR(CheckName("namespace", in.namespace_name, true));
  ENGRAM_RETURN_IF_ERROR(CheckName("session_id", in.session_id, true));
  if (in.role.empty()) return Error(FieldError("role", "is required"));
  ENGRAM_RETURN_IF_ERROR(CheckOneOf("role", in.role, kRoles));

  size_t bad = 0;
  if (!IsValidUtf8(in.content, &bad)) {
    return Error(FieldError("content", fmt::format("is not valid UTF-8 (byte {})", bad)));
  }
  if (in.content.find('\0') != std::string::npos) {
    return Error(FieldError("content", "contains a NUL byte"));
  }
  if (IsBlank(in.content)) return Error(FieldError("content", "is empty"));
  if (in.content.size() > kMaxContentBytes) {
    return Error(FieldError("content", fmt::format("is {} bytes; the limit is {}",
                                                   in.content.size(), kMaxContentBytes)));
  }
  ENGRAM_RETURN_IF_ERROR(CheckName("speaker", in.speaker, false));
  ENGRAM_RETURN_IF_ERROR(CheckName("idempotency_key", in.idempotency_key, false));
  ENGRAM_RETURN_IF_ERROR(CheckName("parent_session_id", in.parent_session_id, false));
  ENGRAM_RETURN_IF_ERROR(CheckName("session_source", in.session_source, false));
  ENGRAM_RETURN_IF_ERROR(CheckName("tool_name", in.tool_name, false));
  ENGRAM_RETURN_IF_ERROR(CheckName("tool_call_id", in.tool_call_id, false));
  if (!in.session_title.empty()) {
    if (!IsValidUtf8(in.session_title)) return Error(FieldError("session_title", "is not valid UTF-8"));
    if (CodePointCount(in.session_title) > 1000) {
      return Error(FieldError("session_title", "is longer than 1000 characters"));
    }
  }
  if (!in.session_kind.empty()) ENGRAM_RETURN_IF_ERROR(CheckOneOf("session_kind", in.session_kind, kSessionKinds));
  if (!in.origin_class.empty()) ENGRAM_RETURN_IF_ERROR(CheckOneOf("origin_class", in.origin_class, kOriginClasses));

  sqlite::EventRow row;
  Event& e = row.event;
  if (in.occurred_at.empty()) {
    e.occurred_at = now;
  } else {
    auto t = ParseLocalTimestamp(in.occurred_at);
    if (!t) return Error(FieldError("occurred_at", t.error().message()));
    e.occurred_at = t->utc_ms;
    e.utc_offset_minutes = t->utc_offset_minutes;
  }

  if (!in.metadata_json.empty()) {
    if (in.metadata_json.size() > kMaxMetadataBytes) {
      return Error(FieldError("metadata", fmt::format("is larger than {} bytes", kMaxMetadataBytes)));
    }
    if (!IsValidUtf8(in.metadata_json)) return Error(FieldError("metadata", "is not valid UTF-8"));
    auto parsed = nlohmann::json::parse(in.metadata_json, nullptr, /*allow_exceptions=*/false);
    if (parsed.is_discarded()) return Error(FieldError("metadata", "is not valid JSON"));
    if (!parsed.is_object()) return Error(FieldError("metadata", "must be a JSON object"));
    if (parsed.contains("image_caption") && !parsed["image_caption"].is_string()) {
      return Error(FieldError("metadata", "\"image_caption\" must be a string"));
    }
    // Stored compact and canonical (keys sorted) so equal metadata compares equal.
    e.metadata_json = parsed.empty() ? "" : parsed.dump();
  }

  e.namespace_name = in.namespace_name;
  e.session_id = in.session_id;
  e.role = in.role;
  e.speaker = in.speaker;
  e.content = in.content;
  e.recorded_at = now;
  e.origin_class = in.origin_class.empty() ? DefaultOrigin(in.role) : in.origin_class;
  e.content_hash = ContentHash(in.content);
  e.tool_name = in.tool_name;
  e.tool_call_id = in.tool_call_id;
  if (!in.idempotency_key.empty()) {
    e.idempotency_key = in.idempotency_key;
  } else {
    // Same session, role, speaker, time and content → the same event (B12: a replayed import
    // without keys adds nothing). The unit separator keeps fields from running together.
    // Without a time, the time is not part of the identity either: a replayed file without keys
    // or times must not duplicate (B12), so an identical message in the same session is a replay.
    std::string when = in.occurred_at.empty() ? std::string("-") : std::to_string(e.occurred_at);
    e.idempotency_key = "auto:" + ContentHash(fmt::format("{}\x1f{}\x1f{}\x1f{}\x1f{}", in.session_id, in.role,
                                                          in.speaker, when, in.content));
  }
  e.id = NewUlid(now);

  row.session_kind = in.session_kind.empty() ? "interactive" : in.session_kind;
  row.session_source = in.session_source;
  row.session_title = in.session_title;
  row.parent_session_id = in.parent_session_id;
  row.indexed_text = IndexedText(e);
  return row;
}

std::string IndexedText(const Event& e) {
  std::string text;
  if (!e.speaker.empty()) text = e.speaker + ": ";
  text += e.content;
  if (!e.metadata_json.empty()) {
    auto meta = nlohmann::json::parse(e.metadata_json, nullptr, false);
    if (meta.is_object() && meta.contains("image_caption") && meta["image_caption"].is_string()) {
      text += " [image: " + meta["image_caption"].get<std::string>() + "]";
    }
  }
  return text;
}

}  // namespace engram
