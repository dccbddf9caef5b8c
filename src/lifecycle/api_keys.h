// lifecycle/api_keys.h — creating, revoking and verifying the servers' API keys (the rules behind
// Engine::CreateApiKey and friends; store/sqlite/api_key_store.h holds the rows).
//
// A secret is "<id>.<64 hex digits>" (32 random bytes); only its SHA-256 is stored. Not
// thread-safe (the Engine serialises calls).
#ifndef ENGRAM_LIFECYCLE_API_KEYS_H_
#define ENGRAM_LIFECYCLE_API_KEYS_H_

#include <string_view>

#include "engram/status.h"
#include "engram/types.h"
#include "store/sqlite/database.h"

namespace engram::lifecycle {

// Validates `input` and stores a new key at `now` (ms UTC). Errors: kInvalidArgument naming the
// field (namespaces, access, label); kBusy, kIOError.
Result<CreatedApiKey> CreateApiKey(sqlite::Database& db, const ApiKeyInput& input, TimestampMs now);
// Revokes by id (idempotent). Errors: kNotFound, kBusy, kIOError.
Result<ApiKeyInfo> RevokeApiKey(sqlite::Database& db, std::string_view id, TimestampMs now);
// The active key of this secret. Errors: kUnauthenticated (one message for every reason).
Result<ApiKeyInfo> VerifyApiKey(sqlite::Database& db, std::string_view secret);

}  // namespace engram::lifecycle

#endif  // ENGRAM_LIFECYCLE_API_KEYS_H_
