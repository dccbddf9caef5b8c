#include "lifecycle/api_keys.h"

#include <fmt/format.h>

#include <algorithm>

#include "store/sqlite/api_key_store.h"
#include "util/sha256.h"
#include "util/utf8.h"
#include "write/event_validation.h"

namespace engram::lifecycle {
namespace {

Status ValidateInput(const ApiKeyInput& input) {
  if (input.namespaces.empty()) {
    return Status::InvalidArgument("field \"namespaces\": at least one namespace (or \"*\") is required");
  }
  for (const std::string& ns : input.namespaces) {
    if (ns != "*") ENGRAM_RETURN_IF_ERROR(ValidateNameField("namespaces", ns, true));
  }
  if (std::find(std::begin(kKeyAccessLevels), std::end(kKeyAccessLevels), input.access) ==
      std::end(kKeyAccessLevels)) {
    return Status::InvalidArgument(
        fmt::format("field \"access\": unknown value \"{}\" (expected one of: read, write, admin)",
                    TruncateCodePoints(input.access, 40)));
  }
  if (CodePointCount(input.label) > 200) return Status::InvalidArgument("field \"label\": over 200 characters");
  return Status::Ok();
}

}  // namespace

Result<CreatedApiKey> CreateApiKey(sqlite::Database& db, const ApiKeyInput& input, TimestampMs now) {
  ENGRAM_RETURN_IF_ERROR(ValidateInput(input));
  auto id = RandomHex(8);
  if (!id) return Error(id.error());
  auto secret = RandomHex(32);
  if (!secret) return Error(secret.error());
  CreatedApiKey created{.key = {.id = "ek_" + *id, .namespaces = input.namespaces, .access = input.access,
                                .label = input.label, .created_at = now}};
  created.secret = created.key.id + "." + *secret;
  sqlite::ApiKeyStore store(db);
  ENGRAM_RETURN_IF_ERROR(db.WriteTransaction([&] { return store.Insert(created.key, Sha256Hex(created.secret)); }));
  return created;
}

Result<ApiKeyInfo> RevokeApiKey(sqlite::Database& db, std::string_view id, TimestampMs now) {
  sqlite::ApiKeyStore store(db);
  ApiKeyInfo out;
  ENGRAM_RETURN_IF_ERROR(db.WriteTransaction([&]() -> Status {
    auto key = store.Get(id);
    if (!key) return key.error();
    if (!key->revoked_at) {
      ENGRAM_RETURN_IF_ERROR(store.Revoke(id, now));
      key->revoked_at = now;
    }
    out = std::move(*key);
    return Status::Ok();
  }));
  return out;
}

Result<ApiKeyInfo> VerifyApiKey(sqlite::Database& db, std::string_view secret) {
  const Status denied = Status::Unauthenticated("unknown or revoked API key");
  if (secret.size() < 20 || secret.size() > 200) return Error(denied);
  sqlite::ApiKeyStore store(db);
  auto key = store.FindActiveByHash(Sha256Hex(secret));
  if (!key) return Error(key.error().code() == StatusCode::kNotFound ? denied : key.error());
  return key;
}

}  // namespace engram::lifecycle
