// store/sqlite/api_key_store.h — the servers' API keys (table api_keys, migration 10): a public
// id, the SHA-256 of the secret (never the secret), the access granted and its namespaces.
//
// Callers own transactions, as with EventStore. Not thread-safe (the Engine serialises calls).
#ifndef ENGRAM_STORE_SQLITE_API_KEY_STORE_H_
#define ENGRAM_STORE_SQLITE_API_KEY_STORE_H_

#include <string>
#include <string_view>
#include <vector>

#include "engram/status.h"
#include "engram/types.h"
#include "store/sqlite/database.h"

namespace engram::sqlite {

class ApiKeyStore {
 public:
  explicit ApiKeyStore(Database& db) : db_(db) {}

  // Inserts a key whose secret hashes to `secret_hash` (64 hex digits). Errors: from SQLite.
  Status Insert(const ApiKeyInfo& key, std::string_view secret_hash);
  // Every key by creation order (revoked ones only with include_revoked).
  Result<std::vector<ApiKeyInfo>> List(bool include_revoked);
  // The key with this id. Errors: kNotFound.
  Result<ApiKeyInfo> Get(std::string_view id);
  // The unrevoked key whose secret hashes to `secret_hash`. Errors: kNotFound.
  Result<ApiKeyInfo> FindActiveByHash(std::string_view secret_hash);
  // Sets revoked_at (ms UTC) when not yet set.
  Status Revoke(std::string_view id, TimestampMs now);

 private:
  Result<std::vector<ApiKeyInfo>> Rows(Statement& st);
  Database& db_;
};

}  // namespace engram::sqlite

#endif  // ENGRAM_STORE_SQLITE_API_KEY_STORE_H_
